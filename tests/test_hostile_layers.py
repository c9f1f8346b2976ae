"""Holes found from outside that lie below the interfaces, each kept as a check that fails until its layer
closes it (strict xfail: the day it passes, the mark must go)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput

MARK = "qzvjkwpx4417"


def test_forget_after_an_edit_leaves_no_trace_of_the_message(tmp_path: Path, settings: Settings) -> None:
    db = tmp_path / "f.db"
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        mem.ingest(
            [{"role": "user", "content": f"My locker code is {MARK}, please remember it for the gym."}]
        )
        (memory_id,) = [r.id for r in mem.list(limit=100) if MARK in r.content]
        mem.update(memory_id, content=f"Locker code {MARK} (gym).")
        mem.forget(memory_id)
    assert not [f.name for f in tmp_path.glob("f.db*") if MARK.encode() in f.read_bytes()]


def _shodh(path: Path, records: list[dict[str, object]]) -> Path:
    lines = [json.dumps({"format": "shodh-memory+jsonl", "model": None, "dim": None})]
    for record in records:
        content = str(record["content"])
        base = {
            "type": "Observation",
            "tags": [],
            "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
            "content_hash": hashlib.sha256(content.encode()).hexdigest(),
        }
        lines.append(json.dumps(base | record))
    path.write_text("\n".join(lines))
    return path


@pytest.mark.parametrize("memory_id", ["../../etc/passwd", "tab\tid", "x" * 5000, "a\x00b"])
def test_an_import_refuses_an_id_no_route_can_address(mem: Memory, tmp_path: Path, memory_id: str) -> None:
    file = _shodh(tmp_path / "in.jsonl", [{"id": memory_id, "content": "imported with a hostile id"}])
    with pytest.raises(InvalidInput) as refused:
        mem.import_memories(file)
    assert refused.value.field == "line 2.id" and "an id every route can address" in refused.value.problem
    assert mem.stats()["memories"] == 0  # nothing of a refused file is stored


def test_an_import_refuses_a_nul_in_content_as_a_write_does(mem: Memory, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        mem.remember("a\x00b")
    file = _shodh(tmp_path / "in.jsonl", [{"id": "nul-1", "content": "a\x00b"}])
    with pytest.raises(InvalidInput):
        mem.import_memories(file)


def _engram(**fields: object) -> dict[str, object]:
    """Engram's own fields of a record, where export writes them."""
    return {"metadata": {"engram": {"kind": "note", **fields}}}


@pytest.mark.parametrize(
    ("records", "header", "field", "problem"),
    [
        (
            [{"id": "s-1", "content": "scoped", **_engram(scope_id="x" * 60_000)}],
            None,
            "line 2.scope_id",
            "256",
        ),
        ([{"id": "e-1", "content": "evil"}], {"format": "evil"}, "line 1.format", "'shodh-memory+jsonl'"),
        (
            [{"id": "c-1", "content": "self", **_engram(parent_id="c-1", chunk_index=0)}],
            None,
            "line 2.parent_id",
            "own id",
        ),
        (
            [
                {"id": "l-1", "content": "loop a", **_engram(parent_id="l-2", chunk_index=0)},
                {"id": "l-2", "content": "loop b", **_engram(parent_id="l-1", chunk_index=0)},
            ],
            None,
            "line 2.parent_id",
            "is itself a chunk",
        ),
        ([{"id": "t-1", "content": "tagged", "tags": ["a\x00b"]}], None, "line 2.tags", "NUL"),
    ],
    ids=["long scope_id", "unknown format", "own parent", "parent loop", "NUL in a tag"],
)
def test_an_import_refuses_what_a_write_refuses(
    mem: Memory,
    tmp_path: Path,
    records: list[dict[str, object]],
    header: dict[str, object] | None,
    field: str,
    problem: str,
) -> None:
    file = _shodh(tmp_path / "in.jsonl", records)
    if header is not None:
        lines = file.read_text().splitlines()
        file.write_text("\n".join([json.dumps(header), *lines[1:]]))
    with pytest.raises(InvalidInput) as refused:
        mem.import_memories(file)
    assert refused.value.field.startswith(field) and problem in refused.value.problem
    assert mem.stats()["memories"] == 0


def test_an_import_reads_a_file_that_starts_with_a_byte_order_mark(mem: Memory, tmp_path: Path) -> None:
    file = _shodh(tmp_path / "in.jsonl", [{"id": "bom-1", "content": "saved by a Windows editor"}])
    file.write_bytes(b"\xef\xbb\xbf" + file.read_bytes())
    assert mem.import_memories(file)["imported"] == 1
    assert mem.get("bom-1").content == "saved by a Windows editor"


@pytest.mark.parametrize("text", [b"", b"\n  \n", b"\xef\xbb\xbf\n"])
def test_an_empty_import_file_is_said_to_be_empty(mem: Memory, tmp_path: Path, text: bytes) -> None:
    file = tmp_path / "empty.jsonl"
    file.write_bytes(text)
    with pytest.raises(InvalidInput, match="is empty: it holds no records to import"):
        mem.import_memories(file)
    with pytest.raises(InvalidInput, match="is empty"):
        mem.import_from("mem0", file)
    # A file holding only the header is an export of an empty store: an import of nothing, said as such.
    file.write_text(json.dumps({"format": "shodh-memory+jsonl", "model": None, "dim": None}))
    assert mem.import_memories(file)["imported"] == 0


def test_a_tinydb_import_refuses_an_id_no_route_can_address(mem: Memory, tmp_path: Path) -> None:
    (tmp_path / "tinydb_memories.json").write_text(
        json.dumps({"memories": {"1": {"id": "../../etc/passwd", "content": "an old memory"}}})
    )
    with pytest.raises(InvalidInput) as refused:
        mem.import_tinydb(tmp_path)
    assert refused.value.field == "tinydb_memories.json[1].id"
    assert mem.stats()["memories"] == 0


def test_the_library_words_a_refusal_as_rest_and_mcp_do(mem: Memory) -> None:
    """A write, an edit and a tool call refused by the schema say what the field must be and what was given, as
    REST and MCP say it, not the validator's report ("String should have at most 256 characters")."""
    with pytest.raises(InvalidInput) as refused:
        mem.remember("a memory with a long scope id", scope_id="x" * 300)
    assert refused.value.field == "scope_id"
    assert refused.value.problem.startswith('must be at most 256 characters long, got "xxx')
    memory_id = mem.remember("a memory to edit").id
    with pytest.raises(InvalidInput) as refused:
        mem.update(memory_id, importance=3)
    assert refused.value.field == "importance"
    assert refused.value.problem.startswith("must be at most 1.0, got 3: importance here is 0 (trivial) to 1")
    with pytest.raises(InvalidInput) as refused:
        mem.run_tool("memory_timeline", examples=-1)
    assert (refused.value.field, refused.value.problem) == ("examples", "must be at least 0, got -1")
    with pytest.raises(InvalidInput) as refused:
        mem.run_tool("search_memory", session=7, query="edit")  # type: ignore[arg-type]
    assert (refused.value.field, refused.value.problem) == ("session", "must be text, a session's name")


def test_a_write_refuses_an_id_no_route_can_address_as_an_import_does(mem: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        mem.remember("a memory naming its own id", id="../../etc/passwd")
    assert refused.value.field == "id" and "an id every route can address" in refused.value.problem
    assert mem.remember("a memory with a plain id", id="note-2026.1").id == "note-2026.1"
