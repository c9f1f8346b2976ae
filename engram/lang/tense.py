"""Verb forms in a statement: whether it tells what someone did ("We replaced the cron jobs in October"), and the
dictionary's readings of a word. engram.lang.due reads a date in an account of the past as when it happened."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import lru_cache
from types import MappingProxyType

from engram.lang.events import OBJECT as _OBJECT
from engram.lang.events import SENTENCE as _SENTENCE
from engram.lang.lemmas import getAllLemmas, getInflection
from engram.lang.timewords import DAYS, MONTHS, SHORT_MONTHS, TimeRange

# A person said to have done something: the pronoun, an adverb perhaps, then the verb ("We replaced ...").
_DONE = re.compile(r"\b(?:I|we|they|he|she)\s+(?:[a-z]+ly\s+|just\s+|already\s+)?([a-z]+)\b", re.IGNORECASE)


# A past verb of intent before what is to be done ("I promised to be there", "we agreed to meet", "she asked me to
# call"): the deed lies ahead, and so does its day.
_INTENT_VERBS = frozenset(
    ("promised", "agreed", "decided", "planned", "arranged", "offered", "asked", "reminded", "told", "said")
)
# Modal verbs the lemma tables call past forms ("should" of "shall"): "I should call the bank on Monday" is ahead.
_MODALS = frozenset(("should", "could", "would", "might"))
# ... or before a deed promised as a clause: "I said I'd drive her there", "we told him we will".
_TO_DO = re.compile(
    r"\s+(?:(?:me|us|him|her|them|you|(?-i:[A-Z][a-z]+))\s+)?(?:to\s+[a-z]|(?:that\s+)?(?:I|we|he|she|they)"
    r"(?:['\u2019](?:d|ll)|\s+(?:would|will|shall))\b)",
    re.IGNORECASE,
)


# A participle told of a day ("Boiler serviced on 3 October", "registration €390 paid on 20 Nov", "the rehair was
# done in August", ", paid on my own card on 20 Nov"; a lookahead, so that each word may open one): what was done then, after a noun or "was". After "is", "be" or "to" it is a schedule or ahead
# ("rent is paid on the 1st", "will be delivered on Friday"); a participle of arranging names the day ahead
# ("Dentist booked on 3 Dec" is rare beside "moved on to Friday").
_DONE_ON = re.compile(
    rf"\b(?=([\w€£$'-]+)(,?)\s+([a-z]+)\s+((?:[\w'-]+\s+){{0,4}}?)(?:on|in)\s+(?:the\s+)?"
    rf"(?:\d|(?:{MONTHS}|{SHORT_MONTHS}|{DAYS})\b))",
    re.IGNORECASE,
)
_AHEAD = frozenset(
    """be is are am being will to 'll get gets getting must should can could would may might shall not""".split()  # noqa: SIM905
)
_ARRANGING = frozenset(
    """moved rescheduled postponed pushed booked scheduled set planned arranged fixed changed delayed confirmed
    expected supposed invited needed required held timed slated pencilled penciled organised organized reserved
    made due""".split()  # noqa: SIM905
)
# ... or a clause of its own ("Get the MOT done before it runs out on 2 December": the day it runs out).
_JOINING = frozenset("and but or then so that which who before after until till when once".split())  # noqa: SIM905
# ... and one whose day comes round each year ("Ada was born on 9 March"): a birthday, not a deed done.
_YEARLY = frozenset(("born", "married", "wed", "died", "passed"))


@lru_cache(maxsize=4096)
def readings(word: str) -> Mapping[str, tuple[str, ...]]:
    """`getAllLemmas(word)`, kept: a bulk write reads the same first words of sentences again and again, and each
    look-up parses the table's lines and copies what it found."""
    return MappingProxyType(getAllLemmas(word))


def inflected(word: str, tag: str) -> bool:
    """Whether `word` is a verb's form `tag` (VBD simple past, VBN past participle) that its base form is not."""
    word = word.lower()
    return any(
        lemma != word and word in getInflection(lemma, tag) for lemma in readings(word).get("VERB", ())
    )


def told_as_past(text: str) -> bool:
    """Whether `text` tells what someone did ("We replaced the cron jobs in October"): a pronoun followed by a
    verb in its simple past, a form no present tense shares ("put" and "read" are left out). A note says it
    without the pronoun ("Ran the parkrun on Saturday", "Met Carla on Friday"): a sentence opening with a simple
    past followed by its object (a determiner, a pronoun, a name or a number), so that a participle naming a
    thing ("Scheduled maintenance on Saturday") stays."""
    for found in _DONE.finditer(text[:2000]):
        intent = found.group(1).lower() in _INTENT_VERBS and _TO_DO.match(text, found.end()) is not None
        if not intent and found.group(1).lower() not in _MODALS and inflected(found.group(1), "VBD"):
            return True
    for sentence in _SENTENCE.finditer(text[:2000]):
        words = re.findall(r"[\w'-]+", sentence.group(1))
        if len(words) > 1 and inflected(words[0], "VBD"):
            following = words[1]
            if following.lower() in _OBJECT or following[0].isupper() or following[0].isdigit():
                return True
    return any(_done_on(found) for found in _DONE_ON.finditer(text[:2000]))


