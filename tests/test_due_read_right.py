"""Dates a user writes, read as the user means them: a date inside a condition is no deadline, a state that ends
on a day is no thing to do, a weekday alone after a date is the coming one unless the text ties it to the date, a
span given "within a week of" an event counts from the event, and a memory cannot be said in the future."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput
from engram.lang import due
from engram.model.record import utcnow

MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _days(text: str, said: datetime = MONDAY) -> list[str]:
    return [d.date().isoformat() for d in due.reminder_days(text, said)]


@pytest.mark.parametrize(
    "text",
    [
        "If the van fails its MOT again before Christmas we're selling it and buying a used Berlingo.",
        "Decided with Priya: unless the landlord fixes the damp by 15 January, we give notice.",
        "In case the ferry is cancelled on the 19th, the hotel in Holyhead is the Boathouse, 01407 760 000.",
        "Falls die Heizung bis Freitag nicht repariert ist, ziehen wir zu meiner Schwester.",
    ],
)
def test_a_date_inside_a_condition_is_no_deadline(text: str) -> None:
    assert _days(text) == []
    assert due.deadline_day(text, MONDAY) is None


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # The condition's day is when to act: the main clause asks something of the speaker.
        ("If the plumber hasn't rung back by Thursday, call the other firm.", ["2026-12-03"]),
        (
            "Ring the garage tomorrow; if it is not fixed by 9 Dec, book the hire car.",
            ["2026-12-01", "2026-12-09"],
        ),
        # A day outside the condition stays.
        ("Bonfire at the allotment Saturday unless it's windy.", ["2026-12-05"]),
    ],
)
def test_a_date_a_condition_gives_an_instruction_stays(text: str, days: list[str]) -> None:
    assert _days(text) == days


@pytest.mark.parametrize(
    "text",
    [
        "We're on a two-year fix at 1.99% with Coventry and that ends 28 February.",
        "Tom's contract at the agency finishes at the end of January.",
        "The extended warranty on the fridge runs until 14 March.",
    ],
)
def test_a_state_that_ends_on_a_day_is_no_thing_to_do(text: str) -> None:
    assert not due.to_do(text)
    assert due.deadline_day(text, MONDAY) is None


def test_a_last_day_given_with_its_weekday_or_its_year_is_no_due_day() -> None:
    assert _days("Swimming lessons end Saturday 19 December for the winter.") == []
    assert _days("Fixed at 2.19% with Clydesdale, ends 31 January 2027, then onto their variable rate.") == []


def test_a_state_that_ends_with_something_to_do_before_is_due() -> None:
    assert _days("The Coventry offer runs out 28 February, accept it before then.") == ["2027-02-28"]
    assert _days("Our fix ends on 28 February, book a call with the broker before it does.") == ["2027-02-28"]
    assert _days("The van hire ends on Friday, ring Kerr Hire to keep it a week longer.") == ["2026-12-04"]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # "Saturday" alone, a sentence after a date: the coming one, as English speakers mean it.
        ("Driving test 18 Dec. Practise Saturday.", ["2026-12-05", "2026-12-18"]),
        ("Interview at the council 16 December. Buy a shirt Saturday.", ["2026-12-05", "2026-12-16"]),
        # The date given with its weekday frames that week: its Friday is the one before it.
        ("Gran arrives Sat 12 Dec at 14.05. I'm baking Friday night.", ["2026-12-11", "2026-12-12"]),
        # "the Friday before": the one before the date named.
        (
            "The choir concert is on Wednesday 16 December; robes back by the Friday before.",
            ["2026-12-11", "2026-12-16"],
        ),
    ],
)
def test_a_weekday_after_a_date_is_the_one_the_text_means(text: str, days: list[str]) -> None:
    assert _days(text) == days


def test_days_within_a_span_of_an_event_count_from_the_event() -> None:
    # Counted from the wedding, not from the day it was said.
    assert _days("Post the thank-you cards within a week of the wedding on 19 December.") == ["2026-12-26"]
    moved = "Within a fortnight of the move we have to tell the council and the GP. We move on 8 January."
    assert _days(moved) == ["2027-01-08", "2027-01-22"]
    # The event's day is not in the text (a part of a longer document): no day rather than a wrong one.
    assert _days("6. After the festival\n\nReceipts to the treasurer within a week.") == []
    # Said alone, the span counts from the day it was said.
    assert _days("Send the signed lease back within a week.") == ["2026-12-07"]


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def _listed(memory: Memory, question: str, now: datetime) -> list[str]:
    with time_machine.travel(now, tick=False):
        return [h["content"] for h in memory.search_memory(question, now=now)["results"]]


def test_what_is_due_lists_neither_a_state_ending_nor_a_condition(memory: Memory) -> None:
    ending = "We're on a two-year fix at 1.99% with Coventry and that ends 28 February."
    decided = "Decided: if the boiler breaks again before 20 February we replace it."
    offer = "The Coventry offer runs out 28 February, accept it before then."
    with time_machine.travel(MONDAY, tick=False):
        for text in (ending, decided, offer):
            memory.store_memory(text)
    listed = _listed(memory, "what's due in February?", MONDAY)
    assert offer in listed
    assert ending not in listed and decided not in listed


def test_remember_refuses_a_creation_time_ahead_of_the_clock(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.remember("Lunch with Sasha", created_at=utcnow() + timedelta(days=30))
    assert refused.value.field == "created_at"
    assert "future" in str(refused.value)
    assert memory.list() == []
    # A past one, and one a little ahead (clocks differ), are kept.
    memory.remember("Lunch with Sasha", created_at=utcnow() - timedelta(days=3))
    memory.remember("Coffee with Sasha", created_at=utcnow() + timedelta(hours=2))
    assert len(memory.list()) == 2
