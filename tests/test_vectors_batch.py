"""The vector index answers a batch of queries in one pass with what each query gets alone."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from engram.store import vectors
from engram.store.vectors import VectorIndex

DIM = 32


def unit(rows: int, seed: int) -> npt.NDArray[np.float32]:
    x = np.random.default_rng(seed).standard_normal((rows, DIM), dtype=np.float32)
    out: npt.NDArray[np.float32] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


@pytest.mark.parametrize(("exact_max", "quantized_from"), [(10_000, 10_000), (10_000, 0), (0, 0)])
def test_a_batch_of_queries_gets_what_each_gets_alone(
    exact_max: int, quantized_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small index scanned from its floats, one scanned from its 8-bit codes first, and the graph; with rows
    removed (the graph's tombstones) and one replaced."""
    monkeypatch.setattr(vectors, "EXACT_MAX", exact_max)
    monkeypatch.setattr(vectors, "QUANTIZED_FROM", quantized_from)
    base = unit(3_000, 5)
    keys = np.arange(1, 3_001, dtype=np.int64) * 3
    index = VectorIndex(DIM)
    for lo in range(0, len(keys), 1_000):
        index.upsert(keys[lo : lo + 1_000].tolist(), base[lo : lo + 1_000])
    index.remove(keys[::7].tolist())
    index.upsert([int(keys[10])], unit(1, 6))
    assert index.exact is (exact_max > 0)
    queries = np.vstack([unit(40, 7), base[[10, 11, 12]], np.zeros((1, DIM), dtype=np.float32)])
    for k in (1, 20, 30):
        together = index.search_many(queries, k)
        assert len(together) == len(queries)
        assert all(len(hits) == k for hits in together)
        for q, hits in zip(queries, together, strict=True):
            assert hits == index.search(q, k)
    removed = set(keys[::7].tolist())
    assert not any(key in removed for hits in index.search_many(queries, 30) for key, _ in hits)


def test_a_batch_of_no_queries_or_an_empty_index_finds_nothing() -> None:
    index = VectorIndex(DIM)
    assert index.search_many(unit(3, 1), 5) == [[], [], []]
    index.upsert([1, 2], unit(2, 2))
    assert index.search_many(np.zeros((0, DIM), dtype=np.float32), 5) == []
    with pytest.raises(ValueError, match="dimension"):
        index.search_many(unit(2, 3)[:, :8], 5)
