"""Italian, Spanish and French text's topics. The English tagger reads such a line as fragments of its small words
("anni-il", "nonna-di", "con-la-zia"); their nouns are not capitalised as German ones are, so a line's topics are
its words that are no function word, time or number of its language, names first ("La nonna di Marco, nonna Pina,
compie 95 anni il 9 dicembre": nonna, Marco, Pina, ...). The function words are spaCy's stop-word lists (data only,
no model), read as engram.tags.german reads the German one."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.util import find_spec, module_from_spec, spec_from_file_location
from pathlib import Path

from engram.lang.lemmas import getAllLemmas
from engram.lang.text import STOPWORDS

LANGUAGES = ("it", "es", "fr")
# Words that say when, which name no topic: the months and weekdays, and the words for day, week, year...
_WHEN = frozenset(
    """gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre lunedì martedì
    mercoledì giovedì venerdì sabato domenica oggi domani ieri settimana mese anno anni giorno giorni ore sera mattina
    enero febrero abril mayo junio julio septiembre octubre noviembre diciembre lunes martes miércoles jueves viernes
    sábado domingo hoy mañana ayer semana año años día días tarde noche janvier février mars avril mai juin juillet
    août septembre octobre novembre décembre lundi mardi mercredi jeudi vendredi samedi dimanche aujourd'hui demain
    hier semaine mois an ans année jour jours soir matin heure heures""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
# A line that opens with an infinitive ("Chiamare nonna Pina ...", "Llamar a Carmen ...") is told to do something:
# the verb names no topic.
_INFINITIVE = re.compile(r"(?:are|ere|ire|ar|er|ir|re)$")
_OPENS = re.compile(r"[.!?:;]\s*$")  # a sentence's first word is capitalised whatever it is


@lru_cache(maxsize=len(LANGUAGES))
def _function_words(language: str) -> frozenset[str]:
    """The language's function words from spaCy's list, read from its file without importing spaCy."""
    spec = find_spec("spacy")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("spaCy's stop words need spaCy installed", name="spacy")
    path = Path(next(iter(spec.submodule_search_locations)), "lang", language, "stop_words.py")
    module = module_from_spec(spec_from_file_location(f"_engram_{language}_stop_words", path))  # type: ignore[arg-type]
    module.__spec__.loader.exec_module(module)  # type: ignore[union-attr]
    return frozenset(module.STOP_WORDS)


def _only(word: str, language: str) -> bool:
    """A function word of `language` that is no English word."""
    return word in _function_words(language) and word not in STOPWORDS and not getAllLemmas(word)


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
    stop = _function_words(language)
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
