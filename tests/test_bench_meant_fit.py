"""bench.meant_fit replays the rule for a memory the question clearly means over recorded hits: a lifted hit
counts as a gained answer only when it becomes the first sure answer and is right, and as a lifted unanswerable
question only when that question had no sure answer before."""

from __future__ import annotations

from typing import Any

from bench.meant_fit import _halves, outcomes


def _hit(
    key: str, cosine: float, coverage: float, lead: float, base: str = "low", may: bool = True
) -> dict[str, Any]:
    return {"key": key, "cosine": cosine, "coverage": coverage, "lead": lead, "base": base, "may": may}


QUESTIONS = [
    # a paraphrase: first by cosine, no shared word; lifted, right
    {"answers": ["a"], "hits": [_hit("a", 0.5, 0.0, 0.15), _hit("b", 0.35, 0.2, -0.15)]},
    # a near miss of a question nothing answers: the shared words discount its cosine below the floor
    {"answers": [], "hits": [_hit("c", 0.46, 0.31, 0.16)]},
    # lowered by a rule of what is asked (may: false): never lifted
    {"answers": [], "hits": [_hit("d", 0.7, 0.0, 0.3, may=False)]},
    # already sure and right: nothing to gain
    {"answers": ["e"], "hits": [_hit("e", 0.6, 0.8, 0.2, base="medium")]},
]


def test_the_discount_tells_a_paraphrase_from_a_near_miss() -> None:
    assert outcomes(QUESTIONS, (0.3, 0.44, 0.1)) == [(True, 1), (False, 0), (False, 0), (True, 0)]
    # Without the discount the near miss is lifted too.
    assert outcomes(QUESTIONS, (0.0, 0.44, 0.1)) == [(True, 1), (False, 1), (False, 0), (True, 0)]


def test_a_wrong_hit_lifted_before_the_right_one_loses_the_answer() -> None:
    question = {
        "answers": ["b"],
        "hits": [_hit("a", 0.5, 0.0, 0.15), _hit("b", 0.4, 0.9, -0.15, base="medium")],
    }
    assert outcomes([question], (0.3, 0.44, 0.1)) == [(True, -1)]


def test_halves_choose_only_settings_lifting_no_unanswerable_question() -> None:
    grid = [(0.0, 0.44, 0.1), (0.3, 0.44, 0.1)]
    table = {g: outcomes(QUESTIONS * 5, g) for g in grid}
    chosen, _, lifted = _halves(table, grid, splits=10, seed=1)
    assert set(chosen) == {(0.3, 0.44, 0.1)} and lifted == 0.0
