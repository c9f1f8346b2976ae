"""Bad import files are refused whole, naming the line or document and field, and leave the database as it was;
what an import stores can be rolled back, and content already stored is not stored twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tinydb import TinyDB

from engram import FakeEmbedder, Memory, Status
from engram.errors import InvalidInput
from engram.model.vectors import content_hash
from engram.store.values import Filter
from tests.records import tinydb_folder

EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


def _exported(tmp_path: Path, *contents: str, long: str | None = None) -> list[dict[str, Any]]:
    """An export of a database with these memories (and one long, chunked memory): the header, then records."""
    with Memory(tmp_path / "source.db", embedder=FakeEmbedder()) as source:
        for text in contents:
            source.remember(text)
        if long is not None:
            source.remember(long, scope="project", scope_id="boat")
        source.export_memories(tmp_path / "source.jsonl")
    lines = (tmp_path / "source.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _unchanged(mem: Memory) -> None:
    assert mem.store.count(EVERYTHING) == 0 and mem.store.operations(10) == []


def test_a_malformed_vector_refuses_the_whole_shodh_import(mem: Memory, tmp_path: Path) -> None:
    rows = _exported(tmp_path, "Sailing boats need a keel", "Apples grow in the orchard")
    assert rows[0]["model"] == mem.embedder.name and rows[0]["dim"] == mem.embedder.dim  # stored as given
    short = [rows[0], rows[1] | {"embedding": rows[1]["embedding"][:10]}, rows[2]]
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "short.jsonl", short))
    assert caught.value.field == "line 2.embedding" and "64" in caught.value.problem
    _unchanged(mem)
    for bad in (float("nan"), float("inf"), True):
        vector = list(rows[2]["embedding"])
        vector[3] = bad
        with pytest.raises(InvalidInput) as caught:
            mem.import_memories(
                _write(tmp_path / "bad.jsonl", [rows[0], rows[1], rows[2] | {"embedding": vector}])
            )
        assert caught.value.field == "line 3.embedding"
    zero = rows[1] | {"embedding": [0.0] * mem.embedder.dim}
    with pytest.raises(InvalidInput, match="unit"):
        mem.import_memories(_write(tmp_path / "zero.jsonl", [rows[0], zero]))
    # Another model's vectors are embedded again, yet one that is not that model's size is still a broken file.
    other = {"format": "shodh-memory+jsonl", "model": "another-model", "dim": 32}
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "other.jsonl", [other, rows[1] | {"embedding": [0.1] * 10}]))
    assert caught.value.field == "line 2.embedding"
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "header.jsonl", [rows[0] | {"dim": "many"}, rows[1]]))
    assert caught.value.field == "line 1.dim"
    _unchanged(mem)
    report = mem.import_memories(_write(tmp_path / "good.jsonl", rows))
    assert (report["imported"], report["reembedded"]) == (2, 0)
    assert mem.stats()["memories"] == 2 and mem.recall("sailing keel")[0].record.content.startswith("Sailing")
    assert mem.validate_storage()["ok"]


def test_the_content_hash_is_computed_from_the_content(mem: Memory, tmp_path: Path) -> None:
    rows = _exported(tmp_path, "Sailing boats need a keel")
    forged = rows[1] | {"content_hash": "0" * 64}
    mem.import_memories(_write(tmp_path / "forged.jsonl", [rows[0], forged]))
    assert mem.get(forged["id"]).content_hash == content_hash("Sailing boats need a keel")
    assert mem.remember("Sailing boats need a keel").duplicate_of == forged["id"]  # so dedup finds it


def test_shodh_import_skips_content_already_stored(mem: Memory, tmp_path: Path) -> None:
    long = "A long memory about sailing and the sea. " * 120
    rows = _exported(tmp_path, "Sailing boats need a keel", "Apples grow in the orchard", long=long)
    chunks = [r for r in rows[1:] if r["metadata"]["engram"]["parent_id"] is not None]
    assert chunks  # the long memory is stored as its chunks
    kept = mem.remember("Sailing boats need a keel").id
    mem.remember(long, scope="project", scope_id="boat")
    before = mem.store.count(EVERYTHING)
    # New ids, content already stored: the short memory and the long one with all its chunks are skipped.
    renamed = {r["id"]: r["id"][:-4] + "beef" for r in rows[1:]}

    def fresh(r: dict[str, Any]) -> dict[str, Any]:
        engram = r["metadata"]["engram"]
        parent = engram["parent_id"]
        moved = engram | {"parent_id": None if parent is None else renamed[parent]}
        return r | {"id": renamed[r["id"]], "metadata": r["metadata"] | {"engram": moved}}

    copies = [fresh(r) for r in rows[1:]]
    apples = next(r for r in copies if r["content"].startswith("Apples"))
    twice = apples | {"id": apples["id"][:-4] + "cafe"}  # the same content twice in one file
    keel = next(r for r in copies if r["content"].startswith("Sailing boats"))
    scoped = keel["metadata"]["engram"] | {"scope": "project", "scope_id": "x"}
    elsewhere = keel | {"id": "elsewhere", "metadata": keel["metadata"] | {"engram": scoped}}  # another scope
    report = mem.import_memories(_write(tmp_path / "copies.jsonl", [rows[0], *copies, twice, elsewhere]))
    assert report["imported"] == 2  # the apples once, and the keel in another scope
    assert report["skipped"] == len(copies) - 1 + 1  # all copies but the apples, and the apples' second time
    assert mem.store.count(EVERYTHING) == before + 2 and mem.get(kept).content == "Sailing boats need a keel"
    assert mem.validate_storage()["ok"]
    mem.rollback(report["operation_id"])
    assert mem.store.count(EVERYTHING) == before


def test_a_chunk_without_its_parent_is_refused(mem: Memory, tmp_path: Path) -> None:
    rows = _exported(tmp_path, long="A long memory about sailing and the sea. " * 120)
    chunk = next(r for r in rows[1:] if r["metadata"]["engram"]["parent_id"] is not None)
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "orphan.jsonl", [rows[0], chunk]))
    assert caught.value.field == "line 2.parent_id"
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(_write(tmp_path / "twice.jsonl", [*rows, rows[1]]))
    assert caught.value.field == f"line {len(rows) + 1}.id"
    _unchanged(mem)


def test_tinydb_rollback_removes_memories_whose_old_ids_were_taken(mem: Memory, tmp_path: Path) -> None:
    mem._store_memory(
        "We cook pasta on Fridays", {"additional_tags": ["food", "ui"]}, fields={"id": "mem_001"}
    )
    assert mem.validate_storage()["ok"]
    before = {r.id: r for r in mem.store.select(EVERYTHING, limit=10)}
    registry = {t.tag: t.usage_count for t in mem.store.tags(("active", "archived", "merged"))}
    directory = tinydb_folder(
        tmp_path / "old",
        {
            "1": {
                "id": "mem_001",
                "content": "User prefers dark mode in every editor",
                "tags": ["ui"],
                "category": "preferences",
                "importance": 4,
            },
            "2": {"id": "mem_001", "content": "Renew the domain before it lapses", "tags": ["admin"]},
            "3": {"id": "mem_003", "content": "The staging server reboots at midnight", "tags": ["ops"]},
        },
        {"1": {"tag": "ui", "usage_count": 7, "created_at": "2023-01-01T00:00:00"}},
    )
    out = mem.import_tinydb(directory)
    assert out["outcomes"] == {"created": 3} and "mem_001" not in out["ids"] and "mem_003" in out["ids"]
    assert mem.validate_storage()["ok"]
    done = mem.rollback(out["operation_id"])
    assert done["removed"] >= 3
    assert {r.id: r for r in mem.store.select(EVERYTHING, limit=10)} == before
    assert {t.tag: t.usage_count for t in mem.store.tags(("active", "archived", "merged"))} == registry
    assert mem.validate_storage()["ok"]


def test_an_old_store_imports_its_expired_memories_as_they_were(mem: Memory, tmp_path: Path) -> None:
    directory = tinydb_folder(
        tmp_path / "old",
        {
            "1": {
                "id": "m1",
                "content": "Pick up the parcel before the office closes",
                "expires_at": "2020-01-31",
            },
            "2": {"id": "m2", "content": "The parcel locker code changes monthly"},
        },
    )
    assert mem.import_tinydb(directory)["outcomes"] == {"created": 2}
    expired = mem.get("m1").expires_at
    assert expired is not None and expired.year == 2020
    with pytest.raises(InvalidInput, match="in the past"):  # a new memory expired already is a mistake
        mem.store_memory("Pick up the parcel", {"expires_at": "2020-01-31"})


@pytest.mark.parametrize(
    ("memories", "tags", "field"),
    [
        (
            {"1": {"content": "ok"}},
            {"1": {"tag": "ui", "usage_count": "many", "created_at": "2023-01-01"}},
            "tinydb_tags.json[1].usage_count",
        ),
        (
            {"1": {"content": "ok"}},
            {"1": {"tag": "ui", "usage_count": True, "created_at": "2023-01-01"}},
            "tinydb_tags.json[1].usage_count",
        ),
        (
            {"1": {"content": "ok"}},
            {"1": {"tag": "ui", "usage_count": -2, "created_at": "2023-01-01"}},
            "tinydb_tags.json[1].usage_count",
        ),
        ([{"id": "m1", "content": "ok"}], None, "tinydb_memories.json.memories"),
        ({"1": ["content", "ok"]}, None, "tinydb_memories.json[1]"),
        ({"one": {"content": "ok"}}, None, "tinydb_memories.json[one]"),
        ({"1": {"content": "ok", "importance": True}}, None, "tinydb_memories.json[1].importance"),
        ({"1": {"content": "ok", "importance": 4.5}}, None, "tinydb_memories.json[1].importance"),
        ({"1": {"content": "ok", "category": 7}}, None, "tinydb_memories.json[1].category"),
        ({"1": {"content": "ok", "id": ["m1"]}}, None, "tinydb_memories.json[1].id"),
        (
            {"1": {"content": "ok"}, "2": {"content": "fine", "created_at": "yesterday"}},
            None,
            "tinydb_memories.json[2].created_at",
        ),
        ({"1": {"content": "ok"}}, [{"tag": "ui"}], "tinydb_tags.json.tags"),
    ],
)
def test_malformed_tinydb_files_are_refused_before_anything_is_stored(
    mem: Memory, tmp_path: Path, memories: Any, tags: Any, field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.import_tinydb(tinydb_folder(tmp_path / "old", memories, tags))
    assert caught.value.field == field
    _unchanged(mem)


def test_a_tinydb_file_that_is_not_an_object_of_tables_is_refused(mem: Memory, tmp_path: Path) -> None:
    directory = tmp_path / "old"
    directory.mkdir()
    (directory / "tinydb_memories.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(InvalidInput) as caught:
        mem.import_tinydb(directory)
    assert caught.value.field == "tinydb_memories.json"
    (directory / "tinydb_memories.json").unlink()
    with TinyDB(directory / "tinydb_memories.json") as db:  # TinyDB's own layout is read as before
        db.table("memories").insert({"id": "m1", "content": "Water the plants on Sunday"})
    assert mem.import_tinydb(directory)["outcomes"] == {"created": 1}


def test_rolling_back_an_import_keeps_a_tag_memories_stored_since_still_carry(
    mem: Memory, tmp_path: Path
) -> None:
    directory = tinydb_folder(
        tmp_path / "old",
        {"1": {"id": "m1", "content": "Glider pilots check the weather", "tags": ["gliding"]}},
    )
    out = mem.import_tinydb(directory)
    later = mem.remember("The gliding club meets on Sundays", tags=["gliding"]).id
    mem.rollback(out["operation_id"])
    gliding = mem.store.tag("gliding")
    assert gliding is not None and gliding.usage_count == 1 and gliding.status == "active"
    assert [r.id for r in mem.list()] == [later] and mem.validate_storage()["ok"]


def test_a_number_too_long_to_read_is_refused_naming_its_line(mem: Memory, tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text('{"limit": ' + "9" * 5000 + "}\n")
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(str(path))
    assert caught.value.field == "line 1" and "too long" in caught.value.problem
