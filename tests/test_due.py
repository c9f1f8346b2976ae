"""Due days of reminders and the days a question about things to do asks for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram.lang import due

SAID = datetime(2026, 11, 24, 15, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Dentist appointment next Tuesday at 3pm", "2026-12-01"),
        ("Submit the grant report by Friday", "2026-11-27"),
        ("Call mom on Sunday for her birthday", "2026-11-29"),
        ("Renew the passport before the trip in March", "2027-03-01"),  # next March, its first day
        ("Finish the slides by end of the month", "2026-11-30"),
        ("Pay the invoice from 2024-01-05 by 3 December", "2026-12-03"),  # a date already past is no due day
        ("Buy milk", None),
        (
            "Send the report by Friday 4 December",
            "2026-12-04",
        ),  # the date says which Friday, not the next one
        ("Vet visit on Tuesday, Dec 8 at 5pm", "2026-12-08"),
        ("Book flights by Monday (14 December)", "2026-12-14"),
        ("Party on Saturday the 5th", "2026-12-05"),  # the day of the month says which Saturday
        ("Clean the garage this weekend", "2026-11-28"),  # a weekend is due its Saturday
        ("Finish the draft by the weekend", "2026-11-27"),  # ... or, by it, the Friday before
        ("Plan the trip next weekend", "2026-12-05"),  # not "next week" read inside "next weekend"
        ("Renew it before the end of January, it expires in March", "2027-01-31"),
        # Month first, as in the US: the day it names, not the month's first.
        ("Pay rent before December 10", "2026-12-10"),
        ("Dentist on December 3rd at 9am", "2026-12-03"),
        ("Renew the passport by January 15, 2027", "2027-01-15"),
        # The end of a year or a quarter: its last day, the named quarter's next one once this year's is over.
        ("Migrate the staging database to Postgres 16 before the end of Q1", "2027-03-31"),
        ("Ship the Q4 release by end of Q4", "2026-12-31"),
        ("File the expenses by the end of the quarter", "2026-12-31"),
        ("Submit the tax return before end of year", "2026-12-31"),
        ("The year ended well", None),
    ],
)
def test_a_reminder_is_due_on_the_first_day_it_names_read_forward(text: str, day: str | None) -> None:
    found = due.due_day(text, SAID)
    assert (None if found is None else found.date().isoformat()) == day


@pytest.mark.parametrize(
    ("query", "after", "before"),
    [
        ("what do I need to do this week?", "2026-11-23", "2026-11-30"),  # Monday to Monday
        ("anything due next week", "2026-11-30", "2026-12-07"),
        ("what do I have to do tomorrow", "2026-11-25", "2026-11-26"),
        ("tasks for Friday", "2026-11-27", "2026-11-28"),
        ("todo today", "2026-11-24", "2026-11-25"),
        ("reminders in December", "2026-12-01", "2027-01-01"),
        ("reminders in March", "2027-03-01", "2027-04-01"),  # the next March
        ("this month's deadlines", "2026-11-01", "2026-12-01"),
        ("what should I do this weekend", "2026-11-28", "2026-11-30"),
        (
            "what is due before Friday",
            "2026-11-24",
            "2026-11-28",
        ),  # from today up to it, as a task said due before it
        ("what is due by Friday", "2026-11-24", "2026-11-28"),  # ... Friday included
        ("anything to do before the weekend", "2026-11-24", "2026-11-28"),
        ("what do I have to do before next week", "2026-11-24", "2026-11-30"),
    ],
)
def test_the_days_a_question_about_things_to_do_asks_for(query: str, after: str, before: str) -> None:
    span = due.window(query, SAID)
    assert span is not None and span.after is not None and span.before is not None
    assert (span.after.date().isoformat(), span.before.date().isoformat()) == (after, before)
    assert due.window("what's due soon", SAID) is None
    assert due.window("what may be due soon", SAID) is None  # a verb, not the month
    span = due.window("what is due in May", SAID)
    assert span is not None and span.after == datetime(2027, 5, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "We must not deploy on Fridays after 2pm, that's a team rule.",
        "I run 5k every Tuesday",
        "Every Monday I water the plants.",
        "Never schedule meetings before 10am.",
        "The gym is closed on Sundays.",
        "I usually pay the rent by the 1st.",
        "Backups run nightly at 2am.",
        "Team rule: no meetings before 10am on Mondays.",
        "Company policy: expenses are filed within 30 days.",
        "The rule is that nobody merges on a red build before Friday.",
    ],
)
def test_a_rule_or_a_habit_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    ("text", "deadline", "day"),
    [
        ("Prepare the slides for my Berlin conference talk by 4 December.", True, "2026-12-04"),
        ("The report is due on Monday.", True, "2026-11-30"),
        ("Renew the parking permit, it's valid until 15 March.", True, "2027-03-15"),
        ("Submit the tax return before 31 January.", True, "2027-01-31"),
        ("Call the plumber tomorrow.", False, "2026-11-25"),
        ("My sister's birthday is on 12 May.", False, "2027-05-12"),  # a date, but no deadline
        ("Buy milk.", False, None),
    ],
)
def test_a_deadline_and_the_day_it_names(text: str, deadline: bool, day: str | None) -> None:
    assert not due.standing(text)
    assert due.states_deadline(text) is deadline
    found = due.reminder_day(text, SAID)
    assert (None if found is None else found.date().isoformat()) == day


def test_a_quarter_or_a_year_is_a_horizon_not_a_deadline_yet_a_due_day() -> None:
    """Like a month alone, "by the end of the year" is a goal's horizon: it does not make a memory a reminder, but a
    task that names it is listed by that day."""
    for text, day in (
        ("Our team is aiming for SOC 2 certification by the end of the year.", "2026-12-31"),
        ("Write runbooks for every on-call alert by end of quarter.", "2026-12-31"),
        ("Migrate the staging database before the end of Q1.", "2027-03-31"),
    ):
        assert due.deadline_day(text, SAID) is None, text
        found = due.due_day(text, SAID)
        assert found is not None and found.date().isoformat() == day, text
    assert due.deadline_day("Finish the slides by end of the month", SAID) is not None


def test_a_date_said_on_its_own_day_is_due_that_day() -> None:
    found = due.due_day("Send the slides by 24 November", SAID)
    assert found is not None and found.date().isoformat() == "2026-11-24"
    later = due.due_day("Send the slides by 23 November", SAID)  # past: next year's
    assert later is not None and later.date().isoformat() == "2027-11-23"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Prepare the slides for my Berlin conference talk by 4 December.", "2026-12-04"),
        ("Finish the grant application by the end of the month.", "2026-11-30"),
        ("Send the report before Friday.", "2026-11-27"),
        ("I'm training to run a marathon by October.", None),  # a month alone: a plan's horizon
        ("The thesis is due next month.", None),
        ("We must not deploy on Fridays after 2pm, that's a team rule.", None),
    ],
)
def test_a_deadline_names_a_day_not_a_month_alone(text: str, day: str | None) -> None:
    found = due.deadline_day(text, SAID)
    assert (None if found is None else found.date().isoformat()) == day


@pytest.mark.parametrize(
    ("said", "phrase", "after", "before"),
    [
        (datetime(2026, 11, 23, 9, tzinfo=UTC), "what did I do over the weekend", "2026-11-21", "2026-11-23"),
        (datetime(2026, 11, 26, 9, tzinfo=UTC), "plans for the weekend", "2026-11-28", "2026-11-30"),
        (datetime(2026, 11, 29, 9, tzinfo=UTC), "this weekend", "2026-11-28", "2026-11-30"),  # said on Sunday
        (datetime(2026, 11, 26, 9, tzinfo=UTC), "what did I do last weekend", "2026-11-21", "2026-11-23"),
        (datetime(2026, 11, 26, 9, tzinfo=UTC), "next weekend", "2026-12-05", "2026-12-07"),
    ],
)
def test_a_weekend_is_saturday_to_monday(said: datetime, phrase: str, after: str, before: str) -> None:
    from engram.lang.timewords import time_range

    span = time_range(phrase, said)
    assert span is not None and span.after is not None and span.before is not None
    assert (span.after.date().isoformat(), span.before.date().isoformat()) == (after, before)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Review the travel policy by 3 March.", "2027-03-03"),
        ("Ask HR about the parental leave policy by Friday.", "2026-11-27"),
        ("Read the new house rules before the 5th.", "2026-12-05"),
    ],
)
def test_a_task_about_a_rule_or_policy_is_due(text: str, day: str) -> None:
    """A policy or a rule as the task's topic does not make the task a standing rule."""
    assert not due.standing(text)
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "We replaced the old cron jobs with Temporal workflows in October.",
        "I met Carla on 3 November.",
        "We finally went to the dentist on Monday.",
    ],
)
def test_an_account_of_what_was_done_is_never_due(text: str) -> None:
    """Its date says when it happened: read forward it became a due day a year away."""
    assert due.told_as_past(text)
    assert due.due_day(text, SAID) is None
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("I promised to send the report by Friday.", "2026-11-27"),  # told in the past, due ahead
        ("Meeting scheduled for December 3.", "2026-12-03"),  # a participle, no one's past deed
        ("We have moved the review to Friday.", "2026-11-27"),
        ("They put the bins out on Thursday.", "2026-11-26"),  # "put" may be present
    ],
)
def test_a_past_form_that_still_names_a_day_ahead(text: str, day: str) -> None:
    found = due.due_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Book the train to Hamburg for Christmas.", "2026-12-25"),
        ("Buy the presents before Christmas Eve.", "2026-12-24"),
        ("Plan the egg hunt for Easter.", "2027-03-28"),
    ],
)
def test_a_holiday_names_its_next_day(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("what is due on 24 December?", "2026-12-24", "2026-12-24"),
        ("what do I have to do before Christmas?", "2026-11-24", "2026-12-25"),  # Christmas Day included
        ("anything due by Dec 3rd?", "2026-11-24", "2026-12-03"),
    ],
)
def test_a_question_naming_a_date_or_holiday_asks_for_its_days(question: str, first: str, last: str) -> None:
    span = due.window(question, SAID)
    assert span is not None and span.after is not None and span.before is not None
    assert span.after.date().isoformat() == first
    assert (span.before - timedelta(days=1)).date().isoformat() == last


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Mia's school play is on December 12", "2026-12-12"),
        ("The parent-teacher evening is on Tuesday 1 December at 6pm.", "2026-12-01"),
        ("Haircut on Thursday at 4pm.", "2026-11-26"),
        ("Dentist check-up on 17 December at 8:40am.", "2026-12-17"),
        ("The team offsite takes place on 9 December.", "2026-12-09"),
    ],
)
def test_an_event_on_a_day_is_due_that_day(text: str, day: str) -> None:
    # Something a person goes to on a day is on their list of that day, as a deadline is.
    assert due.to_do(text)
    assert due.deadline_day(text, SAID) == datetime.fromisoformat(day).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "My sister's birthday is on 12 May.",  # a date that comes back every year, not an event to go to
        "Our wedding anniversary is on 3 June.",
        "Mia turns seven on 6 December.",
        "The office is on the third floor.",
        "The play was on Saturday.",
    ],
)
def test_a_date_a_fact_names_is_no_event(text: str) -> None:
    assert not due.to_do(text)


def test_a_weekday_said_on_that_weekday_is_that_day() -> None:
    thursday = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)
    # As a question's weekday is the next one, today included, and a date said on its own day is due that day.
    for text in ("Haircut on Thursday", "Haircut on Thursday at 4pm", "Send the slides by Thursday"):
        found = due.due_day(text, thursday)
        assert found is not None and found.date().isoformat() == "2026-11-26", text
    later = due.due_day("Haircut next Thursday", thursday)
    assert later is not None and later.date().isoformat() == "2026-12-03"
    window = due.window("what is due on Thursday?", thursday)
    assert window is not None and window.after is not None and window.after.date().isoformat() == "2026-11-26"
