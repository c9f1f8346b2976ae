"""Due days as people shorten them: a weekday cut short ("by Fri", "on tues"), a day and month with dots and no
year ("expires 12.12."), a numeric date whose order is not said ("10/12": the nearer day that is not past), a
Chinese "before the 20th" (12月20日前); and a schedule said as a rate or a participle ("£164 a month, paid on the
1st") is no thing to do."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.classify import forms
from engram.lang import due

SAID = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Pay Tom back for the tickets by Fri", "2026-12-04"),
        ("Send the invoice before thurs.", "2026-12-03"),
        ("Dentist on tues at 9", "2026-12-01"),
        ("renew the car insurance - expires 12.12.", "2026-12-12"),
        ("Abgabe bis 3.1.", "2027-01-03"),
        ("School play 10/12 at 2pm", "2026-12-10"),  # 10 December, not 12 October next year
        ("Renew the parking permit by 12/20", "2026-12-20"),  # only one reading is a date
        ("Book the dentist before 1/2/2027", "2027-01-02"),  # both are: the nearer
        ("12月20日前给岳母寄圣诞卡。", "2026-12-20"),
    ],
)
def test_a_shortened_date_is_read(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day, found


@pytest.mark.parametrize(
    "text",
    [
        "Put on sun cream before the walk",  # no day cut short
        "Sat down with the plumber about the boiler",
        "Upgrade the build image to Python 3.12.",  # a version, not a date
        "Release 2.4. goes out with the fix",
    ],
)
def test_look_alikes_are_no_days(text: str) -> None:
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Council tax is £164 a month, paid on the 1st by direct debit.",
        "bins: black on tues, blue every other fri",
    ],
)
def test_a_schedule_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


def test_a_chinese_day_before_marks_a_deadline() -> None:
    assert "deadline" in forms.read("12月20日前给岳母寄圣诞卡。", SAID)
    assert "deadline" not in forms.read("岳父喜欢喝普洱茶。", SAID)
