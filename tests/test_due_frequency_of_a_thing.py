"""A frequency said of a thing ("the weekly report", "the daily living section") does not make a statement with a
deadline a habit: "Submit the weekly report by Friday" was never due, and a benefits form due back by Friday next
week was missing from every due list. German "nie" (never) is no rule in a Polish line, where it means "not"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang.due import reminder_days, standing

SAID = datetime(2026, 11, 24, 8, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Submit the weekly report by Friday", datetime(2026, 11, 27, tzinfo=UTC)),
        ("Send the monthly accounts to the bookkeeper by 5 December", datetime(2026, 12, 5, tzinfo=UTC)),
        (
            "Her housing form has to be back with the council by Friday next week. I'm filling in the daily"
            " living part with her",
            datetime(2026, 12, 4, tzinfo=UTC),
        ),
        ("Urodziny cioci Ewy 3 grudnia - kupić kwiaty, nie róże", datetime(2026, 12, 3, tzinfo=UTC)),
    ],
)
def test_a_deadline_beside_a_things_frequency_is_due(text: str, day: datetime) -> None:
    assert not standing(text)
    assert reminder_days(text, SAID) == [day]


@pytest.mark.parametrize(
    "text",
    [
        "We do the weekly shop on Saturdays",
        "Pay the rent monthly by standing order",
        "The daily standup is at 9:45",
        "Take the tablets daily until the course ends",
        "Ich trinke nie Kaffee nach drei",
    ],
)
def test_what_holds_each_time_stays_a_habit(text: str) -> None:
    assert standing(text)
