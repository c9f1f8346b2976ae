"""Caches keyed by a memory's whole text would grow with what a server has read: a server answering searches over a
large store reads the stems of many candidates' texts, and keeping each text with its stem set held hundreds of
megabytes."""

from __future__ import annotations

import random
import tracemalloc

from engram.lang.text import stems

WORDS = [f"{a}{b}{c}" for a in "bcdfgklmnprst" for b in "aeiou" for c in ("n", "r", "st", "ll", "ck", "mp")]


def test_reading_the_stems_of_many_memories_holds_no_copy_of_each() -> None:
    rng = random.Random(7)
    stems("a first read")
    tracemalloc.start()
    try:
        for _ in range(4000):
            stems(" ".join(rng.choice(WORDS) for _ in range(150)))
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 10_000_000, f"{held / 1e6:.0f} MB held after reading the stems of 4,000 texts"
