"""`engram add`: Markdown, text, HTML and PDF files as document memories."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from engram import DOCUMENT_TYPES, AddedFile, Scope
from engram.interfaces.cli.base import JsonOption, app, err, opened, out, print_json
from engram.interfaces.cli.terminal import error, plain, progress, shorten


@app.command()
def add(
    files: Annotated[list[Path], typer.Argument(help="Markdown, text, HTML or PDF files")],
    scope: Annotated[Scope, typer.Option(help="session, project or global")] = Scope.GLOBAL,
    scope_id: Annotated[str | None, typer.Option(help="which session or project")] = None,
    tag: Annotated[list[str] | None, typer.Option(help="a tag for every file; repeat for more")] = None,
    as_json: JsonOption = False,
) -> None:
    """Add files as document memories: one memory a file, recalled by its passages. Adding a file again
    changes nothing; a file that changed replaces its older version (kept as superseded).

    Example: engram add notes/*.md handbook.pdf --scope project --scope-id handbook
    """
    for path in files:  # every file checked before any is added: a typo does not leave half a folder added
        problem = None if path.is_file() else ("is not a file" if path.exists() else "does not exist")
        if problem is None and path.suffix.lower() not in DOCUMENT_TYPES:
            problem = f"is not a Markdown, text, HTML or PDF file ({', '.join(DOCUMENT_TYPES)})"
        if problem:
            error(err, f"{path}: {problem}")
            raise typer.Exit(2)
    fields: dict[str, Any] = {"scope": scope, "scope_id": scope_id, "tags": tag or []}
    added: list[AddedFile] = []
    with opened() as memory, progress(err, "adding files", len(files), quiet=as_json) as step:
        for done, path in enumerate(files):
            step(done, len(files))
            added.append(memory.add_file(path, **fields))
    if as_json:
        print_json(added)
        return
    table = Table("id", "title", "type", "passages", "outcome", title=f"{len(added)} files")
    for a in added:
        outcome = f"replaces {a['supersedes'][:8]}" if a["supersedes"] else a["outcome"]
        table.add_row(a["id"][:8], plain(shorten(a["title"], 40)), a["type"], str(a["passages"]), outcome)
    out.print(table)
