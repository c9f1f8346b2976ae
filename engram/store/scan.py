"""An exact scan of unit rows for the closest to a query, and the (key, cosine) pairs a vector search answers."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


def scan(keys: npt.NDArray[np.uint64], rows: Vectors, q: Vectors, k: int) -> list[tuple[int, float]]:
    """The k rows closest to q, best first, by an exact scan; rows are unit length, so dot = cosine."""
    norm = float(np.linalg.norm(q))
    scores = rows @ (q / norm if norm > 0 else q)
    top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    top = top[np.argsort(-scores[top], kind="stable")]
    return pairs(keys[top], scores[top])


def distinct(keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The keys sorted, each once, as `np.unique` answers: by a sort, as numpy 2.4's `np.unique` of integers
    goes through a hash table many times slower than sorting a large array (a graph's every key on load)."""
    ordered = np.sort(np.asarray(keys, dtype=np.uint64))
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    kept: npt.NDArray[np.uint64] = ordered[first]
    return kept


def unit(vecs: Vectors) -> Vectors:
    """Rows scaled to length 1 (zero rows stay zero): the graph ranks by inner product."""
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return np.ascontiguousarray(vecs / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def pairs(keys: npt.NDArray[np.uint64], sims: npt.NDArray[np.floating[Any]]) -> list[tuple[int, float]]:
    clipped = np.clip(sims.astype(np.float64), -1.0, 1.0)
    return [(int(key), float(sim)) for key, sim in zip(keys.tolist(), clipped.tolist(), strict=True)]
