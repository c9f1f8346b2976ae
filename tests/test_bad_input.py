"""Bad input from any door (tool arguments, edits, broken text, file paths) is a clear error naming the field,
and nothing stored is lost or changed by it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput, NotFound, StoreError
from engram.interfaces.tenants import Tenants
from engram.model.record import utcnow


@pytest.mark.parametrize(
    ("tool", "arguments", "field", "problem"),
    [
        ("memory_timeline", {"examples": "abc"}, "examples", "must be a whole number"),
        ("memory_timeline", {"examples": -1}, "examples", "must be at least 0"),
        ("memory_timeline", {"granularity": "fortnight"}, "granularity", "'day', 'month' or 'year'"),
        ("memory_timeline", {"bogus": 1}, "bogus", "Unexpected keyword argument"),
        ("concept_network", {"similarity": 5}, "similarity", "must be at most 1"),
        ("usage_patterns", {"top": -3}, "top", "must be at least 1"),
        ("optimize_tags", {"archive_after_days": 0}, "archive_after_days", "must be at least 1"),
        ("merge_memories", {"ids": "abc"}, "ids", "must be a list"),
        ("operations", {"limit": "x"}, "limit", "must be a whole number"),
        ("backup_restore", {"action": "explode", "path": "x.db"}, "action", "'backup' or 'restore'"),
    ],
)
def test_tool_arguments_are_checked_by_name(
    mem: Memory, tool: str, arguments: dict[str, Any], field: str, problem: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.run_tool(tool, **arguments)
    assert err.value.field == field and problem in err.value.problem


def test_an_unknown_operation_is_named_as_one(mem: Memory) -> None:
    with pytest.raises(NotFound, match="no operation with id op_nope"):
        mem.run_tool("rollback", operation_id="op_nope")


def test_file_tools_name_the_path_and_what_is_wrong_with_it(mem: Memory, tmp_path: Path) -> None:
    mem.remember("the backup should hold this")
    (tmp_path / "passwd").write_text("root:x:0:0\n")
    for tool, arguments, problem in [
        ("import_memories", {"path": str(tmp_path)}, "is not a file"),
        ("import_memories", {"path": str(tmp_path / "missing.jsonl")}, "does not exist"),
        ("export_memories", {"path": str(tmp_path / "no-dir" / "x.jsonl")}, "is not a directory"),
        (
            "backup_restore",
            {"action": "backup", "path": str(tmp_path / "no-dir" / "b.db")},
            "is not a directory",
        ),
        ("export_memories", {"path": ""}, "must not be empty"),
        ("export_memories", {"path": "/proc/engram-export.jsonl"}, "cannot be written"),
        ("backup_restore", {"action": "backup", "path": "/proc/engram-backup.db"}, "cannot be written"),
        ("export_memories", {"path": str(tmp_path / ("x" * 300))}, "cannot be written (File name too long)"),
        ("import_memories", {"path": str(tmp_path / ("x" * 300))}, "cannot be read (File name too long)"),
    ]:
        with pytest.raises(InvalidInput) as err:
            mem.run_tool(tool, **arguments)
        assert err.value.field == "path" and problem in err.value.problem, (tool, err.value)
    with pytest.raises(StoreError, match="not an engram database"):
        mem.run_tool("backup_restore", action="restore", path=str(tmp_path / "passwd"))
    assert [r.content for r in mem.list()] == ["the backup should hold this"]


def test_an_api_keys_file_tools_stay_in_its_own_directory(tmp_path: Path, settings: Settings) -> None:
    tenants = Tenants(settings, embedder=FakeEmbedder())
    try:
        bob = tenants.memory("bob")
        bob.remember("Bob's vault combination is 31-17-42")
        alice = tenants.memory("alice")
        alice.remember("Alice's own note")
        bobs_db = str(tenants.path("bob"))
        for tool, arguments in [
            ("backup_restore", {"action": "restore", "path": bobs_db}),
            ("import_memories", {"path": "../bob/anything.jsonl"}),
            ("export_memories", {"path": str(tmp_path / "outside.jsonl")}),
        ]:
            with pytest.raises(InvalidInput, match="inside this tenant's files directory"):
                alice.run_tool(tool, **arguments)
        exported = alice.run_tool("export_memories", path="mine.jsonl")
        assert Path(exported["path"]) == settings.home / "files" / "alice" / "mine.jsonl"
        assert [r.content for r in alice.list()] == ["Alice's own note"]
        assert not (tmp_path / "outside.jsonl").exists()
    finally:
        tenants.close()


def test_an_edit_cannot_change_the_id_and_a_null_is_refused(mem: Memory) -> None:
    a = mem.remember("the office wifi is on the second floor").id
    b = mem.remember("send the grant report by Friday").id
    tags = mem.get(b).tags  # the text's own: a refused edit changes none of them
    for fields, field in [
        ({"id": b, "tags": ["hijacked"]}, "id"),
        ({"importance": None}, "importance"),
        ({"kind": None}, "kind"),
        ({"created_at": "2020-01-01"}, "created_at"),
    ]:
        with pytest.raises(InvalidInput) as err:
            mem.update(a, **fields)
        assert err.value.field == field
    assert mem.get(b).content == "send the grant report by Friday" and mem.get(b).tags == tags
    assert mem.get(a).content == "the office wifi is on the second floor"
    # Nor may an edit make it word for word another memory: that text is one memory already.
    with pytest.raises(InvalidInput, match=f"is already memory {b}"):
        mem.update(a, content="send the grant report by Friday")
    assert mem.get(a).content == "the office wifi is on the second floor"
    mem.update(b, status="rejected")  # set aside, it no longer stands in the way
    assert (
        mem.update(a, content="send the grant report by Friday").content == "send the grant report by Friday"
    )


def test_a_chunk_is_part_of_a_memory_not_one_to_forget_or_merge(tmp_path: Path, settings: Settings) -> None:
    long = " ".join(f"Paragraph {i} tells of harbour crane {i} and the ships it loads." for i in range(120))
    with Memory(
        tmp_path / "c.db",
        embedder=FakeEmbedder(),
        settings=Settings(home=settings.home, tag_on_topic=-1, chunk_tokens=60, chunk_overlap=10),
    ) as mem:
        parent = mem.remember(long).id
        chunks = mem.store.children(parent)
        assert len(chunks) > 2
        with pytest.raises(InvalidInput, match=f"of memory {parent}; forget that memory"):
            mem.forget(chunks[1].id)
        with pytest.raises(InvalidInput, match="merge that memory"):
            mem.merge_memories([chunks[0].id, chunks[1].id])
        assert len(mem.store.children(parent)) == len(chunks)
        found = mem.search_memory("harbour crane 57 ships", {"min_relevance": 0})
        ids = [r["id"] for r in found["results"]]
        assert ids == [parent]  # the memory's id once, not one row per chunk


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("\ud800 x", "lone surrogate"),
        ("fine \udfff", "lone surrogate"),
        ("nul \x00 byte", "NUL character (U+0000) at 4"),  # PostgreSQL's text cannot hold it
    ],
)
def test_broken_unicode_is_refused_before_anything_reads_it(mem: Memory, bad: str, says: str) -> None:
    kept = mem.remember("a memory that stays").id
    calls = [
        ("content", lambda: mem.remember(bad)),
        ("content", lambda: mem.store_memory(bad)),
        ("tags[0]", lambda: mem.remember("ok", tags=[bad])),
        ("query", lambda: mem.search_memory(bad)),
        ("query", lambda: mem.recall(bad)),
        ("content", lambda: mem.update(kept, content=bad)),
        ("context.user_note", lambda: mem.store_memory("ok", {"user_note": bad})),
        (
            "messages[1].content",
            lambda: mem.ingest([{"role": "user", "content": "ok"}, {"role": "user", "content": bad}]),
        ),
    ]
    for field, call in calls:
        with pytest.raises(InvalidInput) as err:
            call()
        assert err.value.field == field and says in err.value.problem
    assert [r.content for r in mem.list()] == ["a memory that stays"]
    # Other control characters are kept as given: text pasted from PDFs and terminals holds them.
    assert mem.remember("col\tcol\r\nnext page\fhere, expla\x02nation, \x1b[32mok\x1b[0m").created


def test_a_query_that_is_no_text_says_so(mem: Memory) -> None:
    for call in (lambda: mem.search_memory(5), lambda: mem.recall(["a"])):  # type: ignore[arg-type]
        with pytest.raises(InvalidInput) as err:
            call()
        assert err.value.field == "query" and "must be text" in err.value.problem


def test_oversized_content_is_refused_before_it_is_analysed(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.lang import analysis

    monkeypatch.setattr(analysis, "analyse", lambda *_: pytest.fail("analysed an oversized text"))
    with pytest.raises(InvalidInput, match="the maximum is 100000"):
        mem.store_memory("x" * 100_001)
    with pytest.raises(InvalidInput) as err:
        mem.search_memory("y" * 100_001)
    assert err.value.field == "query"


def test_additional_tags_are_bounded_like_any_tag(mem: Memory) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.store_memory("a note", {"additional_tags": ["t" * 65]})
    assert err.value.field.startswith("context.additional_tags")
    with pytest.raises(InvalidInput) as err:
        mem.store_memory("a note", {"additional_tags": [f"t{i}" for i in range(51)]})
    assert err.value.field == "context.additional_tags"


def test_a_date_alone_expires_when_that_day_is_over_and_a_past_one_is_refused(mem: Memory) -> None:
    today = utcnow().date()
    stored = mem.store_memory("Pick up the dry cleaning today", {"expires_at": today.isoformat()})
    record = mem.get(stored["memory_id"])
    assert record.expires_at is not None and record.expires_at.date() == today + timedelta(days=1)
    assert stored["memory_id"] in [
        r["id"] for r in mem.search_memory("dry cleaning", {"min_relevance": 0})["results"]
    ]
    with pytest.raises(InvalidInput) as err:
        mem.store_memory("an old errand", {"expires_at": "2020-01-01"})
    assert err.value.field == "context.expires_at" and "in the past" in err.value.problem


def test_a_number_that_is_no_number_is_named_as_such(mem: Memory) -> None:
    for value in (float("nan"), float("inf")):
        with pytest.raises(InvalidInput) as err:
            mem.remember("an odd importance", importance=value)
        assert err.value.field == "importance" and "finite number" in err.value.problem


def test_a_database_location_that_is_none_is_named(tmp_path: Path) -> None:
    from engram.config import locate
    from engram.store.sqlite.store import SQLiteStore

    with pytest.raises(InvalidInput, match="mysql:// is not supported"):
        locate("mysql://db.example/engram")
    assert not (Path.cwd() / "mysql:").exists()
    text = tmp_path / "notes.db"
    text.write_text("not a database\n")
    for where in (text, tmp_path):
        with pytest.raises(StoreError, match=r"cannot open .* as an Engram database"):
            SQLiteStore(where)
    assert text.read_text() == "not a database\n"


@pytest.mark.parametrize("given", [Settings(), 42, b"notes.db"])
def test_a_database_location_of_another_type_is_named(tmp_path: Path, given: object) -> None:
    """Memory(Settings(...)) failed deep in a regular expression: "expected string or bytes-like object"."""
    with pytest.raises(InvalidInput) as err:
        Memory(given, embedder=FakeEmbedder())  # type: ignore[arg-type]
    assert err.value.field == "db" and type(given).__name__ in err.value.problem
    if isinstance(given, Settings):
        assert "settings=" in err.value.problem
