"""A design document stored whole through store_memory (not added from a file) showed in the session context's
"Recent decisions" as its raw opening ("# Billing Service Migration: Design Document ## 1. Context ..."), since it
says somewhere that a decision was taken. A document is read by its passages; only a statement is a decision."""

from __future__ import annotations

from engram import Memory

SECTION = (
    "The billing service moves from MySQL to PostgreSQL. The decision was taken in the architecture meeting, "
    "and this part describes the schema changes, the data migration in three phases, the cut-over on a Sunday "
    "morning, the tests before it, the monitoring after it and what each step costs the team in hours. "
)


def test_a_long_document_is_no_recent_decision(mem: Memory) -> None:
    document = "# Billing Service Migration: Design Document\n\n" + "\n\n".join(
        f"## {n}. Part {n}\n\n{SECTION}We decided on step {n} after the review." for n in range(1, 13)
    )
    stored = mem.remember(document, kind="knowledge")
    assert mem.get(stored.id).token_count > mem.settings.chunk_tokens
    decided = mem.remember("We decided to drop the legacy SOAP endpoint in Q2.", kind="knowledge")
    sections = mem.session_context(max_tokens=5000)["sections"]
    assert decided.id in sections["Recent decisions"]
    assert stored.id not in sections["Recent decisions"]
