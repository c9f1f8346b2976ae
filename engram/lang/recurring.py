"""A thing to do that comes round on a weekday ("Email Fiona a progress update every other Friday", "Put the
timesheet in every second Monday"): told as an instruction, each time it comes round it is to do again, so it is
due on its next day. A habit or a schedule told as a statement ("I run every Tuesday", "Marta comes every other
Friday") is no thing to do and is never due (engram.lang.due.standing)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from engram.lang.events import OBJECT as _OBJECT
from engram.lang.events import SENTENCE as _SENTENCE
from engram.lang.tense import inflected as _inflected
from engram.lang.tense import readings as _readings
from engram.lang.timewords import DAYS, MONTHS, SHORT_DAYS, SHORT_MONTHS, day_start
from engram.lang.weekday_dates import PARTS

_EVERY_WEEKDAY = re.compile(
    rf"\b(?:(?:every|each)\s+(?:(other|second|alternate)\s+)?|on\s+(alternate)\s+)({DAYS})s?\b", re.IGNORECASE
)


def weekday_rounds(text: str) -> tuple[int, int] | None:
    """The weekday (Monday 0) a recurrence in `text` names and the days between its times (7, or 14 for "every
    other"), or None when it names no weekday recurrence."""
    found = _EVERY_WEEKDAY.search(text)
    if found is None:
        return None
    step = 14 if found.group(1) or found.group(2) else 7
    return DAYS.split("|").index(found.group(3).lower()), step


def next_round(weekday: int, step: int, said_at: datetime, now: datetime | None) -> datetime:
    """The first day of that weekday on or after the day it was said, then every `step` days: the first of those
    on or after `now` (the day it was said when no `now` is given)."""
    said = day_start(said_at)
    day = said + timedelta(days=(weekday - said.weekday()) % 7)
    if now is not None and (today := day_start(now)) > day:
        day += timedelta(days=-(-(today - day).days // step) * step)
    return day


# What a weekday is, said as a kind of day or time with no determiner ("Sunday evening is family time", "Monday
# is bin day"), with whom or where only when it names a kind of day ("Friday night is pizza night with the kids";
# "Friday is lunch with Priya" is one lunch): each week's. "Monday is the deadline", "Friday is my last day" name
# one day.
_WEEKDAY_IS = re.compile(
    rf"^(?:{DAYS})(?:\s+(?:{PARTS}))?\s+is\s+([a-z]+(?:[\s-][a-z]+){{0,2}})"
    r"(\s+(?:with|at|in|for|round|together)\b[^,;.!]*)?\s*(?:[,;.!]|$)",
    re.IGNORECASE,
)


_KINDS_OF_DAY = frozenset({"day", "night", "time", "morning", "afternoon", "evening"})


# Things held in the plural on a bare weekday ("rehearsals Wednesday 7:30", "lessons Saturday at 10"): each week's.
# A weekday with its date ("meetings Monday 7 Dec") is one day.
_PLURAL_ON = re.compile(
    rf"\b([a-z]+s)\s+(?:on\s+)?(?:{DAYS})\b(?!\s+(?:the\s+)?\d{{1,2}}(?!:|\.\d|\s*[ap]\.?m\b))", re.IGNORECASE
)
# ... unless a place is named, a preposition and a determiner before it ("pick up the suit from the dry cleaners on
# Saturday", "meet Jo at the shops on Friday"): where one thing is done, once.
_PLACE_BEFORE = re.compile(r"\b(?:from|to|at|into|outside)\s+(?:the|a|my|our|your)\s+(?:[a-z-]+\s+)?$", re.I)


# A weekday before what is held on it (and where) and a verb of its schedule in the present, with no date
# ("Saturday club ride leaves from the cafe at 8:30", "Tuesday pilates at the leisure centre starts at 7pm"): each
# week's. "This Saturday's ride" is one.
_WEEKDAY_HELD = re.compile(
    rf"^(?:{DAYS})(?![^.;!?]*(?:\d{{1,2}}(?:st|nd|rd|th|/\d)|\d{{1,2}}\s+(?:{SHORT_MONTHS})|\b(?:{MONTHS})\b"
    r"|\b(?:this|next|tomorrow|today)\b))"
    rf"(?:\s+(?:{PARTS}))?\s+([a-z][^.;!?]*)",
    re.IGNORECASE,
)
_WHERE = frozenset(("at", "from", "in", "on"))
# A journey booked is one ("Saturday flight leaves at 6:40 from Leeds"), unlike a club's ride.
_ONE_OFF = frozenset(("flight", "flights", "plane", "ferry", "cruise", "train", "eurostar"))


def _held_each_week(sentence: str) -> bool:
    """Whether `sentence` tells what a bare weekday holds each week (see `_WEEKDAY_HELD`): the first verb in the
    present after it, then where or when, the words before it nouns, then perhaps where ("at the leisure
    centre")."""
    opening = _WEEKDAY_HELD.match(sentence)
    if opening is None:
        return False
    words = re.findall(r"[a-z][\w'-]*", opening.group(1).lower())[:10]
    if words and words[0] in _ONE_OFF:
        return False
    for at, word in enumerate(words[1:], 1):
        following = words[at + 1 : at + 3]
        if not following or word == "is" or not _inflected(word, "VBZ"):
            continue
        if following[0] not in _WHERE and following[-1] not in _WHERE:
            return False
        held = words[:at]
        held = held[: min((held.index(w) for w in ("at", "in") if w in held), default=len(held))]
        return bool(held) and all("NOUN" in _readings(w) or not _readings(w) for w in held)
    return False


# Someone doing or playing a pastime on a weekday, told in the present with no date ("Alfie does Beavers on
# Thursday", "Poppy does swimming Tues 5pm"): each week's. With a determiner it may be one ("Dad does his driving
# test on Thursday"); "the Christmas do is Friday" names a party.
_PASTIME = re.compile(
    r"(?<=\w\s)(?:does|do|plays|play)\s+([a-z]+)(?:\s+(?!this\b|next\b|coming\b)[a-z]+)?\s+(?:on\s+)?"
    rf"(?:{DAYS}|{SHORT_DAYS})\b\.?(?![^.;!?]*\b(?:this|next|tomorrow)\b)",
    re.IGNORECASE,
)
_DATED = re.compile(
    rf"\d{{1,2}}(?:st|nd|rd|th|/\d)|\d{{1,2}}\s+(?:{SHORT_MONTHS})|\b(?:{MONTHS})\b", re.IGNORECASE
)
_DETERMINERS = frozenset("the a an my his her their our your this that some its".split())  # noqa: SIM905


def _pastime(sentence: str) -> bool:
    """Whether `sentence` tells of a pastime done on a weekday each week (see `_PASTIME`)."""
    found = _PASTIME.search(sentence)
    if found is None or _DATED.search(sentence) is not None:
        return False
    word = found.group(1).lower()
    return word not in _DETERMINERS and ("NOUN" in (read := _readings(word)) or not read)


_SPANS = frozenset(("days", "weeks", "fortnights", "months", "years"))


def _in_name(text: str, at: int) -> bool:
    """Whether the word at `at` is capitalised within a sentence: part of a name ("Govan Tyres Monday 9am" names a
    garage, not tyres held each Monday)."""
    before = text[:at].rstrip()
    return text[at].isupper() and before != "" and before[-1] not in ".!?;:\n"


def weekly(text: str) -> bool:
    """Whether a sentence of `text` says what a weekday is each week (words that can only be nouns after it), or
    what a bare weekday holds, or names things held in the plural on a bare weekday."""
    if any(_held_each_week(s.group(1).strip()) for s in _SENTENCE.finditer(text[:2000])):
        return True
    if any(_pastime(s.group(1)) for s in _SENTENCE.finditer(text[:2000])):
        return True
    for held in _PLURAL_ON.finditer(text[:2000]):
        word = held.group(1).lower()
        if word in _SPANS or _in_name(text, held.start()):  # "two weeks on Friday": a span counted to one day
            continue
        if _PLACE_BEFORE.search(text, max(0, held.start() - 48), held.start()):
            continue
        nouns = _readings(word).get("NOUN", ())
        if nouns and word not in nouns and "VERB" not in _readings(word):
            return True
    for sentence in _SENTENCE.finditer(text[:2000]):
        found = _WEEKDAY_IS.match(sentence.group(1).strip())
        if found is None:
            continue
        words = re.split(r"[\s-]+", found.group(1).lower())
        if found.group(2) and words[-1] not in _KINDS_OF_DAY:
            continue
        readings = [_readings(w) for w in words]
        if (
            all("NOUN" in r and "ADJ" not in r and "ADV" not in r for r in readings)
            and words[0] not in _OBJECT
        ):
            return True
    return False


# A liking or a dislike bounded by a time of day: "User dislikes meetings before 10am", "I like to finish by 5". A
# rule of the person's, as a prohibition is.
_LIKING = re.compile(
    r"(?:^|[.!?;:]\s+)(?:(?:i|we|user|the user|[A-Z][a-z]+)\s+)?(?:really\s+)?(?:dislikes?|hates?|prefers?|likes?"
    r"|loves?|enjoys?|can['\u2019]?t stand|would rather)\s+(?:to\s+)?[a-z-]+(?:\s+[a-z-]+)?\s+(?:before|after|by|until)\s+"
    r"(?:\d{1,2}(?:[:.]\d\d\b|\s*[ap]\.?m\b|\b)|noon|midday|midnight|lunch|dark)",
    re.IGNORECASE,
)


def bound_liking(text: str) -> bool:
    """Whether `text` tells a liking or a dislike bounded by a time of day: a standing rule, never due."""
    return _LIKING.search(text) is not None


# A gathering that comes round, told with its next time ("Planning meeting every other Wednesday; next one is
# 25 November", "Book club meets every other Tuesday, the next is on the 8th"): each time is one to go to, listed on
# its next day. A chore's schedule ("the recycling goes out every other Monday, next one is 30 November") stays one.
_GATHERING = frozenset(
    """meeting review class lesson session call club practice rehearsal standup stand-up demo retro retrospective
    appointment clinic training catch-up check-in supervision surgery choir workshop seminar sync""".split()  # noqa: SIM905
)
_RECURS_AT = re.compile(
    r"^\W*(?:[\w'-]+\s+){0,4}?([\w'-]+)\s+(?:is\s+|are\s+|meets\s+|runs\s+|happens\s+)?"
    r"(?:every|each|on\s+alternate|fortnightly|weekly|monthly)\b",
    re.IGNORECASE,
)
_NEXT_TIME = re.compile(
    r"\bnext\s+(?:one\s+|session\s+|meeting\s+)?(?:is\s+|['\u2019]s\s+|will\s+be\s+)?(?:on\s+)?"
    rf"(?=(?:the\s+)?\d|(?:{MONTHS}|{DAYS}|tomorrow)\b)",
    re.IGNORECASE,
)


def next_gathering(text: str) -> int | None:
    """Where `text` names the next time of a gathering that comes round (see `_GATHERING`), or None."""
    opening = _RECURS_AT.match(text)
    what = "" if opening is None else opening.group(1).lower()
    if (
        not {what, what.removesuffix("s"), what.removesuffix("es")} & _GATHERING
    ):  # "Yoga classes every Monday"
        return None
    found = _NEXT_TIME.search(text, opening.end()) if opening is not None else None
    return None if found is None else found.start()


# The bounds of a year an organisation keeps ("Tax year: business year end is 31 March", "The financial year starts
# on 1 April"): a fact about a date, each year's, not a thing to do.
_YEAR_BOUND = re.compile(
    r"\b(?:tax|financial|fiscal|business|company|accounting|academic|school|trading)\s+(?:year|period)"
    r"(?:\s*[- ]?end)?(?:\s+(?:for|of)\s+(?:the\s+|our\s+|my\s+)?[\w'-]+)?\s*(?:is|ends|starts|begins|runs)\b",
    re.IGNORECASE,
)


# A day each month is counted on, told as what it is ("Payday is the last Friday of the month"): each month's.
_MONTHS_DAY = re.compile(
    rf"\b(?:is|are|falls|fall|on)\s+(?:on\s+)?the\s+(?:first|second|third|fourth|last|1st|2nd|3rd|4th)\s+"
    rf"(?:{DAYS}|day|weekday|working\s+day)\s+(?:of|in)\s+the\s+month\b",
    re.IGNORECASE,
)


def period_day(text: str) -> bool:
    """Whether `text` tells when a kept year ends or starts (see `_YEAR_BOUND`) or the day a month is counted on
    (see `_MONTHS_DAY`)."""
    return _YEAR_BOUND.search(text[:2000]) is not None or _MONTHS_DAY.search(text[:2000]) is not None
