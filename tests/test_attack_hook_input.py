"""Claude Code's session-end hook reads the session's transcript, a file the agent writes and anything it read can
shape. One line nested past the parser's stack (or holding a 5,000-digit number) ended the hook in a traceback,
and one message with a malformed time made ingest refuse the whole session: either way every decision of the
session was lost. An unreadable line is skipped, a time that is none is left out, and the rest is kept, under
the project's name as typed (a macOS folder name comes decomposed, another scope id that shows alike)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram import Memory
from engram.interfaces.cli.app import app
from engram.interfaces.cli.setup import transcript_messages

DECIDED = "We decided to use Redis for the session cache"


def _user(text: str, **fields: object) -> str:
    return json.dumps({"type": "user", "message": {"content": text}, **fields})


def _transcript(path: Path) -> Path:
    lines = [
        "[" * 100_000 + "]" * 100_000,
        '{"type": "user", "n": ' + "9" * 5000 + "}",
        _user(DECIDED, timestamp={"at": 1}, uuid="u1"),
        _user("Always run the linter before pushing", timestamp="yesterday-ish", uuid=["u2"]),
        _user("I prefer tabs over spaces", timestamp="2026-11-27T10:00:00Z", uuid="u3"),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_unreadable_lines_and_malformed_times_leave_the_other_messages(tmp_path: Path) -> None:
    messages = transcript_messages(_transcript(tmp_path / "t.jsonl"), "s1")
    assert [m["content"] for m in messages] == [
        DECIDED,
        "Always run the linter before pushing",
        "I prefer tabs over spaces",
    ]
    assert [m["ts"] for m in messages] == [None, None, "2026-11-27T10:00:00Z"]
    assert [m["message_id"] for m in messages] == ["u1", "", "u3"]


@pytest.mark.parametrize("stdin", ["[" * 100_000, '{"n": ' + "9" * 5000 + "}"])
def test_a_hook_input_no_parser_reads_is_no_input(tmp_path: Path, stdin: str) -> None:
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "m.db"), "hook", "session-end"], input=stdin)
    assert result.exit_code == 0 and "transcript_path" in result.output
    assert not (tmp_path / "m.db").exists()


def test_the_session_end_hook_keeps_the_session_around_a_hostile_line(tmp_path: Path) -> None:
    transcript = _transcript(tmp_path / "t.jsonl")
    folder = tmp_path / "Cafe\u0301-app"  # as macOS names a folder: the accent a combining mark
    hook_input = {"transcript_path": str(transcript), "session_id": {"not": "text"}, "cwd": str(folder)}
    result = CliRunner().invoke(
        app, ["--db", str(tmp_path / "m.db"), "hook", "session-end"], input=json.dumps(hook_input)
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "Error" not in result.output
    with Memory(tmp_path / "m.db") as mem:
        stored = [m.content for m in mem.list(limit=50)]
        typed = [m.content for m in mem.list(scope="project", scope_id="Caf\u00e9-app", limit=50)]
    assert DECIDED in stored and DECIDED in typed  # the project as a person types its name
