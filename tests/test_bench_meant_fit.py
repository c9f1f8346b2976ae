"""bench.meant_fit replays the rule for a memory the question clearly means over recorded hits: a lifted hit
counts as a gained answer only when it becomes the first sure answer and is right, and as a lifted unanswerable
question only when that question had no sure answer before."""

from __future__ import annotations

from typing import Any

from bench.meant_fit import _halves, across_sets, outcomes, separation


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


def test_across_sets_each_set_is_measured_with_a_setting_chosen_on_the_others() -> None:
    near = {"answers": [], "hits": [_hit("c", 0.46, 0.31, 0.16)]}  # lifted unless discounted
    paraphrase = {
        "answers": ["a"],
        "hits": [_hit("a", 0.42, 0.0, 0.15)],
    }  # lifted only below the shipped floor
    collected = {"dev": [near, paraphrase], "errands": [paraphrase], "translator": [near, paraphrase]}
    found = across_sets(collected)
    # Chosen on errands alone, any setting that lifts the paraphrase will do; on dev, none that lifts the near miss.
    assert found["by_set"]["dev"]["gained"] == 1 and found["by_set"]["dev"]["lifted"] == 1
    assert found["by_set"]["errands"]["gained"] == 1 and found["by_set"]["errands"]["lifted"] == 0
    kept_apart = found["by_set"]["translator"]
    assert kept_apart["setting"] == found["chosen_on_all"] and kept_apart["lifted"] == 0
    assert kept_apart["gained"] == 1


def test_separation_reads_the_first_hit_of_questions_with_nothing_sure() -> None:
    def row(key: str, cosine: float, lead: float) -> dict[str, Any]:
        extra = {"lexical": 0.5, "score": cosine, "first_by_words": True}
        return _hit(key, cosine, 0.2, lead) | extra

    collected = {
        "dev": [
            {"answers": ["a"], "hits": [row("a", 0.5, 0.2), row("x", 0.3, -0.2)]},
            {"answers": [], "hits": [row("b", 0.4, 0.05)]},
            {"answers": ["e"], "hits": [row("e", 0.6, 0.2) | {"base": "medium"}]},
        ]
    }
    found = separation(collected)
    assert found["questions"] == {"dev": 2} and found["right_first"] == {"dev": 1}
    assert found["auc"]["lead"]["all"] == 1.0 and found["auc"]["agree"]["all"] == 0.5
