"""What every `engram` command shares: the Typer app, the consoles, the --db option, and opening the store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

import engram
from engram import EngramError, Hit, Memory, MemoryRecord
from engram.config import Settings
from engram.interfaces.cli.terminal import error

app = typer.Typer(
    help="Engram: a local-first memory engine for AI agents.\n\nExample: engram remember 'I prefer dark mode'",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)
_state: dict[str, Any] = {"db": None}
IdArgument = Annotated[
    str, typer.Argument(help="the memory's id, or its first characters as `engram list` shows them")
]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="database file, or postgresql://user:pass@host/db for PostgreSQL (default: $ENGRAM_HOME/memories.db)",
        show_default=False,
    ),
]


def _version(value: bool) -> None:
    if value:
        out.print(f"engram {engram.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    db: DbOption = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """Engram stores memories with their kind and scope and recalls them by meaning and by words."""
    _state["db"] = db


@contextmanager
def opened(db: str | Path | None = None, **kwargs: Any) -> Iterator[Memory]:
    """Open the store; Engram errors become a one-line message and exit code 1 (2 for bad input)."""
    settings = Settings()
    try:
        with Memory(db or _state["db"] or settings.db_path, settings=settings, **kwargs) as memory:
            yield memory
    except EngramError as exc:
        error(err, exc)
        code = 2 if isinstance(exc, ValueError) else 1
        raise typer.Exit(code) from None


def _record_dict(record: MemoryRecord) -> dict[str, Any]:
    return record.model_dump(mode="json")


def _hit_dict(hit: Hit, explain: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": hit.record.id,
        "kind": hit.record.kind.value,
        "scope": hit.record.scope.value,
        "content": hit.record.content,
        "score": round(hit.score, 4),
    }
    if explain:
        data["components"] = {k: round(v, 6) for k, v in hit.components.items()}
        data["why"] = hit.why
    return data


def explain_line(hit: Hit) -> str:
    """Every score component of a hit on one line."""
    c = hit.components
    return (
        f"score {c['score']:.3f} = (vector {c['vector']:.3f}, lexical {c['lexical']:.3f} [bm25 {c['bm25']:.2f}], "
        f"importance {c['importance']:.3f}, recency {c['recency']:.3f}, usage {c['usage']:.3f}, "
        f"context {c['context']:.3f}, episode {c['episode']:.3f}, time {c['time']:.3f}) -> base "
        f"{c['base']:.3f} x validity {c['validity']:.2f} - negative {c['negative_penalty']:.2f}; "
        f"{hit.why}; id {hit.record.id}"
    )
