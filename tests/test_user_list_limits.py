"""A listing's limit and offset past what the database counts ("engram list --limit 99999999999999999999999")
ended in a traceback (OverflowError from SQLite); a negative or a boolean limit listed nothing, silently. Each is
refused naming the field, in the library and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interfaces.cli.app import app


@pytest.mark.parametrize(
    ("field", "value"),
    [("limit", 10**20), ("limit", 0), ("limit", -3), ("limit", True), ("offset", 10**20), ("offset", -1)],
)
def test_a_listing_beyond_what_a_database_counts_is_refused_naming_the_field(
    tmp_path: Path, field: str, value: int
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as memory:
        memory.remember("The staging database runs on db-staging-02")
        with pytest.raises(InvalidInput) as refused:
            memory.list(**{field: value})  # type: ignore[arg-type]
        assert refused.value.field == field
        assert len(memory.list(limit=1, offset=0)) == 1


def test_the_command_line_names_it_without_a_traceback(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    env = {"ENGRAM_HOME": str(tmp_path)}
    assert runner.invoke(app, ["--db", db, "remember", "hello there"], env=env).exit_code == 0
    result = runner.invoke(app, ["--db", db, "list", "--limit", "9" * 23], env=env)
    assert result.exit_code == 2, result.output
    assert "limit:" in result.output and "Traceback" not in result.output
