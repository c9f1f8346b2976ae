"""Commands on memories one by one: remember, recall, show, list, invalidate, forget, stats, reembed."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from engram import FORGET_NOTE, Kind, RecallMode, Scope, Status
from engram.interfaces.cli.base import (
    IdArgument,
    JsonOption,
    _hit_dict,
    _record_dict,
    app,
    err,
    explain_line,
    opened,
    out,
    print_json,
)
from engram.interfaces.cli.render import fields_table, memory_panel
from engram.interfaces.cli.terminal import error, headline, plain, progress, shorten


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
        print_json(said)
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
    related: Annotated[bool, typer.Option("--related", help="more, looser results")] = False,
    reelated: Annotated[bool, typer.Option("--reelated", hidden=True, help="the same as --related")] = False,
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
    related = related or reelated
    if accurate and related:
        error(err, "--accurate and --related are exclusive: choose one")
        raise typer.Exit(2)
    mode = RecallMode.RELATED if related else RecallMode.ACCURATE
    with opened(read=True) as memory:
        hits = memory.recall(
            query, limit=limit, mode=mode, kind=kind, scope=scope, scope_id=scope_id, profile=profile
        )
    if as_json:
        print_json([_hit_dict(h, explain) for h in hits])
        return
    if not hits:
        looser = "" if related else "; --related also shows looser matches"
        out.print(
            plain(f"nothing found for {query!r} that answers it with confidence{looser}"), soft_wrap=True
        )
        return
    for hit in hits:
        # A passage of a long document can run to pages: its first lines are the hit, `show` has the rest.
        guess = " (a guess: low confidence)" if hit.confidence == "low" else ""
        out.print(plain(f"[{hit.record.bucket}] {shorten(hit.record.content, 400)}{guess}"), soft_wrap=True)
        if explain:
            out.print(f"    {explain_line(hit)}", markup=False, highlight=False)


@app.command()
def show(memory_id: IdArgument, as_json: JsonOption = False) -> None:
    """One memory: its text and its fields (with --json, every field).

    Example: engram show 3f2a9c1e-...
    """
    with opened(read=True) as memory:
        record = memory.get(memory.find_id(memory_id))
        data = _record_dict(record)
        data["chunks"] = [c.id for c in memory.chunks(record.id)]
    if as_json:
        print_json(data)
        return
    out.print(memory_panel(record, len(data["chunks"])))


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
    with opened(read=True) as memory:
        rows = memory.list(
            kind=kind, scope=scope, scope_id=scope_id, status=status, tag=tag, limit=limit, offset=offset
        )
    if as_json:
        print_json([_record_dict(r) for r in rows])
        return
    if not rows:
        out.print("no memories" + (" match these filters" if offset == 0 else f" after the first {offset}"))
        return
    table = Table("id", "bucket", "status", "created", "content")
    # What the other columns and the borders leave of the terminal, twice: at most two lines, wrapped at words.
    room = 2 * max(20, out.width - 36 - max(len(r.bucket) for r in rows))
    for r in rows:
        when = r.created_at.strftime("%Y-%m-%d")
        table.add_row(
            r.id[:8],
            r.bucket,
            r.status.value,
            when,
            plain(shorten(headline(r.content, r.metadata.get("title")), room)),
        )
    out.print(table)


@app.command()
def invalidate(
    memory_id: IdArgument,
    negative: Annotated[
        bool, typer.Option("--negative", help="mark it a negative statement instead")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Mark a memory as no longer true (validity 0), or as negative (penalised in recall). Nothing is deleted.

    Example: engram invalidate 3f2a9c1e-... --negative
    """
    with opened() as memory:
        record = memory.invalidate(memory.find_id(memory_id), negative=negative)
    if as_json:
        print_json(
            {"id": record.id, "validity_score": record.validity_score, "is_negative": record.is_negative}
        )
        return
    said = (
        "marked a negative statement (ranked lower in recall)"
        if negative
        else "marked no longer true (validity 0: kept, ranked last in recall)"
    )
    out.print(plain(f"{record.id[:8]} {said}: {shorten(record.content, 80)}"), soft_wrap=True)


@app.command()
def forget(
    memory_id: IdArgument,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask")] = False,
    as_json: JsonOption = False,
) -> None:
    """Delete a memory and its chunks for good. The only command that deletes.

    Example: engram forget 3f2a9c1e-... --yes
    """
    with opened(read=True) as memory:
        record = memory.get(memory.find_id(memory_id))
        if not yes and not typer.confirm(f"delete '{shorten(record.content, 60)}'?"):
            raise typer.Exit(1)
        answer = memory.forget(record.id)
    if as_json:
        print_json(dict(answer))
        return
    out.print(f"forgot {record.id}: {FORGET_NOTE}", soft_wrap=True)
    if answer[
        "archived"
    ]:  # what it had replaced is live no more, and not deleted: said, so none is lost unseen
        out.print(f"archived, as it had replaced them: {', '.join(answer['archived'])}", soft_wrap=True)


@app.command()
def stats(as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """Counts by kind, scope and status, the model, the index and the database size.

    Example: engram stats --json
    """
    with opened(read=True) as memory:
        data = memory.stats()
    if as_json:
        print_json(data)
        return
    out.print(fields_table(dict(data), width=100))


@app.command()
def reembed(as_json: JsonOption = False) -> None:
    """Re-embed every memory with the current model (after a model change) and rebuild the index.

    Example: engram reembed
    """
    with (
        opened(read=True, allow_model_change=True) as memory,
        progress(err, "re-embedding", None, quiet=as_json) as step,
    ):
        count = memory.reembed(step)
    if as_json:
        print_json({"reembedded": count, "model": memory.embedder.name})
        return
    out.print(f"re-embedded {count} texts with {memory.embedder.name}")
