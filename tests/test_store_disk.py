"""What a memory costs on disk beyond its row's text: the content hash as 32 bytes, a creation entry of the audit log
without its field names, and no index bytes that no query reads. Stores written before read as they did."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory
from engram.model.record import Scope
from engram.model.vectors import content_hash
from engram.store import entries
from engram.store.rows import COLUMNS, read_hash, record_from_row, record_to_row, stored_hash

TEXTS = (
    "The boiler is serviced every October by the same engineer.",
    "Ada's phone number changed last week; the new one ends in 42.",
    "Deploys to production happen on Tuesdays after the stand-up.",
)
# The indexes as the schema before the compact one made them.
_OLD_INDEXES = """
DROP INDEX memories_hash;
CREATE INDEX memories_hash ON memories(content_hash, scope, scope_id);
DROP INDEX memories_parent;
CREATE INDEX memories_parent ON memories(parent_id, chunk_index);
DROP INDEX memories_scope;
CREATE INDEX memories_scope ON memories(scope, scope_id, kind);
CREATE INDEX memories_tier ON memories(scope, scope_id, tier) WHERE parent_id IS NULL;
"""


def _index_sql(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories'"
        )
        return {name: sql for name, sql in rows if sql}


def test_a_sha256_hash_is_kept_as_its_32_bytes_and_any_other_hash_as_text() -> None:
    digest = content_hash("Tea, not coffee, after six.")
    assert stored_hash(digest) == bytes.fromhex(digest) and read_hash(stored_hash(digest)) == digest
    for other in ("h", digest.upper(), digest[:-1], digest + "0", "g" * 64):  # would not read back the same
        assert stored_hash(other) == other and read_hash(other) == other


def test_a_creation_entry_is_kept_as_its_values_and_reads_back_as_written() -> None:
    detail = {key: None for key in entries.LAYOUTS["create"]} | {"kind": "task", "confidence": 0.8312}
    detail |= {"chunks": 2, "joined_prototypes": ["kind:task"], "category": "café"}
    stored = entries.encode("create", detail)
    assert json.loads(stored)[0] == "task" and len(stored) < len(json.dumps(detail)) / 2
    assert entries.decode("create", stored) == detail and list(entries.decode("create", stored)) == list(
        detail
    )
    assert (
        "caf\\u00e9" in stored
    )  # spelt as JSON spells it by default: a forget finds a text by that spelling
    # Other keys, another order, another action: an object, as before.
    for action, other in (
        ("create", detail | {"extra": 1}),
        ("create", dict(reversed(list(detail.items())))),
        ("merge", detail),
    ):
        assert json.loads(entries.encode(action, other)) == other
        assert entries.decode(action, entries.encode(action, other)) == other
    with pytest.raises(ValueError, match="create"):
        entries.decode("create", "[1, 2]")


def test_a_store_keeps_hashes_as_bytes_and_finds_every_form(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        first = mem.remember(TEXTS[0]).id
        record = mem.get(first)
        imported = record.model_copy(update={"id": "imported-1", "content": TEXTS[1], "content_hash": "h"})
        mem.store.insert([imported], [None])
        assert mem.store.find_hash(content_hash(TEXTS[0]), Scope.GLOBAL, None).id == first
        assert mem.store.find_hash("h", Scope.GLOBAL, None).id == "imported-1"
        assert mem.store.vector_for_hash(content_hash(TEXTS[0])) is not None
        assert mem.get("imported-1").content_hash == "h" and mem.get(first).content_hash == content_hash(
            TEXTS[0]
        )
        again = mem.remember(TEXTS[0])
        assert not again.created and again.id == first
    with sqlite3.connect(path) as db:
        kinds = dict(db.execute("SELECT id, typeof(content_hash) FROM memories"))
        entry = db.execute("SELECT detail FROM audit_log WHERE action = 'create' AND memory_id = ?", (first,))
        stored = entry.fetchone()[0]
    assert kinds == {first: "blob", "imported-1": "text"}
    assert stored.startswith("[") and len(stored) < 100


def test_rows_for_postgresql_keep_the_hash_as_text(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        record = mem.get(mem.remember(TEXTS[2]).id)
    native = dict(zip(COLUMNS, record_to_row(record, native=True), strict=True))
    assert native["content_hash"] == record.content_hash
    assert record_from_row(record_to_row(record)).content_hash == record.content_hash


def _as_written_before(path: Path) -> None:
    """The store as the version before the compact form wrote it: hashes as hex text, creation entries as JSON
    objects, the indexes as they were and no record of the migration that changed them."""
    db = sqlite3.connect(path)
    for rid, digest in db.execute("SELECT rid, content_hash FROM memories").fetchall():
        db.execute("UPDATE memories SET content_hash = ? WHERE rid = ?", (read_hash(digest), rid))
    for i, action, detail in db.execute("SELECT id, action, detail FROM audit_log").fetchall():
        db.execute(
            "UPDATE audit_log SET detail = ? WHERE id = ?", (json.dumps(entries.decode(action, detail)), i)
        )
    db.executescript(_OLD_INDEXES)
    db.execute("DELETE FROM migrations WHERE name = 'm016_smaller_indexes'")
    db.commit()
    assert {t for (t,) in db.execute("SELECT DISTINCT typeof(content_hash) FROM memories")} == {"text"}
    db.close()


def test_a_store_written_before_opens_reads_the_same_and_finds_its_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder=FakeEmbedder()) as mem:
        ids = [mem.remember(t).id for t in TEXTS]
        long = mem.remember(
            " ".join(f"Sentence {i} of a long note about the garden shed." for i in range(80))
        )
        assert long.chunks > 0
        records = {r.id: r.model_dump() for r in mem.store.get_many([*ids, long.id])}
        audit = mem.audit_log(limit=50)
    new_indexes = _index_sql(path)
    _as_written_before(path)
    assert "memories_tier" in _index_sql(path)
    with Memory(path, embedder=FakeEmbedder()) as mem:
        assert _index_sql(path) == new_indexes  # migrated on open
        assert {r.id: r.model_dump() for r in mem.store.get_many([*ids, long.id])} == records
        assert mem.audit_log(limit=50) == audit
        assert [mem.remember(t).id for t in TEXTS] == ids  # exact duplicates of rows holding text hashes
        assert len(mem.store.children(long.id)) == long.chunks
        added = mem.remember("The spare key is under the blue flower pot.").id
        mem.forget(ids[0])  # its creation entry, an object, stays readable beside the new ones
        kept = {e["action"] for e in mem.audit_log(ids[0])}
        assert kept == {"create", "forget"} and mem.store.get(ids[0]) is None
    with sqlite3.connect(path) as db:
        kinds = dict(db.execute("SELECT id, typeof(content_hash) FROM memories WHERE parent_id IS NULL"))
    assert kinds == {ids[1]: "text", ids[2]: "text", long.id: "text", added: "blob"}  # no rewrite on open


def test_new_stores_have_no_index_that_no_query_reads(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.remember(TEXTS[0])
    indexes = _index_sql(tmp_path / "m.db")
    assert "memories_tier" not in indexes
    assert "WHERE parent_id IS NOT NULL" in indexes["memories_parent"]
    assert indexes["memories_hash"].endswith("(content_hash)")
    assert indexes["memories_scope"].endswith("(scope, scope_id)")


def test_the_bench_parts_of_a_store_add_up_to_its_files(tmp_path: Path) -> None:
    from bench.scale import disk_bytes, disk_parts

    db = tmp_path / "store" / "m.db"
    with Memory(db, embedder=FakeEmbedder()) as mem:
        for text in TEXTS:
            mem.remember(text)
    parts = disk_parts(str(db))
    assert sum(parts.values()) == disk_bytes(str(db))
    assert parts["memories"] > 0 and parts["memories_fts"] > 0 and "memories_tier" not in parts


def test_the_disk_bench_compares_parts_beyond_the_vector() -> None:
    from bench.disk import markdown, per_memory

    before = per_memory({"memories": 2000 * 10, "audit_log": 300 * 10, "memories_tier": 20 * 10}, 10)
    after = per_memory({"memories": 1900 * 10, "audit_log": 160 * 10}, 10)
    assert before == {"memories": 2000 - 1536, "audit_log": 300, "memories_tier": 20}
    page = markdown(
        {
            "size": 10,
            "date": "2026-11-27T00:00:00+00:00",
            "before": {"commit": "a", "parts": before, "total": sum(before.values())},
            "after": {"commit": "b", "parts": after, "total": sum(after.values())},
        }
    )
    assert "| memories_tier | 20 | 0 |" in page and "| **784** | **524** |" in page


def test_the_bench_parts_of_a_postgres_store_add_up_to_its_relations(pg_server: str) -> None:
    from bench.scale import disk_bytes, disk_parts, pg_database

    db = pg_database(pg_server, "bench_parts")
    with Memory(db, embedder=FakeEmbedder()) as mem:
        for text in TEXTS:
            mem.remember(text)
    parts = disk_parts(db)
    assert sum(parts.values()) == disk_bytes(db)
    assert parts["memories"] > 0 and parts["memories_tsv"] > 0 and parts["prototypes"] > 0
