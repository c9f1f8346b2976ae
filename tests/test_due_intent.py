"""A day ahead named beside a past verb of intent ("I promised to be there", "I said I'd drive her") or a day moved to another ("moved
from Tuesday to Thursday") is the day the thing happens."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.lang import due

SAID = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("The school concert is on Wed 9 Dec at 6pm, I promised to be there", "2026-12-09"),
        ("We agreed to meet on Thursday 17 Dec", "2026-12-17"),
        ("She asked me to call her on Friday", "2026-12-11"),
        ("He reminded us to bring the forms on 14 December", "2026-12-14"),
        # A deed promised as a clause after a verb of saying.
        ("Mum's operation is on 10 December - I said I'd drive her there for 7:30", "2026-12-10"),
        ("I told Priya we will send the proofs on Friday", "2026-12-11"),
        ("Dad's move is on Saturday 12 Dec, I said that I would help", "2026-12-12"),
    ],
)
def test_a_past_verb_of_intent_leaves_the_day_ahead(text: str, day: str) -> None:
    assert not due.told_as_past(text)
    found = due.due_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "I went to Paris on 3 Dec",
        "We decided on 2 Dec to switch",
        "I promised Tom the report on Friday",
        "She said the venue was booked on 3 Dec",  # said, and what was said is done
        "We said goodbye to Anna on Friday",
    ],
)
def test_what_was_done_stays_past(text: str) -> None:
    assert due.told_as_past(text)
    assert due.due_day(text, SAID) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Budget review moved from Tuesday to Thursday 10am", "2026-12-10"),
        ("Dentist rescheduled from 3 Dec to 10 Dec", "2026-12-10"),
        ("Flight changed from Friday 11 Dec to Sunday 13 Dec", "2026-12-13"),
        ("Standup pushed from Monday to Wednesday", "2026-12-09"),
    ],
)
def test_a_day_moved_to_another_is_due_on_the_new_day(text: str, day: str) -> None:
    found = due.due_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


def test_a_span_without_a_move_keeps_its_first_day() -> None:
    found = due.due_day("Book club from Tuesday to Thursday at the library", SAID)
    assert found is not None and found.date().isoformat() == "2026-12-08"


def test_a_promised_event_reaches_its_weeks_due_list(real: Memory) -> None:
    with time_machine.travel(SAID, tick=False):
        stored = real.store_memory("Maya's school play is on Wed 9 Dec at 6pm, I promised to be there")
        listed = real.search_memory("what do I have this week?")
    assert (stored["analysis"]["due_date"] or "").startswith("2026-12-09"), stored["analysis"]
    assert any("school play" in r["content"] for r in listed["results"])


@pytest.mark.parametrize(
    "text",
    [
        "Vienna registration €390 paid on 20 Nov, keep the receipt",  # a participle after what was paid
        "Boiler serviced on 3 October, next one due in a year.",
        "Bow rehair was done in August at Bridge Violins, good for a year.",
        "My glasses prescription was updated in October; the optician is Clearview.",
        "Vienna registration is €390 at the student rate, paid on my own card on 20 Nov, keep the receipt.",
        "Raj is the new SRE, joined in October.",
    ],
)
def test_a_participle_told_of_a_day_is_when_it_was_done(text: str) -> None:
    assert due.told_as_past(text)
    assert due.reminder_day(text, SAID, SAID) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Parcel will be delivered on Friday 11 Dec.", "2026-12-11"),  # ahead
        ("Schedule the annual flu shot in January.", "2027-01-01"),  # "shot" names a thing
        ("Our daughter Ada was born on 9 March 2021.", "2027-03-09"),  # a birthday comes round
        ("Dentist moved on to Friday 11 Dec.", "2026-12-11"),
        ("Went with Sinead, she's registered and can start on 14 December.", "2026-12-14"),
    ],
)
def test_a_participle_of_what_is_ahead_or_comes_round_stays_due(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID, SAID)
    assert found is not None and found.date().isoformat() == day
