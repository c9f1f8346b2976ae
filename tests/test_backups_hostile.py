"""backup_restore given a file that passes SQLite's integrity check but is not the schema a backup writes: a
table the store needs dropped, a trigger added, one of Engram's own triggers rewritten under its name (to delete
rows or copy every new memory's text elsewhere), a column added. Such a file came from somewhere other than
`backup` (a local agent may name any path): restoring it replaced a working store with one that failed every later
write, and a rewritten trigger was restored and ran on every later write. A backup in another page size (a store
made before 16 KB pages) is Engram's own and restores."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from engram import EngramError, FakeEmbedder, Memory, Settings

CHANGES = {
    "a missing full-text table": "DROP TABLE memories_fts",
    "an added trigger": "CREATE TRIGGER wipe AFTER INSERT ON memories BEGIN DELETE FROM memories; END",
    "a trigger of Engram's rewritten to delete": "DROP TRIGGER memories_count_ai; "
    "CREATE TRIGGER memories_count_ai AFTER INSERT ON memories BEGIN "
    "UPDATE counts SET n = n + 1 WHERE name = 'memories'; DELETE FROM memories WHERE rid <> new.rid; END",
    "a trigger of Engram's rewritten to copy text": "DROP TRIGGER memories_count_ai; "
    "CREATE TRIGGER memories_count_ai AFTER INSERT ON memories BEGIN "
    "UPDATE counts SET n = n + 1 WHERE name = 'memories'; "
    "INSERT INTO meta(key, value) VALUES ('copy-' || new.rid, new.content); END",
    "a trigger rewritten in the schema table itself": "PRAGMA writable_schema = ON; "
    "UPDATE sqlite_master SET sql = 'CREATE TRIGGER memories_count_ai AFTER INSERT ON memories BEGIN "
    "DELETE FROM memories; END' WHERE name = 'memories_count_ai'",
    "an added column": "ALTER TABLE memories ADD COLUMN extra TEXT DEFAULT 'x'",
}


@pytest.mark.parametrize("change", list(CHANGES.values()), ids=list(CHANGES))
def test_a_backup_whose_schema_was_changed_is_refused_and_the_store_keeps_working(
    tmp_path: Path, change: str
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        for i in range(5):
            mem.remember(f"a memory to keep, number {i}")
        mem.backup_restore("backup", tmp_path / "good.db")
        shutil.copy(tmp_path / "good.db", tmp_path / "changed.db")
        db = sqlite3.connect(tmp_path / "changed.db")
        db.executescript(change)
        db.close()
        mem.remember("a memory written after the backup")
        with pytest.raises(EngramError, match=r"changed\.db: not a backup Engram wrote"):
            mem.backup_restore("restore", tmp_path / "changed.db")
        mem.remember("a memory written after the refused restore")
        assert len(mem.list(limit=100)) == 7
    with sqlite3.connect(tmp_path / "m.db") as db:  # nothing of the file's ran on the store
        assert db.execute("SELECT count(*) FROM meta WHERE key LIKE 'copy-%'").fetchone() == (0,)


@pytest.mark.parametrize("page", [4096, 65536])
def test_a_backup_in_another_page_size_restores_and_the_store_keeps_working(
    tmp_path: Path, page: int
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        for i in range(5):
            mem.remember(f"a memory to keep, number {i}")
        mem.backup_restore("backup", tmp_path / "good.db")
        with sqlite3.connect(tmp_path / "good.db") as db:
            db.execute("PRAGMA journal_mode = DELETE")  # a database in WAL mode keeps its page size
            db.execute(f"PRAGMA page_size = {page}")
            db.execute("VACUUM")
            assert db.execute("PRAGMA page_size").fetchone() == (page,)
        mem.remember("a memory written after the backup")
        answer = mem.backup_restore("restore", tmp_path / "good.db")
        assert answer["memories"] == 5
        mem.remember("a memory written after the restore")
        assert len(mem.list(limit=100)) == 6
        hits = mem.recall("a memory written after the restore", limit=1, mode="related")
        assert [h.record.content for h in hits] == ["a memory written after the restore"]
    assert not list(tmp_path.glob(".engram-restore-*"))  # the copy in the store's page size is gone
