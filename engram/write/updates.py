"""When a new memory says that an older one changed: "We moved the Acme standup to 10am" after "Our daily standup
with Acme is at 9:30am", "Clara moved to Porto" after "My sister Clara lives in Lisbon", "Correction: the invoice is
1,250 EUR, not 1,200". Such pairs embed far apart for one fact (cosine 0.59 to 0.75 with the default model), no
closer than statements about the same person that did not change ("Clara's husband Tom works at Siemens", 0.55;
"Our weekly retro with Acme", 0.64), so the closeness alone cannot tell them. The new text must say that something
changed, name who or what it is about as the older one does, add no other topic, and differ from it in a number, a
day or a name. A role one person holds at a time ("my manager is Sofia Ruiz", then "my manager is now Priya Nair")
is about the role, not the names: the two share none."""

from __future__ import annotations

import re

from engram.lang.text import STOPWORDS, stem, words
from engram.lang.timewords import DAYS, MONTHS
from engram.write.rules import same_particulars

UPDATE_AT = 0.6  # cosine from which a memory that says something changed may update an older one

# Words that say a fact changed or was wrong.
_CHANGE = re.compile(
    r"\b(?:moved|moving|changed|switched|swapped|rescheduled|postponed|brought forward|corrected|correction"
    r"|actually|now|no longer|any ?more|instead|updated?|raised|lowered|cancelled|canceled|renamed)\b",
    re.IGNORECASE,
)
_CAPITALISED = re.compile(r"\b[A-Z][\w'\u2019-]*")
_CALENDAR = re.compile(rf"^(?:{MONTHS}|(?:{DAYS})s?)$", re.IGNORECASE)
_CHANGE_WORDS = frozenset(
    {"move", "moved", "moving", "now", "change", "changed", "switch", "switched", "correction", "corrected",
     "actually", "longer", "anymore", "instead", "update", "updated", "again", "new", "raised", "lowered"}
)  # fmt: skip


# Roles a person has one of at a time, said as "my/our <role> is (now) <Name>": a new holder replaces the old one.
# Kin with several holders (a sister, a cousin, a neighbour) are not among them.
_HELD = re.compile(
    r"\b(?:my|our)\s+(?:new\s+)?(line manager|manager|boss|landlord|landlady|accountant|dentist|doctor|gp"
    r"|therapist|mentor|husband|wife|partner)\s+is\s+(?:now\s+)?(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?"
    r"((?-i:[A-Z])[\w'\u2019-]*)",  # a capitalised name, whatever the case of the rest
    re.IGNORECASE,
)


def _holder(text: str) -> tuple[str, str] | None:
    """The role and its holder's first name that `text` states ("my manager is Dana" -> manager, dana)."""
    found = _HELD.search(text)
    return None if found is None else (found.group(1).lower(), found.group(2).lower())


def says_change(text: str) -> bool:
    """Whether a text says that something changed or was wrong."""
    return _CHANGE.search(text) is not None


def _names(text: str) -> set[str]:
    """The capitalised words that are not a stopword, a change word, a month or a day: who or what it is about,
    lower-cased, a possessive's "'s" dropped."""
    out = set()
    for found in _CAPITALISED.findall(text):
        word = words(found)
        name = word[0] if word else ""
        if name and name not in STOPWORDS and name not in _CHANGE_WORDS and not _CALENDAR.match(name):
            out.add(name)
    return out


def _topic(text: str, names: set[str]) -> set[str]:
    """The stems of its words that are no name, number, stopword, change word or time of day."""
    return {
        stem(w)
        for w in words(text)
        if w.isalpha() and w not in STOPWORDS and w not in _CHANGE_WORDS and not _CHANGE.fullmatch(w)
        and w not in names and w not in {"am", "pm"} and not _CALENDAR.match(w)
    }  # fmt: skip


def updates(new: str, old: str, cosine: float) -> bool:
    """Whether `new`, said later, updates `old`: it says something changed, is close to it, shares a name with it
    when either names anyone, adds no topic the older one lacks (the standup is not the retro; a preference for
    backend work is not one for client projects) and differs from it in a number, a day or a name."""
    if cosine < UPDATE_AT or not says_change(new):
        return False
    held, had = _holder(new), _holder(old)
    if held is not None and had is not None and held[0] == had[0]:
        return held[1] != had[1]  # one role, said by who holds it: another name is a new holder
    new_names, old_names = _names(new), _names(old)
    new_words, old_words = set(words(new)), set(words(old))
    if (new_names or old_names) and not (new_names & old_words or old_names & new_words):
        return False
    old_stems = {stem(w) for w in old_words}
    if not _topic(new, new_names) <= old_stems:
        return False
    return not same_particulars(new, old) or bool(new_names - old_words)