def _done_on(found: re.Match[str]) -> bool:
    """Whether a participle before "on"/"in" and a day tells what was done then (see `_DONE_ON`)."""
    before, clause, verb = found.group(1).lower(), found.group(2), found.group(3).lower()
    between = set(found.group(4).lower().split())
    if before in _AHEAD or verb in _AHEAD or verb in _ARRANGING or verb in _YEARLY or before.endswith("n't"):
        return False
    if between & (_AHEAD | _JOINING):  # "registered and can start on 7 December": another verb's day
        return False
    # A word that can name a thing is no participle told ("the flu shot in October"); after a comma the
    # participle opens a clause of its own (", paid on my own card on 20 Nov").
    return (
        inflected(verb, "VBN")
        and "NOUN" not in readings(verb)
        and (bool(clause) or before in ("was", "were", "been", "got") or "VERB" not in readings(before))
    )


# A sentence told ahead: a verb of what is under way or to come ("he's fitting a new valve", "they are coming",
# "we'll send it", "I'm going to call").
_AHEAD_TOLD = re.compile(
    r"(?:['\u2019](?:s|re|m)|\b(?:is|are|am))\s+(?:\w+ly\s+)?[a-z]{2,}ing\b|['\u2019]ll\b|\b(?:will|shall)\s+[a-z]",
    re.IGNORECASE,
)


def told_ahead(text: str) -> str:
    """The sentences of `text` told ahead and telling nothing done ("Drained the tank, the tap still drips.
    Dev's replacing the washer on the 4th": the second), joined; empty when there are none."""
    ahead = [
        s.group(1)
        for s in _SENTENCE.finditer(text[:2000])
        if _AHEAD_TOLD.search(s.group(1)) is not None and not told_as_past(s.group(1))
    ]
    return ". ".join(ahead)


_CLAUSE_END = re.compile(r"[.!?;:,]\s|\s[-\u2013]\s")


def done_in_clause(text: str, position: int) -> bool:
    """Whether the clause of `text` around `position` tells what was done ("Got the letter today, pay by 12 Dec":
    today's)."""
    window = max(0, position - 300)  # a clause is read in the few hundred characters around the day
    starts = [m.end() for m in _CLAUSE_END.finditer(text, window, position)]
    end = _CLAUSE_END.search(text, position, position + 300)
    return told_as_past(text[starts[-1] if starts else window : end.start() if end else position + 300])


_YEAR = re.compile(r"\b\d{4}\b")
# A question of what is to come: "what am I doing", "am I free", "what's happening", "will we", "going to". Not
# "is the meeting" (a determiner makes the -ing word a noun: "what is the meeting on 20 November about?").
_ASKED_AHEAD = re.compile(
    r"\b(?:am|are|is)\s+(?!(?:the|a|an|my|our|your|his|her|their|this|that)\b)(?:\w+\s+)?"
    r"(?:[a-z]{2,}ing|free|busy|around|away|off)\b|['\u2019]s\s+[a-z]{2,}ing\b|\bwill\b|['\u2019]ll\b|\bgoing\s+to\b"
    # What a diary holds: "what's on Friday morning?".
    r"|\bwhat(?:['\u2019]s|\s+is)\s+on\b",
    re.IGNORECASE,
)
_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.IGNORECASE)


def asks_ahead(question: str) -> bool:
    """Whether `question` asks what is to come ("what am I doing", "am I free", "where are we going", "what's on")."""
    return _ASKED_AHEAD.search(question) is not None and not told_as_past(question)


def asked_ahead(span: TimeRange | None, question: str, now: datetime) -> TimeRange | None:
    """The time a question names, read as one to come when the question is told ahead ("what am I doing on 5
    December?", "what's happening on Saturday?"): a date without its year that has passed is next year's, a
    weekday next week's. Unchanged when it is told of the past, names its year, or has not passed."""
    if span is None or span.after is None or span.before is None or _YEAR.search(span.phrase):
        return span
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if span.before > today or not asks_ahead(question):
        return span
    if _WEEKDAY.search(span.phrase):
        weeks = (today - span.after).days // 7 + 1
        return TimeRange(
            span.after + timedelta(weeks=weeks), span.before + timedelta(weeks=weeks), span.phrase
        )
    try:
        return TimeRange(
            span.after.replace(year=span.after.year + 1),
            span.before.replace(year=span.before.year + 1),
            span.phrase,
        )
    except ValueError:  # the 29th of February
        return span
