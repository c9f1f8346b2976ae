"""An import whose record says a cluster of more memories than a database integer holds (PostgreSQL's INTEGER
column: 2**31 - 1): PostgreSQL refused the row with its own numeric overflow, an error no caller could act on.
The count is refused naming its line and field on both backends, and nothing already stored is lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram import InvalidInput, Memory
from tests.records import shodh_record


@pytest.mark.parametrize("size", [2**31, 2**62])
def test_a_cluster_size_no_store_holds_is_refused_naming_it(mem: Memory, tmp_path: Path, size: int) -> None:
    kept = mem.remember("a memory stored before the import")
    crafted = shodh_record(
        "a memory said to have many neighbours",
        updated_at="2024-12-30T10:00:00Z",
        metadata={"engram": {"kind": "note", "cluster_size": size}},
    )
    (tmp_path / "cluster.jsonl").write_text(json.dumps(crafted) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(tmp_path / "cluster.jsonl")
    assert caught.value.field == "line 1.cluster_size"
    assert [r.id for r in mem.list()] == [kept.id]
