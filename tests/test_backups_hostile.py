"""backup_restore given a file that passes SQLite's integrity check but is not the schema a backup writes: a
table the store needs dropped, a trigger added. Such a file came from somewhere other than `backup` (a local agent
may name any path), and restoring it replaced a working store with one that failed every later write."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from engram import EngramError, FakeEmbedder, Memory, Settings

CHANGES = {
    "a missing full-text table": "DROP TABLE memories_fts",
    "an added trigger": "CREATE TRIGGER wipe AFTER INSERT ON memories BEGIN DELETE FROM memories; END",
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
        with sqlite3.connect(tmp_path / "changed.db") as db:
            db.execute(change)
        mem.remember("a memory written after the backup")
        with pytest.raises(EngramError):
            mem.backup_restore("restore", tmp_path / "changed.db")
        mem.remember("a memory written after the refused restore")
        assert len(mem.list(limit=100)) == 7
