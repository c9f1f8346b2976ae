"""Due days as people pin them down in short tasks and appointments: a weekday beside its date ("Wed 16/12",
"Fri 4/12", "Sat 12th"), a weekday with a part of the day ("Sat morning", "tue night"), a span counted from
today ("in a fortnight") and a weekday counted in a month ("first Monday of January")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.lang import due

SAID = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)  # a Monday

LINES = [
    # a weekday before a numeric date: the date says which day, the weekday confirms it
    ("Dentist Wed 16/12, 9:40", "2026-12-16"),
    ("Fri 4/12 - parcel pickup at the depot", "2026-12-04"),
    ("Wed 12/16 vet appointment for Biscuit", "2026-12-16"),
    ("school nativity Thu 12/10", "2026-12-10"),
    ("Mon 7/12 boiler service", "2026-12-07"),
    ("Tues 8/12 staff training", "2026-12-08"),
    ("wed 9/12 - flu jab", "2026-12-09"),
    ("Fri. 18/12 office party", "2026-12-18"),
    ("Sunday 20/12 carol service, afternoon", "2026-12-20"),
    ("Sat 5/12 morning: car boot sale", "2026-12-05"),
    ("Fri 11/12 evening works do", "2026-12-11"),
    ("Wed 2/12 11am GP call", "2026-12-02"),
    ("Thu 10.12. parents evening", "2026-12-10"),
    # the weekday picks the reading of a date whose order is not said: 12 April is a Monday, 4 December a Friday
    ("Mon 12/4 conference abstract deadline", "2027-04-12"),
    # a weekday beside a day of the month: that date, not the next such weekday
    ("Mum's birthday dinner Sat 12th", "2026-12-12"),
    ("Quarterly VAT return by Fri 8 Jan", "2027-01-08"),
    ("MOT Tuesday 15 Dec", "2026-12-15"),
    # a weekday and a part of the day
    ("Call the plumber Sat morning", "2026-12-05"),
    ("Tue evening: book club at Anna's", "2026-12-01"),
    ("Sunday afternoon take the kids to the pool", "2026-12-06"),
    ("Thursday night: bins out", "2026-12-03"),
    ("Wednesday lunchtime - call HR about the contract", "2026-12-02"),
    ("send the quote by Friday midday", "2026-12-04"),
    ("this Sat morning - cleaners come, leave the key", "2026-12-05"),
    ("tue night pub quiz with Sam", "2026-12-01"),
    ("Thurs afternoon - collect the suit", "2026-12-03"),
    ("Friday morning 9am standup moved online", "2026-12-04"),
    # spans counted from today, weeks counted in a month
    ("end of next week: expenses", "2026-12-13"),
    ("Renew the parking permit in a fortnight", "2026-12-14"),
    ("in two weeks: follow up with the bank", "2026-12-14"),
    ("chase the invoice in 3 days", "2026-12-03"),
    ("return the library books the day after tomorrow", "2026-12-02"),
    ("first Monday of January: pay the school fees", "2027-01-04"),
    ("Book the team lunch for the last Friday of January", "2027-01-29"),
    ("Staff meeting the second Tuesday of next month", "2026-12-08"),
    # a weekday counted with no month named: this month's, or next month's once it has passed
    ("Book club meets on the 3rd Thursday", "2026-12-17"),
    ("Send the rota by the first Monday", "2026-12-07"),
    ("Quiz night on the 2nd Saturday, book a table", "2026-12-12"),
    # other forms people write
    ("pay nursery fees 1/12", "2026-12-01"),
    ("Parcel due 02/12/2026", "2026-12-02"),
    ("Flight home 12/23", "2026-12-23"),
    ("haircut tomorrow 3pm", "2026-12-01"),
    ("am Mittwoch Elternsprechtag", "2026-12-02"),
    ("nächsten Dienstag um 10 Friseur", "2026-12-01"),
    ("Angebot bis Freitag Nachmittag schicken", "2026-12-04"),
    ("Zahnarzt am Mittwoch um 8", "2026-12-02"),
]


@pytest.mark.parametrize(("text", "day"), LINES)
def test_a_short_task_is_due_on_the_day_it_names(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day, text


@pytest.mark.parametrize(
    "text",
    [
        "Gas meter reading Fri 4/12, the man comes between 9 and 1",
        "Tue evening: book club at Anna's",
        "Thu 10.12. parents evening",
        "school nativity Thu 12/10",
        "MOT Tuesday 15 Dec",
        "tue night pub quiz with Sam",
    ],
)
def test_a_weekday_pinned_to_a_date_or_a_part_of_the_day_is_an_appointment(text: str) -> None:
    # Neither a deadline word, an instruction nor "on <day>": such a line made no reminder.
    assert due.to_do(text)
    assert due.deadline_day(text, SAID) is not None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        (
            "Tue 3/12 pick up glasses",
            "2026-12-01",
        ),  # Thursday 3 December or Friday 12 March: Tuesday comes first
        ("Fri 10.12. leaving drinks", "2026-12-04"),  # 10 December is a Thursday: the Friday before it
        ("Sat 7/12 dentist", "2026-12-05"),  # Monday 7 December or Monday 12 July: the Saturday before
    ],
)
def test_a_weekday_that_agrees_with_no_reading_brings_the_day_forward(text: str, day: str) -> None:
    # Not the weekday alone nor the date alone: the earlier of the two, so that neither day is missed.
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Sat down with the team to plan the rota",
        "We sat 3 hours in the waiting room",
        "Fri 9.15 standup",
        "Yoga Tuesday evenings",
        "Every Sat morning parkrun",
    ],
)
def test_a_verb_a_time_or_a_habit_is_no_due_day(text: str) -> None:
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Friday afternoon deploys are banned.",
        "Friday at 3pm deploys are banned.",
        "Phones are not allowed at the table on Sunday evening.",
        "The server room is off-limits Saturday morning.",
    ],
)
def test_a_ban_stated_as_a_fact_is_a_rule_not_a_reminder(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


def test_a_task_about_a_ban_is_still_due() -> None:
    assert not due.standing("Check whether drones are banned in the park before Saturday.")
    assert due.reminder_day("Check whether drones are banned in the park before Saturday.", SAID) is not None


def test_a_past_evening_is_no_appointment() -> None:
    assert not due.to_do("Tuesday evening was lovely, dinner with Sam")


def test_a_weekday_and_slashed_date_reaches_its_weeks_due_list(mem: Memory) -> None:
    with time_machine.travel(datetime(2026, 12, 14, 8, 0, tzinfo=UTC), tick=False):
        stored = mem.store_memory("Gas meter reading Thu 17/12, the man comes between 9 and 1")
        assert (stored["analysis"]["due_date"] or "").startswith("2026-12-17"), stored["analysis"]
        listed = mem.search_memory("what do I have this week?")
    assert any("Gas meter" in r["content"] for r in listed["results"])


def test_a_weekday_counted_alone_in_a_question_is_that_one_day() -> None:
    # "on the 3rd" before a weekday is no day of the month: "the 3rd Thursday" asked on 30 November is 17 December.
    span = due.window("what is on the 3rd Thursday?", SAID)
    assert span is not None and span.after is not None and span.before is not None
    assert (span.after.date().isoformat(), span.before.date().isoformat()) == ("2026-12-17", "2026-12-18")


def test_a_counted_weekday_this_month_still_to_come_is_this_month() -> None:
    # On 2 November the first Monday (2 November) is today, the third Thursday (19 November) still to come.
    said = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    assert due.reminder_day("Send the rota by the first Monday", said) == datetime(2026, 11, 2, tzinfo=UTC)
    assert due.reminder_day("Book club meets on the 3rd Thursday", said) == datetime(2026, 11, 19, tzinfo=UTC)
