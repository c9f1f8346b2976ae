"""The PostgreSQL row in fewer bytes (m009): the content hash kept only where it is not the content's SHA-256, the
content's stems without positions; a store written before migrates with every record, hash and score intact."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from psycopg import sql

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.lang.text import stem, stems, words
from engram.model.record import MemoryRecord, Scope
from engram.model.vectors import content_hash
from engram.store import scores
from engram.store.postgres import text as pg_text
from engram.store.postgres.schema import MIGRATIONS, vector_index_name
from engram.store.postgres.store import PostgresStore
from engram.store.rows import COLUMNS, record_to_row
from engram.store.values import Filter

QUERIES = (["kubernetes"], ["deadline", "friday"], ["archive", "format"], ["garden"])


def _old_tsvector(content: str, tags: Sequence[str]) -> str:
    """The stems as m008's store wrote them: every content stem at 1A, every tag stem at 2B."""
    weights: dict[str, list[str]] = {}
    for s in sorted(s for s in stems(content) if pg_text.indexable(s)):
        weights.setdefault(s, []).append("1A")
    for s in sorted(
        {s for tag in tags for w in words(tag.replace("-", " ")) if pg_text.indexable(s := stem(w))}
    ):
        weights.setdefault(s, []).append("2B")
    return " ".join(f"{pg_text.lexeme(s)}:{','.join(w)}" for s, w in sorted(weights.items()))


def _old_row(record: MemoryRecord) -> tuple[Any, ...]:
    """A row as m008's store wrote it: every column, the scores as bytes."""
    row = list(record_to_row(record, native=True))
    stored = scores.encode(dict(record.kind_scores))
    row[COLUMNS.index("kind_scores")] = stored if isinstance(stored, bytes) else stored.encode()
    return tuple(row)


def _old_vector_index(dim: int) -> sql.Composed:
    """The graph as m007 built it: M = 16, pgvector's default."""
    return sql.SQL(
        "CREATE INDEX {} ON memories USING hnsw ((embedding::halfvec({})) halfvec_cosine_ops) WHERE searchable"
    ).format(sql.Identifier(vector_index_name(dim)), sql.Literal(dim))


def _graph(store: Any) -> str:
    return str(
        store._one(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'memories_hnsw_%%'"
        )[0]
    )


def _fill(mem: Memory) -> None:
    mem.remember("Project apollo ships on Friday; the deadline is firm")
    mem.remember("kubernetes upgrades run every friday night", tags=["kubernetes", "ops"])
    mem.remember("notes on cluster upgrades", tags=["kubernetes"])
    mem.remember("the garden gate squeaks when it rains", metadata={"source": "notes", "page": 3})
    mem.remember("long " * 600 + "text about the archive format", kind="reference")
    imported = mem.get(mem.remember("an imported note about the garden shed").id)
    store: Any = mem.store
    store.update(imported.model_copy(update={"content_hash": "h"}))


def _state(mem: Memory) -> tuple[list[dict[str, Any]], list[list[tuple[str, float]]]]:
    records = sorted((r.model_dump() for batch in mem.store.iter_all() for r in batch), key=lambda r: r["id"])
    return records, [mem.store.text_search(q, 10, Filter()) for q in QUERIES]


