"""The vector index beside the database: approximate cosine search over SQLite rowids.

Small indexes are scanned exactly; large ones are a faiss HNSW graph (`engram.store.hnsw`), which searched
and built faster than usearch at equal recall; usearch replaces and removes keys in place, which faiss does
not, so the graph keeps tombstones and is built again when they outnumber the living. sqlite-vec only scans.
The database keeps every vector, so this file is a cache. The choices and their measurements:
docs/design/storage.md.
"""

from __future__ import annotations

import math
import os
import struct
import tempfile
import threading
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

import numkong as nk
import numpy as np
import numpy.typing as npt

from engram.errors import StoreError
from engram.model.quantized import bounds, encode, rescaled, shortlist
from engram.store import room
from engram.store.scan import pairs as _pairs
from engram.store.scan import scan as _scan
from engram.store.scan import unit as _unit

if TYPE_CHECKING:  # faiss is imported only when a graph is made: a small index never needs it
    from engram.store.hnsw import Graph

# HNSW: M=32 with a build walk of 64 built faster and recalled more than M=16 with 128; a search walk of 256
# finds nearly all of the exact top 50 and stays far cheaper than a scan.
CONNECTIVITY = 32
EXPANSION_ADD = 64
EXPANSION_SEARCH = 256
# Filtered search asks the graph for OVERSAMPLE * k / (allowed share) candidates and keeps the allowed
# ones (x2 lost more of the exact answer than x4). A graph candidate costs about as much as fetching and
# scanning HNSW_COST allowed vectors exactly, so the walk is taken only when it is cheaper than that scan.
OVERSAMPLE = 4.0
HNSW_COST = 2.0
# Up to this many vectors a numpy scan of them all is exact and faster than the graph walk above: the walk
# visits about as many nodes as a small index holds.
EXACT_MAX = 20_000
# From this many vectors the exact scan reads 8-bit codes first; below, the float rows are few enough to stay
# in cache, and reading them directly is faster.
QUANTIZED_FROM = 4096
SCAN_BLOCK = 65_536

_MAGIC = b"ENGRAMVX"
# file formats: a small index's rows, a faiss graph of 8-bit codes. Those of earlier versions (a usearch graph,
# a faiss graph of float32 vectors) are not read: the index is rebuilt from the database.
_ROWS, _GRAPH = 2, 4
_EARLIER = (1, 3)
_HEADER = struct.Struct("<8sIIQI")  # magic, format, dim, payload length, crc32 of the payload

Vectors = npt.NDArray[np.float32]
Keys = npt.NDArray[np.int64]


P = ParamSpec("P")
T = TypeVar("T")


