"""An mcp-memory-service database someone hands over to import: its `memories` may be a view, code the file's
author wrote that runs when it is read. A recursive one without end read rows until the machine's memory ran
out; a bounded one imported rows no table holds. Its memories must be a table; a view is refused, nothing read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engram import FakeEmbedder, InvalidInput, Memory


def test_memories_as_a_view_are_refused_before_any_row_is_read(tmp_path: Path) -> None:
    foreign = tmp_path / "sqlite_vec.db"
    db = sqlite3.connect(foreign)
    db.execute(
        "CREATE VIEW memories AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) "
        "SELECT 'made up memory ' || x AS content, 'h' || x AS content_hash FROM n"
    )
    db.commit()
    db.close()
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        with pytest.raises(InvalidInput) as refused:
            mem.import_from("mcp-memory-service", foreign)
        assert refused.value.field == "path" and "view" in refused.value.problem
        assert mem.stats()["memories"] == 0
