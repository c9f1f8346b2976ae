"""search_memory's default (`min_confidence: auto`) shows a sure answer first and tops the list up to three with
the best guesses, marked low: a sure but wrong answer no longer hides the right one ranked just below it."""

from __future__ import annotations

from typing import Any

from engram.agent.search import GUESSES, confident, users_own_first


class _Record:
    def __init__(self, rid: str, content: str, metadata: dict[str, Any] | None = None) -> None:
        self.id, self.content, self.metadata = rid, content, metadata or {}


class _Hit:
    def __init__(self, rid: str, confidence: str, content: str = "", metadata: dict[str, Any] | None = None):
        self.record, self.confidence = _Record(rid, content or rid, metadata), confidence


def _ids(hits: list[Any]) -> list[str]:
    return [h.record.id for h in hits]


def test_a_sure_answer_is_topped_up_with_guesses_marked_low() -> None:
    hits = [_Hit("a", "low"), _Hit("b", "high"), _Hit("c", "low"), _Hit("d", "low")]
    shown = confident(hits, "auto")
    assert _ids(shown) == ["b", "a", "c"] and len(shown) == GUESSES
    assert [h.confidence for h in shown] == ["high", "low", "low"]


def test_enough_sure_answers_take_no_guess() -> None:
    hits = [_Hit(x, "medium") for x in "abc"] + [_Hit("d", "low")]
    assert _ids(confident(hits, "auto")) == ["a", "b", "c"]
    assert _ids(confident(hits, "medium")) == ["a", "b", "c"]


def test_an_explicit_floor_takes_no_guess() -> None:
    hits = [_Hit("a", "high"), _Hit("b", "low")]
    assert _ids(confident(hits, "medium")) == ["a"]


def test_a_guess_holding_personal_data_is_not_shown_unless_asked() -> None:
    hits = [_Hit("a", "high"), _Hit("b", "low", metadata={"pii_found": ["email"]}), _Hit("c", "low")]
    assert _ids(confident(hits, "auto")) == ["a", "c"]
    assert _ids(confident(hits, "auto", frozenset({"email"}))) == ["a", "b", "c"]


def test_the_users_own_guess_stays_below_someone_elses_sure_answer() -> None:
    hits = [
        _Hit("tom", "high", "Tom likes his coffee black"),
        _Hit("mine", "low", "I take my coffee with oat milk"),
    ]
    assert _ids(users_own_first(hits)) == ["tom", "mine"]
    same = [_Hit(h.record.id, "high", h.record.content) for h in hits]
    assert _ids(users_own_first(same)) == ["mine", "tom"]
