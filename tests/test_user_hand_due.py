"""Days a person writes by hand, as a new user stored them: a birthday said with "the 2nd of December", an
anniversary written 14/08 beside the year of the wedding, a weekday with its date "the 18th of December", a task
for "this week", and a weekly habit said as what a weekday is ("Sunday evening is family time")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due, events
from engram.model.record import Category, Kind

SAID = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("My brother Ravi's birthday is on the 2nd of December.", "2026-12-02"),
        ("Our wedding anniversary is 14/08, Anjali and I married in 2015.", "2027-08-14"),
        ("Grandad's birthday is the 1st of March; he was born in 1941.", "2027-03-01"),
        (
            "Flight to Lisbon on Friday the 18th of December, TAP 1357 leaving Manchester at 06:10.",
            "2026-12-18",
        ),
        ("Drinks with the Lisbon team on Monday, the 21st of December.", "2026-12-21"),
        ("Call the plumber about the dripping kitchen tap this week.", "2026-11-29"),
        ("Sort out the Christmas card list this week, and order stamps.", "2026-11-29"),
    ],
)
def test_the_day_written_by_hand_is_the_reminders_day(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "My brother Ravi's birthday is on the 2nd of December.",
        "Our wedding anniversary is 14/08, Anjali and I married in 2015.",
    ],
)
def test_an_occasion_written_by_hand_comes_back_every_year(text: str) -> None:
    assert events.yearly(text) and events.occasion(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sunday evening is family time, no laptops at the table.",
        "Friday night is pizza night.",
        "Friday night is pizza night with the kids, no screens",
        "Saturday morning is family time at the leisure centre.",
        "Landlord is Mr Patel, rent £950 on the 28th by standing order.",  # "by" says how, not by when
        "Monday is bin day.",
        "Thursday evenings are for choir practice.",
        # things held in the plural on a bare weekday
        "I play second violin in the community orchestra, rehearsals Wednesday 7:30 at the church hall.",
        "Swimming lessons Saturday at 10 for Leo.",
        # a liking or a dislike bounded by a time of day
        "User dislikes meetings before 10am.",
        "I like to finish by 5.",
    ],
)
def test_what_holds_each_week_or_month_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID, SAID) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Monday is the deadline for the grant report.", "2026-11-30"),
        ("Friday is my last day at Ledgerly.", "2026-12-04"),
        ("Tuesday is fine for the dentist, at 3pm.", "2026-12-01"),
        ("Wednesday is lunch with Priya at the Thai place.", "2026-12-02"),
        ("Send the signed form by email by Friday.", "2026-12-04"),
        ("Meetings Monday 7 Dec with the auditors.", "2026-12-07"),  # a weekday with its date: one day
        ("Drinks Friday with the team!", "2026-12-04"),  # "drinks" is a verb too
    ],
)
def test_a_weekday_that_is_one_day_stays_due(text: str, day: str) -> None:
    assert not due.standing(text)
    found = due.reminder_day(text, SAID, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Dad's birthday was on the 2nd of December, we took him to Dishoom.",  # a story: when it happened
        "I called the plumber earlier this week.",
    ],
)
def test_what_was_told_as_past_stays_undated(text: str) -> None:
    assert due.due_day(text, SAID) is None


def test_tomorrow_shortened_and_a_weekday_missed_are_read() -> None:
    said = datetime(2026, 11, 26, 9, tzinfo=UTC)  # a Thursday
    for text in ("call the vet tmrw", "ring the gas man 2moro am", "tmr: dentist 9am"):
        found = due.reminder_day(text, said, said)
        assert found is not None and found.date().isoformat() == "2026-11-27", text
    for text, day in (
        ("was meant to pay the deposit protection fee last monday and still haven't", "2026-11-23"),
        ("should have sent the signed form last Friday", "2026-11-20"),
    ):
        found = due.reminder_day(text, said, said)
        assert found is not None and found.date().isoformat() == day, text


@pytest.mark.parametrize(
    "text",
    ["Can't stand coriander. Love a Sunday roast.", "Any Friday works for the plumber to come round."],
)
def test_a_weekday_after_a_or_any_is_no_day(text: str) -> None:
    assert due.reminder_day(text, SAID, SAID) is None
    assert due.reminder_day("Call Mum on Sunday about the roast.", SAID, SAID) is not None


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def _store(memory: Memory, text: str) -> dict[str, Any]:
    with time_machine.travel(SAID, tick=False):
        return dict(memory.store_memory(text)["analysis"])


def test_a_birthday_next_week_is_in_next_weeks_list_and_a_habit_is_not(memory: Memory) -> None:
    ravi = _store(memory, "My brother Ravi's birthday is on the 2nd of December.")
    assert ravi["due_date"] == "2026-12-02"
    _store(memory, "Sunday evening is family time, no laptops at the table.")
    _store(memory, "Flight to Lisbon on Friday the 18th of December, TAP 1357 leaving Manchester at 06:10.")
    with time_machine.travel(SAID, tick=False):
        listed = memory.search_memory("what's due next week?", now=SAID)
    due_days = {h["content"]: h.get("due") for h in listed["results"]}
    assert due_days == {"My brother Ravi's birthday is on the 2nd of December.": "2026-12-02"}


def test_what_is_overdue_holds_no_reminder_that_names_no_day(memory: Memory) -> None:
    with time_machine.travel(datetime(2026, 11, 10, 9, 0, tzinfo=UTC), tick=False):
        memory.store_memory("Send the invoice to Acme by 20 November.")
    _store(memory, "Remember to buy a present for Ravi, he wants the new Le Guin biography.")
    _store(memory, "Call the bank about the mortgage.")
    with time_machine.travel(SAID, tick=False):
        found = memory.search_memory("what's overdue?", now=SAID)
    assert [(h["content"][:16], h.get("due")) for h in found["results"]] == [
        ("Send the invoice", "2026-11-20")
    ]


def test_a_birthday_coming_up_is_among_the_open_tasks_at_a_sessions_start(memory: Memory) -> None:
    """An occasion is a fact about someone (kind identity) filed as a reminder: the session's context lists it with
    its day among the things coming up, not only as a line about that person."""
    ravi = memory.store_memory("My brother Ravi's birthday is on the 2nd of December.")["memory_id"]
    stored = memory.get(ravi)
    memory.store.update(stored.model_copy(update={"kind": Kind.IDENTITY, "category": Category.REMINDERS}))
    context = memory.session_context(now=SAID)
    assert ravi in context["sections"]["Open tasks"]
    assert "Ravi's birthday is on the 2nd of December. (due 2026-12-02)" in context["text"]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("My son Arjun starts secondary school in September 2027.", "2027-09-01"),
        (
            "Our mortgage fixed rate ends in June 2027; look at remortgaging three months before.",
            "2027-06-01",
        ),
    ],
)
def test_a_month_of_a_year_to_come_is_its_first_day_and_no_deadline(text: str, day: str) -> None:
    """Listed by its month, never in this week's list; a month is a plan's horizon, so no reminder is made of it."""
    found = due.reminder_day(text, SAID, SAID)
    assert found is not None and found.date().isoformat() == day
    assert due.deadline_day(text, SAID) is None


def test_this_weeks_list_holds_no_plan_for_a_later_year(memory: Memory) -> None:
    _store(memory, "Call the plumber about the dripping kitchen tap this week.")
    arjun = memory.store_memory("My son Arjun starts secondary school in September 2027.")["memory_id"]
    memory.store.update(memory.get(arjun).model_copy(update={"category": Category.REMINDERS}))
    with time_machine.travel(SAID, tick=False):
        found = memory.search_memory("what's due this week?", now=SAID)
    assert [h["content"][:16] for h in found["results"]] == ["Call the plumber"]
