"""German text's topics. The English tagger reads German as names and fragments ("nicht", "zum", "muss",
"einen-grünen"); German writes every noun with a capital, so a German text's topics are its capitalised words
that are not function words, dates or times ("Die Steuererklärung muss bis zum 31. Dezember beim Finanzamt sein":
Steuererklärung, Finanzamt)."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.util import find_spec, module_from_spec, spec_from_file_location
from pathlib import Path

from engram.lang.lemmas import getAllLemmas
from engram.lang.text import STOPWORDS

# Words that say when, which name no topic (as the English reading leaves out months, days and parts of the day).
_WHEN = frozenset(
    """januar februar märz april mai juni juli august september oktober november dezember montag dienstag
    mittwoch donnerstag freitag samstag sonntag sonnabend uhr morgen mittag abend nacht woche wochen
    wochenende tag tage tagen monat monate jahr jahre heute gestern frühling sommer herbst winter termin
    anfang ende mitte""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_NOUN = re.compile(r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-Za-zÄÖÜäöüß]+)*")


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    """German function words that are no English word: spaCy's German stop-word list."""
    return stop_words("de") | {"muss", "bitte", "nicht"}


@lru_cache(maxsize=8)
def stop_words(language: str) -> frozenset[str]:
    """spaCy's stop-word list of `language` (data only, no model), read from its file: importing it imports spaCy's
    whole framework, which a process tagging without it never loads."""
    spec = find_spec("spacy")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("spaCy's stop words need spaCy installed", name="spacy")
    path = Path(next(iter(spec.submodule_search_locations)), "lang", language, "stop_words.py")
    module = module_from_spec(spec_from_file_location(f"_engram_{language}_stop_words", path))  # type: ignore[arg-type]
    module.__spec__.loader.exec_module(module)  # type: ignore[union-attr]
    return frozenset(module.STOP_WORDS)


def _german_only(word: str) -> bool:
    return word in _function_words() and word not in STOPWORDS and not getAllLemmas(word)


def is_german(text: str) -> bool:
    """Whether `text` reads as German: a sixth of its words, and at least two of them (one with an umlaut or ß
    in the text), are German function words or dates that are no English word."""
    words = [w.lower() for w in _WORD.findall(text[:2000])]
    hits = sum(_german_only(w) or (w in _WHEN and not getAllLemmas(w)) for w in words)
    if hits * 6 >= len(words) and (hits >= 2 or (hits == 1 and re.search("[äöüß]", text) is not None)):
        return True
    return _short_german(words)


def _short_german(words: list[str]) -> bool:
    """A short German line whose function words English shares ("Ruth schrieb: Felix hat am 9. Dezember
    Geburtstag": hat, am): two German function words or dates, one of them no English word, no function word
    only English has, and most words unknown to the English dictionary ("Sam was in Berlin" is English)."""
    german = sum(w in _function_words() or w in _WHEN for w in words)
    english = any(w in STOPWORDS and w not in _function_words() for w in words)
    unknown = sum(not getAllLemmas(w) or _german_only(w) for w in words)
    only_german = any(_german_only(w) or (w in _WHEN and not getAllLemmas(w)) for w in words)
    return not english and german >= 2 and only_german and unknown * 2 >= len(words)


def topics(text: str, top: int = 10) -> tuple[str, ...]:
    """A German text's nouns and names, most named first, then in order of appearance."""
    counts: dict[str, int] = {}
    for word in _NOUN.findall(text):
        lower = word.lower()
        if len(lower) < 3 or lower in _WHEN or lower in _function_words():
            continue
        counts[word] = counts.get(word, 0) + 1
    return tuple(sorted(counts, key=lambda w: -counts[w])[:top])
