"""Due lists as a freelance web developer asks for them: "what do I have to do today?" on a Saturday with things
missed during the week, and questions for things to do asked in German and Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine

from engram import FakeEmbedder, Memory
from engram.config import Settings
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
