"""The `engram` command: parses arguments, calls one Memory method, prints the result."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engram.config import Settings, shown
from engram.errors import EngramError, InvalidInput
from engram.interfaces.cli.keys import keys_app
from engram.interfaces.cli.migrate import migrate
from engram.interfaces.cli.terminal import error, plain
from engram.lang import pii
from engram.memory import Hit, Memory
from engram.model.record import Category, Kind, MemoryRecord, Scope, Status
from engram.recall.scoring import RecallMode

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


@app.callback()
def main(db: DbOption = None) -> None:
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


def _full_id(memory: Memory, given: str) -> str:
    """The id `given` names: itself, or the one id it begins (`engram list` shows the first 8 characters)."""
    if memory.store.get(given) is not None:
        return given
    found = memory.store.ids_starting(given, 2) if len(given) >= 4 else []
    if len(found) > 1:
        raise InvalidInput("id", f"{given} begins more than one memory's id: give more of it")
    if not found and 0 < len(given) < 4 and memory.store.ids_starting(given, 1):
        raise InvalidInput("id", f"{given} is too short to name a memory: give at least 4 characters of its id")
    return found[0] if found else given


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


@app.command()
def remember(
    text: Annotated[str, typer.Argument(help="what to remember")],
    kind: Annotated[Kind | None, typer.Option(help="skip classification and use this kind")] = None,
    scope: Annotated[Scope, typer.Option(help="session, project or global")] = Scope.GLOBAL,
    scope_id: Annotated[str | None, typer.Option(help="which session or project")] = None,
    importance: Annotated[float | None, typer.Option(help="0..1, default 0.5")] = None,
    tag: Annotated[list[str] | None, typer.Option(help="a tag; repeat for more")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Store a memory; its kind is classified unless given.

    Example: engram remember "Deploy with make release" --scope project --scope-id engram --tag deploy
    """
    fields: dict[str, Any] = {"scope": scope, "scope_id": scope_id, "tags": tag or []}
    if kind is not None:
        fields["kind"] = kind
    if importance is not None:
        fields["importance"] = importance
    with opened() as memory:
        result = memory.remember(text, **fields)
        found = pii.scan(text).summary(memory.settings.redact_pii)
    if as_json:
        said = {"id": result.id, "outcome": result.outcome, "kind": result.kind.value,
                "confidence": result.confidence, "chunks": result.chunks, "pii": found}  # fmt: skip
        out.print_json(json.dumps(said))
        return
    words = {"created": "stored", "duplicate": "already stored as", "merged": "merged into"}
    detail = f" ({result.kind.value}, confidence {result.confidence:.2f})" if result.created else ""
    out.print(f"{words[result.outcome]} {result.id}{detail}")
    if found["kinds"]:
        how = "redacted" if found["redacted"] else "stored as given (redaction is off)"
        out.print(f"personal data: {', '.join(found['kinds'])}, {how}")


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
        str | None, typer.Option(help="when it expires: ISO date and time, or a date alone (lasts through that day)")
    ] = None,
    source: Annotated[str | None, typer.Option(help="conversation, document, web, ...")] = None,
    note: Annotated[str | None, typer.Option(help="your note on it")] = None,
) -> None:
    """store_memory: category, tags, importance and kind are inferred; prints the analysis as JSON.

    Example: engram store "Dentist appointment Tuesday 3pm" --tag health
    """
    context: dict[str, Any] = {"force_category": category, "force_importance": importance,
                               "additional_tags": tag or [], "expires_at": expires, "source": source,
                               "user_note": note}  # fmt: skip
    with opened() as memory:
        result = memory.store_memory(text, {k: v for k, v in context.items() if v not in (None, [])})
    out.print_json(json.dumps(result, default=str))


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="what to look for, in your own words (time words work too)")],
    limit: Annotated[int, typer.Option(min=1, max=100)] = 10,
    min_relevance: Annotated[float, typer.Option(min=0, max=1)] = 0.3,
    after: Annotated[datetime | None, typer.Option(help="created at or after")] = None,
    before: Annotated[datetime | None, typer.Option(help="created before")] = None,
    importance_min: Annotated[int | None, typer.Option(min=1, max=5)] = None,
    content_type: Annotated[str | None, typer.Option("--type", help="a category or kind")] = None,
    include_expired: Annotated[bool, typer.Option(help="also expired memories")] = False,
) -> None:
    """search_memory: results, how many were found and how the query was understood, as JSON.

    Example: engram search "what did I decide about the database last week"
    """
    options: dict[str, Any] = {
        "limit": limit,
        "min_relevance": min_relevance,
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


@app.command()
def recall(
    query: Annotated[str, typer.Argument(help="what to look for, in words")],
    accurate: Annotated[bool, typer.Option("--accurate", help="few, confident results (default)")] = False,
    related: Annotated[bool, typer.Option("--related", "--reelated", help="more, looser results")] = False,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="most results to return")] = 10,
    kind: Annotated[Kind | None, typer.Option(help="only this kind")] = None,
    scope: Annotated[Scope | None, typer.Option(help="only this scope")] = None,
    scope_id: Annotated[str | None, typer.Option(help="only this session or project")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="print every score component")] = False,
    profile: Annotated[
        str, typer.Option(help="ranking weights: default, timeless (no age priors), lexical, semantic")
    ] = "default",
) -> None:
    """Find memories by meaning and by words, best first, as \\[kind/scope] content.

    Example: engram recall "what UI style do I like" --related --explain
    """
    if accurate and related:
        error(err, "--accurate and --related are exclusive: choose one")
        raise typer.Exit(2)
    mode = RecallMode.RELATED if related else RecallMode.ACCURATE
    with opened() as memory:
        hits = memory.recall(
            query, limit=limit, mode=mode, kind=kind, scope=scope, scope_id=scope_id, profile=profile
        )
    if as_json:
        out.print_json(json.dumps([_hit_dict(h, explain) for h in hits]))
        return
    if not hits:
        out.print("nothing found")
        return
    for hit in hits:
        out.print(plain(f"[{hit.record.bucket}] {hit.record.content}"))
        if explain:
            out.print(f"    {explain_line(hit)}", markup=False, highlight=False)


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


