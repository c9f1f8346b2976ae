"""A season names three months ("last summer", "this autumn", "in the spring", "summer 2021"), read as memories are
searched: the latest one begun by now, "last" the latest one ended; "fall" only where it is a season."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from engram.lang.timewords import time_range

NOVEMBER = datetime(2026, 11, 27, 9, tzinfo=UTC)
JULY = datetime(2026, 7, 10, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "now", "after", "before"),
    [
        ("what did we do last summer", NOVEMBER, date(2026, 6, 1), date(2026, 9, 1)),
        ("what did we do last summer", JULY, date(2025, 6, 1), date(2025, 9, 1)),  # this one has not ended
        ("what are we doing this summer", JULY, date(2026, 6, 1), date(2026, 9, 1)),
        ("did I get vaccinated this autumn", NOVEMBER, date(2026, 9, 1), date(2026, 12, 1)),
        ("what did I plant in the spring", NOVEMBER, date(2026, 3, 1), date(2026, 6, 1)),
        ("where did we go in the fall", NOVEMBER, date(2026, 9, 1), date(2026, 12, 1)),
        ("last winter's heating bill", NOVEMBER, date(2025, 12, 1), date(2026, 3, 1)),
        ("which state did she visit in summer 2021", NOVEMBER, date(2021, 6, 1), date(2021, 9, 1)),
        ("the winter of 2022", NOVEMBER, date(2021, 12, 1), date(2022, 3, 1)),  # the winter its January is in
    ],
)
def test_a_season_is_its_three_months(question: str, now: datetime, after: date, before: date) -> None:
    found = time_range(question, now)
    assert found is not None
    assert found.after is not None and found.before is not None
    assert (found.after.date(), found.before.date()) == (after, before)


@pytest.mark.parametrize(
    "question", ["do I fall asleep on the sofa", "spring cleaning checklist", "summer holiday packing list"]
)
def test_a_season_word_that_names_no_time_is_none(question: str) -> None:
    assert time_range(question, NOVEMBER) is None


def test_a_capitalised_season_before_a_name_is_part_of_the_name() -> None:
    assert time_range("when did I go to the Spring Fling Market", NOVEMBER) is None
    found = time_range("what did I do in Summer", NOVEMBER)
    assert found is not None and found.phrase == "in Summer"
