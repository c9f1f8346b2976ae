"""search_memory's default (`min_confidence: auto`) shows a sure answer first and tops the list up to three with
the best guesses, marked low: a sure but wrong answer no longer hides the right one ranked just below it."""

from __future__ import annotations

from typing import Any

from engram.agent.search import GUESSES, confident, users_own_first


class _Record:
    def __init__(
        self, rid: str, content: str, metadata: dict[str, Any] | None = None, parent_id: str | None = None
    ) -> None:
        self.id, self.content, self.metadata, self.parent_id = rid, content, metadata or {}, parent_id


class _Hit:
    def __init__(
        self,
        rid: str,
        confidence: str,
        content: str = "",
        metadata: dict[str, Any] | None = None,
        parent_id: str | None = None,
    ):
        self.record, self.confidence = _Record(rid, content or rid, metadata, parent_id), confidence


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


def test_a_document_passage_is_judged_by_the_personal_data_it_shows() -> None:
    # A passage carries its whole document's marks: the care plan's phone number, said in another section,
    # withheld every passage of it as a guess, the one that answers included.
    marks = {"pii_found": ["phone", "address"]}
    plain = _Hit("p5", "low", "## 5. Safety at home: the spare glasses are in the red folder", marks, "plan")
    phone = _Hit("p7", "low", "## 7. Contacts: Helping Hands on 01509 212 400", marks, "plan")
    hits = [_Hit("a", "high"), plain, phone, _Hit("c", "low")]
    assert _ids(confident(hits, "auto")) == ["a", "p5", "c"]
    assert _ids(confident(hits, "auto", frozenset({"phone"}))) == ["a", "p5", "p7"]


def test_the_users_own_guess_stays_below_someone_elses_sure_answer() -> None:
    hits = [
        _Hit("tom", "high", "Tom likes his coffee black"),
        _Hit("mine", "low", "I take my coffee with oat milk"),
    ]
    assert _ids(users_own_first(hits)) == ["tom", "mine"]
    same = [_Hit(h.record.id, "high", h.record.content) for h in hits]
    assert _ids(users_own_first(same)) == ["mine", "tom"]
