"""Forget, and other writes, while searches run on the same `Memory` from other threads: a search touches what it
shows (a small write of its own), and a forget settles the write-ahead log after it commits. Neither may meet the
other on the one write connection: once they did, the search failed and every later write of the process was
refused ("cannot start a transaction within a transaction")."""

from __future__ import annotations

import threading
from pathlib import Path

from engram import FakeEmbedder, Memory, Settings


def test_forget_while_searches_run_fails_nothing(db_location: str | Path, settings: Settings) -> None:
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as mem:
        words = " ".join(f"word{i}" for i in range(300))
        ids = [
            mem.remember(f"note {i} about the garden and the kitchen, number {i * 7}").id for i in range(40)
        ]
        ids += [mem.remember(f"{words} long document {i} {words}").id for i in range(3)]
        kept = mem.remember("a memory nobody forgets about the garden shed").id
        failures: list[str] = []
        stop = threading.Event()

        def search() -> None:
            while not stop.is_set():
                try:
                    mem.recall("garden kitchen", limit=10)
                    mem.run_tool("search_memory", query="the garden and the kitchen")
                except Exception as exc:  # any failure is the finding: collected, asserted below
                    failures.append(f"search: {exc!r}")

        readers = [threading.Thread(target=search) for _ in range(2)]
        for reader in readers:
            reader.start()
        try:
            for memory_id in ids:
                try:
                    mem.forget(memory_id)
                except Exception as exc:
                    failures.append(f"forget: {exc!r}")
        finally:
            stop.set()
            for reader in readers:
                reader.join()
        assert failures == []
        assert mem.stats()["memories"] == 1 and mem.get(kept).content.endswith("garden shed")
        # The store still takes writes.
        mem.remember("written after the storm")
        mem.forget(kept)
        assert mem.stats()["memories"] == 1
