"""A parent who lets two flats writes a week of things to do on a Saturday: a bill said already late, a weekly
slot said as a span of weekdays, and what is due "this week" asked that weekend."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings

SAID = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)  # a Saturday
LATE = "Overdue: the council tax for Harbour Row was due on 20 November and I still haven't paid it."
SWIMMING = "Swimming for Lena is Tuesday to Thursday during the holidays, 10 to 11am."
PLAY = "Lena's school play is next Thursday at 6pm, I promised to bring the costumes."


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        with time_machine.travel(SAID, tick=False):
            for text in (LATE, SWIMMING, PLAY):
                m.store_memory(text)
        yield m


def test_a_bill_said_to_be_late_is_overdue_and_open(memory: Memory) -> None:
    with time_machine.travel(SAID, tick=False):
        overdue = memory.search_memory("what's overdue?", now=SAID)
        context = memory.session_context(now=SAID)
    assert [(h["content"], h.get("due")) for h in overdue["results"]] == [(LATE, "2026-11-20")]
    assert f"{LATE} (due 2026-11-20 - overdue)" in context["text"]


def test_this_week_on_a_saturday_lists_the_coming_week_and_no_weekly_slot(memory: Memory) -> None:
    with time_machine.travel(SAID, tick=False):
        listed = memory.search_memory("what's due this week?", now=SAID)
    due_days = {h["content"]: h.get("due") for h in listed["results"]}
    assert due_days == {PLAY: "2026-12-03"}
