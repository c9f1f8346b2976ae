"""Conversations, review and upkeep: ingest, review, maintain, and a demo."""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.table import Table
from rich.text import Text

from engram import MemoryRecord, RecallMode, Scope, pending_matching, read_messages, why_waiting
from engram.interfaces.cli.base import (
    JsonOption,
    _record_dict,
    _state,
    app,
    err,
    explain_line,
    opened,
    out,
    print_json,
)
from engram.interfaces.cli.terminal import error, plain, progress, shorten

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
def demo(
    db: Annotated[
        str | None,
        typer.Option("--db", help="keep the demo's memories in this database (default: a temporary one)"),
    ] = None,
) -> None:
    """Remember a handful of made-up memories and recall them with explanations, in a temporary store that is
    deleted afterwards (your own store is left alone unless --db names it).

    Example: engram demo
    """
    db = db or _state["db"]  # `engram --db X demo` as well as `engram demo --db X`
    with ExitStack() as stack:
        location = (
            db or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="engram-demo-"))) / "demo.db"
        )
        with opened(location) as memory:
            for text, fields in DEMO:
                result = memory.remember(text, **fields)
                out.print(
                    f"remember: {text}\n  -> {result.outcome} as {result.kind.value} "
                    f"({result.method}, confidence {result.confidence or 0:.2f})"
                )
            for query in ("what interface style do I prefer", "when does the certificate expire", "who am I"):
                out.print(f"\n[bold]recall[/bold] {query!r}")
                for hit in memory.recall(query, mode=RecallMode.RELATED, touch=False):
                    out.print(
                        plain(f"  [{hit.record.bucket}] {hit.record.content} ({hit.confidence} confidence)")
                    )
                    out.print(f"    {explain_line(hit)}", markup=False, highlight=False)
    kept = f"stored in {db}" if db else "a temporary store, now deleted; your own store was not touched"
    out.print(plain(f"\n({kept}; {datetime.now():%Y-%m-%d %H:%M})"), soft_wrap=True)


@app.command()
def ingest(
    path: Annotated[
        Path, typer.Argument(help="JSON Lines of messages, or a LoCoMo / LongMemEval file (.gz too)")
    ],
    scope: Annotated[Scope, typer.Option(help="scope of the extracted memories")] = Scope.PROJECT,
    scope_id: Annotated[str | None, typer.Option(help="scope id; default: each conversation's id")] = None,
    redact: Annotated[bool, typer.Option("--redact", help="store PII as \\[REDACTED_*] markers")] = False,
    as_json: JsonOption = False,
) -> None:
    """Keep a conversation's messages as sources and store what the user says as memories (approved, or
    pending review when unsure or holding PII).

    Example: engram ingest chat.jsonl --scope project --scope-id billing
    """
    try:
        messages = read_messages(path)
    except (OSError, ValueError) as exc:
        said: dict[type[Exception], str] = {
            FileNotFoundError: "does not exist",
            IsADirectoryError: "is a folder, not a file",
        }
        error(err, f"{path}: {said.get(type(exc)) or exc}")
        raise typer.Exit(2) from None
    with opened() as memory, progress(err, f"ingesting {path.name}", len(messages), quiet=as_json) as step:
        report = memory.ingest(messages, scope=scope, scope_id=scope_id, redact=redact or None, progress=step)
    if as_json:
        print_json(report)
        return
    out.print(
        f"{report.get('messages', 0)} messages read ({report.get('messages_already_ingested', 0)} already "
        f"ingested): {report.get('approved', 0)} memories stored, {report.get('pending', 0)} waiting for review, "
        f"{report.get('duplicate', 0)} already known"
    )
    if report.get("by_kind"):
        found = ", ".join(f"{kind} {n}" for kind, n in report["by_kind"].items())
        out.print(plain(f"found: {found}"), soft_wrap=True)
    if report.get("pending"):
        out.print("review them with `engram review`")


