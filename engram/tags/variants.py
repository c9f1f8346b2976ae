"""Forms of one tag that spelling rules alone do not see: initials ("ux" for user-experience), a name with its
usual suffix ("mongo" / "mongodb"), a name repeated with the class it belongs to ("postgres-database" /
"postgres"), a vowel spelt two ways ("grey" / "gray"), and the word groups of variants.txt (app / application,
kids / children), which the embedding model cannot tell from different things of one kind."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from engram.lang.lemmas import dictionary_form

# A tag made of a name and the class of thing it is names that thing: "postgres-database" is postgres. The class
# words are those of tools and software, where a name is usually written with its class.
CLASS_WORDS = frozenset(
    {"language", "programming-language", "library", "lib", "framework", "tool", "database", "db", "platform"}
    | {"software", "app", "application", "package", "service"}
)
# Suffixes a software name is written with or without: mongo / mongodb, postgres / postgresql. Not "js": angular /
# angularjs are two frameworks.
NAME_SUFFIXES = ("db", "sql", "ql")
_VOWELS = frozenset("aeiouy")


def initials(tag: str) -> frozenset[str]:
    """The initials of a tag of two or more words; a word starting "ex" may give its x (ux: user-experience)."""
    words = [w for w in tag.split("-") if w]
    if len(words) < 2:
        return frozenset()
    out = {""}
    for w in words:
        letters = {w[0]} | ({"x"} if w.startswith("ex") else set())
        out = {o + letter for o in out for letter in letters}
    return frozenset(out)


def class_repeat(tag: str) -> str | None:
    """The name a tag repeats with its class ("postgres-database" -> "postgres"), or None."""
    for size in (2, 1):
        words = tag.split("-")
        if len(words) > size and "-".join(words[-size:]) in CLASS_WORDS:
            return "-".join(words[:-size])
    return None


def suffixed(a: str, b: str) -> bool:
    """Whether one tag is the other with a software name's suffix (mongo / mongodb, postgres / postgresql)."""
    if "-" in a or "-" in b:
        return False  # core-js, mime-db: a package named after a word, not that word
    short, long = sorted((a, b), key=len)
    return len(short) >= 3 and any(long == short + s for s in NAME_SUFFIXES)


def vowel_spelling(a: str, b: str) -> bool:
    """Whether two words differ in one vowel only, the other letters in place (grey / gray, mom / mum)."""
    if len(a) != len(b) or len(a) < 3 or "-" in a or "-" in b:
        return False
    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(diff) == 1 and diff[0][0] in _VOWELS and diff[0][1] in _VOWELS


@lru_cache(maxsize=1)
def _groups() -> dict[str, int]:
    text = files("engram.tags").joinpath("variants.txt").read_text(encoding="utf-8")
    out: dict[str, int] = {}
    for number, line in enumerate(text.splitlines()):
        if line.strip() and not line.startswith("#"):
            for word in line.split(","):
                out.setdefault(_form(word.strip()), number)
    return out


def _form(tag: str) -> str:
    """A tag without hyphens, each word in its dictionary form: "pull-requests" and "pullrequest" meet."""
    words = [w for w in re.split(r"[-\s]+", tag.lower()) if w]
    return "".join(dictionary_form(w).lower() if len(w) > 3 else w for w in words)


@lru_cache(maxsize=65536)
def group(tag: str) -> int | None:
    """The line of variants.txt the tag is a form of, if any."""
    groups = _groups()
    found = groups.get(_form(tag))
    return found if found is not None else groups.get(tag.replace("-", ""))


def listed_together(a: str, b: str) -> bool:
    """Whether variants.txt lists the two tags as one thing."""
    ga = group(a)
    return ga is not None and ga == group(b)
