"""Names that look like something else: a file name for an export or a backup holding a line break, a bidi control
(U+202E) that shows "ldnoj.x" as "x.jsonl", an invisible character, or a Windows folder separator; a memory whose
bidi controls reorder what the terminal shows around it (the id beside it, the next column)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from engram.interfaces.cli.app import app
from engram.interfaces.cli.terminal import plain

SPOOFING = [
    "export.jsonl\n",  # a line break: one file listed as two
    "\u202eldnoj.x",  # right-to-left override: shown as "x.jsonl"
    "back\u2066up.db",  # an isolate opened and never closed
    "ex\u200bport.jsonl",  # a zero-width space: two names that look one
    "..\\..\\etc\\export.jsonl",  # a folder separator on Windows
    "\u0435xport.jsonl",  # a Cyrillic U+0435: shown as "export.jsonl"
]


@pytest.mark.parametrize("name", SPOOFING)
def test_a_file_name_that_shows_as_another_is_refused(api: TestClient, name: str, tmp_path: Path) -> None:
    for tool, arguments in (
        ("export_memories", {"path": name}),
        ("backup_restore", {"action": "backup", "path": name}),
    ):
        answer = api.post(f"/v1/tools/{tool}", json={"arguments": arguments})
        assert answer.status_code == 400, answer.text
        assert answer.json()["field"] == "path"
    files = tmp_path / "files"
    written = [p.name for p in files.rglob("*")] if files.exists() else []
    assert written == []
    # A plain name in the same folder is written.
    assert (
        api.post("/v1/tools/export_memories", json={"arguments": {"path": "export.jsonl"}}).status_code == 200
    )


@pytest.mark.parametrize("control", ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u200f", "\u061c"])
def test_the_terminal_shows_bidi_controls_escaped(control: str) -> None:
    shown = plain(f"abc {control}evil.exe def").plain
    assert control not in shown and f"\\u{ord(control):04x}" in shown


def test_engram_list_shows_a_memory_with_a_bidi_override_escaped(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--db", db, "remember", "invoice \u202efdp.exe attached"]).exit_code == 0
    listed = runner.invoke(app, ["--db", db, "list"])
    assert listed.exit_code == 0 and "\u202e" not in listed.output and "\\u202e" in listed.output


@pytest.mark.parametrize(
    "command", [["list", "--json"], ["search", "invoice", "--json"], ["recall", "invoice"]]
)
def test_json_and_text_output_show_a_bidi_override_escaped(tmp_path: Path, command: list[str]) -> None:
    """rich's JSON printer wrote the text raw: `list --json` in a terminal showed the line reordered."""
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--db", db, "remember", "invoice \u202efdp.exe attached"]).exit_code == 0
    shown = runner.invoke(app, ["--db", db, *command])
    assert shown.exit_code == 0 and "\u202e" not in shown.output and "\\u202e" in shown.output, shown.output
    if "--json" in command:  # still JSON, holding the text as written
        assert "invoice \u202efdp.exe attached" in json.dumps(json.loads(shown.output), ensure_ascii=False)
