"""Due days and due lists as a teacher who coaches and renovates wrote them: a need the dentist stated with no
day, filed as a reminder, and library books "due back last Friday"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due
from engram.lang.timewords import time_range
from engram.model.record import Category

SAID = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)  # a Thursday
CROWN = "Dentist said I need a crown on the lower left molar."
PLUMBER = "Call the plumber about the dripping kitchen tap."
SKIP = "Ring Sheffield Skips by Friday to extend the skip hire."
BADGE = "Finish the FA coaching module by 15 December."


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Library books were due back last Friday, return them to Broomhill Library.", "2026-11-20"),
        ("The rent was due on Monday and I still haven't paid it.", "2026-11-23"),
        ("The invoice was due by the 3rd.", "2026-11-03"),  # a day of the month, read as before
    ],
)
def test_a_weekday_something_was_due_on_lies_behind(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        with time_machine.travel(SAID, tick=False):
            m.remember(CROWN, category=Category.REMINDERS)  # as the classifier files it
            m.remember(PLUMBER, category=Category.REMINDERS)
            m.store_memory(SKIP)
            m.store_memory(BADGE)
        yield m


def _listed(memory: Memory, question: str) -> list[str]:
    with time_machine.travel(SAID, tick=False):
        return [h["content"] for h in memory.search_memory(question, now=SAID)["results"]]


@pytest.mark.parametrize(
    "question", ["what's due next month?", "what's due next week?", "what's due in January?"]
)
def test_what_names_no_day_is_not_listed_for_days_to_come(memory: Memory, question: str) -> None:
    listed = _listed(memory, question)
    assert CROWN not in listed and PLUMBER not in listed


def test_a_stated_need_is_no_thing_to_do_this_week_and_an_undated_task_is(memory: Memory) -> None:
    listed = _listed(memory, "what do I have to do this week?")
    assert SKIP in listed and PLUMBER in listed and CROWN not in listed


def test_a_month_lists_its_dated_tasks(memory: Memory) -> None:
    assert _listed(memory, "what's due next month?") == [BADGE]


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("what did I save on the 24th?", "2026-11-24"),
        ("what did I write down on the 24th of November?", "2026-11-24"),
        ("what did we decide on the 30th?", "2026-10-30"),  # not yet this month: last month's
    ],
)
def test_a_day_of_the_month_asked_about_is_the_latest_one(question: str, day: str) -> None:
    span = time_range(question, SAID)
    assert span is not None and span.after is not None and span.after.date().isoformat() == day
    assert span.before is not None and (span.before - span.after).days == 1


@pytest.mark.parametrize(
    ("question", "day"),
    [("what is due on the 30th?", "2026-11-30"), ("what do I have on the 3rd?", "2026-12-03")],
)
def test_a_day_of_the_month_asked_for_things_to_do_is_the_next_one(question: str, day: str) -> None:
    span = due.window(question, SAID)
    assert span is not None and span.after is not None and span.after.date().isoformat() == day


@pytest.mark.parametrize(
    ("said", "question", "day"),
    [
        (
            datetime(2026, 12, 15, tzinfo=UTC),
            "what did I save on the 31st?",
            "2026-10-31",
        ),  # November has no 31st
        (
            datetime(2026, 3, 10, tzinfo=UTC),
            "what did I note on the 30th?",
            "2026-01-30",
        ),  # nor February a 30th
    ],
)
def test_the_latest_day_of_the_month_skips_months_without_it(said: datetime, question: str, day: str) -> None:
    span = time_range(question, said)
    assert span is not None and span.after is not None and span.after.date().isoformat() == day


def test_a_day_no_month_has_is_no_day_nor_a_year() -> None:
    assert time_range("what did I note on the 45th?", SAID) is None  # was read as 1945


def test_a_floor_is_no_day() -> None:
    assert time_range("who lives on the 3rd floor?", SAID) is None
    assert due.window("who lives on the 3rd floor?", SAID) is None


def test_what_was_noted_on_a_day_of_the_month_comes_back(tmp_path: Path) -> None:
    skip = "Skip hire from Sheffield Skips ends on Friday, ring them to extend or swap it."
    with Memory(tmp_path / "d.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as memory:
        with time_machine.travel(datetime(2026, 11, 24, 8, tzinfo=UTC), tick=False):
            memory.store_memory(skip)
        with time_machine.travel(datetime(2026, 11, 20, 8, tzinfo=UTC), tick=False):
            memory.store_memory("Oat milk in coffee, never instant.")
        with time_machine.travel(SAID, tick=False):
            found = memory.search_memory("what did I save on the 24th?", now=SAID)
    assert [h["content"] for h in found["results"]] == [skip]


def test_a_passed_event_is_not_overdue_and_a_late_task_is(tmp_path: Path) -> None:
    match, fee = "Match day is Saturday: kick-off 10am at Hollins Park.", "Pay the club subs by Friday."
    with Memory(tmp_path / "late.db", embedder=FakeEmbedder()) as m:
        with time_machine.travel(SAID, tick=False):  # Thursday: the match on the 28th, the subs on the 27th
            m.remember(match, category=Category.REMINDERS)
            m.remember(fee, category=Category.REMINDERS)
        later = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
        with time_machine.travel(later, tick=False):
            listed = [h["content"] for h in m.search_memory("what's overdue?", now=later)["results"]]
            coming = [h["content"] for h in m.search_memory("what's due this week?", now=SAID)["results"]]
    assert listed == [fee]  # the match was played; the subs are still owed
    assert match in coming and fee in coming  # before their days both are listed
