"""What ingest stores from a chat is tagged by its topics, as store_memory tags: the runs of words it took before
made tags of clause fragments ("send-the-on-call", "anna-by-thursday", "renew-my-driving", "lead-the-platform")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engram import Memory, Status
from engram.store.values import Filter

LINES = [
    "Remind me to send the on-call rota to Anna by Thursday.",
    "Also, I need to renew my driving licence on 12 January.",
    "We decided to drop the legacy SOAP endpoint in Q2.",
]
# A function word inside a tag: a run of words cut from a clause, no topic.
GLUE = ("-the-", "-to-", "-by-", "-my-", "-at-", "-in-")


def test_ingested_memories_are_tagged_by_topic_not_by_clause_fragments(mem: Memory) -> None:
    at = datetime(2026, 11, 27, 9, tzinfo=UTC)
    mem.ingest(
        [
            {
                "role": "user",
                "content": text,
                "ts": (at + timedelta(minutes=i)).isoformat(),
                "message_id": f"m{i}",
            }
            for i, text in enumerate(LINES)
        ]
    )
    stored = {
        r.content: r.tags
        for r in mem.store.select(Filter(statuses=tuple(Status), include_expired=True), limit=100)
    }
    assert set(stored) == set(LINES)
    assert "on-call-rota" in stored[LINES[0]] and "legacy-soap-endpoint" in stored[LINES[2]]
    fragments = [t for tags in stored.values() for t in tags if any(g in f"-{t}-" for g in GLUE)]
    assert fragments == []
