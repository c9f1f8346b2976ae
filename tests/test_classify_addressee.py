"""A statement whose subject is the speaker tells of the speaker: the category of instructions to the assistant is
weighed by how seldom its seeds open that way, so a user's own habit no longer reads as an instruction because,
read without its subject, it opens like one ("I don't reply to texts after 10pm" -> "don't reply ...")."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.classify.addressee import ADDRESSED, addressed_share, speaker_opens, told_by_speaker
from engram.classify.prototypes import Decision
from engram.classify.taxonomy import load_taxonomy


@pytest.mark.parametrize(
    "text",
    [
        "I never work late.",
        "I\u2019ve moved.",
        "i'm fine",
        "Our flat is small.",
        "We ship on Tuesdays.",
        "Ich lese.",
        "Wir kochen selbst.",
        "Mein Hund bellt.",
        "我每天跑步。",
        "我们周五开会。",
        "  My rule: no screens.",
    ],
)
def test_the_speaker_as_subject_is_read(text: str) -> None:
    assert speaker_opens(text)


@pytest.mark.parametrize(
    "text",
    [
        "Never share my contact details.",
        "Reply to me in German.",
        "Iris runs the shop.",
        "Itinerary: Rome.",
        "Mine is the blue one.",
        "They moved.",
        "Antworte mir auf Deutsch.",
        "",
    ],
)
def test_other_openings_are_not(text: str) -> None:
    assert not speaker_opens(text)


def test_the_seeds_of_instructions_seldom_open_with_the_speaker() -> None:
    seeds = load_taxonomy("categories", fallback="").prototypes
    share = addressed_share(seeds)
    assert share is not None and share < 0.1
    # What the user says of themself opens with the speaker: most of its seeds do.
    about_user = seeds["contexts"]
    assert sum(speaker_opens(t) for t in about_user) > len(about_user) / 2
    assert addressed_share({"contexts": ("I sing.",)}) is None


def test_the_addressed_category_is_weighed_and_decided_again() -> None:
    decided = Decision(ADDRESSED, 0.6, "auto", {ADDRESSED: 0.6, "contexts": 0.3, "learnings": 0.1})
    out = told_by_speaker(decided, 0.02, 0.5)
    assert out.label == "contexts" and out.method == "auto"
    assert out.probabilities[ADDRESSED] < 0.05 and abs(sum(out.probabilities.values()) - 1) < 1e-3
    unsure = told_by_speaker(
        Decision(ADDRESSED, 0.6, "auto", {ADDRESSED: 0.6, "contexts": 0.2, "learnings": 0.2}), 0.02, 0.5
    )
    assert unsure.label == "" and unsure.method == "fallback"
    given = Decision(ADDRESSED, 1.0, "explicit")
    assert told_by_speaker(given, 0.02, 0.5) is given


def decide(real: Memory, text: str) -> tuple[Decision, Decision]:
    """The category the classifier gives `text` alone, and as the write path decides it."""
    both = real._classifiers
    vector, opened = both.openings.embed_batch([text, both.opening(text) or ""])
    return both.categories.decide(vector, [], opened, text), both.decide_category(
        vector, [], opened, None, text
    )


def test_a_users_own_habit_is_not_an_instruction(real: Memory) -> None:
    for text in ("I don't reply to texts after 10pm.", "I keep my answers short."):
        alone, written = decide(real, text)
        assert alone.label == ADDRESSED  # read without its subject it opens like a command
        assert written.label != ADDRESSED, text


def test_an_instruction_stays_one(real: Memory) -> None:
    for text in ("Never answer in more than three sentences.", "I prefer short answers with bullet points."):
        assert decide(real, text)[1].label == ADDRESSED, text
