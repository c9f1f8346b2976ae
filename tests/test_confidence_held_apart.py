"""The calibrator's held-apart measures (bench/confidence_fit.py `held_apart`): fitted on some stores, measured on
the others, so that a signal is kept for how it separates answers from guesses on questions it was not fitted on."""

from __future__ import annotations

from typing import Any

import numpy as np

from bench import confidence_fit


def _question(
    store: int, n: int, answerable: bool, telling: bool, rng: np.random.Generator
) -> dict[str, Any]:
    """Ten hits of one question asked of store `store`; an answerable question's first hit is its answer. With
    `telling`, an answer matches better than a guess; else every hit's match is drawn alike."""
    hits = []
    for rank in range(10):
        right = answerable and rank == 0
        level = 0.65 if right and telling else 0.3
        cosine, coverage = (float(np.clip(level + rng.normal(0, 0.12), 0, 1)) for _ in range(2))
        hits.append(
            {"right": right, "cosine": cosine, "coverage": coverage, "lead": 0.0, "lexical": coverage}
        )
    qid = f"conv-{store}/{n}" if answerable else f"conv-{store + 1}/{n}@conv-{store}"
    return {"qid": qid, "dataset": "locomo", "answerable": answerable, "hits": hits}


def _questions(telling: bool) -> list[dict[str, Any]]:
    rng = np.random.default_rng(11)
    return [
        _question(store, n, answerable, telling, rng)
        for store in range(10)
        for answerable in (True, False)
        for n in range(30)
    ]


def test_signals_that_tell_answers_from_guesses_separate_them_on_stores_held_apart() -> None:
    found = confidence_fit.held_apart(_questions(telling=True))["locomo"]
    assert found["auc"] > 0.95
    assert found["first_right_above_low"] > 0.8
    assert found["unanswerable_above_low"] < 0.2


def test_signals_that_tell_nothing_separate_nothing() -> None:
    # No better than chance: an answer's one hit against the best of a guess's ten drawn alike.
    assert confidence_fit.held_apart(_questions(telling=False))["locomo"]["auc"] < 0.5


def test_a_store_is_held_apart_whole() -> None:
    # A question asked of a store and one asked of it from another conversation fall in the same part.
    own = {"qid": "conv-3/4", "dataset": "locomo"}
    other = {"qid": "conv-8/1@conv-3", "dataset": "locomo"}
    assert confidence_fit._store(own) == confidence_fit._store(other) == "conv-3"
    assert confidence_fit._store({"qid": "q9_abs", "dataset": "longmemeval"}) == "q9"


def test_a_signal_the_calibrator_does_not_read_can_be_measured_held_apart() -> None:
    # `--signals`: any component a hit keeps (here "vector", telling where the fitted ones are noise).
    questions = _questions(telling=False)
    rng = np.random.default_rng(3)
    for q in questions:
        for hit in q["hits"]:
            hit["vector"] = float((0.7 if hit["right"] else 0.3) + rng.normal(0, 0.1))
    assert confidence_fit.held_apart(questions, names=("cosine", "vector"))["locomo"]["auc"] > 0.95
    assert confidence_fit.held_apart(questions)["locomo"]["auc"] < 0.5
