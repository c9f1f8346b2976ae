"""Idleness is Engram's own time: counted from when it stored or last used a memory, never from the dates of the
conversation or the file it came from (which stay the memory's time for recall)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engram import Memory
from engram.model.record import Status
from engram.store.values import Filter

EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)
OLD = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def test_an_old_conversation_ingested_today_is_not_archived_by_the_first_pass(mem: Memory) -> None:
    said = [
        "I prefer green tea in the morning.",
        "My sister lives in Lisbon.",
        "I decided to move the launch to June.",
        "I need to renew my passport before the trip.",
        "I work as a structural engineer.",
    ]
    messages = [
        {
            "role": "user",
            "content": text,
            "ts": (OLD + timedelta(days=i)).isoformat(),
            "conversation_id": "c1",
        }
        for i, text in enumerate(said)
    ]
    mem.ingest(messages)
    records = mem.store.select(EVERYTHING, limit=100)
    assert records, "the conversation gave memories"
    assert all(r.created_at.year == 2024 for r in records), "the conversation's dates stay the memories' time"
    report = mem.maintain()
    assert report["archived"] == 0 and report["quality_decayed"] == 0
    assert all(mem.get(r.id).status == r.status for r in records)


def test_a_shodh_import_of_old_records_is_not_archived_by_the_first_pass(mem: Memory, tmp_path: Path) -> None:
    old = OLD.isoformat()
    rows = [
        {
            "id": f"s{i}",
            "content": f"imported fact number {i} about harbours",
            "type": "Context",
            "tags": "[]",
            "created_at": old,
            "last_accessed_at": old,
        }
        for i in range(3)
    ]
    path = tmp_path / "shodh.json"
    path.write_text(json.dumps({"memories": rows}))
    assert mem.import_from("shodh-json", path)["created"] == 3
    report = mem.maintain()
    assert report["archived"] == 0 and report["quality_decayed"] == 0


def test_a_memory_unused_for_the_policy_period_is_archived_not_deleted(mem: Memory) -> None:
    kept = mem.remember("The spare key is under the blue flowerpot").id
    used = mem.remember("The router password is on the fridge").id
    later = datetime.now(UTC) + timedelta(days=400)  # 370 days past the allowance: quality 0.058
    mem.store.touch([used], later - timedelta(days=1))
    report = mem.maintain(later)
    assert report["archived"] == 1
    archived = mem.get(kept)
    assert archived.status == Status.ARCHIVED and archived.content.startswith("The spare key")
    assert mem.get(used).status == Status.APPROVED
