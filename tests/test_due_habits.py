"""What is never due although it names a day: a habit said with a plural part of day or a recurring day of the
month, and a note of something done; and how a question for what is due soon orders the list."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.lang import due

SAID = datetime(2026, 11, 24, 15, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        "I have piano lessons on Thursday afternoons",
        "We do a team lunch on Fridays",
        "Rent is paid on the 1st",
        "The gym fee is taken on the 15th of every month",
        "The bins are collected on the 2nd",
    ],
)
def test_a_habit_or_a_monthly_day_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None
    assert due.deadline_day(text, SAID) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Rent is due on the 1st", "2026-12-01"),  # a deadline, not a schedule
        ("The party is on the 3rd", "2026-12-03"),
        ("Pay the rent on the 1st", "2026-12-01"),
        ("Piano lesson on Thursday afternoon", "2026-11-26"),  # one afternoon
    ],
)
def test_one_day_of_the_month_or_one_afternoon_is_still_due(text: str, day: str) -> None:
    assert not due.standing(text)
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Ran the parkrun on Saturday",
        "Fixed the leaking tap yesterday",
        "Met Carla on Friday",
        "Sent 3 invoices Monday",
    ],
)
def test_a_note_of_something_done_is_not_due(text: str) -> None:
    assert due.told_as_past(text)
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Scheduled maintenance on Saturday", "2026-11-28"),  # a participle naming a thing
        ("Book the venue on Friday", "2026-11-27"),
        ("Ran out of milk, buy some by Friday", "2026-11-27"),  # a deadline stays a deadline
    ],
)
def test_what_only_looks_done_is_still_due(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


def _day(days: int) -> datetime:
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=days)


def test_what_is_due_soon_lists_the_upcoming_first(real: Memory) -> None:
    """Said today, asked 150 days later: the one still ahead comes first, then the one just missed, and the one
    missed months ago last."""
    texts = {}
    for days, what in (
        (9, "Send the grant report"),
        (147, "Renew the parking permit"),
        (200, "Book the hotel"),
    ):
        day = _day(days)
        texts[days] = f"{what} by {day.day} {day:%B %Y}."
        real.store_memory(texts[days])
    asked = real.search_memory("what is due soon", now=_day(150), touch=False)["results"]
    assert [h["content"] for h in asked] == [texts[200], texts[147], texts[9]]


def test_a_question_naming_days_lists_them_in_calendar_order(real: Memory) -> None:
    ahead = _day(70).replace(day=1)
    first = f"Send the grant report by 1 {ahead:%B %Y}."
    twentieth = f"Book the hotel by 20 {ahead:%B %Y}."
    for text in (twentieth, first):
        real.store_memory(text)
    asked = real.search_memory(f"what is due in {ahead:%B}", now=ahead.replace(day=10), touch=False)[
        "results"
    ]
    assert [h["content"] for h in asked] == [first, twentieth]


@pytest.mark.parametrize(
    "text",
    [
        "Poppy does swimming Tues 5pm at Pyramids pool, Alfie does Beavers on Thursday",
        "Jo plays netball on Wednesday",
    ],
)
def test_a_pastime_done_on_a_weekday_is_each_weeks(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Dad does his driving test on Thursday",  # a determiner: one test
        "Sam does football this Saturday",
        "Becky's works Christmas do is Friday 11 Dec",
        "Do the recycling on Thursday",
    ],
)
def test_a_pastime_on_one_day_stays_due(text: str) -> None:
    assert not due.standing(text)
