"""Importing from other memory stores, each fixture written in that store's own format; the type table."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram import Memory, Status
from engram.errors import InvalidInput
from engram.interfaces.cli.app import app
from engram.interop.typemap import KIND_OF_TYPE, PAPERBOT, TYPE_OF_KIND, shodh_type
from engram.model.record import Kind, MemoryType
from engram.store.values import Filter

EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


def mcp_memory_service_db(path: Path) -> Path:
    """mcp-memory-service's sqlite_vec schema: comma-joined tags, lowercase type, REAL epoch times."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE memories (id INTEGER PRIMARY KEY AUTOINCREMENT, content_hash TEXT UNIQUE NOT NULL, "
        "content TEXT NOT NULL, tags TEXT, memory_type TEXT, metadata TEXT, created_at REAL, updated_at REAL, "
        "created_at_iso TEXT, updated_at_iso TEXT, deleted_at REAL)"
    )
    now = time.time()
    rows = [
        (
            "h1",
            "Use JWT tokens with 24h expiry for authentication",
            "auth,security",
            "decision",
            json.dumps({"credibility": 0.9, "emotion": "relief", "emotional_valence": 0.6, "custom": "kept"}),
            now - 86400,
            None,
        ),
        ("h2", "Staging deploys need the VPN", "ops", "note", "{}", now - 3600, None),
        ("h3", "An old note that was deleted", "", "note", "{}", now - 7200, now - 60),
    ]
    for h, content, tags, kind, meta, created, deleted in rows:
        db.execute(
            "INSERT INTO memories(content_hash, content, tags, memory_type, metadata, created_at, updated_at, "
            "created_at_iso, updated_at_iso, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)",
            (h, content, tags, kind, meta, created, created, deleted),
        )
    db.commit()
    db.close()
    return path


def test_mcp_memory_service_import_keeps_fields_and_is_idempotent(mem: Memory, tmp_path: Path) -> None:
    path = mcp_memory_service_db(tmp_path / "sqlite_vec.db")
    report = mem.import_from("mcp-memory-service", path)
    assert (report["created"], report["skipped"]) == (2, 1)
    assert report["skipped_items"][0]["reason"] == "deleted in the source"
    records = {r.content: r for r in mem.store.select(EVERYTHING, limit=50)}
    jwt = records["Use JWT tokens with 24h expiry for authentication"]
    assert (
        jwt.type == MemoryType.DECISION
        and jwt.kind == Kind.KNOWLEDGE
        and set(jwt.tags) == {"auth", "security"}
    )
    assert (jwt.credibility, jwt.emotion, jwt.emotional_valence) == (0.9, "relief", 0.6)
    assert (
        jwt.metadata["source"]["custom"] == "kept" and jwt.metadata["source"]["store"] == "mcp-memory-service"
    )
    again = mem.import_from("mcp-memory-service", path)
    assert again["created"] == 0 and {s["reason"] for s in again["skipped_items"]} == {
        "same content already stored",
        "deleted in the source",
    }
    mem.rollback(report["operation_id"])
    assert mem.store.count(EVERYTHING) == 0


def test_shodh_json_and_mem0_imports(mem: Memory, tmp_path: Path) -> None:
    shodh = tmp_path / "shodh.json"
    shodh.write_text(
        json.dumps(
            {
                "memories": [
                    {
                        "id": "a1",
                        "content": "Finally fixed the production bug after 6 hours",
                        "type": "Discovery",
                        "tags": '["bugfix", "production"]',
                        "created_at": "2025-01-05T10:00:00Z",
                        "emotion": "relief",
                        "metadata": {"project": "api"},
                    },
                    {
                        "id": "a2",
                        "content": "Ran the migration script",
                        "type": "Command",
                        "tags": "[]",
                        "created_at": "2025-01-06T10:00:00Z",
                    },
                ]
            }
        )
    )
    mem0 = tmp_path / "mem0.json"
    mem0.write_text(
        json.dumps(
            {
                "results": [
                    {
                        "id": "m-1",
                        "memory": "Prefers vegetarian restaurants",
                        "hash": "x1",
                        "user_id": "alice",
                        "categories": ["food"],
                        "created_at": "2025-02-01T08:00:00-08:00",
                        "updated_at": None,
                        "metadata": None,
                    },
                ]
            }
        )
    )
    assert mem.import_from("shodh-json", shodh)["created"] == 2
    assert mem.import_from("mem0", mem0)["created"] == 1
    records = {r.content: r for r in mem.store.select(EVERYTHING, limit=50)}
    bug = records["Finally fixed the production bug after 6 hours"]
    assert bug.type == MemoryType.DISCOVERY and set(bug.tags) == {"bugfix", "production"}
    assert bug.created_at.isoformat().startswith("2025-01-05T10:00")
    assert records["Ran the migration script"].kind == Kind.REFERENCE
    veg = records["Prefers vegetarian restaurants"]
    assert veg.tags == ("food",) and veg.metadata["source"]["mem0_user_id"] == "alice"
    with pytest.raises(ValueError, match="source"):
        mem.import_from("evernote", mem0)