def _guarded(method: Callable[Concatenate[VectorIndex, P], T]) -> Callable[Concatenate[VectorIndex, P], T]:
    def guarded(index: VectorIndex, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with index._guard:
            return method(index, *args, **kwargs)

    guarded.__doc__ = method.__doc__
    return guarded


class VectorIndex:
    """Cosine nearest neighbours over int64 keys (SQLite rowids, never negative)."""

    def __init__(self, dim: int) -> None:
        if dim <= 0:
            raise ValueError(f"dimension must be positive, not {dim}")
        self.dim = dim
        # While the index is small, every vector is scanned exactly and no graph is made (nor faiss imported):
        # inserting into it costs far more than appending a row. It is built when the rows outgrow EXACT_MAX.
        self._small: ExactRows | None = ExactRows(dim)
        self._graph: Graph | None = None
        # Searches and changes take turns: a search runs after the store has released the index, so another
        # thread may catch it up meanwhile, and a removal moves another vector's row.
        self._guard = threading.RLock()

    @property
    def _index(self) -> Graph:
        if self._graph is None:
            from engram.store.hnsw import Graph  # faiss: about 13 MB

            self._graph = Graph(self.dim, CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH)
        return self._graph

    def __len__(self) -> int:
        return len(self._small) if self._small is not None else len(self._index)

    @property
    def exact(self) -> bool:
        """Small enough to be scanned exactly (its rows are all it holds)."""
        return self._small is not None

    def __contains__(self, key: int) -> bool:
        return key in self._small if self._small is not None else key in self._index

    @_guarded
    def upsert(self, keys: Sequence[int], vectors: Vectors) -> None:
        """Add vectors under `keys`, replacing any vector a key already has (the last of duplicates wins)."""
        ukeys = _keys(keys)
        vecs = np.ascontiguousarray(vectors, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape != (len(ukeys), self.dim):
            raise ValueError(f"expected {len(ukeys)} vectors of dimension {self.dim}, got shape {vecs.shape}")
        if not len(ukeys):
            return
        # a key once, the last of a batch
        last = len(ukeys) - 1 - np.unique(ukeys[::-1], return_index=True)[1]
        ukeys, vecs = ukeys[last], vecs[last]
        if self._small is None:
            self._index.remove(ukeys)
            self._index.add(ukeys, _unit(vecs))
            return
        self._small.upsert(ukeys, vecs)
        if len(self._small) > EXACT_MAX:  # one build of the graph, on every core
            self._index.add(*self._small.all())
            self._small = None

    @_guarded
    def remove(self, keys: Sequence[int]) -> None:
        ukeys = _keys(keys, strict=False)
        if not len(ukeys):
            return
        if self._small is not None:
            self._small.remove(ukeys)
        else:
            self._index.remove(ukeys)

    @_guarded
    def search(self, query: Vectors, k: int, allowed: Keys | None = None) -> list[tuple[int, float]]:
        """Up to k (key, cosine similarity) pairs, best first. If `allowed` is given, only those keys;
        small allowed sets use an exact scan of their vectors (fetched from the index), large ones an
        oversampled approximate search whose results are filtered (fall back to exact if too few survive)."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape != (self.dim,):
            raise ValueError(f"expected a query of dimension {self.dim}, got shape {np.shape(query)}")
        if allowed is None:
            return self.search_many(q.reshape(1, -1), k)[0]
        size = len(self)
        if k <= 0 or size == 0:
            return []
        if self._small is not None:
            return self._small.search(q, k, _keys(allowed, strict=False))
        unit = _unit(q.reshape(1, -1))[0]
        ukeys = self._index.held(_keys(allowed, strict=False))
        if not len(ukeys):
            return []
        candidates = math.ceil(OVERSAMPLE * k * size / len(ukeys))
        if candidates * HNSW_COST < len(ukeys):
            keys, sims = self._index.search(unit, candidates)
            keep = np.isin(keys, ukeys, assume_unique=True)
            if keep.sum() >= min(k, len(ukeys)):
                return _pairs(keys[keep][:k], sims[keep][:k])
        return self._exact(q, ukeys, k)

    @_guarded
    def search_many(self, queries: Vectors, k: int) -> list[list[tuple[int, float]]]:
        """Unfiltered `search` of each row of `queries` in one pass: one product of their codes with every row's
        (a small index), or one call of the graph. Each query gets what it would alone."""
        qs = np.asarray(queries, dtype=np.float32)
        if qs.ndim != 2 or qs.shape[1] != self.dim:
            raise ValueError(f"expected queries of dimension {self.dim}, got shape {qs.shape}")
        size = len(self)
        if k <= 0 or size == 0 or not len(qs):
            return [[] for _ in qs]
        if self._small is not None:
            return self._small.search_many(qs, k)
        found = self._index.search_many(_unit(qs), k)
        # the dead can cut a few live nodes off the graph: such a query scans them all
        return [
            self._exact(q, self._index.keys(), k) if len(keys) < min(k, size) else _pairs(keys, sims)
            for q, (keys, sims) in zip(qs, found, strict=True)
        ]

    def _exact(self, q: Vectors, ukeys: npt.NDArray[np.uint64], k: int) -> list[tuple[int, float]]:
        # in blocks: every vector of a large graph decoded at once would take four times its codes' memory
        best: list[tuple[int, float]] = []
        for at in range(0, len(ukeys), SCAN_BLOCK):
            part = ukeys[at : at + SCAN_BLOCK]
            best = sorted([*best, *_scan(part, self._index.get(part), q, k)], key=lambda p: -p[1])[:k]
        return best

    @_guarded
    def save(self, path: Path) -> None:
        """Write atomically: a temporary file in the same directory, fsync, then rename over `path`. A small
        index writes its rows (keys, then float32 vectors), a large one the graph, streamed: the header's
        length and checksum are written last, over a placeholder."""
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(bytes(_HEADER.size))
                crc, length = 0, 0

                def out(chunk: bytes) -> None:
                    nonlocal crc, length
                    f.write(chunk)
                    crc, length = zlib.crc32(chunk, crc), length + len(chunk)

                if self._small is not None:
                    fmt = _ROWS
                    keys, rows = self._small.all()
                    out(len(keys).to_bytes(8, "little") + keys.astype("<u8").tobytes())
                    out(rows.astype("<f4").tobytes())
                else:
                    fmt = _GRAPH
                    self._index.write(out)
                f.seek(0)
                f.write(_HEADER.pack(_MAGIC, fmt, self.dim, length, crc))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        dir_fd = os.open(path.parent, os.O_RDONLY)  # make the rename itself durable
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    @classmethod
    def load(cls, path: Path, dim: int) -> VectorIndex:
        """Read an index written by `save`; StoreError if it is missing, damaged, of another dimension or of
        an earlier format (the caller rebuilds it from the database)."""
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size < _HEADER.size:
                    raise StoreError(f"vector index {path} is truncated")
                magic, fmt, stored_dim, length, crc = _HEADER.unpack(f.read(_HEADER.size))
                if magic != _MAGIC or fmt not in (_GRAPH, _ROWS):
                    old = " (of an earlier version)" if magic == _MAGIC and fmt in _EARLIER else ""
                    raise StoreError(f"{path} is not a vector index of a known format{old}")
                if stored_dim != dim:
                    raise StoreError(f"vector index {path} holds {stored_dim}-d vectors, expected {dim}-d")
                if length != size - _HEADER.size:
                    raise StoreError(f"vector index {path} is truncated or has trailing bytes")
                # Read in pieces, the checksum kept as they come: no copy of the whole file in memory.
                seen, read = 0, 0

                def piece(n: int) -> bytes:
                    nonlocal seen, read
                    chunk = f.read(min(n, length - read))
                    seen, read = zlib.crc32(chunk, seen), read + len(chunk)
                    return chunk

                index = cls._read(piece, fmt, path, dim)
                if read != length or f.read(1):
                    raise StoreError(f"vector index {path} has bytes its content does not account for")
                if seen != crc:
                    raise StoreError(f"vector index {path} is corrupt (checksum mismatch)")
                return index
        except OSError as e:
            raise StoreError(f"cannot read vector index {path}: {e}") from e

    @classmethod
    def _read(cls, piece: Callable[[int], bytes], fmt: int, path: Path, dim: int) -> VectorIndex:
        index = cls(dim)
        if fmt == _ROWS:
            n = int.from_bytes(piece(8), "little")
            keys_bytes, rows_bytes = piece(n * 8), piece(n * dim * 4)
            if len(keys_bytes) != n * 8 or len(rows_bytes) != n * dim * 4:
                raise StoreError(f"vector index {path} does not hold {n} {dim}-d rows")
            keys = np.frombuffer(keys_bytes, dtype="<u8").astype(np.uint64)
            rows = np.frombuffer(rows_bytes, dtype="<f4").reshape(n, dim).astype(np.float32)
            small = ExactRows(dim)
            small.upsert(keys, rows, unit=True)  # as written: normalising again would move the last bits
            index._small = small
            return index
        from engram.store.hnsw import Graph  # faiss, which a file of rows does not need

        try:
            index._graph = Graph.read(piece, dim, CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH)
        except (RuntimeError, ValueError) as e:
            raise StoreError(f"vector index {path} cannot be loaded: {e}") from e
        if len(index._index) <= EXACT_MAX and len(index._index):
            # removals (or a larger EXACT_MAX) brought the graph under the limit: its codes are not the vectors
            # an exact scan needs, so the store reads them from the database again
            raise StoreError(
                f"vector index {path} is a graph small enough to scan: rebuilt from the database"
            )
        index._small = None
        return index


class ExactRows:
    """A small index's vectors in one numpy matrix (unit rows) with their keys, searched by a full scan.
    Rows live in buffers with room for EXACT_MAX rows (`engram.store.room`); a removed row takes the last one's
    place. Each row also has int8 codes: the scan reads those (a quarter of the bytes; the rows are cold by the
    time a query comes, so reading them is most of a scan) and scores at full precision only the rows that can
    be among the best k (`engram.model.quantized`), so its answer is the exact one."""

    def __init__(self, dim: int) -> None:
        self._keys = np.zeros(0, dtype=np.uint64)
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._codes = np.zeros((0, dim), dtype=np.int8)
        self._scales = np.zeros(0, dtype=np.float32)
        self._l1 = np.zeros(0, dtype=np.float32)
        self._row: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, key: int) -> bool:
        return key in self._row

    def all(self) -> tuple[npt.NDArray[np.uint64], Vectors]:
        n = len(self._row)
        return self._keys[:n].copy(), self._matrix[:n].copy()

    def upsert(self, ukeys: npt.NDArray[np.uint64], vecs: Vectors, *, unit: bool = False) -> None:
        if not unit:
            vecs = _unit(vecs)
        rows = []
        for key in ukeys.tolist():
            row = self._row.get(key)
            if row is None:
                row = self._row[key] = len(self._row)
            rows.append(row)
        if len(self._row) > len(self._keys):
            # Room for every row an exact index holds, taking memory as rows fill it: growth copies nothing.
            self._grow(max(EXACT_MAX, len(self._row)))
        at, encoded = np.array(rows, dtype=np.intp), encode(vecs)
        self._keys[at], self._matrix[at], self._codes[at] = ukeys, vecs, encoded.codes
        self._scales[at], self._l1[at] = encoded.scales, encoded.l1

    def _grow(self, size: int) -> None:
        for name in ("_keys", "_matrix", "_codes", "_scales", "_l1"):
            setattr(self, name, room.grown(getattr(self, name), size))

    def remove(self, ukeys: npt.NDArray[np.uint64]) -> None:
        for key in ukeys.tolist():
            row = self._row.pop(key, None)
            if row is None:
                continue
            last = len(self._row)  # the last filled row, now that one key is gone
            if row != last:
                moved = int(self._keys[last])
                for arr in (self._keys, self._matrix, self._codes, self._scales, self._l1):
                    arr[row] = arr[last]
                self._row[moved] = row

    def search(self, q: Vectors, k: int, allowed: npt.NDArray[np.uint64] | None) -> list[tuple[int, float]]:
        if allowed is None:
            return self.search_many(q.reshape(1, -1), k)[0]
        rows = np.flatnonzero(np.isin(self._keys[: len(self._row)], allowed))
        if len(rows) < max(k + 1, QUANTIZED_FROM):
            return _scan(self._keys[rows], self._matrix[rows], q, k) if len(rows) else []
        return self._shortlisted(q.reshape(1, -1), k, rows)[0]

    def search_many(self, qs: Vectors, k: int) -> list[list[tuple[int, float]]]:
        """`search` (unfiltered) for each row of `qs`: past QUANTIZED_FROM rows, the codes of all the queries
        meet every row's in one product (of integers: each query's are those it gets alone)."""
        n = len(self._row)
        if n < max(k + 1, QUANTIZED_FROM):
            return [_scan(self._keys[:n], self._matrix[:n], q, k) if n else [] for q in qs]
        return self._shortlisted(qs, k, None)

    def _shortlisted(
        self, qs: Vectors, k: int, rows: npt.NDArray[np.intp] | None
    ) -> list[list[tuple[int, float]]]:
        """The best k of `rows` (None: all) for each query: the rows its codes' products can place there, scored
        again at full precision."""
        n = len(self._row)
        norms = [float(np.linalg.norm(q)) for q in qs]
        mine = encode(np.stack([q / norm if norm > 0 else q for q, norm in zip(qs, norms, strict=True)]))
        codes = self._codes[:n] if rows is None else self._codes[rows]
        scales, l1 = (
            (self._scales[:n], self._l1[:n]) if rows is None else (self._scales[rows], self._l1[rows])
        )
        approx = rescaled(np.asarray(nk.cdist(mine.codes, codes, metric="dot")), mine, scales)
        reach = bounds(mine, scales, l1, qs.shape[1])
        found = []
        for i, q in enumerate(qs):
            kept = shortlist(approx[i], reach[i], k)
            kept = kept if rows is None else rows[kept]
            found.append(_scan(self._keys[kept], self._matrix[kept], q, k))
        return found


def _keys(keys: Sequence[int] | Keys, strict: bool = True) -> npt.NDArray[np.uint64]:
    arr = np.asarray(keys, dtype=np.int64).reshape(-1)
    if strict and len(arr) and int(arr.min()) < 0:
        raise ValueError("keys must be non-negative rowids")
    return arr[arr >= 0].astype(np.uint64)
