"""A year written after a day and its month is that year's: "Approved on 12 November 2026", read forward from 16
November 2026, was a day in November 2027, so a document's approval date was a thing due next year. A birthday's
year is when it began, its day comes back. A weekday said as the one before a holiday ("by the Thursday before
Easter") is counted back from the holiday's next day, as "the Friday before" a date is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import due_day

SAID = datetime(2026, 11, 16, 9, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("Trip approved by the head on 12 November 2026, forms back by 4 December", "2026-12-04"),
        ("Send the renewal form by 12 November 2027", "2027-11-12"),
        ("Send the renewal form by 3 December 2026", "2026-12-03"),
        ("Our son was born on 9 March 2021", "2027-03-09"),  # comes back each year
        ("Order the turkey by the Friday before Christmas", "2026-12-18"),
        ("Book the lamb by the Thursday before Easter", "2027-03-25"),
    ],
)
def test_a_written_year_and_a_weekday_before_a_holiday_are_read(text: str, due: str) -> None:
    found = due_day(text, SAID)
    assert found is not None and found.date().isoformat() == due, found


def test_a_date_of_a_year_gone_is_no_due_day() -> None:
    assert due_day("Approved by the head on 12 November 2026.", SAID) is None


def test_the_weekday_before_a_holiday_passed_is_next_year_s() -> None:
    found = due_day("Book the lamb by the Thursday before Easter", datetime(2027, 3, 26, tzinfo=UTC))
    assert found is not None and found.date().isoformat() == "2028-04-13"
