"""Files of records under attack, and what a stored record does to the views after it: a line separator inside a
record's text (U+2028, U+2029, NEL, which JSON leaves unescaped and Python's `splitlines` cuts at), a key given
twice in one record (two readers of the file see two different records), and a date at the end of the calendar
that every view computing the next period from it failed on."""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interfaces.cli.setup import transcript_messages
from tests.clients import api  # noqa: F401 (a fixture)
from tests.records import shodh_record

SEPARATORS = ["\u2028", "\u2029", "\x85"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_an_export_of_a_text_holding_a_line_separator_imports_again(
    mem: Memory, tmp_path: Path, settings: Settings, separator: str
) -> None:
    kept = mem.remember(f"the first step{separator}then the second step", tags=["steps"])
    mem.remember("a plain memory beside it")
    mem.export_memories(tmp_path / "out.jsonl")
    with Memory(tmp_path / "again.db", embedder=FakeEmbedder(), settings=settings) as again:
        answer = again.import_memories(tmp_path / "out.jsonl")
        assert answer["imported"] == 2
        assert again.get(kept.id).content == f"the first step{separator}then the second step"


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_message_holding_a_line_separator_is_ingested_from_json_lines(
    tmp_path: Path, separator: str
) -> None:
    from engram.review.messages import read_messages

    line = json.dumps({"role": "user", "content": f"I moved to Lisbon{separator}in May"}, ensure_ascii=False)
    for name, data in (("chat.jsonl", line.encode()), ("chat.jsonl.gz", gzip.compress(line.encode()))):
        (tmp_path / name).write_bytes(data)
        [message] = read_messages(tmp_path / name)
        assert message.content == f"I moved to Lisbon{separator}in May"


def test_a_transcript_message_holding_a_line_separator_is_not_dropped(tmp_path: Path) -> None:
    # Node's JSON.stringify (what writes a Claude Code transcript) leaves U+2028 unescaped.
    typed = "deploy on Fridays\u2028never on Mondays"
    row = {"type": "user", "message": {"role": "user", "content": typed}}
    (tmp_path / "t.jsonl").write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    assert [m["content"] for m in transcript_messages(tmp_path / "t.jsonl", "s1")] == [typed]


def test_a_record_giving_a_key_twice_is_refused_naming_it(mem: Memory, tmp_path: Path) -> None:
    """Python keeps the last value of a repeated key, other readers the first: a file that shows one text in a
    viewer would store another."""
    before = mem.remember("a memory stored before the import")
    body = json.dumps(shodh_record("shown text"))[:-1] + ', "content": "stored text"}'
    (tmp_path / "twice.jsonl").write_text(body + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(tmp_path / "twice.jsonl")
    assert caught.value.field == "line 1.content" and "twice" in caught.value.problem
    nested = shodh_record("nested text", metadata={"engram": {"kind": "note"}})
    text = json.dumps(nested).replace('"kind": "note"', '"kind": "note", "kind": "task"')
    (tmp_path / "nested.jsonl").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as inner:
        mem.import_memories(tmp_path / "nested.jsonl")
    assert inner.value.field == "line 1.metadata.engram.kind"
    assert [r.id for r in mem.list()] == [before.id]


def test_a_memory_dated_at_the_calendar_start_by_the_library_leaves_the_timeline_working(mem: Memory) -> None:
    """The library's created_at refuses a time in the future, as an import does (test_due_read_right); the
    calendar's first day is a time past, kept and shown."""
    mem.remember("a memory of today")
    mem.remember("a memory from the calendar's edge", created_at=datetime(1, 1, 1, tzinfo=UTC))
    for granularity in ("day", "month", "year"):
        periods = mem.run_tool("memory_timeline", granularity=granularity)["periods"]
        edge = [p for p in periods if p["period"].startswith("0001")]
        assert [m["content"] for m in edge[0]["memories"]] == ["a memory from the calendar's edge"]


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00Z"])
def test_a_memory_dated_at_the_end_of_the_calendar_leaves_the_timeline_working(
    api: TestClient,  # noqa: F811
    when: str,
) -> None:
    api.post("/api/remember", json={"content": "a memory of today"})
    body = json.dumps(shodh_record("a memory from the calendar's edge", created_at=when))
    assert api.post("/v1/import", content=body.encode()).status_code == 200
    for granularity in ("day", "month", "year"):
        answer = api.post("/v1/tools/memory_timeline", json={"arguments": {"granularity": granularity}})
        assert answer.status_code == 200, answer.text
        periods = answer.json()["periods"]
        assert answer.json()["total"] == 2
        edge = [p for p in periods if p["period"].startswith(when[:4])]
        assert [m["content"] for m in edge[0]["memories"]] == ["a memory from the calendar's edge"]


def test_two_imports_of_one_file_at_once_store_each_record_once(tmp_path: Path, settings: Settings) -> None:
    """Two processes importing the same file: the second checked what was stored before the first committed, and
    failed on the first id it found taken with SQLite's own IntegrityError (a traceback, a 500)."""
    rows = [shodh_record(f"an imported memory about topic {i}", id=f"r{i}") for i in range(6)]
    (tmp_path / "both.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = tmp_path / "shared.db"
    other = Memory(db, embedder=FakeEmbedder(), settings=settings)
    answers: list[Any] = []
    armed: list[bool] = []

    class Meanwhile(FakeEmbedder):
        """The first import's model call, after its checks: the other process imports the file then."""

        def embed_batch(self, texts: Sequence[str]) -> Any:
            if armed and not answers:
                answers.append(other.import_memories(tmp_path / "both.jsonl"))
            return super().embed_batch(texts)

    try:
        with Memory(db, embedder=Meanwhile(), settings=settings) as first:
            first.remember("a memory stored before either import")
            armed.append(True)
            answer = first.import_memories(tmp_path / "both.jsonl")
            assert answers[0]["imported"] == 6
            assert (answer["imported"], answer["skipped"]) == (0, 6)
            assert sorted(r.content for r in first.list(limit=100))[:1] == [
                "a memory stored before either import"
            ]
            assert len(first.list(limit=100)) == 7
    finally:
        other.close()
