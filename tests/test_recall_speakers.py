"""A question about a person weighs the turns that person says: in a conversation stored turn by turn
("Caroline: ..."), her own turns answer "what does Caroline do", while the other speaker's turns say her name
(engram/recall/speakers.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory, NewMemory
from engram.recall import speakers
from engram.recall.speakers import speaker

TURNS = (
    "Melanie: Caroline, I went to the hiking trail by the lake again, lovely weekend outdoors.",
    "Caroline: Sounds lovely. Lately I spend my weekends at the pottery studio making bowls and vases.",
    "Melanie: Caroline, my weekends are all about the kids and hiking these days.",
    "Caroline: I also volunteer at the youth centre on Thursday evenings.",
    "Melanie: Thanks Caroline! I took the kids camping at the beach last month.",
)
ASKED = "What does Caroline do on weekends?"


@pytest.fixture
def conversation(real: Memory) -> Memory:
    when = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    real.remember_many(
        [
            NewMemory(content=t, created_at=when, episode_id="chat", sequence_number=i)
            for i, t in enumerate(TURNS)
        ]
    )
    return real


def _ranked(memory: Memory, asked: str) -> list[str]:
    return [h.record.content for h in memory.recall(asked, limit=5, mode="ranked", touch=False)]


def test_speakers() -> None:
    assert speaker("Joanna: Absolutely, see you then") == "joanna"
    assert speaker("Dr Patel: take two a day") == "dr patel"
    assert speaker("the plan: move to Postgres") is None
    assert speaker("Meeting at 10:30 with Sam") is None
    assert speaker("Caroline said she paints") is None


def test_the_person_asked_about_says_the_answer(
    conversation: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    own, addressed = TURNS[1], TURNS[2]
    ranked = _ranked(conversation, ASKED)
    assert ranked.index(own) < ranked.index(addressed)
    # Without the step the turn that says her name and the question's word comes first.
    monkeypatch.setattr(speakers, "LIFT", 0.0)
    ranked = _ranked(conversation, ASKED)
    assert ranked.index(own) > ranked.index(addressed)


def test_a_question_naming_nobody_is_ranked_as_before(
    conversation: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = "what happens on weekends?"
    before = _ranked(conversation, asked)
    monkeypatch.setattr(speakers, "LIFT", 0.0)
    assert _ranked(conversation, asked) == before
