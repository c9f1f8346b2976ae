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


def unit(vecs: Vectors) -> Vectors:
    """Rows scaled to length 1 (zero rows stay zero): the graph ranks by inner product."""
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return np.ascontiguousarray(vecs / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def pairs(keys: npt.NDArray[np.uint64], sims: npt.NDArray[np.floating[Any]]) -> list[tuple[int, float]]:
    clipped = np.clip(sims.astype(np.float64), -1.0, 1.0)
    return [(int(key), float(sim)) for key, sim in zip(keys.tolist(), clipped.tolist(), strict=True)]
