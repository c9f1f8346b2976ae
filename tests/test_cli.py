"""The CLI end to end, in process, with the real model."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram.interfaces.cli.app import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def run(db: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--db", db, *args])
    return result.exit_code, result.output


def test_remember_recall_show_list_forget(db: str) -> None:
    code, out = run(db, "remember", "I like minimalistic user interfaces", "--json")
    assert code == 0, out
    created = json.loads(out)
    assert created["outcome"] == "created"
    run(db, "remember", "Renew the TLS certificate before March", "--scope", "project", "--scope-id", "web")
    code, out = run(db, "recall", "which interface style do I like")
    assert code == 0 and out.splitlines()[0].endswith("/global] I like minimalistic user interfaces")
    assert out.splitlines()[0].startswith("[")
    code, out = run(db, "recall", "certificate renewal", "--json", "--explain", "--scope", "project")
    hits = json.loads(out)
    assert hits[0]["scope"] == "project" and set(hits[0]["components"]) >= {"vector", "lexical", "recency"}
    code, out = run(db, "show", created["id"], "--json")
    shown = json.loads(out)
    assert shown["content"] == "I like minimalistic user interfaces" and shown["access_count"] == 1
    code, out = run(db, "list", "--json")
    assert len(json.loads(out)) == 2
    code, out = run(db, "forget", created["id"], "--yes")
    assert code == 0
    code, out = run(db, "show", created["id"])
    assert code == 1 and "no memory with id" in out


def test_duplicate_is_reported(db: str) -> None:
    run(db, "remember", "The deploy key is in 1Password")
    code, out = run(db, "remember", "The deploy key is in 1Password")
    assert code == 0 and out.startswith("already stored as")


def test_profile_option_chooses_the_weights(db: str) -> None:
    run(db, "remember", "Sourdough needs a warm kitchen")
    code, out = run(db, "recall", "sourdough", "--profile", "timeless", "--json", "--explain")
    assert code == 0
    c = json.loads(out)[0]["components"]
    assert c["recency"] > 0.9  # computed, but the timeless weights leave it out of the score
    weighed = 0.6 * c["vector"] + 0.2 * c["lexical"] + 0.2 * c["context"] + 0.2 * c["episode"]
    assert c["score"] == pytest.approx(weighed, abs=1e-5)
    code, out = run(db, "recall", "sourdough", "--profile", "nonsense")
    assert code != 0 and "profile" in out


def test_explain_prints_every_component(db: str) -> None:
    run(db, "remember", "Sourdough needs a warm kitchen")
    code, out = run(db, "recall", "bread baking", "--related", "--explain")
    assert code == 0
    for column in (
        "score",
        "vector",
        "lexical",
        "bm25",
        "importance",
        "recency",
        "usage",
        "context",
        "episode",
        "time",
        "validity",
        "negative",
    ):
        assert column in out


def test_mode_flags(db: str) -> None:
    run(db, "remember", "The staging server reboots nightly")
    code, out = run(db, "recall", "server", "--accurate", "--related")
    assert code == 2 and "exclusive" in out
    assert run(db, "recall", "server", "--reelated")[0] == 0


def test_bad_input_names_the_field(db: str) -> None:
    code, out = run(db, "remember", "   ")
    assert code == 2 and "content" in out and "empty" in out
    code, out = run(db, "remember", "x", "--importance", "3")
    assert code == 2 and "importance" in out


def test_invalidate_stats_and_reembed(db: str) -> None:
    _, out = run(db, "remember", "The old office is on Baker Street", "--json")
    rid = json.loads(out)["id"]
    code, out = run(db, "invalidate", rid, "--negative")
    assert code == 0 and "marked a negative statement" in out and "Baker Street" in out  # in words
    assert "no longer true" in run(db, "invalidate", rid)[1]
    code, out = run(db, "stats", "--json")
    stats = json.loads(out)
    assert stats["memories"] == 1 and stats["model"] == "all-MiniLM-L6-v2" and stats["dim"] == 384
    code, out = run(db, "reembed")
    assert code == 0 and "re-embedded 1" in out


def test_demo_runs_and_explains(db: str) -> None:
    code, out = run(db, "demo")
    assert code == 0, out
    assert "minimalistic user interfaces" in out and "score" in out and "vector" in out


def test_store_search_and_tools(db: str) -> None:
    code, output = run(
        db, "store", "Renew the passport before June", "--tag", "travel", "--importance", "4", "--json"
    )
    assert code == 0
    stored = json.loads(output)
    assert stored["analysis"]["importance_score"] == 4 and "travel" in stored["analysis"]["generated_tags"]
    code, output = run(db, "search", "passport", "--min-relevance", "0", "--json")
    assert code == 0 and json.loads(output)["results"][0]["id"] == stored["memory_id"]
    code, output = run(db, "tools", "--json")
    assert code == 0 and json.loads(output)["current_system_state"]["total_memories"] == 1
    code, output = run(db, "tools", "optimize_tags", "-a", "dry_run=true", "--json")
    assert code == 0 and json.loads(output)["dry_run"] is True
    code, output = run(db, "tools", "nonsense")
    assert code == 2 and "unknown" in output
    code, output = run(db, "search", "passport", "--type", "gossip")
    assert code == 2 and "content_type" in output
    # A date alone lasts through that day, as in the library: today is not in the past.
    today = datetime.now(UTC).date()
    code, output = run(db, "store", "Pick up the dry cleaning", "--expires", today.isoformat(), "--json")
    assert code == 0, output
    code, output = run(db, "show", json.loads(output)["memory_id"], "--json")
    assert json.loads(output)["expires_at"].startswith((today + timedelta(days=1)).isoformat())
    code, output = run(db, "store", "Water the plants", "--expires", "soon")
    assert code == 2 and "--expires" in output
    code, output = run(db, "review", "frobnicate", "x")
    assert code == 2 and "'frobnicate' is not one of" in output
    code, output = run(db, "tools", "validate_storage", "--json")
    assert code == 0 and json.loads(output)["ok"] is True  # and 1 when it reports a problem


def test_help_shows_bracketed_text_rather_than_reading_it_as_markup() -> None:
    # Rich reads "[kind/scope]" as a style tag and drops it unless escaped.
    assert "[kind/scope] content" in runner.invoke(app, ["recall", "--help"]).output
    assert "[REDACTED_*]" in runner.invoke(app, ["ingest", "--help"]).output


def test_a_memory_is_named_by_the_short_id_list_shows(db: str) -> None:
    run(db, "remember", "The boiler was serviced in October", "--json")
    code, out = run(db, "list")
    row = next(line for line in out.splitlines() if "global" in line)
    short = row.split("│")[1].strip()
    assert code == 0 and len(short) == 8, out
    code, out = run(db, "show", short, "--json")
    assert code == 0 and json.loads(out)["content"] == "The boiler was serviced in October"
    code, out = run(db, "forget", short, "--yes")
    assert code == 0 and out.startswith("forgot ") and len(out.split()[1]) > 8  # the full id
    from engram import Memory

    with Memory(db) as mem:  # the CLI's own model
        mem.remember("first of two", id="same-prefix-1")
        mem.remember("second of two", id="same-prefix-2")
    code, out = run(db, "show", "same")
    assert code == 2 and "begins more than one memory" in out
    code, out = run(db, "show", "sam")  # under 4 characters: too short to name one, said as such
    assert code == 2 and "too short" in out


def test_memories_print_as_written_not_as_markup_or_terminal_codes(db: str) -> None:
    text = "Close the [/x] tag; [bold]keep[/bold] the \x1b[31mred\x1b[0m build log"
    assert run(db, "remember", text)[0] == 0
    code, out = run(db, "list")
    assert code == 0, out  # "[/x]" was read as markup: a MarkupError
    assert "[/x]" in out and "[bold]keep[/bold]" in out and "\x1b" not in out and "\\x1b[31mred" in out
    assert "approved" in out  # the status column
    code, out = run(db, "recall", "red build log tag")
    assert code == 0 and "[bold]keep[/bold]" in out and "\x1b" not in out
    code, out = run(db, "show", "[/nope]")
    assert code == 1 and "no memory with id [/nope]" in out


def test_remember_reports_personal_data_as_store_does(db: str) -> None:
    code, out = run(db, "remember", "My card is 4111 1111 1111 1111", "--json")
    assert code == 0 and json.loads(out)["pii"] == {"risk": 2, "kinds": ["card"], "redacted": False}
    code, out = run(db, "remember", "Mail me at ann@example.com")
    assert code == 0 and "personal data: email, stored as given" in out


def test_remembering_a_pending_text_again_approves_it(db: str) -> None:
    from engram import Memory, Status

    with Memory(db) as mem:
        pending = mem.remember("Renew the parking permit", status="pending").id
    code, out = run(db, "remember", "Renew the parking permit")
    assert code == 0 and f"already stored as {pending}" in out
    with Memory(db) as mem:  # said as a memory that holds: approved, as a first write would be
        assert mem.get(pending).status is Status.APPROVED
