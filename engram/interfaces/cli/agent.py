"""The agent tools on the command line: store, search, tools, import, export."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core
from rich.table import Table
from rich.text import Text

from engram import Category, InvalidInput
from engram.interfaces.cli.base import (
    JsonOption,
    app,
    err,
    opened,
    out,
    print_json,
)
from engram.interfaces.cli.render import fields_table, show_result, text_rows, value_text
from engram.interfaces.cli.terminal import error, headline, plain, progress


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
    as_json: JsonOption = False,
) -> None:
    """store_memory: category, tags, importance and kind are inferred; prints the analysis.

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
        try:
            result = memory.store_memory(text, {k: v for k, v in context.items() if v not in (None, [])})
        except InvalidInput as exc:  # named as the option the person typed, not the tool's field
            option = _STORE_OPTIONS.get(exc.field)
            if option is None:
                raise
            raise InvalidInput(option, exc.problem) from None
    if as_json:
        print_json(result)
        return
    analysis = result["analysis"]
    words = {"created": "stored", "duplicate": "already stored as", "merged": "merged into"}
    out.print(f"{words.get(result['outcome'], result['outcome'])} {result['memory_id']}")
    shown = {
        "category": analysis["detected_category"],
        "kind": analysis["kind"],
        "importance": f"{analysis['importance_score']} of 5",
        "tags": analysis["generated_tags"],
        "concepts": analysis["concepts_extracted"],
    }
    if analysis.get("due_date"):
        shown["due"] = analysis["due_date"]
    if analysis["pii"]["kinds"]:
        how = "redacted" if analysis["pii"]["redacted"] else "stored as given"
        shown["personal data"] = f"{', '.join(analysis['pii']['kinds'])}, {how}"
    if similar := result["recommendations"]["similar_memories"]:
        shown["similar memories"] = similar
    if older := result["recommendations"]["suggested_updates"]:
        new, old = result["memory_id"], older[0]
        shown["updates"] = (
            f"{old[:8]}, an older version of this fact; to keep only this one: "
            f'engram tools merge_memories -a \'ids=["{new}", "{old}"]\' -a into={new}'
        )
    out.print(fields_table(shown, width=400))


# store_memory's context fields, as `engram store` names them.
_STORE_OPTIONS = {
    "context.force_category": "--category",
    "context.force_importance": "--importance",
    "context.additional_tags": "--tag",
    "context.expires_at": "--expires",
    "context.source": "--source",
    "context.user_note": "--note",
}


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="what to look for, in your own words (time words work too)")],
    limit: Annotated[int, typer.Option(min=1, max=100, help="most results")] = 10,
    min_relevance: Annotated[
        float, typer.Option(min=0, max=1, help="lowest relevance a result may have, half of it from matching")
    ] = 0.0,
    min_confidence: Annotated[
        str,
        typer.Option(
            help="auto (the sure ones, topped up to three with guesses), low (every result), medium or high"
        ),
    ] = "auto",
    after: Annotated[datetime | None, typer.Option(help="created at or after")] = None,
    before: Annotated[datetime | None, typer.Option(help="created before")] = None,
    importance_min: Annotated[
        int | None, typer.Option(min=1, max=5, help="only memories this important (1-5)")
    ] = None,
    content_type: Annotated[str | None, typer.Option("--type", help="a category or kind")] = None,
    include_expired: Annotated[bool, typer.Option("--include-expired", help="also expired memories")] = False,
    as_json: JsonOption = False,
) -> None:
    """search_memory: results, how many were found and how the query was understood.

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
    with opened(read=True) as memory:
        result = memory.search_memory(query, options)
    if as_json:
        print_json(result)
        return
    if not result["results"]:
        out.print(f"nothing found for {query!r} (--min-confidence low shows every match)", markup=False)
        return
    title = f"{result['total_found']} found"
    if all(hit["confidence"] == "low" for hit in result["results"]):
        out.print(f"nothing sure found for {query!r}; the best guesses:", markup=False)
        title = "guesses"
    listing = any("due" in hit for hit in result["results"])  # a list of things to do: each one's due day
    columns = ["id", "confidence", "relevance", "category", *(["due"] if listing else []), "content"]
    rows = []
    for hit in result["results"]:
        row = [hit["id"][:8], hit["confidence"], f"{hit['relevance_score']:.2f}", hit["category"] or "-"]
        rows.append(([*row, *([_due_cell(hit.get("due"))] if listing else [])], snippet(hit, query)))
    out.print(text_rows(out.width, columns, rows, title))


def _due_cell(day: str | None) -> str:
    """A thing to do's due day, said to be overdue once past (a list for today keeps what the last days missed)."""
    if day is None:
        return "-"
    return f"{day} overdue" if day < datetime.now(UTC).date().isoformat() else day


