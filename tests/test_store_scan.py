"""The vector index's sort of distinct keys answers as `np.unique`, and a graph read with a key live in two slots
is refused."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engram.store.hnsw import Graph
from engram.store.scan import distinct


@pytest.mark.parametrize("size", [0, 1, 2, 17, 5_000])
def test_distinct_keys_are_what_np_unique_gives(size: int) -> None:
    rng = np.random.default_rng(size)
    keys = rng.integers(0, max(1, size // 3), size=size).astype(np.uint64)  # repeats
    got = distinct(keys)
    assert got.dtype == np.uint64
    assert np.array_equal(got, np.unique(keys))
    top = np.array([2**64 - 1, 0, 2**64 - 1, 2**63], dtype=np.uint64)  # past int64
    assert distinct(top).tolist() == [0, 2**63, 2**64 - 1]


def test_a_graph_whose_file_has_a_key_live_in_two_slots_is_refused() -> None:
    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((40, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    graph = Graph(8, 8, 16, 16)
    graph.add(np.arange(1, 41, dtype=np.uint64), vecs)
    out = io.BytesIO()
    graph.write(out.write)
    assert len(Graph.read(io.BytesIO(out.getvalue()).read, 8, 8, 16, 16)) == 40
    data = bytearray(out.getvalue())
    data[16 + 8 : 16 + 16] = (1).to_bytes(8, "little")  # slot 1 keyed as slot 0 is
    with pytest.raises(ValueError, match="two slots"):
        Graph.read(io.BytesIO(bytes(data)).read, 8, 8, 16, 16)
