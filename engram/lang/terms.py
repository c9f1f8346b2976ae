"""Days given to do something, counted from the day they are said: "within 14 days", "within a fortnight", and the
terms of an invoice ("net 30", "30 days from the invoice", "£1,240 plus VAT, 30 days"), for the due days of
reminders (engram.lang.due).

Told to pay ("Pay the plumber's invoice within 14 days"), the payment is due when the days run out. Told to bill
someone ("Invoice Caldwell Physio for the locum days, 30 days"), the days are the payer's: the invoice itself is
to send now, and the terms name no day it is due."""

from __future__ import annotations

import re
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


def given_days(text: str, said: datetime) -> tuple[datetime, str] | None:
    """The day the days `text` gives run out, counted from `said`, and the phrase that gives them; None when it
    gives none, or when they are a payer's on an invoice the speaker sends."""
    found = _TERMS.search(text)
    if found is None and _MONEY.search(text) is not None:
        found = _BARE_DAYS.search(text)
    if found is None or _BILLING.search(text.strip()) is not None:
        return None
    if found.re is _BARE_DAYS:
        span = int(found.group(1))
    else:
        number, unit, fortnight, net, of_invoice, terms = found.groups()
        count = net or of_invoice or terms
        span = int(count) if count is not None else days_in(number, unit or fortnight or "days")
    return said + timedelta(days=span), found.group(0).strip(" ,;:\u2013-")
