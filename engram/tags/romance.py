"""Italian, Spanish and French text's topics. The English tagger reads such a line as fragments of its small words
("anni-il", "nonna-di", "con-la-zia"); their nouns are not capitalised as German ones are, so a line's topics are
its words that are no function word, time or number of its language, names first ("La nonna di Marco, nonna Pina,
compie 95 anni il 9 dicembre": nonna, Marco, Pina, ...). The function words are spaCy's stop-word lists (data only,
no model), read as the German one is (`engram.tags.german.stop_words`)."""

from __future__ import annotations

import re

from engram.lang.foreign_dates import ROMANCE_DAY_WORDS
from engram.lang.lemmas import getAllLemmas
from engram.lang.text import STOPWORDS
from engram.tags.german import stop_words

LANGUAGES = ("it", "es", "fr")
# Words that say when, which name no topic: the months, weekdays, today and tomorrow the due days read, and the
# words for yesterday, a day, a week, a year...
_WHEN = frozenset(ROMANCE_DAY_WORDS.split("|")) | frozenset(
    """ieri settimana mese anno anni giorno giorni ore sera mattina ayer semana año años día días tarde noche hier
    semaine mois an ans année jour jours soir matin heure heures""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
# A line that opens with an infinitive ("Chiamare nonna Pina ...", "Llamar a Carmen ...") is told to do something:
# the verb names no topic.
_INFINITIVE = re.compile(r"(?:are|ere|ire|ar|er|ir|re)$")
_OPENS = re.compile(r"[.!?:;]\s*$")  # a sentence's first word is capitalised whatever it is


def _only(word: str, language: str) -> bool:
    """A function word of `language` that is no English word."""
    return word in stop_words(language) and word not in STOPWORDS and not getAllLemmas(word)


def language_of(text: str) -> str | None:
    """The language `text` reads as, of Italian, Spanish and French: a sixth of its words, and at least two of
    them, are function words of that language that are no English word; None for none."""
    words = [w.lower() for w in _WORD.findall(text[:2000])]
    if not words:
        return None
    best, hits = max(((lang, sum(_only(w, lang) for w in words)) for lang in LANGUAGES), key=lambda h: h[1])
    # English with a phrase of another language in it ("pasta al forno for the party, con la salsa") is English.
    english = sum(w in STOPWORDS for w in words)
    return best if hits >= 2 and hits * 6 >= len(words) and hits > english else None


def topics(text: str, language: str, top: int = 10) -> tuple[str, ...]:
    """The line's names and content words, names first, then in order of appearance, each once."""
    stop = stop_words(language)
    names: list[str] = []
    words: list[str] = []
    for index, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        lower = word.lower()
        if len(lower) < 3 or lower in stop or lower in STOPWORDS or lower in _WHEN:
            continue
        if index == 0 and _INFINITIVE.search(lower):
            continue
        opening = index == 0 or _OPENS.search(text, 0, match.start()) is not None
        (names if word[0].isupper() and not opening else words).append(lower if opening else word)
    return tuple(dict.fromkeys([*names, *words]))[:top]
