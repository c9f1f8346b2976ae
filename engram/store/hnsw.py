"""The graph of a large vector index: faiss HNSW (inner product over unit vectors) under uint64 keys.

The graph keeps each vector as 8-bit codes (faiss's scalar quantiser, one range per dimension learnt from the
vectors it is first built from): a quarter of float32's bytes, which is what lets a million vectors fit in memory.
Its inner products are off by about 1e-3; the store scores the hits it keeps again from the float vectors in the
database, so callers see exact cosines.

faiss numbers its vectors 0, 1, 2, ... in the order they were added and cannot take one out of the graph, so a
removed or replaced key leaves its slot behind as a tombstone that searches skip (an `IDSelectorBitmap` of the
live slots); when the dead outnumber the living, the graph is built again from the live vectors.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from engram.store.scan import distinct

Vectors = npt.NDArray[np.float32]
Keys = npt.NDArray[np.uint64]

_COUNTS = struct.Struct("<QQ")  # slots, bytes of the faiss index
RANGE_SLACK = 0.1
TRAIN_MIN = 1000
EXPANSION_FLOOR = 64


class Graph:
    """Approximate nearest neighbours by inner product; the caller adds unit vectors, so it is cosine."""

    def __init__(self, dim: int, connectivity: int, expansion_add: int, expansion_search: int) -> None:
        self.dim = dim
        self._shape = (connectivity, expansion_add, expansion_search)
        self._index = self._new_index()
        # Per slot, in buffers that double when full (an add copies nothing already there): its key (a dead
        # slot keeps its last one) and a live bit, in the order faiss's bitmap reads them. `_used` slots are.
        self._keys = np.zeros(0, dtype=np.uint64)
        self._live = np.zeros(0, dtype=np.uint8)
        self._used = 0
        # Live key -> slot, as an array indexed by the key (-1: none): keys are SQLite rowids, dense from 1, and a
        # dict of Python ints costs many times the array's 4 bytes per rowid.
        self._slot = np.full(0, -1, dtype=np.int32)
        self._count = 0  # live keys
        self._params = self._search_params()

    def _new_index(self) -> Any:
        connectivity, expansion_add, _ = self._shape
        # faiss's stubs type the quantiser kind as the class, the storage as a bare Index
        eight_bit: Any = faiss.ScalarQuantizer.QT_8bit
        index = faiss.IndexHNSWSQ(self.dim, eight_bit, connectivity, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = expansion_add
        # each dimension's range is widened by a tenth on both sides, for later vectors a little outside it
        storage: Any = faiss.downcast_index(index.storage)
        storage.sq.rangestat_arg = RANGE_SLACK
        return index

    def _search_params(self) -> Any:
        """The walk's width, and the live slots as its filter once any slot has died (none: no filter)."""
        params = faiss.SearchParametersHNSW()  # type: ignore[attr-defined]  # missing from faiss's stubs
        params.efSearch = self._shape[2]
        if self._count < self._used:
            # faiss keeps a pointer to the bitmap, not a copy: the selector lives as long as these params
            self._selector = faiss.IDSelectorBitmap(self._used, faiss.swig_ptr(self._live))
            params.sel = self._selector
        return params

    def __len__(self) -> int:
        return self._count

    def __contains__(self, key: int) -> bool:
        return 0 <= key < len(self._slot) and bool(self._slot[key] >= 0)

    def contains(self, keys: Keys) -> npt.NDArray[np.bool_]:
        return self._slots_of(keys) >= 0

    def held(self, keys: Keys) -> Keys:
        """The distinct keys of `keys` the graph holds, sorted."""
        ukeys = distinct(keys)
        kept: Keys = ukeys[self.contains(ukeys)] if len(ukeys) else ukeys
        return kept

    def _slots_of(self, keys: Keys) -> npt.NDArray[np.int64]:
        """Each key's slot, -1 for a key the graph does not hold."""
        at = np.asarray(keys, dtype=np.uint64)
        inside = at < len(self._slot)
        out = np.full(len(at), -1, dtype=np.int64)
        out[inside] = self._slot[at[inside].astype(np.int64)]
        return out

    def keys(self) -> Keys:
        """The live keys, in slot order."""
        live = np.unpackbits(self._live[: (self._used + 7) // 8], bitorder="little")[: self._used]
        kept: Keys = self._keys[: self._used][live.astype(bool)]
        return kept

    def add(self, keys: Keys, vecs: Vectors) -> None:
        """Add vectors under keys the graph does not hold (the caller removes a key before replacing it)."""
        start, end = self._used, self._used + len(keys)
        vecs = np.ascontiguousarray(vecs, dtype=np.float32)
        if not self._index.is_trained:  # the first vectors set the quantiser's ranges
            # too few to show each dimension's range (a graph emptied by removals): the whole [-1, 1]
            few = len(vecs) < TRAIN_MIN
            eye = np.eye(self.dim, dtype=np.float32)
            self._index.train(np.concatenate([vecs, eye, -eye]) if few else vecs)
        self._index.add(vecs)
        if end > len(self._keys):
            size = max(1024, 2 * len(self._keys), end)
            self._keys = np.concatenate([self._keys, np.zeros(size - len(self._keys), dtype=np.uint64)])
            self._live = np.concatenate(
                [self._live, np.zeros(size // 8 + 1 - len(self._live), dtype=np.uint8)]
            )
        self._keys[start:end] = keys
        at = np.arange(start, end)
        np.bitwise_or.at(self._live, at >> 3, (1 << (at & 7)).astype(np.uint8))
        self._used = end
        self._place(keys, np.arange(start, end, dtype=np.int32))
        self._params = self._search_params()

    def _place(self, keys: Keys, slots: npt.NDArray[np.int32]) -> None:
        """Record `keys` (not held yet) at `slots`, growing the key -> slot array by doubling."""
        if not len(keys):
            return
        top = int(keys.max()) + 1
        if top > len(self._slot):
            grown = np.full(max(top, 2 * len(self._slot), 1024), -1, dtype=np.int32)
            grown[: len(self._slot)] = self._slot
            self._slot = grown
        self._slot[keys.astype(np.int64)] = slots
        self._count += len(keys)

    def remove(self, keys: Keys) -> None:
        found = self._slots_of(distinct(keys))
        at = found[found >= 0]
        if not len(at):
            return
        self._slot[self._keys[at].astype(np.int64)] = -1
        self._count -= len(at)
        np.bitwise_and.at(self._live, at >> 3, ~(1 << (at & 7)).astype(np.uint8))
        if self._used - self._count > max(self._count, 1024):
            self._compact()
        else:
            self._params = self._search_params()
            self._blank(at)

    def _blank(self, dead: npt.NDArray[np.int64]) -> None:
        """Dead slots take the codes of their nearest live vectors: a removed (forgotten) vector is no longer in
        the graph or in the file saved from it, and a walk through its slot still finds the same neighbourhood."""
        storage: Any = faiss.downcast_index(self._index.storage)
        size = int(storage.code_size)
        codes = faiss.rev_swig_ptr(storage.codes.data(), int(self._index.ntotal) * size).reshape(-1, size)
        vectors = np.stack([storage.reconstruct(int(s)) for s in dead])
        nearest = (
            self.search_many(vectors, 1) if self._count else [(np.zeros(0, np.uint64), None)] * len(dead)
        )
        for slot, (keys, _) in zip(dead.tolist(), nearest, strict=True):
            codes[slot] = codes[self._slot[int(keys[0])]] if len(keys) else 0

    def _compact(self) -> None:
        """Build the graph again from the live vectors only."""
        keys = self.keys()
        rows = self.get(keys)
        self._index, self._keys, self._live, self._used = self._new_index(), self._keys[:0], self._live[:0], 0
        self._slot, self._count = np.full(0, -1, dtype=np.int32), 0
        if len(keys):
            self.add(keys, rows)
        else:
            self._params = self._search_params()

    def search(self, q: Vectors, k: int) -> tuple[Keys, npt.NDArray[np.float32]]:
        """Up to k (keys, inner products), best first. The walk widens with k, from a floor to the search width:
        a few neighbours (the write path's duplicate check and votes) need no walk of hundreds of nodes."""
        return self.search_many(q.reshape(1, -1), k)[0]

    def search_many(self, queries: Vectors, k: int) -> list[tuple[Keys, npt.NDArray[np.float32]]]:
        """`search` for each row of `queries`, in one call: faiss walks the graph for them on every core, and
        each query's walk is the one it takes alone."""
        self._params.efSearch = max(EXPANSION_FLOOR, min(self._shape[2], 4 * k))
        sims, slots = self._index.search(np.ascontiguousarray(queries), k, params=self._params)
        found = slots >= 0
        return [(self._keys[slots[i][found[i]]], sims[i][found[i]]) for i in range(len(queries))]

    def get(self, keys: Keys) -> Vectors:
        slots = self._slots_of(keys)
        if (slots < 0).any():
            raise KeyError(int(np.asarray(keys)[slots < 0][0]))
        if not len(slots):
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._index.reconstruct_batch(slots), dtype=np.float32)

    def write(self, out: Callable[[bytes], object]) -> None:
        """Stream the graph to `out` in pieces: a second copy of a large graph in memory would double its cost."""
        used = self._used
        out(_COUNTS.pack(used, 0))
        out(self._keys[:used].astype("<u8").tobytes())
        out(self._live[: (used + 7) // 8].tobytes())
        writer = faiss.PyCallbackIOWriter(out)  # type: ignore[attr-defined]  # not in faiss's stubs
        faiss.write_index(self._index, writer)

    @classmethod
    def read(
        cls,
        read: Callable[[int], bytes],
        dim: int,
        connectivity: int,
        expansion_add: int,
        expansion_search: int,
    ) -> Graph:
        """A graph written by `write`, read in pieces; ValueError if it does not hold one of `dim` dimensions."""

        def exactly(n: int) -> bytes:
            got = read(n)
            if len(got) != n:
                raise ValueError("the graph is truncated")
            return got

        slots, _ = _COUNTS.unpack(exactly(_COUNTS.size))
        keys = np.frombuffer(exactly(8 * slots), dtype="<u8").astype(np.uint64)
        live_bits = np.frombuffer(exactly((slots + 7) // 8), dtype=np.uint8).copy()
        try:
            reader = faiss.PyCallbackIOReader(read)  # type: ignore[attr-defined]  # not in faiss's stubs
            index = faiss.read_index(reader)
        except RuntimeError as e:
            raise ValueError(f"not a faiss index: {e}") from e
        if not isinstance(index, faiss.IndexHNSWSQ) or index.d != dim or index.ntotal != slots:
            raise ValueError(f"not a {dim}-d quantised HNSW graph of {slots} vectors")
        graph = cls(dim, connectivity, expansion_add, expansion_search)
        index.hnsw.efConstruction = expansion_add
        graph._index, graph._keys, graph._live, graph._used = index, keys, live_bits, slots
        live = np.flatnonzero(np.unpackbits(live_bits, bitorder="little")[:slots])
        if len(distinct(keys[live])) != len(live):
            raise ValueError("a key is live in two slots")
        graph._place(keys[live], live.astype(np.int32))
        graph._params = graph._search_params()
        return graph
