"""Retrieval metrics over a ranked list of unit ids and a set of relevant (evidence) ids.

Relevance is binary. A ranked list is read best first; a repeated id counts once, at its first position.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence


def _top(ranked: Sequence[str], k: int) -> list[str]:
    if k <= 0:
        raise ValueError(f"k must be positive, not {k}")
    return list(dict.fromkeys(ranked))[:k]


def _relevant(relevant: Collection[str]) -> set[str]:
    out = set(relevant)
    if not out:
        raise ValueError("a query needs at least one relevant unit")
    return out


def recall_at_k(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Fraction of the relevant units found in the top k."""
    wanted = _relevant(relevant)
    return len(wanted.intersection(_top(ranked, k))) / len(wanted)


def recall_any_at_k(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1.0 when at least one relevant unit is in the top k, else 0.0."""
    wanted = _relevant(relevant)
    return 1.0 if wanted.intersection(_top(ranked, k)) else 0.0


def recall_all_at_k(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1.0 when every relevant unit is in the top k, else 0.0."""
    wanted = _relevant(relevant)
    return 1.0 if wanted.issubset(_top(ranked, k)) else 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Normalised discounted cumulative gain, binary gains, discount 1 / log2(rank + 1) with ranks from 1."""
    wanted = _relevant(relevant)
    dcg = sum(1.0 / math.log2(i + 2) for i, unit in enumerate(_top(ranked, k)) if unit in wanted)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(wanted))))
    return dcg / ideal
