"""Due forms found by writing a week of everyday notes and reading the due lists: the days an invoice's terms or
"within 14 days" give, counted from the day they are said (a payer's, not the biller's), "Wednesday week", "a week
tomorrow", "3 weeks today" and "the week after next", a weekend named beside a holiday, a day in a clause of its own after "done
before", an instruction to a name ("Invoice Caldwell ...", "Order Dan's present ..."); and what holds each week,
month or year though it names a day: a weekday's club ride or class told in the present, "alternate weeks", "the
last Friday of the month", the bounds of a tax or financial year."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.lang import due

TUESDAY = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)


def _day(text: str, said: datetime = TUESDAY) -> str | None:
    found = due.reminder_day(text, said)
    return None if found is None else found.date().isoformat()


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Pay Kowalski Plumbing's invoice for the radiator valves, £186, within 14 days.", "2026-12-08"),
        ("Electrician's bill £420, net 30.", "2026-12-24"),
        ("Pay the roofer, 30 days from the invoice.", "2026-12-24"),
        ("Plumber's invoice £90 - 14 days.", "2026-12-08"),
        ("Reply to the council about the parking appeal within two weeks.", "2026-12-08"),
        ("Pay the cottage deposit within a fortnight.", "2026-12-08"),
    ],
)
def test_days_given_to_pay_or_answer_count_from_the_day_they_are_said(text: str, day: str) -> None:
    assert _day(text) == day


@pytest.mark.parametrize(
    "text",
    [
        "Invoice Caldwell Physio Group for the locum days, £1,240, 30 days.",
        "Invoice Caldwell Physio Group for the locum days, payment terms 30 days from the invoice.",
        "Bill the Thornbury Rugby Club for the November pitch-side cover: 6 sessions at £45, net 30.",
        "Send Harbour Health the invoice for October, net 14.",
    ],
)
def test_the_terms_of_an_invoice_the_speaker_sends_are_the_payers_and_the_invoice_is_to_send_now(
    text: str,
) -> None:
    assert due.to_do(text)
    assert due.reminder_day(text, TUESDAY) is None
    assert not due.standing(text)


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("Send Sophie the slides for the back pain workshop by Wednesday week.", TUESDAY, "2026-12-02"),
        ("Call the letting agent a week on Friday.", TUESDAY, "2026-12-04"),
        ("Get the spare key cut a week tomorrow, before Dan's parents arrive.", TUESDAY, "2026-12-02"),
        ("Do the food shop for the party the week after next.", TUESDAY, "2026-12-08"),
        ("Physio review 3 weeks today, 2.15pm at the Didsbury clinic.", TUESDAY, "2026-12-15"),
        ("Call the surveyor two weeks on Friday.", TUESDAY, "2026-12-11"),
        ("Friday week: drinks for Sophie's leaving do.", TUESDAY, "2026-12-04"),
        ("Write the Christmas cards this weekend.", TUESDAY, "2026-11-28"),
        ("Book the train for Christmas.", TUESDAY, "2026-12-25"),
        ("Get the car's MOT done before it runs out on 2 December.", TUESDAY, "2026-12-02"),
        ("Order Dan's birthday present this week so it arrives in time.", TUESDAY, "2026-11-29"),
    ],
)
def test_the_day_an_everyday_wording_names(text: str, said: datetime, day: str) -> None:
    assert _day(text, said) == day


def test_a_weekday_week_is_no_weekend_and_a_done_clause_keeps_its_past() -> None:
    assert _day("Saturday weekend plans with the Hendersons.") == "2026-11-28"  # no "Saturday week"
    assert due.due_day("Boiler serviced on 3 October.", TUESDAY) is None


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("Invoice Caldwell Physio Group for the locum days.", True),
        ("Order Dan's birthday present.", True),
        ("Pat Smith called about the fence.", False),
        ("Met Carla on Friday.", False),
        ("Die Abfrage ist langsam, weil jede Zeile einzeln geladen wird.", False),
    ],
)
def test_a_verb_and_a_name_is_an_instruction(text: str, told: bool) -> None:
    assert due.instruction(text) is told


@pytest.mark.parametrize(
    "text",
    [
        "Saturday club ride leaves from the cafe at 8:30",
        "Tuesday pilates class at the leisure centre starts at 7pm.",
        "Sunday parkrun sets off from the bandstand at 9.",
        "Thursday five-a-side kicks off at 8 at Platt Fields.",
        "Bins go out Wednesday night, recycling alternate weeks.",
        "Payday is the last Friday of the month.",
        "Tax year: business year end is 31 March",
        "Accounting period for the practice runs 1 April to 31 March.",
        "The financial year starts on 1 April.",
    ],
)
def test_what_holds_each_week_month_or_year_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, TUESDAY, TUESDAY) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("This Saturday the club ride leaves at 8:30.", "2026-11-28"),
        ("Saturday ride leaves from the cafe at 8 on 5 Dec.", "2026-12-05"),
        ("Sunday lunch is at Halina's.", "2026-11-29"),  # "is": one lunch as often as each week's
        ("Submit the timesheet by the last Friday of the month.", "2026-11-27"),
        ("File the company year end accounts by 31 December.", "2026-12-31"),
        ("Self assessment for the tax year ending 5 April is due by 31 January.", "2027-01-31"),
    ],
)
def test_one_day_of_those_stays_due(text: str, day: str) -> None:
    assert not due.standing(text)
    assert day in [d.date().isoformat() for d in due.reminder_days(text, TUESDAY)]


NOTES = [
    "Invoice Caldwell Physio Group for the locum days, £1,240, payment terms 30 days from the invoice.",
    "Get the car's MOT done before it runs out on 27 November.",
    "Saturday club ride leaves from the cafe at 8:30",
    "Tax year: business year end is 31 March",
    "Payday is the last Friday of the month.",
]


def test_this_weeks_list_holds_the_invoice_to_send_and_no_habit_or_date_fact(real: Memory) -> None:
    with time_machine.travel(TUESDAY, tick=False):
        for text in NOTES:
            real.store_memory(text)
    thursday = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
    with time_machine.travel(thursday, tick=False):
        found = real.search_memory(
            "what do I have to do this week?", {"limit": 100}, now=thursday, touch=False
        )
    listed = {r["content"] for r in found["results"]}
    assert listed == set(NOTES[:2]), listed


def test_a_question_for_wednesday_week_asks_for_that_day() -> None:
    thursday = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
    for question, day in (
        ("what do I have on Wednesday week?", "2026-12-09"),
        ("what's due a week tomorrow", "2026-12-04"),
    ):
        span = due.window(question, thursday)
        assert span is not None and span.after is not None and span.after.date().isoformat() == day


def test_a_title_in_quotes_names_no_day() -> None:
    book = (
        "Kasia recommended the book 'Tomorrow, and Tomorrow, and Tomorrow' - want to read it over Christmas."
    )
    assert due.deadline_day(book, TUESDAY) == datetime(2026, 12, 25, tzinfo=UTC)
    assert due.deadline_day("Book tickets for 'Saturday Night Fever' on 12 December", TUESDAY) == datetime(
        2026, 12, 12, tzinfo=UTC
    )
    # Words quoted as said keep their day.
    assert due.deadline_day(
        'Sticky note on the fridge: "pay the window cleaner tomorrow"', TUESDAY
    ) == datetime(2026, 11, 25, tzinfo=UTC)


def test_a_journey_on_a_weekday_is_once_and_a_name_is_no_instruction() -> None:
    # A flight on a bare weekday is booked once, unlike a club's ride each Saturday.
    assert _day("Saturday flight leaves at 6:40 from Leeds") == "2026-11-28"
    assert _day("Saturday club ride leaves from the cafe at 8:30") is None
    # A name that is also a verb, with a verb of its own, tells who someone is.
    assert not due.instruction("Rob Evans is my boss")
    assert not due.instruction("Book Club is on Thursday")
    assert due.instruction("Book the venue for Friday")
