"""A thing to do that comes round on a weekday, told as an instruction ("Email Fiona a progress update every other
Friday"), is due on its next day; a habit or a schedule told as a statement stays never due."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.lang import due

MONDAY = datetime(2026, 11, 23, 8, tzinfo=UTC)


def test_an_instruction_every_other_friday_is_due_on_the_next_friday() -> None:
    text = "Email Fiona a progress update every other Friday."
    assert not due.standing(text)
    assert due.reminder_day(text, MONDAY) == datetime(2026, 11, 27, tzinfo=UTC)
    assert due.deadline_day(text, MONDAY) == datetime(2026, 11, 27, tzinfo=UTC)


def test_asked_later_it_is_due_on_the_next_time_it_comes_round() -> None:
    saturday = datetime(2026, 11, 28, 9, tzinfo=UTC)
    fortnightly = "Email Fiona a progress update every other Friday."
    assert due.reminder_day(fortnightly, MONDAY, saturday) == datetime(2026, 12, 11, tzinfo=UTC)
    weekly = "Send the timesheet to Katrin every Friday."
    assert due.reminder_day(weekly, MONDAY, saturday) == datetime(2026, 12, 4, tzinfo=UTC)
    assert due.reminder_day(weekly, MONDAY, datetime(2026, 12, 4, 7, tzinfo=UTC)) == datetime(
        2026, 12, 4, tzinfo=UTC
    )


def test_a_habit_or_a_schedule_told_as_a_statement_is_never_due() -> None:
    for text in (
        "Marta, our cleaner, comes every other Friday; we pay her 60 pounds in cash.",
        "I run 5k every Tuesday and Thursday before work.",
        "Physio for my left knee every other Tuesday with Fiona at Marchmont Physio.",
        "Don't book calls every Friday afternoon.",
    ):
        assert due.standing(text), text
        assert due.reminder_day(text, MONDAY) is None, text


def test_what_is_kept_out_of_the_hours_is_a_rule() -> None:
    for text in ("No meetings before 9:30 please, I do my best writing first thing.", "No coffee after 2pm."):
        assert due.standing(text), text
    assert not due.standing("No deliveries before 10 December.")
    assert not due.standing("Send the slides before 9:30 tomorrow.")
