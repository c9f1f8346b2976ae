"""The confidence calibrator: a logistic regression over how a memory matches what was asked, fitted on labelled
questions (bench/confidence_fit.py), its bands read from the questions nothing answers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from bench import confidence_fit
from engram.recall import calibrated
from engram.recall.confidence import HIGH, MEDIUM, confidence_of, features, strength


def test_the_shipped_calibrator_is_the_one_the_script_fits() -> None:
    assert calibrated.FEATURES == confidence_fit.FEATURES
    assert len(calibrated.WEIGHTS) == len(calibrated.FEATURES)
    assert 0 < MEDIUM < HIGH < 1


@pytest.mark.parametrize("signal", calibrated.FEATURES)
def test_a_better_match_is_never_less_sure(signal: str) -> None:
    weak = {"cosine": 0.3, "coverage": 0.3, "lead": 0.0, "lexical": 0.3}
    assert strength({**weak, signal: weak[signal] + 0.2}) > strength(weak)


def test_only_the_match_counts_and_an_unknown_match_is_low() -> None:
    match = {"cosine": 0.6, "coverage": 0.7, "lead": 0.1, "lexical": 0.8}
    priors = {"importance": 1.0, "recency": 1.0, "usage": 1.0, "episode": 1.0, "time": 1.0, "score": 2.0}
    assert strength({**match, **priors}) == strength(match)
    assert strength({}) == 0.0 and confidence_of({}) == "low"
    # A lead or lag past the clip says no more than the clip.
    assert features({**match, "lead": 0.9})[calibrated.FEATURES.index("lead")] == pytest.approx(0.3)


def _question(dataset: str, answerable: bool, rng: np.random.Generator) -> dict[str, Any]:
    """Ten hits; an answerable question's first is its answer, matching better than the rest."""
    hits = []
    for rank in range(10):
        right = answerable and rank == 0
        level = 0.65 if right else 0.3
        cosine, coverage = (float(np.clip(level + rng.normal(0, 0.12), 0, 1)) for _ in range(2))
        hits.append(
            {"right": right, "cosine": cosine, "coverage": coverage, "lead": 0.0, "lexical": coverage}
        )
    return {"qid": f"{dataset}/{answerable}", "dataset": dataset, "answerable": answerable, "hits": hits}


def test_the_fit_learns_what_tells_an_answer_and_its_medium_band_keeps_9_in_10_guesses_low() -> None:
    rng = np.random.default_rng(7)
    questions = [_question(d, a, rng) for d in ("one", "two") for a in (True, False) for _ in range(150)]
    fitted = confidence_fit.fit(questions)
    named = dict(zip(confidence_fit.FEATURES, fitted.weights, strict=True))
    assert named["cosine"] > 0 and named["coverage"] + named["lexical"] > 0
    assert 0 < fitted.medium < fitted.high <= 1
    for dataset, found in confidence_fit.measured(questions, fitted).items():
        # The band holds on each dataset: at most 1 in 10 questions nothing answers has a hit above low.
        assert found["unanswerable_above_low"] <= 1 - confidence_fit.MEDIUM_KEEPS + 1e-9, dataset
        assert found["first_right_above_low"] > 0.8, dataset  # and the answers clear it
