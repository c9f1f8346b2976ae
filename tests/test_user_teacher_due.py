"""Due days and due lists as a teacher and head of year wrote them: a deadline "due in last Friday", a weekday
named after the date it leads up to, a garage named in the plural, meetings and evenings with their hours written
"4.30" or "4-7", and a race entered in the past tense."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due
from engram.model.record import Category

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)  # a Thursday


def _days(text: str, said: datetime) -> list[str]:
    return [d.date().isoformat() for d in due.reminder_days(text, said)]


def test_work_due_in_last_friday_lies_behind() -> None:
    text = "The coursework marks for 9A were due in last Friday and I still haven't uploaded them."
    found = due.reminder_day(text, NOW, NOW)
    assert found is not None and found.date().isoformat() == "2026-11-20"


def test_a_weekday_named_after_a_date_is_the_one_beside_it() -> None:
    said = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)  # a Sunday
    text = "My brother flies into Inverness Sat 5 Dec at 9.10. I'm driving up Friday night after work to meet him."
    assert _days(text, said) == ["2026-12-04", "2026-12-05"]
    # No date before it: the coming Friday, as read before.
    assert _days("I'm driving up Friday night after work.", said) == ["2026-11-27"]


def test_a_garage_whose_name_ends_in_a_plural_holds_no_weekly_day() -> None:
    said = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)  # a Wednesday
    text = "take the van to Govan Tyres Monday 9am, then walk to the office"
    assert not due.standing(text)
    day = due.deadline_day(text, said)
    assert day is not None and day.date().isoformat() == "2026-11-30"
    # Held in the plural on a weekday, each week's still.
    assert due.standing("Rehearsals Wednesday 7:30 in the church hall")


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        (
            "Union rep meeting Thursday next week 3.45 in the main office",
            datetime(2026, 11, 24, tzinfo=UTC),
            "2026-12-03",
        ),
        ("Year 8 parents' evening tonight 5-8, I'm in the gym hall", NOW, "2026-11-26"),
        ("Choir concert Friday at 7.30 in the cathedral", NOW, "2026-11-27"),
    ],
)
def test_a_meeting_or_evening_with_its_hours_is_on_the_list(text: str, said: datetime, day: str) -> None:
    assert due.to_do(text)
    found = due.deadline_day(text, said)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Fixed rate at 2.49% with the building society, about £540 a month",
        "The loan is at 3.75% over five years",
    ],
)
def test_a_rate_is_no_time_of_day(text: str) -> None:
    assert not due.to_do(text)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def _store(memory: Memory, text: str, said: datetime) -> None:
    with time_machine.travel(said, tick=False):
        memory.store_memory(text)


def _listed(memory: Memory, question: str) -> list[str]:
    with time_machine.travel(NOW, tick=False):
        return [h["content"] for h in memory.search_memory(question, now=NOW)["results"]]


def test_work_due_last_friday_is_overdue(memory: Memory) -> None:
    late = "The coursework marks for 9A were due in last Friday and I still haven't uploaded them."
    _store(memory, late, NOW)
    assert late in _listed(memory, "what's overdue?")
    assert late not in _listed(memory, "what do I have to do tomorrow?")


def test_an_appointment_on_a_monday_is_listed_for_that_monday(memory: Memory) -> None:
    van = "take the van to Govan Tyres Monday 9am, then walk to the office"
    _store(memory, van, datetime(2026, 11, 25, 9, 0, tzinfo=UTC))
    assert van in _listed(memory, "what have I got on Monday the 30th?")
    assert van in _listed(memory, "what's due next week?")


def test_a_race_entered_is_not_pending_this_week(memory: Memory) -> None:
    race = "Signed up for the Kelpies 10k, Sunday 14 March 2027, Falkirk start. Hoping for under 50 minutes"
    plumber = "Call the plumber about the dripping kitchen tap."
    with time_machine.travel(datetime(2026, 11, 3, 9, 0, tzinfo=UTC), tick=False):
        memory.remember(race, category=Category.REMINDERS)  # as the classifier may file it
        memory.remember(plumber, category=Category.REMINDERS)
    listed = _listed(memory, "what's due this week?")
    assert plumber in listed and race not in listed  # a thing to do naming no day is pending, the race not
