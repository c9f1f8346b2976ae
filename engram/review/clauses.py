"""Run-on messages: one typed sentence that holds two things ("im a nurse on nights and btw remind me to book
the car in", "we chose the blue paint and honestly I can't stand the smell").

A clause starts where a conjunction or a comma (with "btw", "also", "oh and" or an adverb after it) is followed by
a new subject: I, we, my, our, or a request ("remind me", "don't forget"). The extractor splits a sentence only
when its clauses state different kinds; otherwise the sentence stays whole.
"""

from __future__ import annotations

import re

_SUBJECT = r"(?=(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|my|our|remind me|don'?t forget)\b)"
_ASIDE = r"(?:(?:also|btw|by the way|honestly|tbh|oh|plus|then)\s*,?\s+|\w+ly\s*,?\s+)?"
_BREAK = re.compile(
    rf"(?:,?\s+(?:and|but|plus|so|also)\s+|,\s*(?:and\s+)?|\s+(?:oh and|btw|by the way)\s*,?\s+){_ASIDE}{_SUBJECT}",
    re.IGNORECASE,
)
# A noun phrase alone before "and I": a possessive or a name and at most two more words, no verb.
_COMPOUND = re.compile(r"^\s*(?:(?:my|our|the)\s+\w+(?:\s+\w+)?|(?-i:[A-Z][a-z]+))\s*$", re.IGNORECASE)
_WITH_ME = re.compile(r"\s+and\s+(?:i|we)\b", re.IGNORECASE)
MIN_WORDS = 3  # "My partner and I live in Dublin" is one clause: "My partner" says nothing on its own


def clauses(sentence: str) -> list[tuple[str, int, int]]:
    """The clauses of a sentence with their spans in it; the sentence alone when it has one."""
    out: list[tuple[str, int, int]] = []
    start = 0
    for match in _BREAK.finditer(sentence):
        if _COMPOUND.match(sentence[start : match.start()]) and _WITH_ME.match(sentence, match.start()):
            continue  # "My wife Linda and I live in Tucson": one subject of two people
        out.append((sentence[start : match.start()], start, match.start()))
        start = match.end()
    out.append((sentence[start:], start, len(sentence)))
    kept = []
    for text, s, _ in out:
        stripped = text.strip(" ,;")
        offset = s + text.index(stripped) if stripped else s
        kept.append((stripped, offset, offset + len(stripped)))
    if len(kept) < 2 or any(len(text.split()) < MIN_WORDS for text, _, _ in kept):
        return [(sentence, 0, len(sentence))]
    return kept


__all__ = ["clauses"]
