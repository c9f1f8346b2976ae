"""Commands on memories one by one: remember, recall, show, list, invalidate, forget, stats, reembed."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.table import Table

from engram import Kind, RecallMode, Scope, Status
from engram.interfaces.cli.base import (
    IdArgument,
    _hit_dict,
    _record_dict,
    app,
    err,
    explain_line,
    opened,
    out,
)
from engram.interfaces.cli.terminal import error, plain


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
        found = memory.pii_summary(text)
    if as_json:
        said = {
            "id": result.id,
            "outcome": result.outcome,
            "kind": result.kind.value,
            "confidence": result.confidence,
            "chunks": result.chunks,
            "pii": found,
        }
        out.print_json(json.dumps(said))
        return
    words = {"created": "stored", "duplicate": "already stored as", "merged": "merged into"}
    detail = f" ({result.kind.value}, confidence {result.confidence:.2f})" if result.created else ""
    out.print(f"{words[result.outcome]} {result.id}{detail}")
    if found["kinds"]:
        how = "redacted" if found["redacted"] else "stored as given (redaction is off)"
        out.print(f"personal data: {', '.join(found['kinds'])}, {how}")


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


@app.command()
def show(memory_id: IdArgument) -> None:
    """Print every field of one memory as JSON.

    Example: engram show 3f2a9c1e-...
    """
    with opened() as memory:
        record = memory.get(memory.find_id(memory_id))
        data = _record_dict(record)
        data["chunks"] = [c.id for c in memory.chunks(record.id)]
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
        record = memory.invalidate(memory.find_id(memory_id), negative=negative)
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
        record = memory.get(memory.find_id(memory_id))
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
