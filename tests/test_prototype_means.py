"""A label's prototype score is the mean of its `top` best cosines, or of all it has when it has fewer; the scorer
keeps what it can of that per set (the divisors, whether any label is short of `top`), so learning must renew it."""

from __future__ import annotations

import numpy as np
import pytest

from engram.classify.prototypes import PrototypeSet
from engram.store.values import Prototype

DIM = 16


def _vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _expected(items: list[Prototype], query: np.ndarray, top: int) -> dict[str, float]:
    """Each label's mean of its `top` best cosines, in float64, clipped at 0 as the scorer clips."""
    out: dict[str, float] = {}
    for label in dict.fromkeys(p.label for p in items):
        sims = sorted((float(np.dot(p.vector, query)) for p in items if p.label == label), reverse=True)
        out[label] = max(0.0, sum(sims[:top]) / len(sims[:top]))
    return out


@pytest.mark.parametrize("sizes", [{"a": 6, "b": 5, "c": 7}, {"a": 6, "b": 2, "c": 1}])
def test_scores_are_the_mean_of_each_labels_best_including_labels_short_of_top(sizes: dict[str, int]) -> None:
    rng = np.random.default_rng(7)
    items = [Prototype(label, "seed", v) for label, n in sizes.items() for v in _vectors(rng, n)]
    protos = PrototypeSet(items, DIM)
    for query in _vectors(rng, 20):
        got = protos.scores(query, ["a", "b", "c"], top=5)
        assert got == pytest.approx(_expected(items, query, 5), abs=1e-6)


def test_learning_into_a_label_short_of_top_renews_what_the_scorer_kept() -> None:
    rng = np.random.default_rng(11)
    items = [Prototype("a", "seed", v) for v in _vectors(rng, 6)] + [
        Prototype("b", "seed", _vectors(rng, 1)[0])
    ]
    protos = PrototypeSet(items, DIM)
    queries = _vectors(rng, 10)
    for query in queries:  # scored once with "b" short of top: what the scorer keeps is built here
        protos.scores(query, ["a", "b"], top=5)
    learned = [Prototype("b", "learned", v) for v in _vectors(rng, 5)]
    for item in learned:
        protos.learn(item, keep=10)
        for query in queries:
            got = protos.scores(query, ["a", "b"], top=5)
            assert got == pytest.approx(_expected(protos.items, query, 5), abs=1e-6)
    # and with every label at top or more, a label's score is the mean of exactly its five best
    query = queries[0]
    assert protos.scores(query, ["b"], top=5)["b"] == pytest.approx(
        _expected(protos.items, query, 5)["b"], abs=1e-6
    )
