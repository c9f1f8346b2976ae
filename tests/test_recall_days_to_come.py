"""A question about days to come ("what am I doing this weekend?", "what am I doing on 5 December?"): nothing was
told on those days, so they filter nothing by when memories were stored, and a date without its year asked ahead
is the next one, not last year's (engram.lang.tense.asked_ahead, engram.agent.listing.memories_of)."""

from __future__ import annotations

from datetime import UTC, datetime

import time_machine

from engram import Memory
from engram.lang.tense import asked_ahead
from engram.lang.timewords import time_range

NOW = datetime(2026, 11, 26, 10, tzinfo=UTC)  # a Thursday


def test_a_date_asked_ahead_is_the_next_one() -> None:
    ahead = asked_ahead(
        time_range("what am I doing on 5 December?", NOW), "what am I doing on 5 December?", NOW
    )
    assert ahead is not None and ahead.after == datetime(2026, 12, 5, tzinfo=UTC)
    march = "what are we doing in March?"
    ahead = asked_ahead(time_range(march, NOW), march, NOW)
    assert ahead is not None and ahead.after == datetime(2027, 3, 1, tzinfo=UTC)
    free = "am I free on Saturday?"
    ahead = asked_ahead(time_range(free, NOW), free, NOW)
    assert ahead is not None and ahead.after is not None and ahead.after > NOW
    saturday = "what's happening on Saturday?"
    ahead = asked_ahead(time_range(saturday, NOW), saturday, NOW)
    assert ahead is not None and ahead.after is not None and ahead.after > NOW


def test_a_date_of_the_past_or_with_its_year_stays() -> None:
    for question in (
        "what is the meeting on 20 November about?",
        "what was I doing on 5 December?",
        "what did I note on 20 November?",
        "what am I doing on 5 December 2025?",
    ):
        named = time_range(question, NOW)
        assert named is not None
        assert asked_ahead(named, question, NOW) == named, question
    assert (
        asked_ahead(time_range("what did I do on 20 November?", NOW), "what did I do on 20 November?", NOW)
        is not None
    )


def test_the_weekend_of_a_date_is_not_this_weekend() -> None:
    named = time_range("what am I doing on the weekend of 5 December?", NOW)
    assert named is None or named.after is None or named.after >= datetime(2026, 12, 5, tzinfo=UTC)


def test_days_to_come_are_answered_by_a_search_not_left_empty(mem: Memory) -> None:
    with time_machine.travel(datetime(2026, 11, 24, 9, tzinfo=UTC), tick=False):
        mem.store_memory("Swapped on call with Gareth - I'm doing 5/6 Dec instead.")
        mem.store_memory("Farai's rugby training moved to Monday nights.")
    with time_machine.travel(NOW, tick=False):
        for question in (
            "what am I doing this weekend?",
            "what am I doing on 5 December?",
            "what am I doing on the weekend of 5 December?",
        ):
            found = mem.search_memory(question, {"min_confidence": "low"}, now=NOW, touch=False)
            assert found["results"], (question, found["query_analysis"])
        # What was told on a day still lists what was stored that day, and only that.
        told = mem.search_memory("what did I tell you on 24 November?", now=NOW, touch=False)
        assert len(told["results"]) == 2, told["query_analysis"]
        none = mem.search_memory("what did I tell you on 20 November?", now=NOW, touch=False)
        assert none["results"] == [], none["query_analysis"]


def test_a_day_to_come_is_answered_with_what_is_planned_on_it(mem: Memory) -> None:
    """ "What am I doing on 3 December?" answered first with a trip on 24 December (the nearest by meaning) and
    "where am I going on 12 December?" with nothing sure: what is due on the day asked answers, and only that."""
    with time_machine.travel(datetime(2026, 11, 24, 9, tzinfo=UTC), tick=False):
        mem.store_memory("Booked the car in for its MOT at Kwik Fit on 3 December at 9am.")
        mem.store_memory("Choir's Christmas concert is on 12 December at 7pm at the Cathedral.")
        mem.store_memory("Going to Dev's parents in Leicester for Christmas, 24 to 27 December.")
        mem.store_memory("Parkrun most Saturdays at Hillsborough Park.")
    with time_machine.travel(NOW, tick=False):
        for question, expected in (
            ("what am I doing on 3 December?", ["Booked the car in"]),
            ("where am I going on 12 December?", ["Choir's Christmas concert"]),
            ("what's planned for 24 December?", ["Going to Dev's parents"]),
        ):
            found = mem.search_memory(question, now=NOW, touch=False)
            shown = [r["content"] for r in found["results"]]
            assert len(shown) == len(expected), (question, shown)
            assert all(s.startswith(e) for s, e in zip(shown, expected, strict=True)), (question, shown)
            assert found["query_analysis"]["time_range"]["applied"] == "due", question
            recalled = mem.recall(question, now=NOW, touch=False)
            assert [h.record.content for h in recalled] == shown, question

        # Nothing to do on the day asked: what else happens then is searched for (a habit is never due).
        found = mem.search_memory("any plans on 5 December?", now=NOW, touch=False)
        assert found["query_analysis"]["time_range"]["applied"] != "due", found["query_analysis"]
        # A day gone by asks what was told then, though its date read ahead would be next year's.
        told = mem.search_memory("what did I save on 24 November?", now=NOW, touch=False)
        assert told["query_analysis"]["time_range"]["applied"] == "filter", told["query_analysis"]
        assert len(told["results"]) == 4, told["results"]
