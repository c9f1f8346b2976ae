"""A question about what a diary holds ("what do I have on in December", "what's coming up next week") asks for
things to do, as "what do I need to do" does: read as a plain search, "in December" named last December (a month
in the future is last year's when memories are searched) and its filter returned nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.recall.query import intent


@pytest.mark.parametrize(
    "question",
    [
        "what do I have on in December",
        "what have we got on tomorrow",
        "what's coming up next week",
        "anything coming up?",
        "what have I got coming up",
        "what's on this weekend",
        "anything to do before Christmas?",
        "what's left to do this week",
        "what needs doing before the weekend?",
        "what else is still to be done?",
        "what do I need to sort before February?",
        "what needs sorting this week?",
        "what's on my list this week?",
        "what's on my list for Monday?",
        "what do I have on Friday?",
        "what do I have on?",
    ],
)
def test_a_diary_question_asks_for_things_to_do(question: str) -> None:
    assert intent(question) == "remind"


@pytest.mark.parametrize(
    "question",
    [
        "what did I have on my sandwich",  # the past: no diary
        "what is on the menu",
        "what happened to the coming up project",
        "the game is on in June",
        "anything to do in Lisbon?",  # a place to visit, not a diary
        "is there something to do with the boiler noise?",
        "how do I sort the recycling?",
        "what did I sort out with the bank?",
        "what's on my shopping list?",  # a list of its own, searched
        "what's on my list of films to watch?",
        "how many followers do we have on TikTok?",  # a place, not a time, after "have on"
        "what do we have on file for the Hendersons?",
    ],
)
def test_other_questions_with_on_or_coming_up_do_not(question: str) -> None:
    assert intent(question) != "remind"


def test_what_is_on_in_a_month_lists_what_is_due_then(mem: Memory) -> None:
    now = datetime(2026, 11, 27, 9, tzinfo=UTC)
    with time_machine.travel(now, tick=False):
        due = mem.store_memory("Self-assessment for the performance review is due 4 December.")
        mem.store_memory("Self-assessment for the annual tax return is due 31 January.")
    found = mem.search_memory("what do I have on in December", now=now, touch=False)
    assert found["query_analysis"]["intent"] == "remind"
    assert [r["id"] for r in found["results"]] == [due["memory_id"]]
    assert found["results"][0]["due"] == "2026-12-04"


def test_anything_to_do_before_a_holiday_lists_what_is_due_by_then(mem: Memory) -> None:
    now = datetime(2026, 11, 26, 10, tzinfo=UTC)
    with time_machine.travel(now, tick=False):
        tax = mem.store_memory("Pay the council tax instalment by the 1st of December.")
        mem.store_memory("Book the MOT for the Fiesta, it runs out on 14 January.")
        mem.store_memory("I play second violin in the community orchestra.")
    found = mem.search_memory("anything to do before Christmas?", now=now, touch=False)
    assert found["query_analysis"]["intent"] == "remind"
    assert [(r["id"], r["due"]) for r in found["results"]] == [(tax["memory_id"], "2026-12-01")]
