"""`engram migrate`: copy a whole store to another backend and verify the copy."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engram import copy_database
from engram.config import Settings, shown
from engram.errors import EngramError
from engram.interfaces.cli.terminal import error, json_shown

out = Console()
err = Console(stderr=True)


def migrate(
    source: Annotated[str, typer.Option("--from", help="the store to copy: sqlite:///path, a path or a URL")],
    target: Annotated[str, typer.Option("--to", help="an empty store: postgresql://... or sqlite:///path")],
    as_json: Annotated[
        bool, typer.Option("--json", help="print JSON, for scripts (no progress bar)")
    ] = False,
) -> None:
    """Copy a whole store (memories, embeddings, tags, audit log, sources, operations) to another backend,
    then verify row counts and content hashes of every table. The target must be empty.

    Example: engram migrate --from sqlite:///home/me/.local/share/engram/memories.db --to postgresql://engram@db/engram
    """
    bar: Progress | None = None
    task = None

    def copied(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None and not as_json and err.is_terminal:  # once both stores are open; a terminal only
            bar = Progress(console=err, transient=True)
            bar.start()
            task = bar.add_task("copying memories", total=total)
        if bar is not None and task is not None:
            bar.update(task, completed=done, total=total)

    try:
        checked = copy_database(source, target, Settings(), copied)
    except EngramError as exc:
        error(err, exc)
        raise typer.Exit(2 if isinstance(exc, ValueError) else 1) from None
    finally:
        if bar is not None:
            bar.stop()
    if as_json:
        out.print(json_shown({"from": shown(source), "to": shown(target), "tables": checked}), soft_wrap=True)
        return
    table = Table("table", "rows copied", "verified")
    for name, n in checked.items():
        table.add_row(name, str(n), "count + sha256")
    out.print(table)
    out.print(f"migrated {shown(source)} -> {shown(target)}")
