"""A question about the asker's own age is answered by what the asker said of their age, which shares none of the
question's other words: "I turned 41 in March" for "how old was I when my niece was born?", while the memories
about the niece resemble the question more (engram/recall/ages.py)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall import ages
from engram.recall.ages import asks_own_age, states_own_age

NOTES = (
    "My niece Priya started school this September; she is six and loves drawing horses.",
    "Priya's birthday party is at the soft play centre, I'm bringing the cake.",
    "Bought Priya a box of watercolour pencils and a sketchbook for her birthday.",
    "Work has been hectic, so I turned 41 in March without much of a party.",
    "The boiler service is booked for Tuesday morning.",
    "My sister moved to Leeds when her daughter was born.",
)
ASKED = "How old was I when my niece Priya was born?"
AGE = NOTES[3]


def test_questions_about_the_askers_age() -> None:
    for asked in (
        ASKED,
        "how old am I?",
        "How many years older am I than when I left university?",
        "At what age did I learn to swim?",
        "how old will I be when the mortgage is paid off",
        "what's my age on the form?",
    ):
        assert asks_own_age(asked), asked
    for asked in ("how old is Dad?", "How old was Priya when she started school?", "how old is the boiler?"):
        assert not asks_own_age(asked), asked


def test_first_person_ages() -> None:
    for said in (
        AGE,
        "I just turned 32 last month, so I'm still young",
        "I'm 45 years old and training for a marathon",
        "As a 28-year-old nurse I work nights",
        "I finished my degree at the age of 25.",
        "When I was 19, I moved to Glasgow.",
        "Planning my 40th birthday in a pub",
    ):
        assert states_own_age(said), said
    for said in (
        "My grandma turned 90 yesterday",
        "I'm 5 minutes away",
        "I was 2 hours late for the train",
        "Dad retired at the age of 60.",
        "She is 7 years old",
    ):
        assert not states_own_age(said), said


def _ranked(memory: Memory, asked: str) -> list[str]:
    return [h.record.content for h in memory.recall(asked, limit=6, mode="ranked", touch=False)]


def test_a_stated_age_answers_a_question_about_the_askers_age(
    notes: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    hits = notes.recall(ASKED, limit=6, mode="ranked", touch=False)
    ranked = [h.record.content for h in hits]
    assert ranked.index(AGE) < 2
    assert hits[ranked.index(AGE)].why == "age"
    # Without the step the memories about the niece, closer to the question's wording, come first.
    monkeypatch.setattr(ages, "LIFT", 0.0)
    assert _ranked(notes, ASKED).index(AGE) >= 2


def test_other_questions_are_ranked_as_before(notes: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = "how old is my niece Priya?"
    before = _ranked(notes, asked)
    monkeypatch.setattr(ages, "LIFT", 0.0)
    assert _ranked(notes, asked) == before
    assert all(h.why != "age" for h in notes.recall(asked, limit=6, mode="ranked", touch=False))
