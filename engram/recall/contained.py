"""Which of a query's word stems each candidate says, read once per query: scoring asks it for the whole question
and again for the question without the words of a time it names, of the same candidates. The text search's hits
can be read ahead, on the reader thread that found them, while the query is embedded."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from engram.lang.clock import PART_STEMS, parts_told
from engram.lang.text import stem, stems_among, unspaced

SHORT = 3  # letters of a stem an other word is looked for as itself (see `overlaps`)


class Contained:
    """`stems_among` that keeps its first answer: asked again of the same texts for stems among those it read
    (the question's words without its time words are some of its words), it narrows that answer instead of
    reading every text again. Each text's answer depends on that text alone, so the narrowed one is the same,
    and so is one put together from texts read ahead (`read_ahead`) and the rest read then."""

    def __init__(self) -> None:
        self._texts: Sequence[str] | None = None
        self._wanted: frozenset[str] = frozenset()
        self._found: list[set[str]] = []
        self._ahead: dict[str, set[str]] = {}
        self._ahead_wanted: frozenset[str] | None = None

    def read_ahead(self, texts: Sequence[str], wanted: frozenset[str]) -> None:
        """Read `texts` for `wanted` now: a first ask for the same stems reads only the texts not among them."""
        self._ahead = dict(zip(texts, stems_among(texts, wanted), strict=True))
        self._ahead_wanted = wanted

    def __call__(self, texts: Sequence[str], wanted: frozenset[str]) -> list[set[str]]:
        # The sets returned are kept, and shared between texts alike: the caller reads them, never changes them.
        if self._texts is not None and texts == self._texts and wanted <= self._wanted:
            return [found & wanted for found in self._found]
        if self._texts is None and wanted == self._ahead_wanted:
            ahead = self._ahead
            rest = [t for t in dict.fromkeys(texts) if t not in ahead]
            if rest:
                ahead = ahead | dict(zip(rest, stems_among(rest, wanted), strict=True))
            found = [ahead[t] for t in texts]
        else:
            found = stems_among(texts, wanted)
        if self._texts is None:
            self._texts, self._wanted, self._found = texts, wanted, found
        return found


# For each text, the stems of its words among the wanted ones (`stems_among`, or what it found before).
Contains = Callable[[Sequence[str], frozenset[str]], list[set[str]]]


def overlaps(
    query_weights: dict[str, float],
    contents: Sequence[str],
    alternates: Mapping[str, float] | None = None,
    standins: Mapping[str, Sequence[frozenset[str]]] | None = None,
    contains: Contains = stems_among,
    *,
    clock: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """For each content, the IDF-weighted share of the query's word stems that it contains (a stem counts as
    contained where all the stems of one of its `standins`, the other words for it, are), and the summed weight
    of the `alternates` (stems of the query's expansions) it contains. With `clock`, a part of the day the query
    names is said by a clock time in it (`parts_told`): what to show first, not how much a memory says in words,
    which the confidence reads against its cosine."""
    total = sum(query_weights.values())
    others = alternates or {}
    if total <= 0 and not others:
        return np.zeros(len(contents)), np.zeros(len(contents))
    instead = {s: alts for s, alts in (standins or {}).items() if s in query_weights}
    short, wanted = _looked_for(query_weights, others, instead)
    # Its sets are read, never changed (`Contained` keeps them): a set that gains words is a new one.
    present = list(contains(contents, wanted))
    if short:
        # A short stem may be a longer word's, its last letter rewritten ("dai" is day's, "onc" once's): a word
        # that starts with the stem less that letter is stemmed.
        starting = sorted({re.escape(w[:-1] if len(w) == SHORT else w) for w in short})
        said = re.compile(rf"\b((?:{'|'.join(starting)})[^\W\d_]{{0,3}})(?:['\u2019]s)?\b")
        # One search over every text (a newline ends a word, so no match spans two), not one per text.
        lowered = [t.lower() for t in contents]
        starts = list(itertools.accumulate((len(t) + 1 for t in lowered[:-1]), initial=0))
        gained: dict[int, set[str]] = {}
        for m in said.finditer("\n".join(lowered)):
            word = m.group(1)
            if word in short or (word := stem(word)) in short:
                gained.setdefault(bisect.bisect_right(starts, m.start()) - 1, set()).add(word)
        for i, more in gained.items():
            present[i] = present[i] | more
    if instead:
        # A text holding none of the other words' stems says none of them (an empty other word, said by every
        # text, aside): most candidates are passed over with one set test.
        among = frozenset().union(*(alt for alts in instead.values() for alt in alts))
        every = any(not alt for alts in instead.values() for alt in alts)
        for i, p in enumerate(present):
            if not every and among.isdisjoint(p):
                continue
            if more := {s for s, alts in instead.items() if s not in p and any(alt <= p for alt in alts)}:
                present[i] = p | more
    if clock and (parts := PART_STEMS & (query_weights.keys() | others.keys())):
        # A clock time says the part of the day it falls in ("at 2pm" an afternoon's).
        for i, text in enumerate(contents):
            if more := set(parts_told(text) & parts) - present[i]:
                present[i] = present[i] | more
    share = _weighed(query_weights, present) / total if total > 0 else np.zeros(len(present))
    return share, _weighed(others, present)


def overlap_stems(
    query_weights: Mapping[str, float],
    alternates: Mapping[str, float] | None = None,
    standins: Mapping[str, Sequence[frozenset[str]]] | None = None,
) -> frozenset[str]:
    """The stems `overlaps` asks `contains` about, given the same weights: for reading candidates ahead."""
    instead = {s: alts for s, alts in (standins or {}).items() if s in query_weights}
    return _looked_for(query_weights, alternates or {}, instead)[1]


def _looked_for(
    query_weights: Mapping[str, float],
    others: Mapping[str, float],
    instead: Mapping[str, Sequence[frozenset[str]]],
) -> tuple[frozenset[str], frozenset[str]]:
    """The other words' stems looked for as words themselves, and the stems looked for by stemming."""
    extra_stems = frozenset(w for alts in instead.values() for alt in alts for w in alt)
    # A short stem ("dad", "son") is looked for as the word itself: `stems_among` would stem every word that
    # starts with its first letter, and a broad word's short other words (every kin word) tripled its time.
    # Not a Chinese or Japanese one ("上课" for lesson): written without spaces it has no word boundary to be found
    # by, and `stems_among` reads such text as its character pairs.
    short = frozenset(
        w
        for w in extra_stems
        if len(w) <= SHORT and w not in query_weights and w not in others and not unspaced(w)
    )
    return short, frozenset(query_weights) | frozenset(others) | (extra_stems - short)


def _weighed(weights: Mapping[str, float], present: Sequence[set[str]]) -> np.ndarray:
    """For each set, the summed weight of the stems it holds, added in the weights' order. Many candidates hold
    the same few stems (or none): each distinct set is summed once."""
    out = np.zeros(len(present))
    if not weights:
        return out
    items = list(weights.items())
    sums: dict[frozenset[str], float] = {}
    for i, p in enumerate(present):
        if p:
            key = frozenset(p)
            if (total := sums.get(key)) is None:
                total = sums[key] = sum([w for stem, w in items if stem in p])
            out[i] = total
    return out
