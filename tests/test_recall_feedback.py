"""Pseudo-relevance feedback on words: what the best-matching candidates say besides the question's words lifts
the candidates that say it too; the lift is kept apart, so the mode thresholds judge a score without it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.config import Settings
from engram.recall.feedback import term_feedback
from engram.recall.scoring import Candidate, Decay, as_asked, score
from engram.store.values import Facts

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PROFILE = Settings().profiles["timeless"]


def _facts(i: int, content: str) -> Facts:
    return Facts(f"m{i}", content, 0.5, NOW, NOW, None, 0, 1.0, False)


def _scored(texts: list[tuple[str, float, float]], asked: dict[str, float]) -> list:  # type: ignore[type-arg]
    candidates = [Candidate(_facts(i, t), cosine, bm25) for i, (t, cosine, bm25) in enumerate(texts)]
    return score(candidates, asked, PROFILE, Decay(), NOW)


TEXTS = [
    # The two best matches of "what did Mel paint" say "sunrise" and "lake" besides it.
    ("Mel painted a sunrise over the lake last week", 0.8, 3.0),
    ("Mel: my painting of the lake at sunrise is finished", 0.75, 2.5),
    # Equal to each other by their own match; only the first says what the best matches say.
    ("Mel: that sunrise over the lake was stunning", 0.4, 0.0),
    ("Mel: the dentist appointment moved to Thursday", 0.4, 0.0),
    ("Mel: groceries are on the counter", 0.1, 0.0),
]


def test_a_candidate_saying_the_best_matches_words_is_lifted_over_an_equal_one() -> None:
    asked = {"mel": 0.5, "paint": 2.0}
    before = _scored(TEXTS, asked)
    by_id = {s.record.id: s for s in before}
    assert by_id["m2"].score == pytest.approx(by_id["m3"].score)  # equal before feedback
    after = term_feedback(before, list(asked), PROFILE, docs=2)
    order = [s.record.id for s in after]
    assert order.index("m2") < order.index("m3")
    lifted = {s.record.id: s for s in after}
    assert lifted["m2"].components["terms"] > 0
    assert lifted["m3"].components["terms"] == 0  # says none of the feedback words
    assert lifted["m2"].score == pytest.approx(by_id["m2"].score + lifted["m2"].components["terms"])
    # The thresholds judge the score as the query was asked: without the words' lift.
    assert as_asked(lifted["m2"], PROFILE) == pytest.approx(as_asked(by_id["m2"], PROFILE))


def test_the_question_s_own_words_and_words_every_candidate_says_are_no_feedback() -> None:
    asked = {"mel": 0.5, "paint": 2.0}
    after = {s.record.id: s for s in term_feedback(_scored(TEXTS, asked), list(asked), PROFILE, docs=2)}
    # "Mel" is in every candidate and in the question: the groceries note shares nothing else with the best.
    assert after["m4"].components["terms"] == 0


def test_no_feedback_without_documents_or_lexical_weight() -> None:
    asked = {"mel": 0.5, "paint": 2.0}
    before = _scored(TEXTS, asked)
    assert [s.score for s in term_feedback(before, list(asked), PROFILE, docs=0)] == [s.score for s in before]
    semantic = Settings().profiles["semantic"]
    assert term_feedback(before, list(asked), semantic, docs=3) == before
