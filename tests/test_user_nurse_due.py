"""Due days and due lists as a nurse caring for her father wrote them: a time counted ahead ("comes off in three
weeks"), money the bank moves each month ("standing order ... on the 1st"), the next time of a recurring errand
given a deadline, and a deadline "by last Friday" already missed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due, events
from engram.model.record import Category

SAID = datetime(2026, 11, 28, 8, 0, tzinfo=UTC)  # a Saturday
CAST = "Amara's cast comes off in three weeks."
ORDER = "Standing order of £450 to Dad's care account goes out on the 1st."
DEBIT = "Council tax direct debit of £148 comes out on the 15th of each month."


@pytest.mark.parametrize(
    ("text", "day"),
    [
        (CAST, "2026-12-19"),
        ("The scaffolding comes down in ten days.", "2026-12-08"),
        ("Her test results are back in a fortnight.", "2026-12-12"),
    ],
)
def test_a_time_counted_ahead_is_on_the_calendar_that_day(text: str, day: str) -> None:
    assert events.on_calendar(text)
    found = due.deadline_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


def test_a_time_counted_in_a_story_of_the_past_is_no_day_ahead() -> None:
    assert due.deadline_day("I learned to ski in two weeks.", SAID) is None


@pytest.mark.parametrize(
    "text",
    [ORDER, DEBIT, "Standing order to the landlord on the 1st.", "Lastschrift für die Miete am 3."],
)
def test_money_the_bank_moves_each_month_is_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


def test_a_task_about_a_standing_order_is_due() -> None:
    found = due.reminder_day("Cancel the gym direct debit before the 3rd.", SAID)
    assert found is not None and found.date().isoformat() == "2026-12-03"


def test_the_next_time_of_a_recurring_errand_given_a_deadline_is_due() -> None:
    text = "Dad's repeat prescription needs ordering every 28 days, next one by Monday."
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == "2026-11-30"
    # The next time told without a deadline stays a schedule.
    assert due.standing("Black bin goes out every other Thursday, the next one is 3 December.")


def test_a_deadline_by_last_friday_lies_behind() -> None:
    text = "I was meant to post the passport renewal form by last Friday and still haven't."
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == "2026-11-27"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        with time_machine.travel(SAID, tick=False):
            for text in (CAST, ORDER, DEBIT):
                m.store_memory(text)
        yield m


def _listed(memory: Memory, question: str, now: datetime = SAID) -> list[str]:
    with time_machine.travel(now, tick=False):
        return [h["content"] for h in memory.search_memory(question, now=now)["results"]]


def test_the_cast_is_listed_in_the_week_it_comes_off(memory: Memory) -> None:
    stored = [r for r in memory.list() if r.content == CAST]
    assert stored and stored[0].category is Category.REMINDERS
    monday = datetime(2026, 12, 14, 9, 0, tzinfo=UTC)
    assert CAST in _listed(memory, "what's due this week?", monday)


def test_a_standing_order_is_not_listed_as_a_thing_to_do(memory: Memory) -> None:
    monday = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    for question in ("what's due this week?", "what do I have to do today?"):
        listed = _listed(memory, question, monday)
        assert ORDER not in listed and DEBIT not in listed


def test_a_day_told_of_something_done_is_no_due_day() -> None:
    text = "Paid the £2,500 venue deposit to Beaumanor Hall today, the balance is due 8 weeks before the day."
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        (
            "Chase the OT referral if nobody has rung by next Wednesday.",
            datetime(2026, 11, 23, tzinfo=UTC),
            "2026-12-02",
        ),
        ("Send them the logo proofs by next Friday.", datetime(2026, 11, 18, tzinfo=UTC), "2026-11-27"),
        ("Dentist appointment next Thursday at 9.", datetime(2026, 11, 23, tzinfo=UTC), "2026-12-03"),
        # Said later in the week, the next one is next week's anyway.
        ("Dentist appointment next Tuesday at 3pm.", datetime(2026, 11, 28, tzinfo=UTC), "2026-12-01"),
    ],
)
def test_next_and_a_weekday_is_next_weeks(text: str, said: datetime, day: str) -> None:
    found = due.reminder_day(text, said)
    assert found is not None and found.date().isoformat() == day


def test_a_chinese_line_opening_with_its_day_is_an_arrangement_for_it() -> None:
    monday = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
    text = "下周三和美琳一起去看伴娘裙。"  # next Wednesday, go with Mei Lin to look at bridesmaid dresses
    assert events.event(text) and due.to_do(text)
    found = due.deadline_day(text, monday)
    assert found is not None and found.date().isoformat() == "2026-12-02"
    assert not events.event("今天很累。")  # "very tired today": a note, nothing to go to


def test_an_instruction_after_a_comma_is_a_thing_to_do_and_can_be_overdue(tmp_path: Path) -> None:
    text = "Manual handling and basic life support refreshers both expire this month, book them on the portal today."
    assert due.instruction(text) and due.owed(text)
    assert not due.instruction("Dad fell in the bathroom last night, bruised his hip but no fracture.")
    thursday = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        with time_machine.travel(thursday, tick=False):
            m.store_memory(text)
        assert text in _listed(m, "what's overdue?", SAID)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Ruth schrieb: Felix hat am 9. Dezember Geburtstag.", "2026-12-09"),
        ("妈妈的生日是12月3日。", "2026-12-03"),  # Mum's birthday is 3 December
    ],
)
def test_a_birthday_in_german_or_chinese_is_on_the_calendar_every_year(text: str, day: str) -> None:
    assert events.on_calendar(text) and events.yearly(text)
    found = due.deadline_day(text, SAID)
    assert found is not None and found.date().isoformat() == day
    next_year = due.reminder_day(text, SAID, datetime(2027, 1, 10, tzinfo=UTC))
    assert next_year is not None and next_year.year == 2027
