"""`engram migrate`: copy a whole store to another backend and verify the copy."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engram.config import Settings, locate, shown
from engram.errors import EngramError
from engram.memory import open_store
from engram.store.copy import copy_store, is_empty, verify_copy

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
    settings = Settings()
    try:
        src = open_store(locate(source), settings)
        try:
            dst = open_store(locate(target), settings)
            try:
                if not is_empty(dst):
                    err.print(
                        f"[red]error:[/red] {shown(target)} is not empty; migrate copies into an empty store"
                    )
                    raise typer.Exit(2)
                total = src.stats().memories + src.stats().chunks
                with Progress(console=err, transient=True) as bar:
                    task = bar.add_task("copying memories", total=total)
                    copied = copy_store(src, dst, lambda n: bar.advance(task, n))
                checked = verify_copy(src, dst)
            finally:
                dst.close()
        finally:
            src.close()
    except EngramError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None
    table = Table("table", "rows copied", "verified")
    for name, n in copied.items():
        table.add_row(name, str(n), "count + sha256" if checked.get(name) == n else "MISMATCH")
    out.print(table)
    out.print(f"migrated {shown(source)} -> {shown(target)}")
