"""A question of 100,000 characters (a pasted log, a page of digits) was read whole by every step of a search:
its keyphrases, its words, its spellings and its vector, seconds of processor time per call, a cheap way to keep
a server busy. A search reads its first READ_CHARS characters, cut at a space; what it asks there is answered."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.lang import analysis
from engram.recall.query import READ_CHARS, read_part


class Reading(FakeEmbedder):
    """The fake embedder, noting the longest text it is given."""

    longest = 0

    def embed_batch(self, texts: Sequence[str]) -> Any:
        self.longest = max([self.longest, *map(len, texts)])
        return super().embed_batch(texts)


def _filler(n: int) -> str:
    chosen = random.Random(5)
    return " ".join(str(chosen.randint(0, 999)) for _ in range(n // 3))[:n]


@pytest.mark.parametrize("how", ["search_memory", "recall"])
def test_a_long_question_is_read_to_its_first_characters(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    read: list[int] = []
    keyphrases = analysis.concepts

    def concepts(text: str, *args: Any, **kwargs: Any) -> Any:
        read.append(len(text))
        return keyphrases(text, *args, **kwargs)

    monkeypatch.setattr(analysis, "concepts", concepts)
    embedder = Reading()
    with Memory(tmp_path / "m.db", embedder=embedder, settings=settings) as mem:
        kept = mem.remember("The boiler was serviced in March by Kowalski Heating")
        mem.remember("Lena prefers tea to coffee")
        embedder.longest = 0
        question = ("when was the boiler serviced " + _filler(100_000))[:100_000]
        answer = (
            mem.search_memory(question) if how == "search_memory" else mem.recall(question, mode="related")
        )
    found = answer["results"] if how == "search_memory" else answer
    ids = [h["id"] for h in found] if how == "search_memory" else [h.record.id for h in found]
    assert kept.id in ids
    assert read and max(read) <= READ_CHARS
    assert 0 < embedder.longest <= READ_CHARS


def test_the_part_read_ends_at_a_space_and_a_short_question_is_whole() -> None:
    assert read_part("what did Lena say?") == "what did Lena say?"
    long = " " * 10_000 + "word " * 5_000
    part = read_part(long)
    assert part.startswith("word") and len(part) <= READ_CHARS and part.endswith("word")
    token = "x" * 50_000
    assert read_part(token) == "x" * READ_CHARS
