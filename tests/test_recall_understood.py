"""recall in accurate and related mode understands a question as search_memory does: one asking for things to do
lists the reminders, one asking what was said at a time lists that time's memories; ranked mode stays the plain
ranked list. Through Memory.recall and through the MCP recall tool."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engram import Memory
from engram.model.record import utcnow

TO_DO = ("Call mom today for her birthday", "Need to submit the grant report by tonight")


def _things_to_do(mem: Memory) -> tuple[list[str], str]:
    todo = [mem.store_memory(t, {"force_category": "reminders"})["memory_id"] for t in TO_DO]
    other = mem.store_memory("I need a quiet room to do deep work", {"force_category": "contexts"})
    return todo, other["memory_id"]


@pytest.mark.parametrize("mode", ["accurate", "related"])
def test_recall_lists_the_things_to_do_a_question_asks_for(mem: Memory, mode: str) -> None:
    todo, other = _things_to_do(mem)
    question = "What do I need to do this week?"
    hits = mem.recall(question, mode=mode, touch=False)
    # Each reminder is what was asked for, sure, whatever words it shares with the question; the memory sharing
    # the most words with it is no thing to do.
    assert {h.record.id for h in hits} == set(todo)
    assert all(h.confidence == "high" for h in hits)
    tool = mem.run_tool("recall", session="s1", query=question, mode=mode)
    assert [r["id"] for r in tool["results"]] == [h.record.id for h in hits] and tool["count"] == 2
    assert other not in {r["id"] for r in tool["results"]}


def test_ranked_recall_stays_the_plain_ranked_list(mem: Memory) -> None:
    _, other = _things_to_do(mem)
    ranked = mem.recall("What do I need to do this week?", mode="ranked", touch=False)
    assert other in {h.record.id for h in ranked}


def test_recall_counts_the_use_of_what_a_listing_returns(mem: Memory) -> None:
    todo, _ = _things_to_do(mem)
    mem.recall("What do I need to do this week?")
    assert all(mem.get(i).access_count == 1 for i in todo)


def test_recall_lists_the_memories_of_the_time_a_question_names(mem: Memory) -> None:
    # Noon yesterday: a day that cannot turn while the test runs.
    now = utcnow().replace(hour=12, minute=0, second=0, microsecond=0) - timedelta(days=1)
    old = mem._store_memory(
        "The boiler service is booked with Hargreaves", fields={"created_at": now - timedelta(days=3)}
    )["memory_id"]
    first = mem._store_memory("The new office is on the third floor", fields={"created_at": now})["memory_id"]
    later = mem._store_memory(
        "Lunch with Priya moved to Thursday", fields={"created_at": now + timedelta(seconds=1)}
    )["memory_id"]
    question = "what did I note down today"
    hits = mem.recall(question, now=now + timedelta(minutes=1), touch=False)
    assert [h.record.id for h in hits] == [later, first]  # that day's, newest first; not the one days before
    assert old not in {h.record.id for h in hits}
