"""`engram add`: Markdown, text, HTML and PDF files as document memories."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.table import Table

from engram import DOCUMENT_TYPES, AddedFile, InvalidInput, Scope
from engram.interfaces.cli.base import JsonOption, app, err, opened, out, print_json
from engram.interfaces.cli.terminal import error, plain, progress, shorten


def _files(given: list[Path]) -> list[Path]:
    """The files to add: each file named, and the document files inside each folder named (its subfolders
    included, hidden ones left out), in name order; an error naming the first path that is neither."""
    found: list[Path] = []
    for path in given:
        if path.is_dir():
            inside = sorted(
                f
                for f in path.rglob("*")
                if f.is_file()
                and f.suffix.lower() in DOCUMENT_TYPES
                and not any(part.startswith(".") for part in f.relative_to(path).parts)
            )
            if not inside:
                _refuse(path, f"holds no Markdown, text, HTML or PDF file ({', '.join(DOCUMENT_TYPES)})")
            found += inside
        elif not path.exists():
            _refuse(path, "does not exist")
        elif not path.is_file():
            _refuse(path, "is not a file or a folder")
        elif path.suffix.lower() not in DOCUMENT_TYPES:
            _refuse(path, f"is not a Markdown, text, HTML or PDF file ({', '.join(DOCUMENT_TYPES)})")
        else:
            found.append(path)
    return list(dict.fromkeys(found))  # a file named twice (a folder and a file in it) is added once


def _refuse(path: Path, problem: str) -> NoReturn:
    error(err, f"{path}: {problem}")
    raise typer.Exit(2)


@app.command()
def add(
    files: Annotated[
        list[Path], typer.Argument(help="Markdown, text, HTML or PDF files, or folders holding them")
    ],
    scope: Annotated[Scope, typer.Option(help="session, project or global")] = Scope.GLOBAL,
    scope_id: Annotated[str | None, typer.Option(help="which session or project")] = None,
    tag: Annotated[list[str] | None, typer.Option(help="a tag for every file; repeat for more")] = None,
    as_json: JsonOption = False,
) -> None:
    """Add files as document memories: one memory a file, recalled by its passages. A folder adds the
    documents in it. Adding a file again changes nothing; a file that changed replaces its older version (kept
    as superseded). A file that cannot be read is named and the others are still added.

    Example: engram add notes/ handbook.pdf --scope project --scope-id handbook
    """
    paths = _files(files)  # every path checked before any file is added: a typo adds nothing
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings on a damaged file: the error says it
    fields: dict[str, Any] = {"scope": scope, "scope_id": scope_id, "tags": tag or []}
    added: list[AddedFile] = []
    refused: list[tuple[Path, str]] = []
    with opened() as memory, progress(err, "adding files", len(paths), quiet=as_json) as step:
        for done, path in enumerate(paths):
            step(done, len(paths))
            try:
                added.append(memory.add_file(path, **fields))
            except InvalidInput as exc:  # unreadable or empty: the others are still added
                refused.append((path, exc.problem))
    for path, problem in refused:
        error(err, f"{path}: not added: {problem.removeprefix(path.name).lstrip(': ')}")
    if as_json:
        print_json(added)
    elif added:
        title = f"{len(added)} file{'' if len(added) == 1 else 's'}"
        table = Table("id", "title", "type", "passages", "outcome", title=title)
        for a in added:
            outcome = f"replaces {a['supersedes'][:8]}" if a["supersedes"] else a["outcome"]
            table.add_row(a["id"][:8], plain(shorten(a["title"], 40)), a["type"], str(a["passages"]), outcome)
        out.print(table)
    if refused:
        raise typer.Exit(1)
