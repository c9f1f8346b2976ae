"""When things to do are due: the day a reminder names, read forward from when it was said, and the days a
question about things to do asks for ("this week", "tomorrow", "in December").

A rule or a habit ("never deploy on Fridays") is never due: it holds each time. A deadline ("by", "due" ...)
with a date makes a statement a reminder whatever else it is.

A reminder's due day is the first date it names ("by Friday", "next Tuesday at 3pm", "end of Q1"), resolved by
dateparser toward the future from the memory's creation: "Friday" said on a Tuesday is that week's Friday, "March"
said in November next March. An event on a day is due that day (engram.lang.events). No date, no due day (UTC).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from datetime import UTC, datetime
from functools import lru_cache

from engram.lang.conditions import waived
from engram.lang.events import booked_ahead, event, stated_occasion, yearly
from engram.lang.foreign_dates import ROMANCE_EVERY
from engram.lang.holidays import weekday_before
from engram.lang.instruction import DEADLINE, instruction, owed, states_deadline, to_whom
from engram.lang.month_days import DAY_MONTH, ORDINAL, after_dated_heading, left_behind, missed
from engram.lang.one_date import read_one
from engram.lang.recurring import bound_liking, next_gathering, next_round, period_day, weekday_rounds, weekly
from engram.lang.tense import done_in_clause, told_ahead, told_as_past
from engram.lang.tense import inflected as _inflected
from engram.lang.terms import after_event, from_event, given_days
from engram.lang.timewords import DATE, DAYS, MONTHS, SHORT_MONTHS, day_start
from engram.lang.undated import undated
from engram.lang.weekday_dates import (
    COUNTED,
    WEEKDAY_DATE,
    before_date,
    may_name_day,
    slot,
    the_one_before,
    weekday_span,
)
from engram.lang.weekday_dates import spelled as _spelled
from engram.lang.window import window


def due_day(text: str, said_at: datetime) -> datetime | None:
    """The UTC day `text` names as its due date, read forward from `said_at`: the first date it names that is
    not before the day it was said. None if it names none."""
    found = _first_due(text, day_start(said_at.astimezone(UTC)))
    return None if found is None else found[0]


# A month, a quarter or a year alone ("by October", "next month", "by end of Q1") is a horizon, not a due day.
_MONTH_ONLY = re.compile(
    rf"(?:(?:{MONTHS})(?:\s+\d{{4}})?|next month|end of (?:the )?(?:year|quarter|q[1-4]))", re.IGNORECASE
)


def deadline_day(text: str, said_at: datetime) -> datetime | None:
    """The day a statement is due when it names one (a date, a weekday, tomorrow, the end of a week or month),
    not a month alone: "run a marathon by October" is a plan, "send the slides by 4 December" a reminder. None
    for a rule or a habit."""
    if not may_name_day(text) or standing(text):
        return None
    if _comes_round(text):  # "Email Fiona an update every other Friday": its next round
        return next(iter(reminder_days(text, said_at)), None)
    found = _first_due(text, day_start(said_at.astimezone(UTC)))
    return None if found is None or _MONTH_ONLY.fullmatch(found[1]) else found[0]


_CACHED_CHARS = 4000  # a longer text (a pasted document) is read again rather than held in the cache
_AT_MOST = 6  # days read of one text


def _first_due(text: str, said_at: datetime) -> tuple[datetime, str] | None:
    """The due day `text` names (`_named_days`' first) and the phrase that names it; None for none."""
    named = _named_days(text, said_at)
    return named[0] if named else None


def due_days(text: str, said_at: datetime) -> list[datetime]:
    """Every day `text` names that is not before the day it was said, in calendar order ("ring the garage
    tomorrow; if it is not fixed by 9 Dec, book the other one": both)."""
    return sorted({day for day, _ in _named_days(text, day_start(said_at.astimezone(UTC)))})


# A title in quotes (its words capitalised, unlike words quoted as said) names no day: "read 'Tomorrow' tonight".
_QUOTED = re.compile(r"(?<!\w)['\u2018\"\u201c][^'\u2019\"\u201d\n]{2,120}['\u2019\"\u201d](?!\w)")


def _unless_titled(quoted: re.Match[str]) -> str:
    words = re.findall(r"[^\W\d_]{4,}", said := quoted.group())
    return " " * len(said) if words and all(w[0].isupper() for w in words) else said


def _named_days(text: str, said_at: datetime) -> tuple[tuple[datetime, str], ...]:
    """The days `text` names that are not before the day it was said, the due day first (`_read_due`). None
    for what was done: a date in an account of the past is when it happened, not a day something is due.
    Callers pass the day (UTC midnight), so that the kind's read and the due day's of one write share a result."""
    text = after_dated_heading(text, said_at) or text  # "Call with Katrin 24 Nov: ...": when it was noted
    text = _QUOTED.sub(_unless_titled, text)
    if not may_name_day(text):
        return ()
    try:
        return _cached_due(text, said_at) if len(text) <= _CACHED_CHARS else _read_due(text, said_at)
    except (ValueError, OverflowError):  # read forward from the calendar's last days (an import's 9999-12-31)
        return ()


def _read_due(text: str, said_at: datetime) -> tuple[tuple[datetime, str], ...]:
    """The days `text` names, each with its phrase: first the due day (the first a deadline word introduces, else
    the first named), then the others in calendar order. Empty for none."""
    text = _spelled(text)
    past = told_as_past(text) and not (stated_occasion(text) or booked_ahead(text))
    if past and DEADLINE.search(text) is None:
        # "Drained the water butt, the tap still drips. Dev's replacing the washer on the 4th": a sentence told ahead names
        # a day to come, whatever was done before it.
        if not (text := told_ahead(text)):
            return ()
        past = False
    said = day_start(said_at.astimezone(UTC))
    if (late := missed(text, said)) is not None:
        return (late,)
    pinned = [*WEEKDAY_DATE.finditer(text), *COUNTED.finditer(text)]  # first: they hold the others' matches
    starts = [m.start() for m in sorted(pinned, key=lambda m: m.start())]
    ends = sorted(m.end() for m in pinned)
    others = [*DATE.finditer(text), *ORDINAL.finditer(text), *DAY_MONTH.finditer(text)]
    # "Thu 10.12.": the pinned date, not Thursday alone as well (a pinned match is open from its start to its end)
    inside = [bisect_right(ends, m.start()) < bisect_left(starts, m.end()) for m in others]
    dates = sorted(
        [*pinned, *(m for m, held in zip(others, inside, strict=True) if not held)], key=lambda m: m.start()
    )
    # The date a deadline word introduces is the due day ("Passport expires 20 February. Apply for the renewal
    # by 15 December."); without one, the first date named.
    idle = waived(text)  # "if the van fails before Christmas we sell it", "the fix ends 28 February"
    start, end = from_event(text)  # "within a fortnight of the move": not a fortnight from today
    dates = [m for m in left_behind(text, dates) if not idle(m.start()) and not start <= m.start() < end]
    marked = [
        m
        for m in dates
        if (_MARKS.search(text, max(0, m.start() - 64), m.start()) or DEADLINE.match(m[0]))
        and not the_one_before(text, m.span())  # "by the Friday before": read after the date it is before
    ]
    if marked:
        dates = [*marked, *(m for m in dates if m not in marked)]
    elif past:  # "Paid the deposit today, the balance is due 8 weeks before": the day it was done
        return ()
    named: list[tuple[datetime, str]] = []
    tried = 0  # dates read after the due day
    at: dict[int, datetime] = {}  # where each day read was named
    for found, following in zip(dates, [*dates[1:], None], strict=False):
        if len(named) >= _AT_MOST or (named and (tried := tried + 1) > 2 * _AT_MOST):  # a run of dates
            break
        # A day of the month alone after a date is of that date's month ("out on 9 Feb, back on the 13th").
        before = [day for start, day in sorted(at.items()) if start < found.start()]
        after = before[-1] if before and found.re is ORDINAL else said
        # After the due day, other days to come: in an account of the past only those a deadline word names,
        # none in a clause telling what was done ("Got the letter today, pay by 12 Dec").
        if named and found not in marked and (past or done_in_clause(text, found.start())):
            continue
        if (read := read_one(text, found, following, after)) is None:
            continue
        if (eve := weekday_before(text, found.span(), said)) is not None:  # "the Thursday before Easter"
            read = (eve, read[1])
        named.append(read := before_date(text, found.span(), read, before))  # "Sat 5 Dec ... Friday night"
        at[found.start()] = read[0]
    # "within a week of the wedding on 19 December": counted from the wedding's day, which it stands for
    if named and (counted := after_event(text, at)) is not None:
        named = (
            [counted[0], *(n for n in named if n[0] != counted[1])] if counted[1] else [*named, counted[0]]
        )
    if named:
        return (named[0], *sorted(set(named[1:]) - {named[0]}))
    alone = given_days(text, said) or undated(text, said)  # "pay within 14 days", "net 30"; "for Christmas"
    where = -1 if alone is None else text.lower().find(alone[1].lower())
    # "on 12 November 2026" said after it: a date gone, not this month ("November 2026") as its horizon
    gone = any(m.start() <= where < m.end() for m in dates)
    return () if alone is None or (where >= 0 and idle(where)) or gone else (alone,)


_cached_due = lru_cache(maxsize=4096)(_read_due)


# What makes a statement hold each time instead of once: a recurrence ("every Tuesday", "on Fridays", "daily"),
# a habit ("usually", "always"), a prohibition kept as a rule ("never", "a team rule", "policy").
_STANDING = re.compile(
    rf"\b(?:every|each)\s+(?:other\s+|single\s+)?(?:day|night|morning|afternoon|evening|week|weekend|weekday"
    rf"|month|year|time|{DAYS})\b|\b(?:{DAYS})s\b|\bevery\s+(?:\d+|few|couple of|two|three|four|five|six|ten)\s+"
    r"(?:days|nights|weeks|months|years)\b|\b(?:once|twice|three times)\s+(?:a|per|every)\s+(?:day|week|month|year)\b|\b(?:weekends|weekdays|mornings|afternoons|evenings|nights)\b"
    r"|\balternate\s+(?:days|nights|weeks|weekends|months|years)\b"  # "recycling alternate weeks"
    r"|\b(?:daily|nightly|weekly|fortnightly|monthly|yearly|annually|always|never|usually|normally|typically"
    r"|generally|whenever|as a rule|immer|jeden|jede|jedes|täglich|wöchentlich|morgens"
    r"|abends|nie|niemals)\b|每天|每周|每个|每月|每年|总是|从不"
    rf"|{ROMANCE_EVERY}"
    # A rule or policy the text states ("Team rule: ...", "that's company policy", "the rule is ..."); a task
    # about one ("Review the travel policy by 3 March") is still due.
    r"|\b(?:rules?|polic(?:y|ies))\s*:|\b(?:rule|policy)\s+is\b"
    r"|(?:\bis|\bare|['\u2019]s)\s+(?:(?:a|an|the|our|my|their)\s+)?(?:[a-z-]+\s+)?(?:rules?|polic(?:y|ies))\b",
    re.IGNORECASE,
)
# ... right before the date they introduce ("by 15 December"), read in the 64 characters before it (not all).
_MARKS = re.compile(
    r"\b(?:by|before|due|until|till|deadline:?|no later than)\s+(?:on\s+|by\s+|the\s+)?$", re.IGNORECASE
)
# A prohibition said as an instruction ("Don't book calls after 11am"): a rule, unless it is a reminder not to
# forget something.
# "No meetings before 9:30", "No coffee after 2pm": what is kept out of the hours each day, a rule too.
_PROHIBITION = re.compile(
    r"(?:^|[.!?;:]\s+)(?:(?:don['\u2019]?t|do not)\s+(?!forget\b|miss\b)|no\s+[a-z-]+\s+(?:before|after)\s+"
    r"(?:\d{1,2}(?:[:.]\d\d\b|\s*[ap]\.?m\b)|noon|midday|midnight|lunch))",
    re.IGNORECASE,
)

# A day of the month on which something is done, said in the present ("Rent is paid on the 1st", "The bins
# are collected on the 2nd"): a schedule, each month's. A deadline ("is due on the 1st") is no participle.
_SCHEDULED = re.compile(
    rf"(?:\b(?:is|are|gets?|get)\s+|,\s*)([a-z]+)\s+(?:[a-z]+\s+)?on\s+the\s+\d{{1,2}}(?:st|nd|rd|th)\b"
    rf"(?!\s+(?:of\s+)?(?:{MONTHS}|{SHORT_MONTHS})\b)",
    re.IGNORECASE,
)


# "every" before any noun ("Every sprint ends with a demo on Thursday", "at every shift change"): each time it
# comes round. A deadline or an instruction may name "every" as a quantifier ("Send every invoice by Friday").
_EVERY = re.compile(r"\b(?:every|each)\s+(?!one\b|other\b|of\b)[a-z]", re.IGNORECASE)
# A time of day each day ("run the fan heater at night"), "each time": with no day named, an instruction holds
# whenever it comes round.
_EACH_TIME = re.compile(r"\b(?:at night|each time|every time|in the (?:mornings|evenings)|nightly)\b", re.I)
_ANY_DAY = datetime(2000, 1, 1, tzinfo=UTC)  # whether a text names a day at all, read from a day long past


# A payment the bank makes each time ("Standing order of £450 goes out on the 1st"): a schedule, not a thing to do,
# unless a task about it is asked ("Cancel the direct debit before the 1st").
_PAYMENT = re.compile(r"\b(?:standing\s+orders?|direct\s+debits?|dauerauftrag|lastschrift)\b", re.IGNORECASE)
# The next time of a recurring thing given a deadline ("every 28 days, next one by Monday"): that time is to do.
_NEXT_DUE = re.compile(r"\bnext\s+(?:one\s+|time\s+)?(?:is\s+)?(?:due\b|by\b|before\b)", re.IGNORECASE)


# A prohibition stated as a fact ("Friday afternoon deploys are banned"): a rule, unless a task about it is asked.
_BANNED = re.compile(
    r"\b(?:banned|forbidden|prohibited|not (?:allowed|permitted)|off[- ]limits|verboten)\b", re.I
)


# A frequency said of a thing ("the weekly report", "the daily living section"), not of the statement: with a
# deadline, "Submit the weekly report by Friday" is due on Friday. German "nie" (never) is Polish "nie" (not).
_OF_A_THING = re.compile(
    r"(?:daily|nightly|weekly|fortnightly|monthly|yearly)\s+(?!(?:by|before|until|on|at|in)\b)[a-z]"
)
_POLISH = re.compile(r"[ąćęłńśźż]", re.IGNORECASE)
# Nights or mornings counted ("7 nights", "two evenings") are a stay's length, and "the nights" after a word that
# is no time preposition ("notes about the nights") a topic: once, unless a rate follows ("3 evenings a week").
_COUNTED = re.compile(
    r"(?:\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|few|couple\s+of)"
    r"|\b(?!(?:in|during|at|on|through|across|most|all)\s)[a-z]+\s+(?:the|those|these))\s+$",
    re.IGNORECASE,
)
_PARTS_OF_DAYS = frozenset({"weekends", "weekdays", "mornings", "afternoons", "evenings", "nights"})
_RATE = re.compile(r"\s+(?:a|an|per|each|every)\s+(?:week|month|year|fortnight)\b", re.IGNORECASE)


# The word after "never": "never" before a simple past ("I never rang them") says a thing was not done once,
# as "didn't" does in everyday British English; before a base form ("never deploy on Fridays") it is a rule.
_NEXT_WORD = re.compile(r"\s+([a-z]+)\b", re.IGNORECASE)


def _told_undone(text: str, end: int) -> bool:
    following = _NEXT_WORD.match(text, end)
    return following is not None and _inflected(following.group(1), "VBD")


def _recurs(text: str) -> bool:
    """Whether `text` says it holds each time (`_STANDING`), leaving out what names a thing's frequency in a
    statement with a deadline and a Polish "nie"."""
    deadline = None
    for found in _STANDING.finditer(text):
        word = found.group(0).lower()
        if word == "nie" and _POLISH.search(text):
            continue
        if word == "never" and _told_undone(text, found.end()):
            continue
        if (
            word in _PARTS_OF_DAYS
            and _COUNTED.search(text, 0, found.start())
            and not _RATE.match(text, found.end())
        ):
            continue
        if _OF_A_THING.match(text, found.start()):
            deadline = states_deadline(text) if deadline is None else deadline
            if deadline:
                continue
        return True
    return False


def standing(text: str) -> bool:
    """Whether `text` is a rule or a habit (it holds every time it applies), so never due."""
    text = _spelled(text)
    if _comes_round(text) or next_gathering(text) is not None:
        return False
    recurs = _recurs(text) and _NEXT_DUE.search(text) is None
    if recurs or _PROHIBITION.search(text) is not None or bound_liking(text) or weekly(text):
        return True
    if (weekday_span(text) or period_day(text)) and not states_deadline(text) and not instruction(text):
        return True
    repeated = _EVERY.search(text) or _BANNED.search(text) or _PAYMENT.search(text)
    if repeated and not states_deadline(text) and not instruction(text):
        return True
    # An instruction that holds each time and names no day ("Move a tenth of every sale into savings", "Lock the
    # shed at night"): a rule kept, not a thing to do once.
    if (
        (repeated or _EACH_TIME.search(text))
        and not states_deadline(text)
        and _first_due(text, _ANY_DAY) is None
    ):
        return True
    return any(_inflected(found.group(1), "VBN") for found in _SCHEDULED.finditer(text[:2000]))


def _comes_round(text: str) -> bool:
    """Whether `text` tells the speaker to do something each time a weekday comes round ("Email Fiona an update
    every other Friday"): a thing to do again each time, not a habit told (never a prohibition)."""
    found = weekday_rounds(text) is not None and _PROHIBITION.search(text) is None
    return found and (instruction(text) or to_whom(text)) and _NEXT_DUE.search(text) is None


def to_do(text: str) -> bool:
    """Whether `text` states a deadline, is an instruction, says the speaker has to do something or tells of an
    event: with a day it names, a reminder ("Prepare the slides for the review on 2 December", "Ich muss am Montag
    den Arzttermin verschieben", "Mia's school play is on December 12")."""
    return owed(text) or event(text) or slot(_spelled(text)) or next_gathering(text) is not None


def reminder_days(text: str, said_at: datetime, now: datetime | None = None) -> list[datetime]:
    """The days a reminder is due, in calendar order: every day it names (`due_days`), none for a rule or a
    habit. Asked at `now`, a yearly occasion ("Lena's birthday is on 3 March") is due on its next day from then:
    read from when it was said, last year's birthday never came up again."""
    if standing(text):
        return []
    rounds = weekday_rounds(_spelled(text))
    if (at := next_gathering(text)) is not None:  # its next time, then each round after it
        days = due_days(text[at:], said_at)
        return (
            days[:1]
            if rounds is None or not days
            else [next_round(days[0].weekday(), rounds[1], days[0], now)]
        )
    if _comes_round(text) and rounds is not None:
        return [next_round(*rounds, said_at.astimezone(UTC), now)]
    if now is not None and yearly(text):
        said_at = max(said_at, now)
    return due_days(text, said_at)


def reminder_day(text: str, said_at: datetime, now: datetime | None = None) -> datetime | None:
    """The day a reminder is due next (`reminder_days`): the first not before `now` (or the day it was said), else
    the last, which was missed. "Ring the garage tomorrow; if it is not fixed by 9 Dec, book the other one" is
    due tomorrow, and once tomorrow is over, on 9 December."""
    return next_of(reminder_days(text, said_at, now), day_start((now or said_at).astimezone(UTC)))


def next_of(days: list[datetime], today: datetime) -> datetime | None:
    """The first of `days` (in calendar order) not before `today`, else the last; None for none."""
    return next((d for d in days if d >= today), days[-1] if days else None)


__all__ = [
    "deadline_day",
    "due_day",
    "due_days",
    "instruction",
    "next_of",
    "owed",
    "reminder_day",
    "reminder_days",
    "standing",
    "states_deadline",
    "to_do",
    "window",
]
