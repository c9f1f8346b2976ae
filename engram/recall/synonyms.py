"""Other words for what a question says: the word groups of engram/tags/variants.txt (father / dad, either
way) and engram/recall/related.txt (a broader word and the narrower ones a memory may say instead: spouse /
husband; a role and its abbreviation: CFO; an everyday category word and the things of that category: health /
dentist). No package on the index ships an English thesaurus with its data (WordNet readers download theirs),
and the embedding model places dad no closer to father than to mum, so these are curated lists of general
words, kept short."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from engram.lang.text import STOPWORDS, words

_LONGEST = 3  # words in the longest phrase looked up


def _phrase(text: str) -> str:
    return " ".join(words(text.replace("-", " ")))


def _key(phrase: str) -> str:
    """A phrase as looked up: its words in the singular ("parents" finds "parent"). Not their stems: Porter
    makes "doctorate" "doctor", and every doctor was then a PhD."""
    return " ".join(_singular(w) for w in phrase.split())


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=1)
def _variants() -> dict[str, tuple[str, ...]]:
    """Each word or phrase of engram/tags/variants.txt with the other words of its group: one thing, either way."""
    out: dict[str, list[str]] = {}
    variants = files("engram.tags").joinpath("variants.txt").read_text(encoding="utf-8")
    for line in variants.splitlines():
        if line.strip() and not line.startswith("#"):
            group = [_phrase(w) for w in line.split(",") if w.strip()]
            for said in group:
                out.setdefault(said, []).extend(w for w in group if w != said)
    return {said: tuple(alts) for said, alts in out.items()}


def written_otherwise(word: str) -> tuple[str, ...]:
    """The other ways of writing one word for one thing (road / rd, avenue / ave): the word groups alone, none of
    the broader words of related.txt."""
    return _variants().get(_phrase(word), ())


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    """Each word or phrase with the other words for it."""
    out: dict[str, list[str]] = {said: list(alts) for said, alts in _variants().items()}
    related = files("engram.recall").joinpath("related.txt").read_text(encoding="utf-8")
    for line in related.splitlines():
        if ":" in line and not line.startswith("#"):
            said, others = line.split(":", 1)
            out.setdefault(_phrase(said), []).extend(_phrase(w) for w in others.split(",") if w.strip())
    table: dict[str, list[str]] = {}
    for said, alts in out.items():
        if said:
            table.setdefault(_key(said), []).extend(w for w in alts if w and _key(w) != _key(said))
    return {said: tuple(dict.fromkeys(alts)) for said, alts in table.items() if alts}


def other_words(text: str) -> dict[str, tuple[str, ...]]:
    """The words and phrases of `text` (up to three words) that have other words for them, with those words; a
    phrase found leaves its own words out ("chief financial officer" is not also "officer")."""
    table = _table()
    said = words(re.sub(r"[-\u2010]", " ", text))
    singular = [_singular(w) for w in said]  # each word once, not once per phrase it is in (as `_key` would)
    out: dict[str, tuple[str, ...]] = {}
    used: set[int] = set()
    for size in range(_LONGEST, 0, -1):
        for start in range(len(said) - size + 1):
            span = range(start, start + size)
            if used.intersection(span):
                continue
            phrase = " ".join(said[start : start + size])
            if phrase in STOPWORDS or (found := " ".join(singular[start : start + size])) not in table:
                continue
            out[phrase] = table[found]
            used.update(span)
    return out
