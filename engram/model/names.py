"""Names a caller gives (a scope, user or workspace id, an episode, a tag, a file) show as what they are: no
character that hides (a zero-width space, U+200B, inside "team" shows as "team": two scopes that look one) or
reorders what is shown around it (a bidi override, U+202E, shows "ldnoj.x" as "x.jsonl"), and no word spelt with
the letters of two alphabets that look alike ("payment" with a Cyrillic U+0440 and U+0430 for its p and a), and no
name in decomposed form ("café" as "cafe" and a combining accent).

A name that breaks these is refused, naming the field: kept, it would be a second scope, owner or tag that no one
can tell from the first, and what was filed under one would escape a search, a listing or a forget of the other.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

import regex  # type: ignore[import-untyped]

from engram.errors import InvalidInput

# Fields that name something a caller filters by, wherever a memory or a request carries them.
IDENTIFIERS = ("scope_id", "user_id", "workspace_id", "episode_id", "session")

# Controls (a line break shows one name as two), format characters (bidi controls, zero-width space and joiners,
# soft hyphen, byte order mark) and the line and paragraph separators: none shows as itself.
_HIDDEN = {"Cc": "a control character", "Cf": "an invisible formatting character"}
_HIDDEN |= {"Zl": "a line separator", "Zp": "a paragraph separator"}

# Alphabets whose letters are drawn alike (Latin a and Cyrillic U+0430; Latin o, Cyrillic U+043E, Greek U+03BF):
# one word in two of them is a look-alike, not a word. Other mixes are how words are written (Japanese kanji and
# kana, a Latin brand inside a Chinese word) and are kept.
_LOOKALIKE = ("Latin", "Cyrillic", "Greek", "Armenian", "Cherokee", "Coptic")
_SCRIPT = {name: regex.compile(rf"\p{{Script={name}}}") for name in _LOOKALIKE}
_WORD = regex.compile(r"[\p{L}\p{M}]+")


def hidden_problem(text: str, what: str = "name") -> str | None:
    """What in `text` would not show as itself (a control or invisible character), or None."""
    for char in text:
        if (category := unicodedata.category(char)) in _HIDDEN:
            return (
                f"must not contain {_HIDDEN[category]} (U+{ord(char):04X}): the {what} would show as another"
            )
    return None


def mixed_script_problem(text: str, what: str = "name") -> str | None:
    """The first word of `text` spelt in two look-alike alphabets, said as a problem; None when there is none."""
    if text.isascii():
        return None
    for word in _WORD.findall(text):
        if word.isascii():
            continue
        scripts = [name for name, letter in _SCRIPT.items() if letter.search(word)]
        if len(scripts) > 1:
            return (
                f"{word!r} mixes {scripts[0]} and {scripts[1]} letters in one word: the {what} would look like "
                f"another; write the word in one alphabet"
            )
    return None


def composed_problem(text: str, what: str = "name") -> str | None:
    """Whether `text` is written in decomposed Unicode ("cafe" and a combining accent, as macOS gives folder
    names): it shows exactly as the composed "café", yet compares as another name."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return None
    return (
        f"must be in composed Unicode form (NFC): written with combining marks, the {what} shows as "
        f"{unicodedata.normalize('NFC', text)!r} but would be another; compose it first"
    )


def visible(field: str, text: str, what: str = "name") -> str:
    """`text` when it shows as what it is; else refused, naming `field`."""
    if problem := (
        hidden_problem(text, what) or mixed_script_problem(text, what) or composed_problem(text, what)
    ):
        raise InvalidInput(field, problem)
    return text


def visible_names(fields: Mapping[str, Any]) -> None:
    """`visible` for each identifier among `fields` that is given as text."""
    for name in IDENTIFIERS:
        if isinstance(value := fields.get(name), str):
            visible(name, value)
