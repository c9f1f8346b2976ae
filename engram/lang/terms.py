"""Days given to do something, counted from the day they are said: "within 14 days", "within a fortnight", and the
terms of an invoice ("net 30", "30 days from the invoice", "£1,240 plus VAT, 30 days"), for the due days of
reminders (engram.lang.due).

Told to pay ("Pay the plumber's invoice within 14 days"), the payment is due when the days run out. Told to bill
someone ("Invoice Caldwell Physio for the locum days, 30 days"), the days are the payer's: the invoice itself is
to send now, and the terms name no day it is due.

Days given after an event ("within a week of the wedding on 19 December", or under a heading "After the trip")
count from the day the text names for it; with no day named for it (a part of a longer document), they name none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta

from engram.lang.weekday_dates import NUMBERS, days_in

_COUNT = rf"(\d{{1,3}}|{'|'.join(NUMBERS)})"
_TERMS = re.compile(
    rf"\bwithin\s+{_COUNT}\s+(days?|weeks?|fortnights?)\b|\bwithin\s+a\s+(fortnight)\b"
    r"|\bnet\s*(\d{1,3})\b(?:\s+days\b)?"
    r"|\b(\d{1,3})\s+days\s+(?:from|after|of)\s+(?:the\s+)?(?:invoice|receipt|billing|statement)\b"
    r"|\b(?:payment\s+)?terms?\s*:?\s*(\d{1,3})\s+days\b",
    re.IGNORECASE,
)
# "£1,240 plus VAT, 30 days.": days alone at the end of a clause, in a text about money owed.
_BARE_DAYS = re.compile(r"[,;:\u2013-]\s*(\d{1,3})\s+days\s*(?:[.;)]|$)", re.IGNORECASE)
_MONEY = re.compile(r"[£$€]|\b(?:invoice|bill|pay|payment|vat|fee)\b", re.IGNORECASE)
# The speaker bills someone: the terms are the payer's ("Invoice Caldwell Physio ...", "Send Ruth the invoice ...").
_BILLING = re.compile(
    r"^(?:please\s+|remember\s+to\s+|need\s+to\s+|have\s+to\s+)?(?:invoice|bill|charge)\b"
    r"|\b(?:send|raise|issue|do|write)\s+(?:[\w'-]+\s+){0,3}?(?:an?\s+|the\s+|my\s+|our\s+)?invoice\b",
    re.IGNORECASE,
)


# The event the days run from ("within a week of the wedding", "within 14 days after the move"), not a paper
# received ("of the invoice", "of receipt": now); or a heading or sentence opening "After the trip" before them.
_OF_EVENT = re.compile(
    r"\s+(?:of|after|from|following)\s+(?:the|my|our|his|her|their|your|this|that)\s+"
    r"(?!(?:invoice|receipt|bill|statement|date|letter|e-?mail|notice|order|request|reminder)\b)[a-z]",
    re.IGNORECASE,
)
_AFTER_EVENT = re.compile(
    r"(?:^|[\n.:;]\s*)(?:\d+\.\s*)?(?:after|following)\s+(?:the|my|our|his|her|their)\s+[a-z]", re.IGNORECASE
)
_NAMED_WITH = 60  # characters after "of the wedding" its day may be named in


def given_days(text: str, said: datetime) -> tuple[datetime, str] | None:
    """The day the days `text` gives run out, counted from `said`, and the phrase that gives them; None when it
    gives none, when they run from an event (`after_event`), or when they are a payer's on an invoice the speaker
    sends."""
    found = _found(text)
    if found is None or _of_event(text, found):
        return None
    return said + timedelta(days=_span(found)), found.group(0).strip(" ,;:\u2013-")


def after_event(
    text: str, named: Mapping[int, datetime]
) -> tuple[tuple[datetime, str], datetime | None] | None:
    """The day the days `text` gives after an event run out, and its phrase, counted from the event's day: the day
    named right after the event ("within a week of the wedding on 19 December"), which it stands for (returned
    second), else the first `named` (where each day was named, and the day), which stays. None for no such days."""
    found = _found(text)
    if found is None or not named or not _of_event(text, found):
        return None
    right_after = [day for at, day in sorted(named.items()) if found.end() <= at < found.end() + _NAMED_WITH]
    event = right_after[0] if right_after else named[min(named)]
    counted = (event + timedelta(days=_span(found)), found.group(0).strip(" ,;:\u2013-"))
    return counted, right_after[0] if right_after else None


def from_event(text: str) -> tuple[int, int]:
    """Where `text` gives days after an event ("within a fortnight of the move"): a span of days named there ("a
    fortnight") counts from the event, not from today. (0, 0) for none."""
    found = _found(text)
    return found.span() if found is not None and _of_event(text, found) else (0, 0)


def _of_event(text: str, found: re.Match[str]) -> bool:
    return (
        _OF_EVENT.match(text, found.end()) is not None
        or _AFTER_EVENT.search(text, 0, found.start()) is not None
    )


def _found(text: str) -> re.Match[str] | None:
    found = _TERMS.search(text)
    if found is None and _MONEY.search(text) is not None:
        found = _BARE_DAYS.search(text)
    return None if found is None or _BILLING.search(text.strip()) is not None else found


def _span(found: re.Match[str]) -> int:
    """The days a match of the terms gives."""
    if found.re is _BARE_DAYS:
        span = int(found.group(1))
    else:
        number, unit, fortnight, net, of_invoice, terms = found.groups()
        count = net or of_invoice or terms
        span = int(count) if count is not None else days_in(number, unit or fortnight or "days")
    return span
