"""A thousand forgets in one store: SQLite 3.40's FTS5 reported the text index malformed after about 1,000
deletes each followed by a merge, and from then on every write of the store failed ("database disk image is
malformed", then "cannot rollback - no transaction is active"). The text index is now built afresh every few
hundred forgets."""

from __future__ import annotations

from pathlib import Path

from engram import FakeEmbedder, Memory, Settings


def test_a_store_still_writes_and_searches_after_a_thousand_forgets(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        mem.remember_many([{"content": f"Fact {i}: bed {i % 97} gets {i % 13} litres"} for i in range(1250)])
        mem.remember("The quince tree by the wall needs pruning in February")
        doomed = [r.id for r in mem.list(limit=2000) if "quince" not in r.content][:1050]
        for memory_id in doomed:
            mem.forget(memory_id)
        assert len(mem.list(limit=2000)) == 201
        mem.remember("The medlar by the gate fruits late")
        assert "medlar" in mem.recall("medlar gate", limit=1)[0].record.content
        assert "quince" in mem.recall("quince pruning", limit=1)[0].record.content
        store = mem.store
        writer = store._writer  # type: ignore[attr-defined]
        writer.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
        # What was forgotten is not in the text index.
        assert (
            writer.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'fact'").fetchone()[0]
            == 200
        )
