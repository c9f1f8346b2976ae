"""What the command line shows people and scripts: readable tables by default, `--json` with the library's
shapes, plain sentences for empty results, help without `<bool>`, progress bars only on a terminal, read
commands that create nothing, a demo that leaves the user's store alone, bulk review, and `serve` on a busy
port and its request log."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from engram import Memory, Status
from engram.interfaces.cli.app import app
from engram.interfaces.cli.terminal import headline, shorten
from engram.model.answers import ExportAnswer, MaintainAnswer, SearchMemoryResult, StoreMemoryResult

runner = CliRunner()


def run(db: str | Path, *args: str, **kwargs: Any) -> tuple[int, str]:
    result = runner.invoke(app, ["--db", str(db), *args], **kwargs)
    return result.exit_code, result.output


def engram(
    *args: str, env: dict[str, str] | None = None, timeout: int = 300
) -> subprocess.CompletedProcess[str]:
    """`engram ARGS` as a real process."""
    command = [sys.executable, "-m", "engram", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def every_command() -> list[list[str]]:
    """The argument paths of every command and sub-command."""
    found: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        found.append(path)
        if hasattr(command, "commands"):  # a group (typer's own click)
            for name, sub in command.commands.items():
                walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


def test_help_shows_no_type_after_plain_flags_and_version_prints() -> None:
    commands = every_command()
    assert ["add"] in commands and ["setup"] in commands and ["hook", "session-end"] in commands
    for path in commands:
        out = runner.invoke(app, [*path, "--help"], terminal_width=200).output
        assert "<bool>" not in out, path
    assert "--json" in runner.invoke(app, ["list", "--help"]).output
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("engram ")


def test_shorten_cuts_at_a_word_with_an_ellipsis() -> None:
    text = "The quarterly planning meeting moved to the large room on the third floor"
    cut = shorten(text, 30)
    assert cut == "The quarterly planning\u2026" and len(cut) <= 30
    assert shorten("short text", 30) == "short text"
    assert shorten("a\nmulti   line\ttext", 40) == "a multi line text"
    assert (
        shorten("x" * 50, 10) == "x" * 9 + "\u2026"
    )  # one long word: cut inside it rather than show nothing
    assert headline("---\n# Deploy guide\n\nRun make.") == "Deploy guide"
    assert headline("- [ ] buy milk") == "buy milk" and headline("body", "Its title") == "Its title"


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["search", "anything"],
        ["recall", "anything"],
        ["stats"],
        ["export", "out.jsonl"],
        ["review"],
        ["review", "list"],
        ["show", "abcd1234"],
        ["context"],
        ["tools"],
        ["maintain"],
        ["reembed"],
    ],
)
def test_a_read_command_on_a_missing_database_says_so_and_creates_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    db = tmp_path / "typo" / "nested" / "memories.db"
    code, out = run(db, *args)
    assert code == 1 and f"no database at {db}" in out, out
    assert not (tmp_path / "typo").exists() and not (tmp_path / "out.jsonl").exists()


def test_a_missing_database_as_a_real_command(tmp_path: Path) -> None:
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "home")}
    done = engram("search", "my keys", env=env)
    assert done.returncode == 1 and f"no database at {tmp_path / 'home'}" in done.stderr
    assert not (tmp_path / "home").exists()  # not even the folder


def test_readable_by_default_and_the_library_shapes_with_json(tmp_path: Path) -> None:
    db = tmp_path / "out.db"
    code, out = run(db, "list")
    assert code == 1  # nothing yet: a read command does not create it
    code, out = run(db, "store", "Renew the passport before June", "--tag", "travel")
    assert code == 0 and out.startswith("stored ") and "travel" in out and "importance" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    code, out = run(db, "store", "The boiler was serviced in October", "--json")
    assert set(json.loads(out)) == set(StoreMemoryResult.__annotations__)
    code, out = run(db, "search", "passport renewal")
    assert code == 0 and "passport" in out and "relevance" in out and "found" in out
    code, out = run(db, "search", "passport renewal", "--json")
    assert set(json.loads(out)) == set(SearchMemoryResult.__annotations__)
    code, out = run(db, "search", "zebra migration patterns in Kenya")
    assert code == 0 and out.startswith("nothing sure found for") and "low" in out  # guesses, marked so
    code, out = run(db, "search", "zebra migration patterns in Kenya", "--min-confidence", "medium")
    assert code == 0 and out.startswith("nothing found for")
    code, out = run(db, "tools")
    assert code == 0 and "optimize_tags" in out and "total memories" in out
    code, out = run(db, "tools", "memory_stats")
    assert code == 0 and "categories" in out and not out.lstrip().startswith("{")
    code, out = run(db, "maintain")
    assert code == 0 and out.startswith("looked at 2 memories")
    assert set(json.loads(run(db, "maintain", "--json")[1])) == set(MaintainAnswer.__annotations__)
    code, out = run(db, "export", str(tmp_path / "all.jsonl"))
    assert code == 0 and "exported 2 records" in out
    code, out = run(db, "export", str(tmp_path / "again.jsonl"), "--json")
    assert set(json.loads(out)) == set(ExportAnswer.__annotations__)
    code, out = run(db, "import", "shodh", str(tmp_path / "all.jsonl"))
    assert code == 0 and "imported" in out and "skipped" in out
    assert json.loads(run(db, "import", "shodh", str(tmp_path / "all.jsonl"), "--json")[1])["skipped"] == 2
    code, out = run(db, "stats")
    assert code == 0 and "memories" in out and "by kind" in out
    code, out = run(db, "review")
    assert code == 0 and out.strip() == "nothing waits for review"
    code, out = run(db, "list", "--kind", "identity")
    assert code == 0 and out.strip() == "no memories match these filters"


def test_long_memories_are_cut_at_a_word_in_tables(tmp_path: Path) -> None:
    db = tmp_path / "long.db"
    text = "Quarterly planning: " + " ".join(f"item{i} needs an owner before Friday" for i in range(12))
    run(db, "remember", text)
    code, out = run(db, "list")
    assert code == 0 and "\u2026" in out
    cell = " ".join(line.split("\u2502")[-2] for line in out.splitlines() if line.count("\u2502") > 3)
    words = cell.replace("\u2026", " ").split()
    assert words and all(w in text.split() for w in words), words  # no word cut in two
    code, out = run(db, "show", "--json", json.loads(run(db, "list", "--json")[1])[0]["id"])
    assert json.loads(out)["content"] == text


def pending(db: Path) -> dict[str, str]:
    """Three memories waiting for review, as ingest leaves them: two uncertain todos, one preference."""
    rows = [
        ("Maybe call the plumber about the leak", "todo", 0.41, "extracted with confidence 0.41"),
        ("Perhaps renew the gym pass", "todo", 0.55, "extracted with confidence 0.55"),
        ("I think I prefer window seats", "preference", 0.45, "extracted with confidence 0.45"),
    ]
    ids = {}
    with Memory(db) as mem:
        for text, kind, confidence, reason in rows:
            ids[text] = mem.remember(
                text,
                status="pending",
                metadata={"candidate": {"kind": kind, "confidence": confidence}, "review_reason": reason},
            ).id
    return ids


def test_review_lists_why_each_waits_and_decides_many(tmp_path: Path) -> None:
    db = tmp_path / "review.db"
    ids = pending(db)
    code, out = run(db, "review")
    words = " ".join(out.split())  # as read, whatever the terminal's width
    assert code == 0 and "3 waiting for review" in out
    assert (
        "waits: extracted with confidence 0.41" in words and "Maybe call the plumber about the leak" in words
    )
    listed = json.loads(run(db, "review", "--json")[1])
    assert {r["why_waiting"] for r in listed} >= {"extracted with confidence 0.55"}
    code, out = run(db, "review", "reject", "--kind", "todo", "--below-confidence", "0.5")
    words = " ".join(out.split())
    assert code == 0, out
    assert "1 rejected" in out and "plumber" in out and "waited: extracted with confidence 0.41" in words
    plumber, gym, seats = (ids[t] for t in ids)
    code, out = run(db, "review", "approve", gym[:8], seats, "--json")
    assert code == 0 and {r["id"] for r in json.loads(out)} == {gym, seats}
    with Memory(db) as mem:
        assert mem.get(plumber).status is Status.REJECTED
        assert mem.get(gym).status is Status.APPROVED and mem.get(seats).status is Status.APPROVED
    code, out = run(db, "review", "approve")
    assert code == 2 and "give ids" in out
    code, out = run(db, "review", "reject", "--kind", "todo")
    assert code == 0 and out.strip() == "nothing to reject: no pending memory matches"
    code, out = run(db, "review", "edit", plumber, gym, "--content", "x")
    assert code == 2 and "exactly one" in out


def test_review_list_shows_what_a_filter_would_decide_on(tmp_path: Path) -> None:
    db = tmp_path / "review.db"
    pending(db)
    code, out = run(db, "review", "list", "--kind", "todo", "--below-confidence", "0.5", "--json")
    assert code == 0 and [r["content"] for r in json.loads(out)] == ["Maybe call the plumber about the leak"]
    code, out = run(db, "review", "list", "--kind", "todo")
    assert code == 0 and "2 waiting for review" in out and "window seats" not in out
    code, out = run(db, "review", "list", "--kind", "todos")
    assert code == 2 and "kind" in out
    # the list was a preview: nothing was decided
    assert "3 waiting for review" in run(db, "review")[1]


def test_demo_without_db_leaves_the_users_store_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "engram-home"
    monkeypatch.setenv("ENGRAM_HOME", str(home))
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "minimalistic user interfaces" in result.output and "temporary store" in result.output
    assert not home.exists()
    kept = tmp_path / "demo.db"
    result = runner.invoke(app, ["demo", "--db", str(kept)])
    assert result.exit_code == 0 and kept.is_file() and f"stored in {kept}" in result.output


def test_progress_bar_only_on_a_terminal_and_never_with_json(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    lines = [
        {"role": "user", "content": f"I prefer tea number {i}", "conversation_id": "c"} for i in range(3)
    ]
    chat.write_text("\n".join(json.dumps(m) for m in lines))
    terminal = os.environ | {"TTY_COMPATIBLE": "1", "ENGRAM_HOME": str(tmp_path / "h")}
    done = engram("--db", str(tmp_path / "p.db"), "ingest", str(chat), env=terminal)
    assert done.returncode == 0, done.stderr
    assert "ingesting chat.jsonl" in done.stderr and "messages read" in done.stdout
    done = engram("--db", str(tmp_path / "p.db"), "ingest", str(chat), "--json", env=terminal)
    assert done.returncode == 0 and "ingesting" not in done.stderr
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", done.stdout)  # JSON is coloured on a terminal
    assert json.loads(plain)["messages_already_ingested"] == 3


def test_serve_on_a_busy_port_says_so_before_any_url(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = os.environ | {"ENGRAM_HOME": str(tmp_path / "h")}
        done = engram("--db", str(tmp_path / "s.db"), "serve", "--local", "--port", str(port), env=env)
    assert done.returncode == 1 and f"port {port} on 127.0.0.1 is in use" in done.stderr
    assert "http://" not in done.stdout and not (tmp_path / "s.db").exists()


def test_serve_logs_each_request_without_query_or_body(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = os.environ | {"ENGRAM_HOME": str(tmp_path / "h")}
    command = [
        sys.executable,
        "-m",
        "engram",
        "--db",
        str(tmp_path / "s.db"),
        "serve",
        "--local",
        "--port",
        str(port),
    ]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(600):  # until it answers (the model loads first); no timing is asserted
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=1).read()
                break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.5)
        body = json.dumps({"content": "my secret diary entry"}).encode()
        ask = urllib.request.Request(f"{base}/v1/store", body, {"Content-Type": "application/json"})
        urllib.request.urlopen(
            ask, timeout=600
        ).read()  # the first write loads the model: a limit, not a measure
        urllib.request.urlopen(f"{base}/v1/memories?tag=private-words&limit=5", timeout=600).read()
    finally:
        server.terminate()
        out, err = server.communicate(timeout=60)
    assert out.startswith(f"Engram on http://127.0.0.1:{port}/"), out
    assert "GET /api/health 200" in err and "POST /v1/store 200" in err and "GET /v1/memories 200" in err
    assert "secret" not in err and "private-words" not in err and "limit=5" not in err


def test_a_reminder_shows_its_due_day_when_stored_and_listed(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    day = datetime.now(UTC) + timedelta(days=10)
    db = tmp_path / "due.db"
    code, out = run(db, "store", f"Send the grant report to the board by {day.day} {day:%B}")
    assert code == 0 and "due" in out and day.date().isoformat() in out
    code, out = run(db, "store", "The boiler was serviced in October", "--json")
    assert json.loads(out)["analysis"]["due_date"] is None
    code, out = run(db, "search", "what do I need to do?")
    assert code == 0 and "due" in out and day.date().isoformat() in out
