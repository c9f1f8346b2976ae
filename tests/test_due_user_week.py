"""Due days a new user wrote in a week of their own notes and found missing or wrong: "the 8th of December", a span
of days in a month ("from 14 to 16 January" starts on the 14th), "for the 18th", a modal the lemma tables call a
past form ("I should call the bank on Monday"), and an obligation said with a subject ("Ich muss am Montag ...",
"我得...") that made no reminder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from engram import Memory
from engram.classify import forms
from engram.lang import due

SAID = datetime(2026, 11, 27, 21, 30, tzinfo=UTC)  # a Friday evening


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Next dentist check-up: 8th of December at 14:30", "2026-12-08"),
        ("Renew the permit by the 3rd of Jan.", "2027-01-03"),
        ("Quarterly planning offsite in Lisbon from 14 to 16 January", "2027-01-14"),
        ("Parents visit 19-22 December; clean the guest room before they come", "2026-12-19"),
        ("Ski trip 2nd\u20136th Feb", "2027-02-02"),
        ("Reminder: book the team dinner for the 18th", "2026-12-18"),
        ("Book the table for the 3rd at 7pm", "2026-12-03"),
        ("I should call the bank on Monday", "2026-11-30"),
        ("We could move the retro to Thursday 3 December", "2026-12-03"),
    ],
)
def test_the_day_a_user_named_is_read(text: str, day: str) -> None:
    found = due.reminder_day(text, SAID)
    assert found is not None and found.date().isoformat() == day, found


@pytest.mark.parametrize(
    "text",
    ["Thanks for the 3rd time this week", "I called the bank on Monday", "Room 12 to let"],
)
def test_no_day_is_made_up(text: str) -> None:
    assert due.reminder_day(text, SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "Ich muss am Montag den Arzttermin verschieben",
        "Wir müssen am Freitag die Rechnung schicken",
        "I have to call the bank on Monday",
        "我得星期一给银行打电话",
    ],
)
def test_an_obligation_with_a_day_is_a_reminder_due_that_day(mem: Memory, text: str) -> None:
    with time_machine.travel(SAID, tick=False):
        stored = mem.store_memory(text)
    analysis = stored["analysis"]
    assert analysis["detected_category"] == "reminders", analysis
    assert analysis["due_date"] is not None and analysis["due_date"] >= "2026-11-27", analysis


def test_an_obligation_without_a_day_is_not_due() -> None:
    assert due.to_do("I need to be careful with gluten")
    assert due.deadline_day("I need to be careful with gluten", SAID) is None


@pytest.mark.parametrize(
    "text",
    [
        "We decided to pause project Phoenix until the end of January",
        "We agreed to freeze the API until 15 January",
        "The office is closed until 4 January",
    ],
)
def test_until_says_how_long_a_state_lasts_not_a_deadline(text: str) -> None:
    assert not due.to_do(text)
    assert "deadline" not in forms.read(text, SAID)


@pytest.mark.parametrize(
    "text", ["Keep the feature flag on until Friday", "I have to stay home until Monday", "Send it by Friday"]
)
def test_until_in_something_to_do_is_still_its_deadline(text: str) -> None:
    assert due.to_do(text)
    assert "deadline" in forms.read(text, SAID)


def test_a_task_said_due_before_a_day_is_listed_when_asked_what_is_due_before_it(mem: Memory) -> None:
    """ "Pick up the dry cleaning before Friday" is due on Friday; "what do I need to do before Friday" listed only
    the days up to Thursday, so the one task said that way was missing from its own question's answer."""
    saturday = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)
    with time_machine.travel(saturday, tick=False):
        mem.store_memory("Pick up the dry cleaning before Friday.")
        mem.store_memory("Send the tax form by Wednesday.")
        found = mem.search_memory("what do I need to do before Friday", now=saturday)
        later = mem.search_memory("what do I need to do before next week", now=saturday)
    listed = {hit["content"]: hit.get("due") for hit in found["results"]}
    assert listed == {
        "Pick up the dry cleaning before Friday.": "2026-12-04",
        "Send the tax form by Wednesday.": "2026-12-02",
    }
    assert later["results"] == []  # asked on a Saturday, "before next week" ends on Sunday
