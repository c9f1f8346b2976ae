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
from engram.interfaces.cli.terminal import error

out = Console()
err = Console(stderr=True)


def migrate(
    source: Annotated[str, typer.Option("--from", help="the store to copy: sqlite:///path, a path or a URL")],
    target: Annotated[str, typer.Option("--to", help="an empty store: postgresql://... or sqlite:///path")],
) -> None:
    """Copy a whole store (memories, embeddings, tags, audit log, sources, operations) to another backend,
    then verify row counts and content hashes of every table. The target must be empty.

    Example: engram migrate --from sqlite:///home/me/.local/share/engram/memories.db --to postgresql://engram@db/engram
    """
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("copying memories", total=None)
            checked = copy_database(
                source, target, Settings(), lambda done, total: bar.update(task, completed=done, total=total)
            )
    except EngramError as exc:
        error(err, exc)
        raise typer.Exit(2 if isinstance(exc, ValueError) else 1) from None
    table = Table("table", "rows copied", "verified")
    for name, n in checked.items():
        table.add_row(name, str(n), "count + sha256")
    out.print(table)
    out.print(f"migrated {shown(source)} -> {shown(target)}")
