"""Closing a store waits for a retried log settle running on its timer thread: the writer connection was closed
under it, and using a closed SQLite connection from another thread crashed the process (a segmentation fault
once in a run of the concurrency tests under load)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from engram.store.sqlite import upkeep
from engram.store.sqlite.store import SQLiteStore


def test_close_waits_for_a_settle_that_is_using_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    store._writer.execute("INSERT INTO meta(key, value) VALUES (?, '1')", (upkeep.UNSETTLED,))
    inside, go = threading.Event(), threading.Event()
    seen: list[str] = []
    truncated = upkeep._truncated

    def slow_truncate(db: sqlite3.Connection) -> bool:
        inside.set()
        go.wait(10)
        try:
            db.execute("SELECT 1").fetchone()  # the settle's next step on the writer
            seen.append("open")
        except sqlite3.ProgrammingError:
            seen.append("closed under the settle")
            return False
        return truncated(db)

    monkeypatch.setattr(upkeep, "_truncated", slow_truncate)
    settling = threading.Thread(target=store.settle)
    settling.start()
    assert inside.wait(10)
    closing = threading.Thread(target=store.close)
    closing.start()
    closing.join(2)  # the old close finished here, the writer closed while the settle held it
    go.set()
    settling.join(10)
    closing.join(10)
    assert not closing.is_alive() and not settling.is_alive()
    assert seen and seen[0] == "open"
