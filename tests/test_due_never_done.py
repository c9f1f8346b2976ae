""" "Never" before a simple past ("the boiler service was due wed 18th and I never rang them") says a thing was not
done, as "didn't" does in everyday British English: no rule, so a deadline beside it is due, and one gone by is
overdue. Before a base form ("never deploy on Fridays", "I never eat meat") it stays a rule or a habit."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import reminder_days, standing

SAID = datetime(2026, 11, 23, 8, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("boiler service was due wed 18th and I never rang them", datetime(2026, 11, 18, tzinfo=UTC)),
        ("I never booked the MOT, it has to be done by Friday", datetime(2026, 11, 27, tzinfo=UTC)),
        ("never sent the form back - it's due 2 December", datetime(2026, 12, 2, tzinfo=UTC)),
    ],
)
def test_a_deadline_beside_a_thing_not_done_is_due(text: str, day: datetime) -> None:
    assert not standing(text)
    assert reminder_days(text, SAID) == [day]


@pytest.mark.parametrize(
    "text",
    [
        "never deploy on Fridays",
        "I never eat meat",
        "never book calls before 10",
        "Never leave the till open",
    ],
)
def test_never_before_a_base_form_stays_a_rule(text: str) -> None:
    assert standing(text)
