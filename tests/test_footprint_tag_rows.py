"""The tag vocabulary's rows live in room that takes memory as tags are added: adding one copies nothing, and
the vocabulary answers as one built from all its rows at once."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engram.store.values import TagRow
from engram.tags import vocabulary as module
from engram.tags.vocabulary import Vocabulary

DIM = 384
AT = datetime(2026, 1, 1, tzinfo=UTC)


def _rows(n: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _registry(rows: np.ndarray) -> list[TagRow]:
    return [TagRow(f"tag-{i}", 1, AT, AT, vector=v) for i, v in enumerate(rows)]


def test_adding_tags_keeps_the_rows_in_place() -> None:
    rows = _rows(5000, 1)
    vocabulary = Vocabulary.of(_registry(rows[:100]), DIM)
    at = vocabulary._rows.ctypes.data
    for i in range(100, 5000):
        vocabulary.add(f"tag-{i}", rows[i])
    assert vocabulary._rows.ctypes.data == at
    assert np.array_equal(vocabulary.matrix, rows)


@pytest.mark.parametrize("room", [8, module.ROOM])
def test_a_vocabulary_grown_tag_by_tag_answers_as_one_built_at_once(
    room: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(module, "ROOM", room)  # past the room it grows by a copy, rows kept
    rows = _rows(3000, 2)
    names = [f"tag-{i}" for i in range(len(rows))]
    grown = Vocabulary.of(_registry(rows[:40]), DIM)
    for name, row in zip(names[40:], rows[40:], strict=True):
        grown.add(name, row)
    whole = Vocabulary(names, rows)
    assert grown.names == whole.names and np.array_equal(grown.matrix, whole.matrix)
    queries = _rows(20, 3)
    assert grown.nearest(queries, 5) == whole.nearest(queries, 5)
    assert [n for n, _ in grown.nearest(queries[:1], 3)[0]] == [
        names[i] for i in np.argsort(-(rows @ queries[0]), kind="stable")[:3]
    ]
    assert grown.vector("tag-2999") is not None and np.array_equal(grown.vector("tag-2999"), rows[2999])


def test_an_empty_registry_keeps_its_dimension() -> None:
    vocabulary = Vocabulary.of([], DIM)
    assert vocabulary.matrix.shape == (0, DIM) and vocabulary.nearest(_rows(2, 4), 3) == [[], []]


@pytest.mark.skipif(sys.platform != "linux", reason="reads the resident set from /proc")
def test_the_room_takes_memory_only_as_tags_fill_it() -> None:
    def rss() -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("VmRSS")

    rows = _rows(1000, 5)
    before = rss()
    vocabulary = Vocabulary.of(_registry(rows), DIM)
    added = rss() - before
    assert vocabulary._rows.nbytes / 2**20 > 150  # room for far more tags than it holds
    assert added < 10  # 1,000 rows of 1.5 kB, not the room
