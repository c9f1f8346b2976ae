"""The names a question asks about. "What is Tomás's shoe size" is about Tomás: a memory that gives a shoe size
without naming him answers someone else's, however well its other words match, while another memory does name
him. Such a memory is at most a low-confidence guess. Only memories that stand alone are judged so: a turn of a
conversation or a passage of a document leaves the names to the turns and passages around it ("I researched
adoption agencies", said by the person asked about)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from engram.lang.holidays import without_holidays
from engram.lang.text import STOPWORDS
from engram.lang.timewords import DAYS, MONTHS, SHORT_MONTHS
from engram.model.results import Scored
from engram.recall.kin import kin_words
from engram.recall.synonyms import written_otherwise
from engram.store.values import Facts

# A capitalised word of any alphabet, with its possessive.
_CAPITALISED = re.compile(r"(?<![^\W_])([^\W\d_][\w'\u2019-]*?)(?:['\u2019]s)?(?![\w'\u2019])")
# A month, a weekday or a holiday names when, not whom: "the Christmas turkey" is answered by "order the turkey by
# 12 December", which need not say Christmas, and the time score already weighs the time a question names. The
# months people are also named after stay names ("what did June say").
_TIMES = frozenset(
    f"{MONTHS}|{SHORT_MONTHS}|{DAYS}|christmas|xmas|easter|halloween|hanukkah|diwali|eid|ramadan".split("|")
) - {"april", "may", "june", "august"}
_DAYS = frozenset(DAYS.split("|"))
# A nationality or a language says which of a kind, as a memory need not ("my British passport" for "my UK one").
_NATIONAL = frozenset(
    """british english scottish welsh irish american canadian australian french german spanish italian portuguese
    dutch belgian swiss austrian polish czech swedish norwegian danish finnish greek turkish russian ukrainian
    chinese japanese korean indian pakistani bangladeshi nigerian kenyan zimbabwean african european asian mexican
    brazilian argentinian""".split()  # noqa: SIM905
)


def names_asked(question: str) -> tuple[str, ...]:
    """The names a question says: its capitalised words after the first, not an acronym ("PR", "API": said
    otherwise as often as not), not "I", no stopword and no time (a month, a weekday, a holiday, "New Year"
    too); lower case."""
    # A holiday of several words ("New Year", "Boxing Day") names when as "Christmas" does (`_TIMES`).
    found = [m.group(1) for m in _CAPITALISED.finditer(without_holidays(question))]
    return tuple(
        dict.fromkeys(
            w.lower()
            for w in found[1:]
            if w[0].isupper()
            and not w.isupper()
            and w.lower() not in STOPWORDS
            and w.lower() not in _TIMES
            and w.lower() not in _NATIONAL
            and w.lower().removesuffix("s") not in _DAYS  # "on Sundays" names when, as "on Sunday" does
            and len(w) > 1
        )
    )


def unnamed(
    shown: Sequence[Scored[Facts]], scored: Sequence[Scored[Facts]], names: Sequence[str]
) -> set[str]:
    """The memories of `shown` standing alone (in no episode and no document) that do not say a name of the
    question that another of the `scored` candidates says. Only what is shown is read name by name; the other
    candidates, as one text, only when one shown lacks a name."""
    if not names:
        return set()
    alone = [s for s in shown if s.record.episode is None]
    lacking = {s.record.id: {n for n in names if not names_said(s.record.content.lower(), n)} for s in alone}
    if not any(lacking.values()):
        return set()
    everything = "\n".join(s.record.content for s in scored).lower()
    said = {n for n in names if names_said(everything, n)}
    return {memory_id for memory_id, missing in lacking.items() if said & missing}


def names_said(text: str, name: str) -> bool:
    """Whether lower-cased `text` says the name `name` as written or as it is also written: a word of a place's
    name written short ("Cricklade Rd" for "Cricklade Road"), or a family named in the plural ("the Prices" are
    Jordan Price's household)."""
    forms = (name, *written_otherwise(name))
    if len(name) > 3 and name.endswith("s") and not name.endswith("ss"):
        forms = (*forms, name[:-1])
    return any(says(text, form) for form in forms)


# "my dad's birthday": a kin word of the asker's, owning a thing.
_KIN_OWNS = re.compile(r"\b(?:my|our)\s+([^\W\d_][\w-]*)['\u2019]s\s+([^\W\d_]+)", re.IGNORECASE)


def owned_by_another(
    shown: Sequence[Scored[Facts]],
    scored: Sequence[Scored[Facts]],
    question: str,
    kin: Mapping[str, Sequence[str]],
) -> set[str]:
    """The memories of `shown` standing alone that give the thing a kin word of the question owns as the thing of
    someone named whom a candidate gives another relation of the asker's, and say neither the kin word nor a name
    of it: "when is my dad's birthday" is not answered by "Tom's birthday is 5 January" when "Flatmate is Tom
    Reyes". A name no memory relates stays a guess either way: it may be the kin's own. `kin` holds each kin
    word's words and names."""
    doubtful: set[str] = set()
    texts = [s.record.content for s in scored]
    for asked in _KIN_OWNS.finditer(question):
        words = kin.get(asked.group(1).lower())
        if not words:
            continue
        owned = re.compile(rf"\b([A-Z][\w-]*)['\u2019]s\s+{re.escape(asked.group(2).lower())}\b")
        for s in shown:
            text = s.record.content
            if s.record.episode is not None or any(says(text.lower(), w.lower()) for w in words):
                continue
            owners = {m.group(1) for m in owned.finditer(text)} - {w.title() for w in STOPWORDS}
            if any(_related_otherwise(owner, words, texts) for owner in owners):
                doubtful.add(s.record.id)
    return doubtful


def _related_otherwise(name: str, words: Sequence[str], texts: Sequence[str]) -> bool:
    """Whether one of `texts` gives `name` a relation of the asker's that none of `words` says ("my flatmate Tom",
    "Tom, my flatmate", "Flatmate is Tom Reyes", "Tom (flatmate)")."""
    said = re.escape(name)
    relation = r"([^\W\d_][\w-]*)"
    patterns = (
        rf"\b(?:my|our)\s+{relation}\s*,?\s+{said}\b",
        rf"\b{said}\b,?\s+(?:is\s+)?(?:my|our)\s+{relation}",
        rf"(?:^|[.!?;]\s+){relation}\s+(?:is|was)\s+{said}\b",
        rf"\b{said}\s*\(\s*(?:my\s+|our\s+)?{relation}",
    )
    lowered = {w.lower() for w in words}
    for text in texts:
        if name not in text:
            continue
        for pattern in patterns:
            for match in re.finditer(pattern, text, re.IGNORECASE):
                found = kin_words(f"my {match.group(1)}")
                if found and not any(w in lowered for said_as in found.values() for w in said_as):
                    return True
    return False


def says(text: str, name: str) -> bool:
    """Whether lower-cased `text` holds the word (or words) `name` whole. Found as plain text: a pattern for each
    name took longer to compile than the rest of this step."""
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        if (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return True
        start = text.find(name, start + 1)
    return False