def test_cli_import_and_export_without_embeddings(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    path = mcp_memory_service_db(tmp_path / "mms.db")
    runner = CliRunner()
    done = runner.invoke(app, ["--db", db, "import", "mcp-memory-service", str(path)])
    assert done.exit_code == 0, done.output
    out = tmp_path / "out.jsonl"
    exported = runner.invoke(app, ["--db", db, "export", str(out)])
    assert exported.exit_code == 0, exported.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["format"] == "shodh-memory+jsonl" and len(lines) == 3
    assert all(r["embedding"] is None for r in lines[1:])
    with_vectors = tmp_path / "vectors.jsonl"
    assert runner.invoke(app, ["--db", db, "export", str(with_vectors), "--with-embeddings"]).exit_code == 0
    assert all(len(json.loads(x)["embedding"]) == 384 for x in with_vectors.read_text().splitlines()[1:])


def test_type_table_covers_every_type_and_kind() -> None:
    assert set(KIND_OF_TYPE) == set(MemoryType) and set(TYPE_OF_KIND) == set(Kind)
    assert all(
        KIND_OF_TYPE[TYPE_OF_KIND[k]] == k for k in Kind if k != Kind.UNCLASSIFIED
    )  # kind -> type -> kind
    assert set(PAPERBOT) == {
        "profile",
        "preference",
        "goal",
        "constraint",
        "project",
        "fact",
        "decision",
        "hypothesis",
        "todo",
        "keyword_set",
        "note",
    }
    assert shodh_type("code_edit") == MemoryType.CODE_EDIT and shodh_type("decision") == MemoryType.DECISION
    assert shodh_type("banana") is None


def test_export_import_export_gives_the_same_bytes(tmp_path: Path) -> None:
    from engram import FakeEmbedder

    with Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as mem:
        mem.store_memory("Dentist appointment on 3 May at 10am", {"force_importance": 4})
        mem.remember("A long memory about sailing. " * 300, scope="project", scope_id="boat")
        mem.ingest([{"role": "user", "content": "I prefer window seats on trains.", "conversation_id": "c"}])
        mem.export_memories(tmp_path / "first.jsonl")
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder()) as other:
        other.import_memories(tmp_path / "first.jsonl")
        other.export_memories(tmp_path / "second.jsonl")
    first = (tmp_path / "first.jsonl").read_text().splitlines()
    second = (tmp_path / "second.jsonl").read_text().splitlines()
    assert first[0] == second[0]  # the header: format and model
    assert sorted(first[1:]) == sorted(second[1:])  # every record byte for byte (the order is the store's)


def test_vectors_from_another_model_are_never_mixed_in(tmp_path: Path) -> None:
    from engram import FakeEmbedder

    with Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as mem:
        mid = mem.remember("Vectors belong to the model that made them").id
        mem.export_memories(tmp_path / "out.jsonl")
    other_model = FakeEmbedder(dim=32, name="another-model")
    with Memory(tmp_path / "b.db", embedder=other_model) as other:
        report = other.import_memories(tmp_path / "out.jsonl")
        assert report["reembedded"] == 1
        vector = other.store.vectors([mid])[mid]
        assert (
            vector.shape == (32,)
            and float(vector @ other_model.embed_batch([other.get(mid).content])[0]) > 0.999
        )
        assert other.validate_storage()["ok"]


def test_a_date_that_is_not_a_date_is_refused(mem: Memory, tmp_path: Path) -> None:
    mem0 = tmp_path / "mem0.json"
    mem0.write_text(
        json.dumps(
            [
                {"id": "m-1", "memory": "Prefers green tea", "created_at": "2025-02-01T08:00:00Z"},
                {"id": "m-2", "memory": "Prefers window seats", "created_at": "garbage"},
            ]
        )
    )
    with pytest.raises(InvalidInput) as caught:
        mem.import_from("mem0", mem0)
    assert caught.value.field == "record m-2.created_at" and "garbage" in caught.value.problem
    assert mem.store.count(EVERYTHING) == 0 and mem.store.operations(10) == []
    for bad in (True, float("nan"), 1e300, {"day": 1}):
        mem0.write_text(json.dumps([{"memory": "Prefers window seats", "created_at": bad}]))
        with pytest.raises(InvalidInput, match=r"record 0\.created_at"):
            mem.import_from("mem0", mem0)
    epoch = 1738396800  # seconds, as some stores keep their dates
    mem0.write_text(json.dumps([{"memory": "Prefers window seats", "created_at": epoch}]))
    assert mem.import_from("mem0", mem0)["created"] == 1
