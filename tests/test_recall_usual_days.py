"""A day asked about in the present simple or with a part of the day in the plural ("what do we do on Friday
night?", "on Friday nights") is every such day: what usually happens then is searched for, not the memories told
on last Friday (engram.lang.timewords, engram.recall.intent.asks_what_usually)."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine

from engram import Memory
from engram.lang.timewords import time_range
from engram.recall.intent import asks_what_usually

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)  # a Thursday


def test_a_weekday_with_a_plural_part_of_the_day_names_no_single_day() -> None:
    assert time_range("what do we do on Friday nights?", NOW) is None
    assert time_range("where does she go on Monday evenings?", NOW) is None
    friday = time_range("what did I do on Friday night?", NOW)
    assert friday is not None and friday.after == datetime(2026, 11, 20, tzinfo=UTC)


def test_the_present_simple_asks_what_usually_happens() -> None:
    assert asks_what_usually("what do we do on Friday night?")
    assert asks_what_usually("where does Alfie go on Thursday?")
    assert not asks_what_usually("what did I tell you on Friday?")
    assert not asks_what_usually("what do I have saved from Friday?")
    assert not asks_what_usually("what happened on Friday?")
    assert not asks_what_usually("what did I do last weekend?")  # "do" the verb, not asking in the present


def test_a_habit_is_found_for_a_question_about_its_day(mem: Memory) -> None:
    with time_machine.travel(datetime(2026, 11, 25, 9, tzinfo=UTC), tick=False):
        mem.store_memory("We always do pizza and a film on Friday nights")
        mem.store_memory("Ring Mum on Sunday afternoons, she gets lonely")
    with time_machine.travel(datetime(2026, 11, 20, 18, tzinfo=UTC), tick=False):
        mem.store_memory("Booked the car in for its service")  # told on last Friday
    with time_machine.travel(NOW, tick=False):
        for question in ("what do we do on Friday night?", "what do we do on Friday nights?"):
            found = mem.search_memory(question)["results"]
            assert found and "pizza" in found[0]["content"], question
        told = [r["content"] for r in mem.search_memory("what did I tell you on Friday?")["results"]]
        assert told == ["Booked the car in for its service"]
