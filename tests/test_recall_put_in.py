""" "What did I put in on Friday?" asks for the memories of that day, as "what did I note on Friday?" does: "put"
was no word of asking for memories, so the question was searched by its words and accurate recall answered with
nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import time_machine

from engram import Memory
from engram.config import Settings
from engram.recall.intent import asks_for_memories

FRIDAY = datetime(2026, 11, 20, 9, tzinfo=UTC)
MONDAY = datetime(2026, 11, 23, 9, tzinfo=UTC)
THURSDAY = datetime(2026, 11, 26, 10, tzinfo=UTC)


def test_put_and_record_ask_for_memories_only_with_no_topic() -> None:
    assert asks_for_memories(["put"]) and asks_for_memories(["recorded"])
    assert not asks_for_memories(["put", "van keys"])


def test_what_was_put_in_on_a_day_is_listed(tmp_path: Path, settings: Settings) -> None:
    with Memory(tmp_path / "m.db", settings=settings) as memory:
        with time_machine.travel(FRIDAY, tick=False):
            friday = memory.store_memory("Cousin Piotr lands at Birmingham on 22 December at 14:35")[
                "memory_id"
            ]
        with time_machine.travel(MONDAY, tick=False):
            monday = memory.store_memory("Van keys are on the hook by the back door")["memory_id"]
        with time_machine.travel(THURSDAY, tick=False):
            hits = memory.recall("what did I put in on Friday 20 November?", now=THURSDAY, touch=False)
    ids = [h.record.id for h in hits]
    assert friday in ids and monday not in ids
