"""`engram search` as a person reads it: a passage of a long document shows the sentence that answers, under its
section's heading, not the passage's first line (which was a heading or the tail of another section); an older
fact that a newer memory updates says so in the table."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram.interfaces.cli.agent import snippet
from engram.interfaces.cli.app import app

NOTES = Path(__file__).parent / "fixtures" / "usage"
runner = CliRunner()


def _hit(content: str, **more: object) -> dict[str, object]:
    return {"id": "d" * 36, "content": content, "confidence": "high", "relevance_score": 0.8, **more}


def test_a_passage_shows_the_sentence_that_answers_under_its_heading() -> None:
    passage = (
        "## Weather\n\nThe first week was dry and warm. Heavy rain on the tenth night closed the tracks.\n\n"
        "## Budget\n\nThe campaign cost 14,350 euros against a budget of 15,000. The courier cost 410 euros."
    )
    where = {"document": "d" * 36, "index": 12, "count": 13, "heading": "Budget"}
    shown = snippet(_hit(passage, passage=where), "how much did the campaign cost?").plain
    assert shown.startswith("Budget: ") and "The campaign cost 14,350 euros" in shown
    assert "Weather" not in shown


def test_a_short_memory_shows_whole_and_an_updated_one_says_so() -> None:
    assert snippet(_hit("Clara moved to Porto."), "where does Clara live?").plain == "Clara moved to Porto."
    older = snippet(_hit("My sister Clara lives in Lisbon.", updated_by="a1b2c3d4" + "e" * 28), "Clara")
    assert older.plain == "My sister Clara lives in Lisbon. (updated by a1b2c3d4)"


def test_a_one_line_memory_shows_its_answer_past_the_first_words() -> None:
    said = "Dentist appointment with Dr Patel on Thursday 3 December at 2.15pm, bring the referral letter"
    assert snippet(_hit(said), "what time is the dentist?").plain == said


@pytest.mark.usefixtures("model")
def test_engram_search_answers_a_question_about_a_document_with_its_detail(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    added = runner.invoke(app, ["--db", db, "add", str(NOTES / "soil_fieldwork.md")])
    assert added.exit_code == 0, added.output
    found = runner.invoke(app, ["--db", db, "search", "which plots were sold to the solar company?"])
    assert found.exit_code == 0, found.output
    flat = " ".join(found.output.replace("│", " ").split())
    assert "What happened at Monte da Ribeira" in flat and "R7 and R8" in flat, found.output


@pytest.mark.usefixtures("model")
def test_engram_store_names_the_memory_a_change_updates_and_its_own_options(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    first = runner.invoke(app, ["--db", db, "store", "My sister Clara lives in Lisbon.", "--json"])
    lisbon = first.output[first.output.index('"memory_id": "') + 14 :][:36]
    moved = runner.invoke(app, ["--db", db, "store", "Clara moved to Porto."])
    assert moved.exit_code == 0, moved.output
    flat = " ".join(moved.output.replace("│", " ").split())
    assert f"updates {lisbon[:8]}" in flat and "merge_memories" in flat, moved.output
    late = runner.invoke(app, ["--db", db, "store", "Dentist on Friday", "--expires", "2020-01-01"])
    assert late.exit_code == 2 and "--expires: is in the past" in late.output, late.output
