"""A note of a talk headed by its weekday and reporting what was said ("Call with Fiona on Monday: she thinks ...",
written on the Tuesday) tells of a talk that took place: no day it is due. A talk ahead ("Meeting with Rui on
Friday: bring the plots") is due that day; a flat's number written with a slash ("7/2 Marchmont Crescent") is no
date."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.lang import due

TUESDAY = datetime(2026, 11, 24, 8, tzinfo=UTC)


def test_a_note_of_a_talk_that_took_place_is_not_due() -> None:
    for text in (
        "Call with Fiona on Monday: she wants the drought chapter first and asked me to cut experiment 3.",
        "Meeting with Rui on Tuesday: move the segmentation to Python, he'll lend me his GPU box.",
        "Call with Tom on Monday: he'll pay half of the invoice this week, wants Maggie trained.",
    ):
        assert due.deadline_day(text, TUESDAY) is None, text


def test_a_talk_ahead_is_due_on_its_day() -> None:
    assert due.deadline_day("Meeting with Rui on Friday: bring the plots.", TUESDAY) == datetime(
        2026, 11, 27, tzinfo=UTC
    )


def test_a_flat_number_with_a_slash_is_no_date() -> None:
    text = "Our flat: 7/2 Marchmont Crescent, Edinburgh EH9 1HE. Buzzer is broken, phone when you're outside."
    assert due.reminder_day(text, TUESDAY) is None
    assert due.deadline_day("Send the rent by 3/12.", TUESDAY) == datetime(2026, 12, 3, tzinfo=UTC)


def test_today_after_a_step_done_is_when_it_was_done() -> None:
    monday = datetime(2026, 11, 16, 8, tzinfo=UTC)
    sown = "Drought batch 4 sown today, harvest in three weeks."
    assert due.reminder_day(sown, monday) == datetime(2026, 12, 7, tzinfo=UTC)
    for text in ("The report must be sent today.", "Finish the chapter today."):
        assert due.reminder_day(text, monday) == datetime(2026, 11, 16, tzinfo=UTC), text
