"""The user-level benchmark's confidence separation (bench/userlevel.py `separation`): how well the match
strength behind confidence tells the answers from the guesses, whatever its bands."""

from __future__ import annotations

from typing import Any, cast

from bench.userlevel import Bench, separation


class _Found:
    """A bench whose ranked recall returns fixed memories with fixed strengths per question."""

    def __init__(self, found: dict[str, list[tuple[str, float]]]) -> None:
        self.found = found

    def strengths(self, question: str) -> list[tuple[str, float]]:
        return self.found[question]


QUESTIONS: list[dict[str, Any]] = [
    {"q": "answered", "answers": ["m1"]},
    {"q": "answered too", "answers": ["m2"]},
    {"q": "missed", "answers": ["m3"]},  # its first hit is wrong: neither an answer nor a guess
    {"q": "nothing answers", "answers": []},
]


def _separation(strengths: dict[str, list[tuple[str, float]]]) -> float | None:
    return separation(cast(Bench, _Found(strengths)), QUESTIONS)


def test_answers_above_every_guess_separate_fully_and_below_not_at_all() -> None:
    guess = [("m9", 0.1), ("m8", 0.5)]  # a guess counts by its best hit
    found = {"answered": [("m1", 0.6)], "answered too": [("m2", 0.7)], "missed": [("m9", 0.9)]}
    assert _separation({**found, "nothing answers": guess}) == 1.0
    assert _separation({**found, "nothing answers": [*guess, ("m7", 0.65)]}) == 0.5
    assert _separation({**found, "nothing answers": [("m7", 0.95)]}) == 0.0


def test_no_guess_or_no_answer_measures_nothing() -> None:
    found = {"answered": [], "answered too": [("m5", 0.7)], "missed": [("m9", 0.9)], "nothing answers": []}
    assert _separation(found) is None  # no answerable question found its answer first
