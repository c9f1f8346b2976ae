"""Dated things a due list missed: a short weekday beside a day and a short month ("fri 11 dec 7.15"), the end of
a month however said ("by month end"), a day of the month alone ("the 15th"), a note of what was done that goes
on to what is ahead, a reminder naming several days (listed on each), a gathering that comes round told with its
next time, and instructions that hold each time (rules, never listed)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due

SAID = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # a short weekday, a day and a short month, lower case, a time after
        ("school concert fri 11 dec 7.15, sam's doing the lights", "2026-12-11"),
        ("physio tues 1 dec 2.40", "2026-12-01"),
        ("choir practice wed 9th december 6pm", "2026-12-09"),
        # the end of a month however it is said
        ("send the auditor the bank statements by the end of next month", "2026-12-31"),
        ("get the timesheet signed by the end of this month", "2026-11-30"),
        ("close the petty cash book by month end", "2026-11-30"),
        ("finish the grant report by month-end", "2026-11-30"),
        ("tidy the stockroom before the end of the month", "2026-11-30"),
        # a day of the month alone: the next such day from when it was said
        ("the electrician can come the 2nd", "2026-12-02"),
        ("roofer booked for the 28th", "2026-11-28"),
        ("she's collecting the sofa on the 1st", "2026-12-01"),
    ],
)
def test_a_dated_form_is_due_on_the_day_it_names(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day, text
    assert due.deadline_day(text, SAID) == found, text


def test_a_short_weekday_before_a_day_and_month_is_an_appointment() -> None:
    assert due.to_do("dentist mon 7 dec 9.30")
    assert not due.to_do("we sat 7 dec in the garden")  # "sat" after a pronoun is the verb


def test_what_was_done_does_not_hide_what_is_ahead() -> None:
    text = "Drained the water butt, the tap still drips. Dev's replacing the washer on the 4th"
    assert due.reminder_day(text, SAID) == datetime(2026, 12, 4, tzinfo=UTC)
    # told wholly in the past, the day is when it happened
    assert due.reminder_day("Drained the water butt, Dev replaced the washer on the 4th", SAID) is None


def test_a_reminder_naming_several_days_is_due_on_each_in_turn() -> None:
    text = "Ring the garage tmrw about the quote; if they haven't fixed it by 9 Dec, book the other one"
    assert due.reminder_days(text, SAID) == [
        datetime(2026, 11, 18, tzinfo=UTC),
        datetime(2026, 12, 9, tzinfo=UTC),
    ]
    assert due.reminder_day(text, SAID) == datetime(2026, 11, 18, tzinfo=UTC)  # the first comes first
    later = datetime(2026, 11, 25, tzinfo=UTC)
    assert due.reminder_day(text, SAID, later) == datetime(2026, 12, 9, tzinfo=UTC)  # then the next
    # The deadline word still picks the due day stored for expiry; the earlier day is listed too.
    both = "Vehicle tax runs out 31 Jan. post the V5C to the DVLA by the end of next month"
    assert due.reminder_days(both, SAID) == [
        datetime(2026, 12, 31, tzinfo=UTC),
        datetime(2027, 1, 31, tzinfo=UTC),
    ]


def test_a_day_in_a_clause_telling_what_was_done_is_no_other_day() -> None:
    text = "Got the renewal letter today, pay the premium by 12 Dec"
    assert due.reminder_days(text, SAID) == [datetime(2026, 12, 12, tzinfo=UTC)]


def test_a_gathering_that_comes_round_is_due_on_its_next_time_then_each_round() -> None:
    text = "Planning meeting every other Wednesday; next one is 25 November"
    assert not due.standing(text) and due.to_do(text)
    assert due.reminder_days(text, SAID) == [datetime(2026, 11, 25, tzinfo=UTC)]
    asked = datetime(2026, 11, 30, tzinfo=UTC)
    assert due.reminder_days(text, SAID, asked) == [datetime(2026, 12, 9, tzinfo=UTC)]
    # a chore's schedule told with its next time stays a schedule
    assert due.standing("The recycling goes out every other Monday, the next one is 30 November.")


@pytest.mark.parametrize(
    "text",
    [
        "Condensation again: leave the vent open and run the fan heater at night.",
        "Move a tenth of every sale into the savings pot.",
        "Wipe the slicer down each time it is used.",
        "Lock the side gate at night.",
    ],
)
def test_an_instruction_that_holds_each_time_is_a_rule(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Lock the side gate tonight.",
        "Move every box out of the loft by Saturday.",
        "Run the fan heater at night until the 3rd.",
    ],
)
def test_an_instruction_with_a_day_stays_a_thing_to_do(text: str) -> None:
    assert not due.standing(text)
    assert due.reminder_day(text, SAID) is not None


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        yield m


def _listed(memory: Memory, now: datetime) -> list[str]:
    with time_machine.travel(now, tick=False):
        found = memory.search_memory("what do I have to do this week?", now=now)
    return [r["content"] for r in found["results"]]


def test_the_due_list_of_each_week_holds_what_is_due_in_it(memory: Memory) -> None:
    appointment = "leo's parents eve thurs 10 dec 4.30, I'm on shift so gran's going"
    several = "Ring the garage tmrw about the quote; if they haven't fixed it by 9 Dec, book the other one"
    month_end = "send the auditor the bank statements by the end of next month"
    ahead = "Drained the water butt, the tap still drips. Dev's replacing the washer on the 4th"
    meeting = "Planning meeting every other Wednesday; next one is 25 November"
    rule = "Move a tenth of every sale into the savings pot."
    with time_machine.travel(SAID, tick=False):
        for text in (appointment, several, month_end, ahead, meeting, rule):
            memory.store_memory(text)
    weeks = {
        datetime(2026, 11, 16, 9, tzinfo=UTC): {several},
        datetime(2026, 11, 23, 9, tzinfo=UTC): {meeting},
        datetime(2026, 11, 30, 9, tzinfo=UTC): {ahead},
        datetime(2026, 12, 7, 9, tzinfo=UTC): {appointment, several, meeting},
        datetime(2026, 12, 28, 9, tzinfo=UTC): {month_end},
    }
    for monday, expected in weeks.items():
        listed = set(_listed(memory, max(monday, SAID + timedelta(hours=1))))
        assert expected <= listed, (monday, expected - listed)
        assert rule not in listed


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # the weekday a recurrence comes round on is no day of its own
        ("Rota swaps go to Priti every other Thursday; the next one is due on 10 December.", ["2026-12-10"]),
        # "today" is where a span counts from
        ("Renew the parking permit a fortnight from today or it lapses.", ["2026-12-01"]),
        # a day of the month alone after a date is of that date's month
        ("Train to Leeds out on 6 Jan, back on the 9th, seat 42A", ["2027-01-06", "2027-01-09"]),
    ],
)
def test_only_the_days_a_reminder_names_are_read(text: str, days: list[str]) -> None:
    assert [d.date().isoformat() for d in due.reminder_days(text, SAID)] == days


def test_a_reminder_with_a_day_still_to_come_is_not_overdue(memory: Memory) -> None:
    several = "Ring the garage tmrw about the quote; if they haven't fixed it by 9 Dec, book the other one"
    late = "Return the hedge trimmer to Sam by the 19th."
    with time_machine.travel(SAID, tick=False):
        for text in (several, late):
            memory.store_memory(text)
    asked = datetime(2026, 11, 25, 9, tzinfo=UTC)
    with time_machine.travel(asked, tick=False):
        overdue = memory.search_memory("what's overdue?", now=asked)
    assert [r["content"] for r in overdue["results"]] == [late]
