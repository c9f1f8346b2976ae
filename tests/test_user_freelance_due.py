"""Due lists as a freelance web developer asks for them: "what do I have to do today?" on a Saturday with things
missed during the week, and questions for things to do asked in German and Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
from engram.lang import due
from engram.recall.intent import intent

MONDAY = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
SATURDAY = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
HETZNER = "Pay the Hetzner invoice by Thursday."
CHASE = "Chase Tom about the unpaid invoice by Friday."
LONG_AGO = "Renew the passport by 2 October."
DENTIST = "Dentist check-up next Wednesday at 9:40."


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        with time_machine.travel(MONDAY, tick=False):
            for text in (HETZNER, CHASE, LONG_AGO, DENTIST):
                m.store_memory(text)
        yield m


def _listed(memory: Memory, question: str) -> list[dict[str, object]]:
    with time_machine.travel(SATURDAY, tick=False):
        return [dict(h) for h in memory.search_memory(question, now=SATURDAY)["results"]]


def test_today_on_a_free_day_lists_what_was_missed_this_week_with_its_day(memory: Memory) -> None:
    listed = _listed(memory, "what do I have to do today?")
    days = {h["content"]: h["due"] for h in listed}
    assert days.get(HETZNER) == "2026-11-26" and days.get(CHASE) == "2026-11-27"
    assert LONG_AGO not in days  # missed months ago: most likely done
    assert DENTIST not in days  # due next week, not today


@pytest.mark.parametrize(
    "question",
    [
        "was steht diese Woche an?",
        "Was muss ich heute erledigen?",
        "Welche Aufgaben habe ich nächste Woche?",
        "这周有什么要做的\uff1f",
        "今天要做什么\uff1f",
        "下周有什么安排\uff1f",
    ],
)
def test_german_and_chinese_questions_for_things_to_do_are_read_as_such(question: str) -> None:
    assert intent(question) == "remind"


@pytest.mark.parametrize(
    "question",
    ["Was hat Katrin über den Export gesagt?", "黄先生说锅炉什么时候换的\uff1f", "Wo wohnt meine Mutter?"],
)
def test_german_and_chinese_questions_about_something_else_are_not(question: str) -> None:
    assert intent(question) != "remind"


@pytest.mark.parametrize("question", ["was steht diese Woche an?", "这周有什么要做的\uff1f"])
def test_a_german_or_chinese_question_lists_the_week_as_english_does(memory: Memory, question: str) -> None:
    english = [h["content"] for h in _listed(memory, "what do I have to do this week?")]
    assert HETZNER in english
    assert [h["content"] for h in _listed(memory, question)] == english


def test_the_command_line_says_which_things_to_do_are_overdue(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engram.interfaces.cli.app import app

    db = str(tmp_path / "cli.db")
    with time_machine.travel(MONDAY, tick=False):
        CliRunner().invoke(app, ["--db", db, "store", HETZNER])
    with time_machine.travel(SATURDAY, tick=False):
        out = CliRunner().invoke(app, ["--db", db, "search", "what do I have to do today?"]).output
    assert "2026-11-26 overdue" in out


THURSDAY = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("what do I need to do before the end of November?", "2026-11-26", "2026-11-30"),
        ("what is due by the end of the month?", "2026-11-26", "2026-11-30"),
        ("anything due by the end of next week?", "2026-11-26", "2026-12-06"),
        ("what do I have to do by the end of the week?", "2026-11-26", "2026-11-29"),
        ("what is due the second Tuesday of next month?", "2026-12-08", "2026-12-08"),
        ("what is due on the first Monday of December?", "2026-12-07", "2026-12-07"),
        ("what is due in the next ten days?", "2026-11-26", "2026-12-06"),
        ("what do I have to do within two weeks?", "2026-11-26", "2026-12-10"),
    ],
)
def test_the_days_a_question_for_things_to_do_names(question: str, first: str, last: str) -> None:
    span = due.window(question, THURSDAY)
    assert span is not None and span.after is not None and span.before is not None
    assert span.after.date().isoformat() == first
    assert (span.before - timedelta(days=1)).date().isoformat() == last


def test_before_the_end_of_the_month_lists_what_is_due_until_then(tmp_path: Path) -> None:
    invoice = "Send Brightmoor the invoice by the end of the month."
    review = "Quarterly review on the second Tuesday of next month."
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as m:
        with time_machine.travel(MONDAY, tick=False):
            for text in (invoice, review, HETZNER):
                m.store_memory(text)
        with time_machine.travel(THURSDAY, tick=False):
            listed = [
                h["content"]
                for h in m.search_memory("what do I need to do before the end of November?")["results"]
            ]
            second = [
                h["content"]
                for h in m.search_memory("what is due the second Tuesday of next month?")["results"]
            ]
    assert invoice in listed and HETZNER in listed and review not in listed
    assert second == [review]


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("Call with Katrin 24 Nov: they need CSV export before the review.", "2026-11-24", None),
        ("Call with Katrin 24 Nov: they need CSV export before the review.", "2026-11-25", None),
        ("Meter readings at Crayton Street on 25 Nov: electricity 48211, gas 10933.", "2026-11-25", None),
        ("Standup 24 Nov: Priya needs the API keys by Friday.", "2026-11-24", "2026-11-27"),
        ("Dentist 3 Dec: bring the forms.", "2026-11-24", "2026-12-03"),  # an appointment to come
        ("Invoice due 24 Nov: chase it.", "2026-11-24", "2026-11-24"),
    ],
)
def test_a_heading_that_dates_a_note_names_no_due_day(text: str, said: str, day: str | None) -> None:
    found = due.reminder_day(text, datetime.fromisoformat(f"{said}T08:00:00+00:00"))
    assert (None if found is None else found.date().isoformat()) == day
