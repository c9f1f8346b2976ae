"""Reminders as a user meets them: a stated deadline makes a reminder whatever its text suggested, rules and habits
are never due, and the "what's due" listing is the same with or without the reminders filter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.lang import due
from engram.model.record import Category

RULES_AND_HABITS = (
    "We must not deploy on Fridays after 2pm, that's a team rule.",
    "I run 5k every Tuesday",
    "Every Monday I water the plants.",
)


def _soon(days: int) -> datetime:
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=days)


def _dated(days: int) -> str:
    day = _soon(days)
    return f"Prepare the slides for my Berlin conference talk by {day.day} {day:%B}."


def test_a_stated_deadline_makes_a_reminder_with_its_day(real: Memory) -> None:
    text = _dated(9)
    stored = real.get(real.store_memory(text)["memory_id"])
    assert stored.category is Category.REMINDERS
    listed = real.search_memory("what do I need to do?")["results"]
    assert [(h["content"], h["due"]) for h in listed] == [(text, _soon(9).date().isoformat())]


def test_a_forced_category_stays_even_with_a_deadline(real: Memory) -> None:
    out = real.store_memory(_dated(9), {"force_category": "projects"})
    assert real.get(out["memory_id"]).category is Category.PROJECTS


def test_rules_and_habits_are_not_listed_as_due(real: Memory) -> None:
    for text in RULES_AND_HABITS:
        real.store_memory(text)
    real.store_memory("Call the plumber tomorrow.")
    for options in (None, {"content_type": "reminders"}):
        listed = real.search_memory("what do I need to do?", options)["results"]
        assert [h["content"] for h in listed] == ["Call the plumber tomorrow."], options


@pytest.mark.parametrize("content_type", ["reminders", "reminder", "task"])
def test_the_reminders_filter_lists_what_the_plain_question_lists(real: Memory, content_type: str) -> None:
    for days in (0, 3, 9, 40):  # today's is due this week whatever day it is
        real.store_memory(_dated(days))
    real.store_memory("The gym is closed on Sundays.")
    asked = "what's due this week?"
    plain = real.search_memory(asked, touch=False)
    filtered = real.search_memory(asked, {"content_type": content_type}, touch=False)
    assert plain["results"]
    assert [(h["id"], h["due"]) for h in filtered["results"]] == [
        (h["id"], h["due"]) for h in plain["results"]
    ]
    week = due.window(asked, datetime.now(UTC))
    assert week is not None
    expected = {_soon(d).date().isoformat() for d in (0, 3, 9, 40) if week.contains(_soon(d))}
    assert {h["due"] for h in plain["results"]} == expected


@pytest.mark.parametrize(
    "question",
    [
        "what should I do?",
        "what must I get done?",
        "what's on my plate?",
        "what am I meant to be doing?",
        "what should I be doing?",
    ],
)
def test_other_ways_of_asking_for_things_to_do_list_the_reminders(real: Memory, question: str) -> None:
    text = _dated(4)
    real.store_memory(text)
    real.store_memory("Lena prefers tea to coffee in the evening")
    listed = real.search_memory(question, touch=False)["results"]
    assert [(h["content"], h["due"]) for h in listed] == [(text, _soon(4).date().isoformat())], question


def test_a_weekend_task_is_listed_for_the_weekend_and_a_later_one_is_not(real: Memory) -> None:
    garage = "Clean out the garage this weekend"
    real.store_memory(garage)
    real.store_memory(_dated(12))
    listed = real.search_memory("what should I do this weekend?", touch=False)["results"]
    assert [h["content"] for h in listed] == [garage]


def test_an_undated_task_worded_as_one_is_listed_and_a_statement_is_not(real: Memory) -> None:
    plumber = "Call the plumber about the boiler"
    real.store_memory(plumber)
    statement = "Ollie in finance handles expense claims."
    real.remember(statement, kind="task")  # a statement the kind classifier may call a task
    listed = [h["content"] for h in real.search_memory("what do I need to do?", touch=False)["results"]]
    assert plumber in listed and statement not in listed


def test_a_question_up_to_a_date_lists_what_is_due_before_it(real: Memory) -> None:
    soon, later = _dated(2), f"Renew the car insurance by {_soon(12).day} {_soon(12):%B}."
    real.store_memory(soon)
    real.store_memory(later)
    limit = _soon(6)
    asked = f"what do I have to do before {limit.day} {limit:%B}?"
    listed = [h["content"] for h in real.search_memory(asked, touch=False)["results"]]
    assert soon in listed and later not in listed


def test_a_holiday_in_a_request_for_things_to_do_is_no_topic(real: Memory) -> None:
    """'before Christmas' says which days; searched as a topic, only a memory naming Christmas answered."""
    bill = f"Pay the electricity bill by {_soon(1).day} {_soon(1):%B}."
    asked = "what do I have to do before Christmas?"
    span = due.window(asked, _soon(0))
    if span is None or span.before is None or not span.contains(_soon(1)):
        pytest.skip("tomorrow is not before the next Christmas")
    real.store_memory(bill)
    real.store_memory("I love the Christmas markets in Vienna.")
    listed = [h["content"] for h in real.search_memory(asked, touch=False)["results"]]
    assert listed == [bill]