def test_a_store_written_before_compact_rows_migrates_with_its_data_intact(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engram.store.postgres.batched as pg_batched
    import engram.store.postgres.store as pg_store

    with monkeypatch.context() as old:
        # The store as m008 left it: every hash in its column, every stem with its position and weight.
        old.setattr(pg_store, "MIGRATIONS", [m for m in MIGRATIONS if m[0] != "m009_compact_rows"])
        old.setattr(pg_store, "to_row", _old_row)
        old.setattr(pg_store, "HASH", "m.content_hash")
        old.setattr(pg_batched, "HASH", "m.content_hash")
        old.setattr(pg_store, "vector_index", _old_vector_index)
        old.setattr(pg_text, "tsvector", _old_tsvector)
        with Memory(pg_url, embedder=FakeEmbedder()) as mem:
            _fill(mem)
            records, hits = _state(mem)
            store: Any = mem.store
            assert store._one("SELECT count(*) FROM memories WHERE content_hash IS NULL")[0] == 0
            size = store._one("SELECT sum(pg_column_size(tsv)) FROM memories")[0]
            assert "m=" not in _graph(store)
    assert all(hits) and any(r["content_hash"] == "h" for r in records)
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        store = mem.store
        assert "m009_compact_rows" in store.migrations()
        assert _state(mem) == (records, hits)
        kept = store._all("SELECT content_hash FROM memories WHERE content_hash IS NOT NULL")
        assert kept == [("h",)]  # the imported hash, not the content's own
        empty = store._one(
            "SELECT count(*) FILTER (WHERE tags IS NULL), count(*) FILTER (WHERE metadata IS NULL) FROM memories"
        )
        assert empty == (
            sum(not r["tags"] for r in records),
            sum(not r["metadata"] for r in records),
        ) and 0 < empty[1] < len(records)
        assert store._one("SELECT sum(pg_column_size(tsv)) FROM memories")[0] < size
        assert "m='12'" in _graph(store)
        for record in records:
            found = store.find_hash(record["content_hash"], Scope(record["scope"]), record["scope_id"])
            assert record["parent_id"] is not None or (found is not None and found.id == record["id"])
        assert mem.validate_storage()["issues"] == []
        # what is written after the migration reads back as the records before it did
        again = mem.remember("the garden gate squeaks again")
        assert mem.get(again.id).content_hash == content_hash("the garden gate squeaks again")


def test_stems_carry_positions_only_to_tell_tags_from_content(pg_url: str) -> None:
    texts = ["kubernetes upgrades", "kubernetes rollouts", "rollbacks"]
    records = bulk_records(texts)
    records[0] = records[0].model_copy(update={"tags": ("kubernetes",)})
    records[2] = records[2].model_copy(update={"tags": ("kubernetes",)})
    both, content, tag = (r.id for r in records)
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        store: Any = mem.store
        store.insert(records, list(FakeEmbedder().embed_batch(texts)))
        tsv = dict(store._all("SELECT id, tsv::text FROM memories"))
        assert tsv[content] == "'kubernet' 'rollout'" and tsv[both] == "'kubernet':1A,2B 'upgrad'"
        assert tsv[tag] == "'kubernet':2B 'rollback'"
        hits = dict(mem.store.text_search(["kubernetes"], 5, Filter()))
        # the same number of stems, so the same length normalisation: content 1, tags 0.5, both 1.5
        assert hits[both] == pytest.approx(1.5 * hits[content]) and hits[tag] == pytest.approx(
            0.5 * hits[content]
        )


def test_only_a_hash_that_is_not_the_content_s_own_is_stored(pg_url: str) -> None:
    with Memory(pg_url, embedder=FakeEmbedder()) as mem:
        kept = mem.get(mem.remember("tea, not coffee, after six").id)
        store: Any = mem.store
        store.update(kept.model_copy(update={"content_hash": "imported-hash"}))
        other = mem.remember("the kettle whistles")
        rows = dict(store._all("SELECT id, content_hash FROM memories"))
        assert rows == {kept.id: "imported-hash", other.id: None}
        assert mem.get(kept.id).content_hash == "imported-hash"
        assert store.find_hash("imported-hash", Scope.GLOBAL, None).id == kept.id
        assert store.find_hash(content_hash("the kettle whistles"), Scope.GLOBAL, None).id == other.id
        assert store.vector_for_hash(content_hash("the kettle whistles")) is not None
        plan = "\n".join(
            str(r[0])
            for r in store._all(
                "EXPLAIN SELECT m.id FROM memories m WHERE coalesce(m.content_hash, engram_hash(m.content)) = %s",
                ("x",),
            )
        )
        assert (
            "memories_hash" in plan or "Seq Scan" in plan
        )  # the index serves it once the planner prefers it
        assert isinstance(store, PostgresStore)
