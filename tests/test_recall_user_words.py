"""How people ask, read as they mean it: a part of the day matched by a clock time in it ("Monday afternoons" for
"every Monday at 2pm"), "what's on" a day read as a diary question ahead and each week's on a weekday in the
plural, and what something cost wanting a sum of money."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import time_machine

from engram import Memory
from engram.lang.answers import asked, gives
from engram.lang.clock import hours, parts_told
from engram.lang.tense import asked_ahead, asks_ahead
from engram.lang.timewords import time_range
from engram.recall.contained import overlaps
from engram.recall.intent import intent

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)  # a Thursday


def test_a_clock_time_says_its_part_of_the_day() -> None:
    assert hours("physio every Monday at 2pm, class 7.30pm, flight 07:40, meet 19.30") == [14, 19, 7, 19]
    assert parts_told("physio every Monday at 2pm") == {"afternoon"}
    assert parts_told("flight at 07:40") == {"morn"}
    # An hour that could be either, a price or a sum is no time of day.
    assert parts_told("bedtime starts at 6.30, jabs at 10.20, £12.50") == frozenset()


def test_a_memory_with_a_time_in_the_afternoon_says_afternoon() -> None:
    weights = {"mondai": 1.0, "afternoon": 1.0}
    share, _ = overlaps(
        weights, ["physio every Monday at 2pm", "gym every Monday at 7am", "Monday afternoons"]
    )
    assert np.allclose(share, [1.0, 0.5, 1.0])


def test_whats_on_a_day_is_read_ahead_and_a_weekdays_part_in_the_plural_as_each_weeks() -> None:
    assert asks_ahead("what's on Friday morning?")
    assert not asks_ahead("what was on Friday?")
    span = asked_ahead(time_range("what's on Friday morning?", NOW), "what's on Friday morning?", NOW)
    assert span is not None and span.after == datetime(2026, 11, 27, tzinfo=UTC)
    # A diary's day is searched too (each week's things on it), a week's things to do only listed.
    assert intent("what's on Friday mornings?") == "find"
    assert intent("what's on this Friday?") == "find"
    assert intent("what's on this week?") == "remind"


def test_what_something_cost_wants_a_sum_of_money() -> None:
    assert asked("how much did the car seat cost?") == "money"
    assert asked("what does baby sensory cost?") == "money"
    assert asked("how much is nursery per day?") == "amount"
    assert not gives("Car seat is a Maxi-Cosi Pebble 360, base fitted in Tom's Skoda", "money")
    assert gives("Baby sensory class Fridays 10am at the library, £6 a session", "money")
    assert gives("rent 1,150 a month on the 1st", "money")
    assert gives("SumUp takes 1.69% per transaction", "money")


def test_whats_on_a_friday_morning_finds_the_weekly_class_and_what_it_cost(mem: Memory) -> None:
    mem.store_memory("Baby sensory class Fridays 10am at the library, £6 a session")
    mem.store_memory("Car seat is a Maxi-Cosi Pebble 360, base fitted in the Skoda")
    found = mem.search_memory("what's on Friday morning?", now=NOW)["results"]
    assert found and "sensory" in found[0]["content"]
    cost = mem.search_memory("how much did the car seat cost?", now=NOW)["results"]
    assert all(h["confidence"] == "low" for h in cost if "Pebble" in h["content"])


def test_whats_on_a_weekday_lists_what_is_due_that_day(mem: Memory) -> None:
    with time_machine.travel(NOW, tick=False):
        mem.store_memory("Dentist appointment on Friday 27 November at 3pm")
        mem.store_memory("Baby sensory class Fridays 10am at the library, £6 a session")
        found = mem.search_memory("what's on Friday?", now=NOW)["results"]
    assert found and found[0]["content"].startswith("Dentist") and found[0].get("due") == "2026-11-27"