@app.command()
def tools(
    name: Annotated[str | None, typer.Argument(help="a tool from the list; none: list them")] = None,
    arg: Annotated[
        list[str] | None, typer.Option("--arg", "-a", help="key=value (value may be JSON)")
    ] = None,
    as_json: JsonOption = False,
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
    with opened(read=name is None) as memory:
        result = memory.discover_memory_tools() if name is None else memory.run_tool(name, **arguments)
    if as_json:
        print_json(result)
    elif name is None:
        state = result["current_system_state"]
        table = Table("group", "tools", title="advanced tools: engram tools NAME -a key=value")
        for group, names in result["advanced_tools"].items():
            table.add_row(group.replace("_", " "), ", ".join(names))
        out.print(table)
        out.print(fields_table(dict(state)))
    else:
        show_result(out, result)
    if result.get("ok") is False:  # validate_storage found problems: a script checking the store can tell
        raise typer.Exit(1)


class _ImportGroup(typer.core.TyperGroup):
    """`engram import FILE` is `engram import shodh FILE`: what `engram export` wrote comes back the way it went
    out (a file name was taken for a command name: "No such command 'memories.jsonl'")."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["shodh", *args]
        return super().resolve_command(ctx, args)


import_app = typer.Typer(
    cls=_ImportGroup,
    help="Import memories: `engram import FILE` reads what `engram export` wrote; name a format first for "
    "another system's export.\n\nExample: engram import memories.jsonl   or   engram import mem0 mem0.json",
    no_args_is_help=True,
)
app.add_typer(import_app, name="import")


def _imported(source: str, path: Path, as_json: bool) -> None:
    """Run one import with a bar while it works, then print what it did. An empty file is said to be one: it
    read as an import of nothing ("imported 0"), as if the right file had been given."""
    if source == "shodh" and path.is_file() and path.stat().st_size < 4096 and not path.read_bytes().strip():
        error(err, InvalidInput("path", f"{path} is empty: it holds no records to import"))
        raise typer.Exit(2)
    with opened() as memory, progress(err, f"importing {path.name}", None, quiet=as_json):
        if source == "tinydb":
            result: dict[str, Any] = dict(memory.import_tinydb(path))
        elif source == "shodh":
            result = dict(memory.import_memories(path))
        else:
            result = memory.import_from(source, path)
    if as_json:
        print_json(result)
        return
    show_result(out, result)


@import_app.command("tinydb")
def import_tinydb(
    directory: Annotated[Path, typer.Argument(help="the old store's directory")], as_json: JsonOption = False
) -> None:
    """The old TinyDB layout (tinydb_memories.json, tinydb_tags.json, tinydb_categories.json).

    Example: engram import tinydb ~/old-memory-store
    """
    _imported("tinydb", directory, as_json)


@import_app.command("shodh")
def import_shodh(
    path: Annotated[Path, typer.Argument(help="a JSON Lines file of SHODH records")],
    as_json: JsonOption = False,
) -> None:
    """SHODH records written by `engram export`, `engram tools export_memories` or another SHODH system.

    Example: engram import shodh memories.jsonl
    """
    _imported("shodh", path, as_json)


@import_app.command("mcp-memory-service")
def import_mcp_memory_service(
    path: Annotated[Path, typer.Argument(help="its SQLite database file")], as_json: JsonOption = False
) -> None:
    """mcp-memory-service's SQLite database; content already stored is skipped.

    Example: engram import mcp-memory-service ~/.local/share/mcp-memory/sqlite_vec.db
    """
    _imported("mcp-memory-service", path, as_json)


@import_app.command("shodh-json")
def import_shodh_json(
    path: Annotated[Path, typer.Argument(help="a JSON file of shodh-memory records")],
    as_json: JsonOption = False,
) -> None:
    """shodh-memory / shodh-cloudflare JSON (PascalCase types, tags as JSON text); for the JSON Lines that
    `engram export` writes, use `engram import shodh`.

    Example: engram import shodh-json shodh-export.json
    """
    _imported("shodh-json", path, as_json)


@import_app.command("mem0")
def import_mem0(
    path: Annotated[Path, typer.Argument(help="mem0's exported memories (JSON)")], as_json: JsonOption = False
) -> None:
    """mem0's exported memories (a list or {"results": [...]}).

    Example: engram import mem0 mem0-memories.json
    """
    _imported("mem0", path, as_json)


@app.command()
def export(
    path: Annotated[Path, typer.Argument(help="the JSON Lines file to write (must not exist)")],
    fmt: Annotated[str, typer.Option("--format", help="shodh: the unified SHODH record")] = "shodh",
    with_embeddings: Annotated[
        bool, typer.Option("--with-embeddings", help="include vectors and the model")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Every memory as unified SHODH records, one per line.

    Example: engram export memories.jsonl --format shodh --with-embeddings
    """
    if fmt != "shodh":
        error(err, "--format: only shodh is supported")
        raise typer.Exit(2)
    with opened(read=True) as memory, progress(err, f"exporting to {path.name}", None, quiet=as_json):
        result = memory.export_memories(path, with_embeddings=with_embeddings)
    if as_json:
        print_json(result)
        return
    out.print(
        plain(
            f"exported {result['exported']} records ({result['memories']} memories, {result['chunks']} passages)"
        )
        + plain(f" to {result['path']}")
    )


# Characters of a memory or a passage's sentence in the table: the answer, not only its start ("Dentist with Dr
# Patel on Thursday 3 December..." hid the time asked for).
PASSAGE_CELL = 240


def snippet(hit: Any, query: str) -> Text:
    """A search hit's text: for a passage of a document, its heading and the sentence of it that shares the most
    words with the question (its first line was a heading, or the tail of the section before); else a
    document's first line (its title), or the memory cut at a word; and which newer memory updates it."""
    content, passage = hit["content"], hit.get("passage")
    if passage:
        heading = passage.get("heading")
        best = _answering(content, query)
        return value_text(f"{heading}: {best}" if heading else best, PASSAGE_CELL)
    shown = value_text(headline(content) if "\n" in content else content, PASSAGE_CELL)
    if hit.get("updated_by"):
        shown.append(f" (updated by {hit['updated_by'][:8]})")
    return shown


def _answering(passage: str, query: str) -> str:
    """The sentence of `passage` (not a heading) that holds the most of the question's longer words, by their
    first four letters ("sold" finds "sold", "plots" finds "plot"); the first one on a tie."""
    asked = {w[:4] for w in re.findall(r"\w+", query.lower()) if len(w) > 3}
    sentences = [
        s.strip()
        for line in passage.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
        for s in re.split(r"(?<=[.!?])\s+", line)
        if s.strip()
    ]
    if not sentences:
        return headline(passage)

    def shared(sentence: str) -> int:
        return len(asked & {w[:4] for w in re.findall(r"\w+", sentence.lower())})

    return max(sentences, key=shared)
