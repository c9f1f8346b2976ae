"""A weekday of next week ("Wednesday next week", "Friday of next week", "next week Wednesday") is that weekday of
the coming week, in a memory and in a question: "organ tuner in church Wednesday next week" said on a Tuesday was
due that next Tuesday, and "what's on Wednesday next week?" asked for this week's Wednesday."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import due_day
from engram.lang.window import window

TUESDAY = datetime(2026, 11, 24, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Harrison's organ tuner is in church Wednesday next week 10 till 1", "2026-12-02"),
        ("dentist Friday next week", "2026-12-04"),
        ("Wednesday of next week: team meeting", "2026-12-02"),
        ("next week Wednesday the plumber comes", "2026-12-02"),
        ("Monday next week the boiler man", "2026-11-30"),
        ("Sunday next week lunch at mum's", "2026-12-06"),
        ("call the bank next week", "2026-12-01"),  # next week with no day: a week on, as before
    ],
)
def test_a_weekday_of_next_week_is_due_that_day(text: str, due: str) -> None:
    found = due_day(text, TUESDAY)
    assert found is not None and found.date().isoformat() == due, found


def test_a_question_about_a_weekday_of_next_week_asks_for_that_day() -> None:
    asked = window("what's on Wednesday next week?", TUESDAY)
    assert asked is not None and asked.after is not None and asked.after.date().isoformat() == "2026-12-02"
    assert asked.before is not None and (asked.before - asked.after).days == 1
    week = window("anything due next week?", TUESDAY)
    assert week is not None and week.after is not None and week.after.date().isoformat() == "2026-11-30"
