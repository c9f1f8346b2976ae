"""Nights or evenings counted are a stay's length and "the nights" after a word that is no time preposition a
topic: neither makes a booking or an appointment a habit, so both stay due. A rate or a bare plural still recurs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import reminder_day, standing

SAID = datetime(2026, 11, 21, 8, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        (
            "Respite week for Gran at the care home booked from Monday 7 December, 7 nights. pack her clothes",
            7,
        ),
        ("Cottage in Tenby booked for three nights from Friday 4 December, pay the balance first", 4),
        ("Review at the clinic Wed 2 Dec, bring the notes I've been keeping about the nights", 2),
    ],
)
def test_counted_nights_and_nights_as_a_topic_leave_a_thing_due(text: str, day: int) -> None:
    assert not standing(text)
    found = reminder_day(text, SAID)
    assert found is not None and (found.month, found.day) == (12, day)


@pytest.mark.parametrize(
    "text",
    [
        "I work two evenings a week at the pub",
        "Dad is worse in the evenings",
        "Study nights are Tuesday and Thursday",
        "Mum sleeps badly most nights",
    ],
)
def test_a_rate_or_a_time_of_day_that_comes_round_still_recurs(text: str) -> None:
    assert standing(text)
