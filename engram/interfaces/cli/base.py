"""What every `engram` command shares: the Typer app, the consoles, the --db option, and opening the store."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import pydantic
import typer
import typer.core
from rich.console import Console

import engram
from engram import EngramError, Hit, Memory, MemoryRecord
from engram.config import Settings, locate
from engram.interfaces.cli.terminal import error, json_shown
from engram.interfaces.tenants import private_dir


def _flag_type(self: typer.core.TyperOption, ctx: Any) -> str | None:
    """A plain flag (--json, --yes) takes no value: its help row shows no `<bool>` type."""
    return None if self.is_flag else _option_type(self, ctx)


_option_type = typer.core.TyperOption.display_type_rich
typer.core.TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign]


def _one_value(self: Any, ctx: Any) -> str:
    """What one value of a parameter is: `--tag <str>` (repeated for more), `files... <Path>`; a type shown as
    `<list[str]>` read as if it took a list."""
    shown: str = _display_type(self, ctx)
    return re.sub(r"^<list\[(.*)\]>$", r"<\1>", shown)


_display_type = typer.core._TyperParameter.display_type
typer.core._TyperParameter.display_type = _one_value  # type: ignore[method-assign]


def _summary(*, help_text: str, markup_mode: Any) -> Any:
    """A command's line in `engram --help`: its help's first paragraph as one flowing line (rich mode kept the
    docstring's line breaks, so the list broke mid-sentence)."""
    first, sep, rest = inspect.cleandoc(help_text).partition("\n\n")
    return _command_help(help_text=" ".join(first.split("\n")) + sep + rest, markup_mode=markup_mode)


_command_help: Any = None


def _with_summaries(format_help: Any) -> Any:
    """Typer imports its rich help (rich's Markdown, pygments, rich's tracebacks: 3.7 MB, in every command and
    every server) only to show help; the summary lines are set up then too, not on import."""

    def shown(self: typer.core.TyperGroup, ctx: Any, formatter: Any) -> None:
        global _command_help
        import typer.rich_utils

        if typer.rich_utils._make_command_help is not _summary:
            _command_help = typer.rich_utils._make_command_help
            typer.rich_utils._make_command_help = _summary
        format_help(self, ctx, formatter)

    return shown


typer.core.TyperGroup.format_help = _with_summaries(typer.core.TyperGroup.format_help)  # type: ignore[method-assign]

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
JsonOption = Annotated[
    bool, typer.Option("--json", help="print JSON, for scripts, instead of a table (no progress bar)")
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
    _check_environment()


def _check_environment() -> None:
    """An ENGRAM_* variable that holds no value its setting takes is named, with what it holds, before any
    command runs: each command read the settings on its own and failed with pydantic's traceback."""
    try:
        Settings()
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        name = f"ENGRAM_{str(first['loc'][0]).upper()}" if first["loc"] else "an ENGRAM_* variable"
        said = first["msg"][:1].lower() + first["msg"][1:]
        error(err, f"{name}: {said}, not {str(first.get('input'))[:60]!r}")
        raise typer.Exit(2) from None


def where(db: str | Path | None = None) -> str | Path:
    """The database a command opens: its own, --db, else the default under $ENGRAM_HOME."""
    return db or _state["db"] or Settings().db_path


@contextmanager
def opened(db: str | Path | None = None, *, read: bool = False, **kwargs: Any) -> Iterator[Memory]:
    """Open the store; Engram errors become a one-line message and exit code 1 (2 for bad input). A `read`
    command opens only a database that exists: a mistyped --db would otherwise be created, folders and all,
    and answer "nothing found"."""
    settings = Settings()
    location = where(db)
    try:
        path = locate(location)
        if read and isinstance(path, Path) and str(path) != ":memory:" and not path.is_file():
            error(
                err,
                f"no memories yet: there is no database at {path} (this command creates none). Store one with "
                "`engram remember TEXT` or `engram add FILE`, or name your database with --db or ENGRAM_HOME.",
            )
            raise typer.Exit(1)
        if isinstance(path, Path) and str(path) != ":memory:":
            private_dir(path.parent)  # memories are their user's: a new home is no other account's to read
        with Memory(location, settings=settings, **kwargs) as memory:
            yield memory
    except EngramError as exc:
        error(err, exc)
        code = 2 if isinstance(exc, ValueError) else 1
        raise typer.Exit(code) from None


def print_json(data: Any) -> None:
    """`data` as JSON on stdout, for scripts."""
    out.print(json_shown(data), soft_wrap=True)


def _record_dict(record: MemoryRecord) -> dict[str, Any]:
    return record.model_dump(mode="json")


def _hit_dict(hit: Hit, explain: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": hit.record.id,
        "kind": hit.record.kind.value,
        "scope": hit.record.scope.value,
        "content": hit.record.content,
        "score": round(hit.score, 4),
        "confidence": hit.confidence,
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