@app.command()
def show(memory_id: IdArgument) -> None:
    """Print every field of one memory as JSON.

    Example: engram show 3f2a9c1e-...
    """
    with opened() as memory:
        record = memory.get(_full_id(memory, memory_id))
        data = _record_dict(record)
        data["chunks"] = [c.id for c in memory.store.children(record.id)]
    out.print_json(json.dumps(data))


@app.command("list")
def list_(
    kind: Annotated[Kind | None, typer.Option(help="only this kind")] = None,
    scope: Annotated[Scope | None, typer.Option(help="only this scope")] = None,
    scope_id: Annotated[str | None, typer.Option(help="only this session or project")] = None,
    status: Annotated[Status | None, typer.Option(help="only this status")] = None,
    tag: Annotated[str | None, typer.Option(help="only memories with this tag")] = None,
    limit: Annotated[int, typer.Option(min=1, help="most rows")] = 50,
    offset: Annotated[int, typer.Option(min=0, help="rows to skip")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List memories, newest first.

    Example: engram list --kind task --scope project
    """
    with opened() as memory:
        rows = memory.list(
            kind=kind, scope=scope, scope_id=scope_id, status=status, tag=tag, limit=limit, offset=offset
        )
    if as_json:
        out.print_json(json.dumps([_record_dict(r) for r in rows]))
        return
    table = Table("id", "bucket", "status", "created", "content")
    for r in rows:
        when = r.created_at.strftime("%Y-%m-%d %H:%M")
        table.add_row(r.id[:8], r.bucket, r.status.value, when, plain(r.content[:80]))
    out.print(table)


@app.command()
def invalidate(
    memory_id: IdArgument,
    negative: Annotated[
        bool, typer.Option("--negative", help="mark it a negative statement instead")
    ] = False,
) -> None:
    """Mark a memory as no longer true (validity 0), or as negative (penalised in recall). Nothing is deleted.

    Example: engram invalidate 3f2a9c1e-... --negative
    """
    with opened() as memory:
        record = memory.invalidate(_full_id(memory, memory_id), negative=negative)
    out.print(f"{record.id}: validity {record.validity_score}, negative {record.is_negative}")


@app.command()
def forget(
    memory_id: IdArgument,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask")] = False,
) -> None:
    """Delete a memory and its chunks for good. The only command that deletes.

    Example: engram forget 3f2a9c1e-... --yes
    """
    with opened() as memory:
        record = memory.get(_full_id(memory, memory_id))
        if not yes and not typer.confirm(f"delete '{record.content[:60]}'?"):
            raise typer.Exit(1)
        memory.forget(record.id)
    out.print(f"forgot {record.id}")


@app.command()
def stats(as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """Counts by kind, scope and status, the model, the index and the database size.

    Example: engram stats --json
    """
    with opened() as memory:
        data = memory.stats()
    if as_json:
        out.print_json(json.dumps(data))
        return
    table = Table("what", "value")
    for key, value in data.items():
        table.add_row(key, json.dumps(value) if isinstance(value, dict) else str(value))
    out.print(table)


@app.command()
def reembed() -> None:
    """Re-embed every memory with the current model (after a model change) and rebuild the index.

    Example: engram reembed
    """
    with opened(allow_model_change=True) as memory, Progress(console=err) as progress:
        task = progress.add_task("re-embedding", total=None)
        count = memory.reembed(lambda done, total: progress.update(task, completed=done, total=total))
    out.print(f"re-embedded {count} texts with {memory.embedder.name}")


DEMO = [
    ("My name is Sam and I work as a data engineer in Lisbon.", {}),
    ("I like minimalistic user interfaces with lots of white space.", {}),
    (
        "Renew the TLS certificate for api.example.org before 3 March.",
        {"scope": Scope.PROJECT, "scope_id": "demo"},
    ),
    ("SQLite's WAL mode lets readers run while one writer commits.", {}),
    (
        "The staging database lives at postgres://staging.internal:5432/app.",
        {"scope": Scope.PROJECT, "scope_id": "demo"},
    ),
    ("Met Ana about the roadmap; she worries the search page is too slow.", {}),
]


@app.command()
def demo() -> None:
    """Remember a handful of memories and recall them with explanations.

    Example: engram --db /tmp/demo.db demo
    """
    with opened() as memory:
        for text, fields in DEMO:
            result = memory.remember(text, **fields)
            out.print(
                f"remember: {text}\n  -> {result.outcome} as {result.kind.value} "
                f"({result.method}, confidence {result.confidence or 0:.2f})"
            )
        for query in ("what interface style do I prefer", "when does the certificate expire", "who am I"):
            out.print(f"\n[bold]recall[/bold] {query!r}")
            for hit in memory.recall(query, mode=RecallMode.ACCURATE, touch=False):
                out.print(plain(f"  [{hit.record.bucket}] {hit.record.content}"))
                out.print(f"    {explain_line(hit)}", markup=False, highlight=False)
    out.print(f"\n(stored in {_state['db'] or Settings().db_path}; {datetime.now():%Y-%m-%d %H:%M})")


@app.command()
def ingest(
    path: Annotated[
        Path, typer.Argument(help="JSON Lines of messages, or a LoCoMo / LongMemEval file (.gz too)")
    ],
    scope: Annotated[Scope, typer.Option(help="scope of the extracted memories")] = Scope.PROJECT,
    scope_id: Annotated[str | None, typer.Option(help="scope id; default: each conversation's id")] = None,
    redact: Annotated[bool, typer.Option("--redact", help="store PII as \\[REDACTED_*] markers")] = False,
) -> None:
    """Keep a conversation's messages as sources and store what the user says as memories (approved, or
    pending review when unsure or holding PII).

    Example: engram ingest chat.jsonl --scope project --scope-id billing
    """
    from engram.review.ingest import read_messages

    with opened() as memory:
        try:
            messages = read_messages(path)
        except (OSError, ValueError) as exc:
            error(err, f"{path}: {exc}")
            raise typer.Exit(2) from None
        report = memory.ingest(messages, scope=scope, scope_id=scope_id, redact=redact or None)
    out.print_json(json.dumps(report))


@app.command()
def review(
    action: Annotated[
        Literal["list", "approve", "reject", "edit"], typer.Argument(help="list, approve, reject or edit")
    ] = "list",
    memory_id: Annotated[str | None, typer.Argument(help="the memory to decide on")] = None,
    content: Annotated[str | None, typer.Option(help="new content, for edit")] = None,
) -> None:
    """The review queue: list pending memories, or approve / reject / edit one.

    Example: engram review approve 3f2a9c1e-...
    """
    with opened() as memory:
        if action == "list":
            table = Table("id", "kind", "confidence", "pii", "content")
            for r in memory.pending():
                cand = r.metadata.get("candidate", {})
                table.add_row(r.id, str(cand.get("kind", r.kind.value)), str(cand.get("confidence", "")),
                              str(r.metadata.get("pii", {}).get("risk", "")), plain(r.content[:80]))  # fmt: skip
            out.print(table)
            return
        if memory_id is None:
            error(err, "memory_id: required for approve, reject and edit")
            raise typer.Exit(2)
        record = memory.review(_full_id(memory, memory_id), action, content)
    out.print(f"{record.id}: {record.status.value}")


@app.command()
def maintain() -> None:
    """Lifecycle maintenance: priorities, tiers, promotion, quality decay, pruning to archive (never deletes).

    Example: engram maintain
    """
    with opened() as memory:
        report = memory.maintain()
    out.print_json(json.dumps(report))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8765,
    local: Annotated[
        bool, typer.Option("--local", help="no API keys: loopback only, for one user on this machine")
    ] = False,
) -> None:
    """Serve the REST API (/v1, /api, /docs), MCP over streamable HTTP (/mcp) and the web UI (/).

    Example: engram serve --local --port 8765
    """
    from engram.interfaces.http.serve import is_loopback
    from engram.interfaces.http.serve import serve as run

    if local and not is_loopback(host):
        error(err, f"--local (no API keys) only binds to loopback, not {host}")
        raise typer.Exit(2)
    settings = Settings()
    db = _state["db"] or settings.db_path
    out.print(f"Engram on http://{host}:{port}/  (API docs /docs, MCP /mcp, database {shown(db)})")
    if local:
        out.print("[yellow]local mode: no API keys; only this machine can connect[/yellow]")
    else:
        out.print("API keys required: create one with `engram keys create <tenant>`")
    run(settings, db=db, host=host, port=port, local=local)


@app.command()
def mcp() -> None:
    """Serve the MCP tools over stdio (for Claude Desktop, Claude Code, Cursor).

    Example: engram --db ~/notes.db mcp
    """
    from engram.interfaces.mcp.server import stdio

    with opened() as memory:
        stdio(memory)


app.add_typer(keys_app, name="keys")
app.command()(migrate)

if __name__ == "__main__":
    app()
