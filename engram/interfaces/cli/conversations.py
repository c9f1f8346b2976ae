"""Conversations, review and upkeep: ingest, review, maintain, and a demo."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.table import Table

from engram import RecallMode, Scope, Settings, read_messages
from engram.interfaces.cli.base import (
    _state,
    app,
    err,
    explain_line,
    opened,
    out,
)
from engram.interfaces.cli.terminal import error, plain

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
                table.add_row(
                    r.id,
                    str(cand.get("kind", r.kind.value)),
                    str(cand.get("confidence", "")),
                    str(r.metadata.get("pii", {}).get("risk", "")),
                    plain(r.content[:80]),
                )
            out.print(table)
            return
        if memory_id is None:
            error(err, "memory_id: required for approve, reject and edit")
            raise typer.Exit(2)
        record = memory.review(memory.find_id(memory_id), action, content)
    out.print(f"{record.id}: {record.status.value}")


@app.command()
def maintain() -> None:
    """Lifecycle maintenance: priorities, tiers, promotion, quality decay, pruning to archive (never deletes).

    Example: engram maintain
    """
    with opened() as memory:
        report = memory.maintain()
    out.print_json(json.dumps(report))
