"""A turn of a dialogue takes a share of the score of the other speaker's turn beside it, one exchange; a log of
one speaker's notes is left alone (engram/recall/exchanges.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.model.results import Scored
from engram.recall import exchanges
from engram.recall.exchanges import exchanged
from engram.store.values import Facts

WHEN = datetime(2024, 5, 1, tzinfo=UTC)


def _turn(memory_id: str, text: str, episode: str | None = "chat") -> Facts:
    return Facts(memory_id, text, 0.5, WHEN, WHEN, None, 0, 1.0, False, episode=episode)


def _order(scored: list[Scored[Facts]]) -> list[str]:
    return [s.record.id for s in scored]


def test_the_other_half_of_an_exchange_rises() -> None:
    scored = [
        Scored(_turn("asked", "Melanie: How did the support group go?"), 0.8),
        Scored(_turn("elsewhere", "Melanie: The group hike was long."), 0.5),
        Scored(_turn("answer", "Caroline: It was powerful, I felt at home."), 0.45),
    ]
    beside = {"asked": ["answer"], "answer": ["asked"]}
    out = exchanged(scored, beside)
    assert _order(out) == ["asked", "answer", "elsewhere"]
    assert out[1].score == pytest.approx(0.45 + exchanges.SHARE * 0.8)
    assert out[0].score == pytest.approx(0.8 + exchanges.SHARE * 0.45)


def test_one_speaker_or_none_is_left_alone() -> None:
    same = [
        Scored(_turn("a", "Sam: booked the dentist"), 0.8),
        Scored(_turn("b", "Sam: bought milk"), 0.5),
        Scored(_turn("c", "Sam: the car needs a service"), 0.45),
    ]
    unlabelled = [Scored(_turn(s.record.id, s.record.content[5:]), s.score) for s in same]
    beside = {"a": ["c"], "c": ["a"]}
    for scored in (same, unlabelled):
        out = exchanged(scored, beside)
        assert [(s.record.id, s.score) for s in out] == [(s.record.id, s.score) for s in scored]
