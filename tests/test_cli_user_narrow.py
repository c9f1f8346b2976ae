"""`engram search` in an 80-column terminal or a pipe: the columns of a list of things to do (id, confidence,
relevance, category, due) left its text a column of 15 characters, a memory of one line over five; each result's
text now reads on the full width, under its fields, and a wide terminal keeps the table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from engram.interfaces.cli.app import app

runner = CliRunner()


def _search(db: Path, columns: int) -> str:
    result = runner.invoke(
        app, ["--db", str(db), "search", "what do I need to do?"], env={"COLUMNS": str(columns)}
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_a_result_reads_on_one_line_in_a_narrow_terminal(tmp_path: Path) -> None:
    db = tmp_path / "narrow.db"
    day = datetime.now(UTC) + timedelta(days=5)
    text = f"Send the signed lease to the landlord by {day.day} {day:%B}"
    assert runner.invoke(app, ["--db", str(db), "store", text]).exit_code == 0
    narrow = _search(db, 80)
    assert any(text in line for line in narrow.splitlines()), narrow
    assert day.date().isoformat() in narrow and "relevance" in narrow  # the fields are still named and shown
    wide = _search(db, 200)
    assert any(text in line and day.date().isoformat() in line for line in wide.splitlines()), wide
