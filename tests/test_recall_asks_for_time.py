""" "What time" and "which day" ask for a time or a day, which a memory gives without the word: searched as a word,
"time" made a memory that says "last time" or "about time" the answer. With the real model, on memories a person
writes."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall.query import topical

NOTES = (
    "Leo was sick the last time he ate prawns, so no shellfish for him.",
    "Nursery closes at 6pm; Leo has to be collected from the side door.",
    "The Tesco delivery slot is Thursday between 6 and 7pm.",
    "Our wedding anniversary is on 2 August; we usually go back to the Lake District.",
    "Took the car in for a service, it was about time: 14,000 miles since the last one.",
    "The bin lorry comes early on Mondays, so the bins go out on Sunday night.",
)


def test_the_asking_words_are_not_searched() -> None:
    assert topical("what time do I pick up my son?") == ("pick", "son")
    assert topical("which day is the bin collection") == ("bin", "collection")
    assert topical("What date is the wedding?") == ("wedding",)
    assert "time" in topical("how much time do I have to reply?")  # time itself, not a time asked for


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("what time does the shopping arrive?", "Tesco delivery"),
        ("what time should the kid be picked up?", "Nursery closes"),
    ],
)
def test_a_time_asked_for_finds_the_memory_that_gives_it(notes: Memory, question: str, answer: str) -> None:
    hits = notes.recall(question, mode="related", touch=False)
    assert hits and answer in hits[0].record.content, [h.record.content for h in hits[:3]]
