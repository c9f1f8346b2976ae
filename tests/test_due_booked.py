"""A booking told as done, for a day to come, is due that day: "Booked the car in for its MOT on 3 December at
9am" was read as a past act and never reached the due list."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import due_day

SAID = datetime(2026, 11, 24, 9, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Booked the car in for its MOT at Kwik Fit on 3 December at 9am.", "2026-12-03"),
        ("I booked a table at Rosa's for 3 December.", "2026-12-03"),
        ("Booked the dentist for Friday.", "2026-11-27"),
        ("We've scheduled the boiler service for next Tuesday.", "2026-12-01"),
        ("Made an appointment with the GP for Thursday at 10.", "2026-11-26"),
    ],
)
def test_a_booking_for_a_day_to_come_is_due_that_day(text: str, due: str) -> None:
    found = due_day(text, SAID)
    assert found is not None and found.date().isoformat() == due


@pytest.mark.parametrize(
    "text",
    [
        "Booked the flights on Monday.",  # the day the booking was made
        "I booked the venue last week, it was easy.",
        "Fixed the fence on Saturday and painted it.",
    ],
)
def test_a_booking_made_on_a_day_is_no_appointment(text: str) -> None:
    assert due_day(text, SAID) is None
