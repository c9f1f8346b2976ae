"""Which of a query's word stems each candidate says, read once per query: scoring asks it for the whole question
and again for the question without the words of a time it names, of the same candidates."""

from __future__ import annotations

from collections.abc import Sequence

from engram.lang.text import stems_among


class Contained:
    """`stems_among` that keeps its first answer: asked again of the same texts for stems among those it read
    (the question's words without its time words are some of its words), it narrows that answer instead of
    reading every text again. Each text's answer depends on that text alone, so the narrowed one is the same."""

    def __init__(self) -> None:
        self._texts: Sequence[str] | None = None
        self._wanted: frozenset[str] = frozenset()
        self._found: list[set[str]] = []

    def __call__(self, texts: Sequence[str], wanted: frozenset[str]) -> list[set[str]]:
        if self._texts is not None and texts == self._texts and wanted <= self._wanted:
            return [found & wanted for found in self._found]
        found = stems_among(texts, wanted)
        if self._texts is None:
            self._texts, self._wanted, self._found = texts, wanted, [set(f) for f in found]
        return found
