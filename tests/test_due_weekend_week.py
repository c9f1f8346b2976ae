"""Due days a user's week brings: a deadline said to have passed, a weekly span of days, "this week" at the weekend."""

from datetime import UTC, datetime

import pytest

from engram.lang.due import reminder_day, standing, window

SATURDAY = datetime(2026, 11, 28, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "due"),
    [
        (
            "Overdue: the council tax was due on 20 November and I still haven't paid it.",
            datetime(2026, 11, 20),
        ),
        ("The invoice was due by the 3rd.", datetime(2026, 11, 3)),
        ("Rent was due on the 30th, still not in.", datetime(2026, 10, 30)),
        ("The essay is due on 20 November.", datetime(2027, 11, 20)),  # said as ahead: next year's
        (
            "The report was due on 2 December.",
            datetime(2026, 12, 2),
        ),  # a year back is no deadline just missed
    ],
)
def test_a_deadline_said_to_have_passed_is_behind_the_day_it_was_said(text: str, due: datetime) -> None:
    assert reminder_day(text, SATURDAY, SATURDAY) == due.replace(tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "Swimming for Lena is Tuesday to Thursday during the holidays, 10 to 11am.",
        "Claire works at the university library Monday to Wednesday.",
        "The office is staffed Mon-Fri.",
    ],
)
def test_a_span_of_weekdays_with_no_week_named_is_each_week(text: str) -> None:
    assert standing(text)
    assert reminder_day(text, SATURDAY, SATURDAY) is None


@pytest.mark.parametrize(
    "text",
    [
        "I'm away Monday to Wednesday next week.",
        "Cover the front desk Monday to Wednesday.",
        "Conference runs Tuesday to Thursday, 8-10 December.",
    ],
)
def test_a_span_of_weekdays_in_one_week_is_due(text: str) -> None:
    assert not standing(text)
    assert reminder_day(text, SATURDAY, SATURDAY) is not None


def test_this_week_asked_at_the_weekend_runs_to_the_end_of_the_next() -> None:
    for asked in (SATURDAY, datetime(2026, 11, 29, 20, tzinfo=UTC)):
        span = window("what's due this week?", asked)
        assert span is not None and span.before == datetime(2026, 12, 7, tzinfo=UTC)
        assert span.contains(datetime(2026, 12, 3, tzinfo=UTC))
    wednesday = window("what's due this week?", datetime(2026, 11, 25, 9, tzinfo=UTC))
    assert wednesday is not None and wednesday.before == datetime(2026, 11, 30, tzinfo=UTC)
