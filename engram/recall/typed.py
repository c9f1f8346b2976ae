"""Memories that hold no answer of the kind a question asks for (engram.lang.answers): "how much did the robot
cost" over "We decided to replace the robot with a Rowa unit", which names no amount. Such a memory is at most a
low-confidence guess, however many of the question's words it says. As for the names a question asks about
(engram.recall.named), only memories standing alone are judged: a turn of a conversation or a passage of a
document leaves the time or the amount to the turns and passages around it (a conversation's date is its
session's). A question about someone's relation ("who is Mateo's dentist", "what is Tomasz's wife called") is
answered only by a memory that states such a relation: one that only names Mateo says who he is, not who his
dentist is."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.lang.answers import asked, gives
from engram.lang.timewords import DAYS, SHORT_WORKDAYS
from engram.model.results import Scored
from engram.recall.kin import relation_said
from engram.recall.named import says
from engram.store.values import Facts


def untyped(shown: Sequence[Scored[Facts]], question: str) -> set[str]:
    """The memories of `shown` standing alone that hold no time (or amount, hour, password, relation, part of a
    name or occasion) the question asks for, or name only other weekdays than it does."""
    kind = asked(question)
    relation = _relation(question)
    part = _name_part(question)
    occasion = _occasion(question) if kind == "time" else ()
    days = _weekdays(question)
    if kind is None and not relation and part is None and not occasion and not days:
        return set()
    return {
        s.record.id
        for s in shown
        if s.record.episode is None
        and (
            (kind is not None and not gives(s.record.content, kind))
            or (relation and not _relation_stated(s.record.content.lower(), relation))
            or (part is not None and not part.search(s.record.content))
            or (occasion and not _states(s.record.content, occasion))
            or (days and (said := _weekdays(s.record.content)) and not days & said)
        )
    }


# A weekday the question names and a memory that names only other weekdays: "what time does the food bank open on
# Saturdays?" over "Volunteer shift at the food bank every Friday morning" is about another day.
# A weekday is also written short ("Mon Wed Fri", "Tues 5pm"); "sat" and "sun" are words of their own.
_WEEKDAY = re.compile(rf"\b(?:({DAYS})s?|({SHORT_WORKDAYS})\b\.?)(?=\W|$)", re.IGNORECASE)
_SHORT = {d[:3]: d for d in DAYS.split("|")}


def _weekdays(text: str) -> frozenset[str]:
    """The weekdays a text names, by their full names."""
    return frozenset((m.group(1) or _SHORT[m.group(2)[:3].lower()]).lower() for m in _WEEKDAY.finditer(text))


# When a yearly occasion is, asked for by name, is answered by a memory that states it: "Grace's graduation is on
# 8 July" holds a day but is no birthday. What was given for a birthday need not say the word, so only "when". A birthday is also said as the day born or the age turned.
_OCCASIONS: dict[str, tuple[str, ...]] = {
    "birthday": ("birthday", "birthdays", "bday", "b-day", "born", "turns", "turning", "turned"),
    "anniversary": ("anniversary", "married", "wedding"),
}
_OCCASION = re.compile(r"\b(birthday|anniversary)\b", re.IGNORECASE)


# A birthday said as the age reached, an ordinal after whose it is ("Grandad's 80th is on 15 February"), not a
# day of a month ("Jo's 15th of March").
_AGE_REACHED = re.compile(
    r"(?:['\u2019]s|\b(?:his|her|their|my))\s+\d{1,3}(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug"
    r"|sep|oct|nov|dec))",
    re.IGNORECASE,
)


def _states(content: str, occasion: tuple[str, ...]) -> bool:
    """Whether a memory states the occasion, by one of its words or, for a birthday, the age reached."""
    lowered = content.lower()
    if any(says(lowered, w) for w in occasion):
        return True
    return occasion is _OCCASIONS["birthday"] and _AGE_REACHED.search(content) is not None


def _occasion(question: str) -> tuple[str, ...]:
    """How a memory states the yearly occasion the question asks about, if it asks about one."""
    match = _OCCASION.search(question)
    return () if match is None else _OCCASIONS[match.group(1).lower()]


# A part of someone's name asked by the part said ("Dr Okonkwo's first name", "Jean's surname"): a memory that names
# them only by that part does not answer it; one that gives the other part beside it does ("Jean Marsh").
_NAME_PART = re.compile(
    r"\b([A-Z][^\W\d_]+)['\u2019]s\s+(first name|forename|given name|christian name|surname|last name"
    r"|family name|maiden name|full name|middle name)\b"
)
_BEFORE = frozenset({"first name", "forename", "given name", "christian name"})
_AFTER = frozenset({"surname", "last name", "family name", "maiden name"})
# Words before a surname that are no first name.
_TITLES = "Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame|Lady|Lord|Dear|Auntie|Aunt|Uncle|Nurse|Doctor"


def _name_part(question: str) -> re.Pattern[str] | None:
    """How a memory gives the part of a name the question asks for (a capitalised word before the name it says,
    or after it), if it asks for one."""
    match = _NAME_PART.search(question)
    if match is None:
        return None
    name, part = re.escape(match.group(1)), match.group(2).lower()
    # A first name also follows a title and the surname in brackets: "Ms Okoro (Funmi)".
    before = rf"\b(?!(?:{_TITLES})\b)[A-Z][^\W\d_]+\.?\s+{name}\b|\b(?:{_TITLES})\.?\s+{name}\s*\(\s*[A-Z]"
    after = rf"\b{name}\s+[A-Z][^\W\d_]+"
    said = before if part in _BEFORE else after if part in _AFTER else f"{before}|{after}"
    return re.compile(said)


# Someone's relation, asked by name or role ("Mateo's dentist", "my dentist's receptionist"): not the asker's own
# ("my husband"), whom the kin lookup finds by name.
_OWNED = re.compile(r"\b([^\W\d_]+)['\u2019]s\s+([^\W\d_]+)", re.IGNORECASE)
_ASKERS = frozenset(
    {"my", "our", "your", "his", "her", "their", "it", "that", "what", "who", "where", "when", "how"}
)


# The people around someone besides kin and the roles the kin lookup knows, each with how a memory says it.
_ROLES: dict[str, tuple[str, ...]] = {
    "teacher": ("teacher", "teaches", "taught", "form tutor"),
    "coach": ("coach", "coaches", "coached", "trainer"),
    "tutor": ("tutor", "tutors", "tutored"),
    "receptionist": ("receptionist", "reception", "front desk"),
    "hygienist": ("hygienist",),
    "friend": ("friend", "friends", "mate", "mates", "pal", "buddy"),
    "colleague": ("colleague", "colleagues", "coworker", "co-worker", "works with"),
}


def _relation_stated(text: str, relation: Sequence[str]) -> bool:
    """Whether lower-cased `text` says one of the `relation` words, also in the plural ("booster at Shawlands Vets"
    says whose vet it is as "the vet" does)."""
    return any(says(text, w) or says(text, f"{w}s") for w in relation)


def _relation(question: str) -> tuple[str, ...]:
    """How a memory states the relation the question asks of someone, if it asks one."""
    for match in _OWNED.finditer(question):
        if match.group(1).lower() in _ASKERS:
            continue
        if said := relation_said(match.group(2)) or _ROLES.get(match.group(2).lower(), ()):
            return said
    return ()
