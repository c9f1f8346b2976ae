"""A large store's text search scores the two halves of its rows on two threads: the answer is the one the whole
search gives, ties and all, and inside a write transaction (whose reads are the writer's) it is not split."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.backends import bulk_records
from engram import FakeEmbedder, Memory
from engram.store.sqlite import search
from engram.store.values import Filter

WORDS = (
    "boiler",
    "garden",
    "invoice",
    "plumber",
    "tuesday",
    "report",
    "train",
    "dentist",
    "sister",
    "budget",
)


def texts(n: int) -> list[str]:
    # each text a few of the words, some repeated, so that many rows match and many scores tie
    return [
        " ".join(WORDS[(i * j + j) % len(WORDS)] for j in range(1 + i % 4)) + (f" note {i}" if i % 3 else "")
        for i in range(n)
    ]


QUERIES = [["boiler"], ["garden", "invoice", "note"], ["tuesday", "sister", "budget", "train"], ["nothing"]]


def test_the_halves_find_what_the_whole_search_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = FakeEmbedder()
    with Memory(tmp_path / "m.db", embedder=embedder) as mem:
        store: Any = mem.store
        written = texts(600)
        store.insert(bulk_records(written), list(embedder.embed_batch(written)))
        whole = [store.text_search(q, k, Filter()) for q in QUERIES for k in (1, 7, 50, 400)]
        monkeypatch.setattr(search, "SPLIT_FROM", 0)
        split = [store.text_search(q, k, Filter()) for q in QUERIES for k in (1, 7, 50, 400)]
        assert split == whole and store._half is not None  # the second thread answered
        assert len(whole[3]) == 400 and whole[3][0][1] >= whole[3][-1][1]
        new = bulk_records(["a zeppelin over the garden"], 600)
        # inside a write the writer's connection reads, alone: it sees the row not committed yet
        with store.atomic():
            store.insert(new, list(embedder.embed_batch([new[0].content])))
            assert [i for i, _ in store.text_search(["zeppelin"], 3, Filter())] == [new[0].id]