def _waiting(records: list[MemoryRecord], title: str, reasons: dict[str, str], said: str) -> Table:
    """Each memory on its line (id, kind and confidence, its text) and, under it, why it waits: a table of
    five columns left the reason a few letters wide."""
    table = Table.grid(padding=(0, 2))
    table.title, table.title_justify = title, "left"
    for r in records:
        cand = r.metadata.get("candidate")
        cand = cand if isinstance(cand, dict) else {}
        confidence = cand.get("confidence")
        shown = f" {confidence:.2f}" if isinstance(confidence, int | float) else ""
        table.add_row(r.id[:8], f"{cand.get('kind', r.kind.value)}{shown}", plain(shorten(r.content, 200)))
        reason = reasons.get(r.id) or why_waiting(r)
        table.add_row("", r.status.value if said == "waited" else "", Text(f"{said}: {reason}", style="dim"))
    return table


@app.command()
def review(
    action: Annotated[
        Literal["list", "approve", "reject", "edit"], typer.Argument(help="list, approve, reject or edit")
    ] = "list",
    memory_ids: Annotated[
        list[str] | None, typer.Argument(help="the memories to decide on (ids or their first characters)")
    ] = None,
    content: Annotated[str | None, typer.Option(help="new content, for edit")] = None,
    kind: Annotated[
        str | None,
        typer.Option(help="list / approve / reject every pending memory of this kind (task, todo, ...)"),
    ] = None,
    below_confidence: Annotated[
        float | None,
        typer.Option(
            min=0, max=1, help="list / approve / reject every pending memory extracted with less confidence"
        ),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="most memories listed or decided")] = 100,
    as_json: JsonOption = False,
) -> None:
    """The review queue: list pending memories and why each waits (all, or those --kind and --below-confidence
    pick), or approve / reject some (by id, or all that --kind and --below-confidence pick), or edit one.

    Example: engram review reject --kind todo --below-confidence 0.5
    """
    ids = memory_ids or []
    waiting: dict[str, str] = {}  # why each memory waited, read before the decision
    with opened(read=action == "list") as memory:
        if action == "list":  # with --kind / --below-confidence: what approve or reject would decide on
            filtered = kind is not None or below_confidence is not None
            records = pending_matching(memory.pending(1000 if filtered else limit), kind, below_confidence)[
                :limit
            ]
            if as_json:
                print_json([_record_dict(r) | {"why_waiting": why_waiting(r)} for r in records])
            elif not records:
                out.print("nothing waits for review")
            else:
                out.print(_waiting(records, f"{len(records)} waiting for review", {}, "waits"))
            return
        if action == "edit":
            if len(ids) != 1:
                error(err, "memory_id: edit takes exactly one memory")
                raise typer.Exit(2)
            decided = [memory.review(memory.find_id(ids[0]), "edit", content)]
        else:
            if not ids and kind is None and below_confidence is None:
                error(err, "memory_ids: give ids, or --kind / --below-confidence, to approve or reject")
                raise typer.Exit(2)
            waiting = {r.id: why_waiting(r) for r in memory.pending(1000)}
            decided = memory.review_many(
                action,
                ids=[memory.find_id(i) for i in ids],
                kind=kind,
                below_confidence=below_confidence,
                limit=limit,
            )
    if as_json:
        print_json([_record_dict(r) for r in decided])
        return
    if not decided:
        out.print(f"nothing to {action}: no pending memory matches")
        return
    out.print(_waiting(decided, f"{len(decided)} {action.rstrip('e')}ed", waiting, "waited"))


@app.command()
def maintain(as_json: JsonOption = False) -> None:
    """Lifecycle maintenance: priorities, tiers, promotion, quality decay, pruning to archive (never deletes).

    Example: engram maintain
    """
    with opened(read=True) as memory, progress(err, "maintaining", None, quiet=as_json):
        report = memory.maintain()
    if as_json:
        print_json(report)
        return
    out.print(
        f"looked at {report['processed']} memories: {report['changed']} changed, {report['promoted']} promoted, "
        f"{report['archived']} archived, {report['quality_decayed']} lost quality ({report['mode']} mode)"
    )
