"""What store_memory decides on its own for everyday memories, as a user reads it: the day a reminder is due
(the date its deadline word names, a day of the month alone, German and Chinese dates), rules and prohibitions
never due, instructions with a day listed as things to do, and tags that name topics rather than an
instruction's verb, a month's abbreviation or a German function word."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from engram import Memory
from engram.lang import due
from engram.model.record import Category
from engram.tags import german, phrases
from engram.tags.context import context_tags

SAID = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # The date a deadline word introduces, not the first date named.
        ("Passport expires 20 February 2027. Apply for the renewal by 15 December.", "2026-12-15"),
        ("My gym membership ends 31 January; cancel it by 15 December or it renews.", "2026-12-15"),
        # A day of the month alone, after by / before / on / due: this month's, or the next month's.
        ("Renew the car insurance before the 3rd.", "2026-12-03"),
        ("Pay the electricity bill, it's due on the 28th.", "2026-11-28"),
        ("Pay the cleaner on the 31st.", "2026-12-31"),  # November has no 31st
        ("Party on Saturday the 5th", "2026-12-05"),  # the day of the month says which Saturday
        # German and Chinese dates, read forward.
        ("Die Steuererklärung muss bis zum 31. Dezember beim Finanzamt sein.", "2026-12-31"),
        ("Zahnarzttermin am 9. Dezember um 14 Uhr nicht vergessen.", "2026-12-09"),
        ("下周五之前把季度报告发给王经理。", "2026-12-04"),
        ("我妈妈的生日是三月十二日。", "2027-03-12"),
        ("12月9日交报告", "2026-12-09"),
    ],
)
def test_the_due_day_is_the_one_the_deadline_names(text: str, day: str) -> None:
    found = due.due_day(text, SAID)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Don't book calls with the Tokyo office after 11am our time.",
        "Do not merge on a Friday afternoon.",
        "Ich trinke morgens immer zuerst einen grünen Tee.",
        "我每天早上跑步。",
        "On weekdays I start work at 8:30 and try to finish by 5.",
    ],
)
def test_prohibitions_and_habits_in_any_wording_are_never_due(text: str) -> None:
    assert due.standing(text)
    assert due.reminder_day(text, SAID) is None


def test_a_reminder_not_to_forget_is_no_prohibition() -> None:
    assert not due.standing("Don't forget to pay the rent on the 1st.")


@pytest.mark.parametrize(
    ("text", "instruction"),
    [
        ("Prepare slides for the architecture review on 2 December.", True),  # a verb it can only be
        ("Book the venue for the party on 3 Dec.", True),  # a noun too, but followed by its object
        ("Remind me to water Oskar's plants on Sunday.", True),
        ("Urgent: send the payroll file to the bank today.", True),
        ("Design review on Friday.", False),  # a noun phrase
        ("Met Carla from the data team on Tuesday.", False),  # past: what happened
        ("Rain expected on Friday.", False),
        ("My daughter Mia turns seven on 6 December.", False),
    ],
)
def test_an_instruction_is_told_from_a_statement(text: str, instruction: bool) -> None:
    assert due.instruction(text) is instruction
    # An event on a day is something to do that day too ("Design review on Friday").
    assert due.to_do(text) is instruction or due.states_deadline(text) or due.event(text)


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        ("Book the venue for Mia's birthday party before 5 December.", {"birthday party", "venue"}, {"book"}),
        ("Hand in the signed consent form before the 4th.", {"consent form"}, {"hand"}),
        (
            "Mum's lentil soup: fry onion and carrot, add red lentils.",
            {"lentil soup", "onion"},
            {"fry onion"},
        ),
        ("I go swimming every Wednesday evening.", {"swimming"}, set()),
        ("Dentist appointment on 12 Dec at 9:30.", {"Dentist appointment"}, {"Dec"}),
        ("Conference talk abstract due 8 Dec.", set(), {"Dec."}),
        # A word that labels the statement is no topic; one the tagger misread keeps its phrase.
        ("Goal for this year: save enough for a deposit on a flat.", {"deposit"}, {"Goal"}),
        ("Lesson from the outage: alerts on disk usage need to fire early.", {"outage"}, {"Lesson"}),
        ("Bin collection days: recycling Monday, general waste Thursday.", {"bin collection days"}, set()),
        ("Mostly from lost retail accounts.", {"retail accounts"}, set()),
    ],
)
def test_tags_name_topics_not_verbs_or_dates(text: str, wanted: set[str], unwanted: set[str]) -> None:
    found = set(phrases.topics(text))
    assert wanted <= found, found
    assert not unwanted & found, found


def test_a_german_text_is_tagged_with_its_nouns() -> None:
    text = "Die Steuererklärung muss bis zum 31. Dezember beim Finanzamt sein."
    assert german.is_german(text)
    assert phrases.topics(text) == ("Steuererklärung", "Finanzamt")
    assert set(phrases.topics("Meine Schwester Anna wohnt in München.")) == {"Schwester", "Anna", "München"}
    assert not german.is_german("The die is cast, and Das Boot was on TV.")


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("Team rule: no meetings before 10am on Mondays.", ()),  # a rule has no deadline
        ("Alerts on disk usage need to fire well before 90%.", ()),  # an amount is no day
        ("Send the signed lease back by Friday.", ("deadline",)),
    ],
)
def test_the_deadline_tag_only_on_a_deadline(text: str, tags: tuple[str, ...]) -> None:
    assert context_tags(text) == tags


def _stored(memory: Memory, text: str, at: datetime) -> str:
    with time_machine.travel(at, tick=False):
        return str(memory.store_memory(text)["memory_id"])


def test_dated_tasks_are_listed_in_their_week_and_rules_are_not(real: Memory) -> None:
    tasks = {
        "Prepare slides for the architecture review on 2 December.": "2026-12-02",
        "Passport expires 20 February 2027. Apply for the renewal by 15 December.": "2026-12-15",
        "Renew the car insurance before the 3rd.": "2026-12-03",
    }
    ids = {text: _stored(real, text, SAID) for text in tasks}
    rule = _stored(real, "Don't book calls with the Tokyo office after 11am our time.", SAID)
    assert real.get(ids[next(iter(tasks))]).category is Category.REMINDERS  # an instruction with its day
    for text, day in tasks.items():
        due_on = datetime.fromisoformat(day).replace(tzinfo=UTC, hour=9)
        monday = due_on - timedelta(days=due_on.weekday())
        with time_machine.travel(monday, tick=False):
            listed = real.search_memory("what do I have to do this week?", {"limit": 50}, now=monday)
        shown = {h["id"]: h["due"] for h in listed["results"]}
        assert shown.get(ids[text]) == day, (text, shown)
        assert rule not in shown
