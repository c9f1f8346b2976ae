"""A day pointed to from when it was said ("next Thursday", "this Friday", "Tuesday week", "a week on Monday") puts
what the memory tells on the calendar, whatever it is: "Lunch and learn on feature flags next Thursday, I'm
presenting Unleash" had no due day and was missing from "what's on today?" on that Thursday."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import Memory
from engram.lang.events import on_calendar

FRIDAY = datetime(2026, 11, 20, 8, tzinfo=UTC)
THURSDAY = datetime(2026, 11, 26, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "pointed"),
    [
        ("Lunch and learn on feature flags next Thursday, I'm presenting Unleash", True),
        ("Quiz night at the Crown this Friday, Jo's team", True),
        ("Sports day is Tuesday week", True),
        ("Boiler service a week on Monday", True),
        ("We met last Thursday about the budget", False),
        ("Swimming on Thursdays with Leo", False),
    ],
)
def test_a_day_pointed_to_ahead_is_on_the_calendar(text: str, pointed: bool) -> None:
    assert on_calendar(text) is pointed


def test_a_talk_next_thursday_is_on_that_day_s_list(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as memory:
        with time_machine.travel(FRIDAY, tick=False):
            memory.store_memory("Lunch and learn on feature flags next Thursday, I'm presenting Unleash")
            memory.store_memory("We use Unleash for feature flags, self-hosted at flags.internal")
        with time_machine.travel(THURSDAY, tick=False):
            found = memory.search_memory("what's on today?", now=THURSDAY, touch=False)["results"]
    assert [h["content"] for h in found] == [
        "Lunch and learn on feature flags next Thursday, I'm presenting Unleash"
    ]
    assert found[0]["due"].startswith("2026-11-26")
