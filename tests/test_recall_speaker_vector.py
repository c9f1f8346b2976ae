"""A question about a speaker of a conversation is compared with what was said, not with whose name opens a turn:
every turn of "Melanie: ..." holds her name, so embedded with the question it made her short small talk and the
other speaker's greetings to her resemble the question more than her answer does (engram/recall/speakers.py,
`as_said`)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from engram import Memory, NewMemory
from engram.recall import candidates
from engram.recall.speakers import as_said, spoken_names, without_names

TURNS = (
    "Caroline: Hey Melanie, how have you been? Anything new?",
    "Melanie: I love it, thanks so much!",
    "Caroline: That's great to hear. How do you unwind after a long week?",
    "Melanie: Pottery class on Fridays; shaping clay calms me down like nothing else.",
    "Caroline: I went to a support group meeting yesterday, it was really inspiring.",
    "Melanie: Good for you, Caroline!",
)
ASKED = "What does Melanie do to relax?"


def test_the_names_a_question_asks_of_speakers() -> None:
    assert without_names("What is Caroline's identity?", ["caroline"]) == "What is identity?"
    assert without_names("Did Carolines or Caroline say it?", ["caroline"]) == "Did Carolines or say it?"
    assert spoken_names(["Melanie: hi", "Caroline: I saw Bob"], ["melanie", "bob"]) == ("melanie",)
    assert spoken_names(["Note: Melanie called"], ["melanie"]) == ()
    # A heading of a few lines among many is a topic, not a speaker.
    listed = ["Tokyo: two nights in Shinjuku", *(f"line {i} of the trip" for i in range(9))]
    assert spoken_names(listed, ["tokyo"]) == ()
    assert spoken_names(listed[:4], ["tokyo"]) == ("tokyo",)


def test_the_vector_keeps_a_share_of_the_question_as_asked() -> None:
    nameless = np.array([1.0, 0.0], dtype=np.float32)
    asked = np.array([0.0, 1.0], dtype=np.float32)
    mixed = as_said(nameless, asked)
    assert mixed.dtype == np.float32
    assert np.isclose(np.linalg.norm(mixed), 1.0)
    assert mixed[0] > mixed[1] > 0


def _ranked(memory: Memory) -> list[int]:
    return [TURNS.index(h.record.content) for h in memory.recall(ASKED, limit=6, mode="ranked", touch=False)]


def test_the_speakers_answer_outranks_a_greeting_that_names_her(
    real: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    when = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    real.remember_many(
        [
            NewMemory(content=t, created_at=when, episode_id="chat", sequence_number=i)
            for i, t in enumerate(TURNS)
        ]
    )
    answer, greeting = 3, 0
    ranked = _ranked(real)
    assert ranked.index(answer) < ranked.index(greeting)
    # Embedded with her name, the question is nearer the greeting that says it.
    monkeypatch.setattr(candidates, "spoken_names", lambda texts, names: ())
    ranked = _ranked(real)
    assert ranked.index(answer) > ranked.index(greeting)
