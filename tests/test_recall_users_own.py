"""Accurate recall orders the user's own facts before another's for a question about the user, as search_memory
does: "what medication am I on?" was answered with the dog's flea tablets first, the user's own tablets second."""

from __future__ import annotations

from engram import Memory
from engram.recall.modes import RecallMode

NOTES = [
    "Biscuit's flea and worm tablets every 3 months, last done 1 October",
    "I take levothyroxine 75mcg every morning",
    "Gareth's birthday 14 Feb, he wants a new fishing reel",
]


def test_the_users_own_fact_comes_before_anothers(notes: Memory) -> None:
    hits = notes.recall("what medication am I on?", mode=RecallMode.ACCURATE, limit=3)
    assert hits and "levothyroxine" in hits[0].record.content
