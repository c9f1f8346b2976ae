"""Words and names the tokenizer splits that a tag keeps whole: a hyphenated word ("X-ray", "Co-op") and a name
of two capitalised words joined by "&" ("Marks & Spencer")."""

from __future__ import annotations

import re
from typing import Any

from engram.lang.tense import readings


def joined(doc: Any) -> Any:
    """The doc with each hyphenated word one token ("Wi-Fi", "low-sodium", "X-ray", "Co-op"), tagged as its last
    part, and each name of two capitalised words joined by "&" one name ("Marks & Spencer"): the tokenizer
    splits at both, and a tag keeps the word or the name whole ("ray" of an X-ray, "marks" of a shop named no
    topic). A hyphen is known by its text too: the tagger calls some a noun ("X", "-", "ray")."""
    spans = []
    at = 0
    while at < len(doc):
        end = at
        while (
            end + 2 < len(doc)
            and (doc[end + 1].tag_ == "HYPH" or doc[end + 1].text in _HYPHENS)
            and not doc[end].whitespace_
            and not doc[end + 1].whitespace_
            and _part(doc[end + 2])
        ):
            end += 2
        if end > at and _part(doc[at]):
            spans.append((doc[at : end + 1], doc[end].tag_, doc[end].pos_))
        elif _named_with_ampersand(doc, at):
            end = at + 2
            spans.append((doc[at : end + 1], "NNP", "PROPN"))
        at = end + 1
    if spans:
        with doc.retokenize() as merge:
            for span, tag, pos in spans:
                merge.merge(span, attrs={"TAG": tag, "POS": pos})
    return doc


_HYPHENS = frozenset({"-", "\u2010", "\u2011"})
# A part of a hyphenated word or code: letters, or letters with digits ("BT-Hub-7F2", "A2-B1"); a number alone
# is no part ("2019-2020", "10-15": a span of numbers, not one word).
_PART = re.compile(r"(?=[^\W_]*[^\W\d_])[^\W_]+(?:-[^\W_]+)*")


def _part(token: Any) -> bool:
    return _PART.fullmatch(token.text) is not None


# Family words written capitalised as names ("Mum & Dad"): two people, never one name.
_KIN = frozenset(
    """mum mom mam mummy mommy dad daddy mother father parents nan nana gran granny grandma grandpa grandmother
    grandfather sister brother son daughter aunt auntie uncle wife husband partner""".split()  # noqa: SIM905
)


def _named_with_ampersand(doc: Any, at: int) -> bool:
    """Whether the tokens from `at` are a capitalised word, "&" and another, one name ("Sugar & Slate", "Marks &
    Spencer"): a word of the dictionary among them. Two names no dictionary knows ("Sarah & Ben") or family words
    ("Mum & Dad") are two people."""
    if at + 2 >= len(doc) or doc[at + 1].text != "&":
        return False
    words = (doc[at], doc[at + 2])
    if not all(t.is_alpha and t.text[0].isupper() for t in words):
        return False
    lower = [t.text.lower() for t in words]
    return not any(w in _KIN for w in lower) and any(readings(w) for w in lower)
