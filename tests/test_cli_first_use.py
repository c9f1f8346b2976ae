"""The command line as someone new to it uses it: the file `engram export` wrote goes back with `engram import
FILE`, a folder of notes is added whole past a file that cannot be read, recall says where to look when nothing
answers and marks its guesses, a missing store says how to make one, and help reads as sentences."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from engram.interfaces.cli.app import app

runner = CliRunner()


def run(db: str | Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--db", str(db), *args])
    return result.exit_code, result.output


def _memories(db: Path) -> list[dict[str, Any]]:
    code, out = run(db, "list", "--json", "--limit", "100")
    assert code == 0, out
    rows: list[dict[str, Any]] = json.loads(out)
    return rows


def test_import_takes_the_file_export_wrote(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    assert run(source, "remember", "The spare key is under the blue flower pot")[0] == 0
    assert run(source, "export", str(tmp_path / "memories.jsonl"))[0] == 0
    code, out = run(target, "import", str(tmp_path / "memories.jsonl"), "--json")
    assert code == 0 and json.loads(out)["imported"] == 1, out
    assert [m["content"] for m in _memories(target)] == ["The spare key is under the blue flower pot"]
    code, out = run(target, "import", str(tmp_path / "memories.jsnol"))  # a typo names the file
    assert code != 0 and "No such command" not in out and "memories.jsnol" in out, out
    code, out = run(target, "import", "mem0", str(tmp_path / "memories.jsonl"))  # a format still chooses
    assert "No such command" not in out


def test_a_folder_of_notes_is_added_past_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "trips").mkdir(parents=True)
    (notes / ".obsidian").mkdir()
    (notes / "boiler.md").write_text("# Boiler\n\nServiced in October by Heatwell.\n", encoding="utf-8")
    (notes / "trips" / "lisbon.txt").write_text("Hotel Casa do Bairro, check-in 15:00.\n", encoding="utf-8")
    (notes / "broken.pdf").write_bytes(b"not a pdf at all")
    (notes / "photo.jpg").write_bytes(b"\xff\xd8\xff")  # not a document: a folder's other files are skipped
    (notes / ".obsidian" / "workspace.md").write_text("an editor's settings", encoding="utf-8")
    db = tmp_path / "m.db"
    code, out = run(db, "add", str(notes))
    assert code == 1, out  # one file was not added: a script can tell
    assert "2 files" in out and f"{notes / 'broken.pdf'}: not added" in out and "PDF" in out
    assert "EOF marker" not in out and "invalid pdf header" not in out  # the reader's own warnings
    titles = sorted(m["metadata"]["title"] for m in _memories(db))
    assert titles == ["Boiler", "lisbon"]
    code, out = run(db, "add", str(notes / "boiler.md"), str(notes))  # named twice: added once, unchanged
    assert "2 files" in out and out.count("unchanged") == 2
    (tmp_path / "empty").mkdir()
    code, out = run(db, "add", str(tmp_path / "empty"))
    assert code == 2 and "holds no Markdown, text, HTML or PDF file" in out


def test_recall_says_where_to_look_and_marks_a_guess(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert run(db, "remember", "Sarah's birthday is on March 3rd; she likes orchids")[0] == 0
    code, out = run(db, "recall", "zebra migration patterns in Kenya")
    assert code == 0 and "nothing found for" in out and "--related" in out
    code, out = run(db, "recall", "zebra migration patterns in Kenya", "--related")
    assert code == 0 and "Sarah" in out and "(a guess: low confidence)" in out
    code, out = run(db, "recall", "zebra migration patterns in Kenya", "--related", "--json")
    assert [h["confidence"] for h in json.loads(out)] == ["low"]
    code, out = run(db, "recall", "--help")
    assert "--related" in out and "reelated" not in out  # the old spelling works, unlisted
    assert run(db, "recall", "orchids", "--reelated")[0] == 0


def test_a_new_user_is_told_how_to_start(tmp_path: Path) -> None:
    code, out = run(tmp_path / "memories.db", "stats")
    assert code == 1 and "no memories yet" in out and "engram remember" in out and "engram add" in out
    code, out = run(tmp_path / "memories.db", "ingest", str(tmp_path / "chat.jsonl"))
    assert code == 2 and "chat.jsonl: does not exist" in out and "Errno" not in out


def test_help_lists_each_command_in_sentences(tmp_path: Path) -> None:
    env = os.environ | {"COLUMNS": "300", "TERMINAL_WIDTH": "300"}
    done = subprocess.run(
        [sys.executable, "-m", "engram", "--help"], env=env, capture_output=True, text=True, check=True
    )
    add = next(line for line in done.stdout.splitlines() if line.lstrip("│ ").startswith("add "))
    # the docstring's first paragraph, on one line: it broke where the source line ended
    assert "recalled by its passages. A folder adds the documents in it. Adding a file again changes" in add


# Commands that serve, show a demo, or answer a client's hook in the client's own format: no JSON to give.
NOT_FOR_SCRIPTS = {("serve",), ("mcp",), ("demo",), ("hook", "session-start"), ("hook", "session-end")}


def test_every_command_a_script_reads_has_json() -> None:
    found: list[tuple[str, ...]] = []

    def walk(command: Any, path: tuple[str, ...]) -> None:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                walk(sub, (*path, name))
        else:
            found.append(path)

    walk(typer.main.get_command(app), ())
    assert ("keys", "create") in found and ("import", "mem0") in found
    missing = [
        " ".join(path)
        for path in found
        if path not in NOT_FOR_SCRIPTS and "--json" not in runner.invoke(app, [*path, "--help"]).output
    ]
    assert missing == []


def test_keys_for_scripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path / "home"))
    result = runner.invoke(app, ["keys", "create", "alice", "--name", "laptop", "--json"])
    created = json.loads(result.output)
    assert created["tenant"] == "alice" and created["secret"] and created["revoked_at"] is None
    listed = json.loads(runner.invoke(app, ["keys", "list", "--json"]).output)
    assert [(k["id"], k["valid_tenant"]) for k in listed] == [(created["id"], True)]
    assert created["secret"] not in json.dumps(listed)  # shown once, at creation
    revoked = json.loads(runner.invoke(app, ["keys", "revoke", created["id"], "--json"]).output)
    assert revoked["id"] == created["id"] and revoked["revoked_at"]


def test_add_and_import_show_a_bar_on_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Boiler\n\nServiced in October.\n", encoding="utf-8")
    env = os.environ | {"TTY_COMPATIBLE": "1", "ENGRAM_HOME": str(tmp_path / "h")}
    db = str(tmp_path / "bar.db")
    command = [sys.executable, "-m", "engram", "--db", db]
    done = subprocess.run(
        [*command, "add", str(tmp_path / "notes.md")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "adding files" in done.stderr, done.stderr
    subprocess.run(
        [*command, "export", str(tmp_path / "all.jsonl")], env=env, check=True, capture_output=True
    )
    done = subprocess.run(
        [*command, "import", str(tmp_path / "all.jsonl")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "importing all.jsonl" in done.stderr, done.stderr
    done = subprocess.run(
        [*command, "import", str(tmp_path / "all.jsonl"), "--json"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "importing" not in done.stderr  # never with --json


def test_a_tool_result_names_its_records_in_words(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert run(db, "remember", "The boiler was serviced in October")[0] == 0
    code, out = run(db, "tools", "memory_timeline")
    assert code == 0 and "The boiler was serviced" in out and '{"id"' not in out


def test_version_and_demo_as_real_commands(tmp_path: Path) -> None:
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "engram", "--version"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.startswith("engram ")
    done = subprocess.run([sys.executable, "-m", "engram", "demo"], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and "your own store was not touched" in done.stdout, done.stderr
    assert not (tmp_path / "home").exists()  # the made-up memories went to a temporary store


def test_a_repeated_value_is_shown_as_one() -> None:
    out = runner.invoke(app, ["add", "--help"], terminal_width=200).output
    assert "<list[" not in out and "--tag" in out and re.search(r"--tag\s+<str>", out), out
    assert "<list[" not in runner.invoke(app, ["review", "--help"], terminal_width=200).output


def test_ingest_says_what_it_found_on_a_line(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    lines = [{"role": "user", "content": "maybe we could move the standup to 10am", "conversation_id": "c"}]
    chat.write_text("\n".join(json.dumps(m) for m in lines), encoding="utf-8")
    code, out = run(tmp_path / "m.db", "ingest", str(chat))
    assert code == 0 and re.search(r"^found: \w+ 1$", out, re.M), out
