"""Phone numbers in a text, as `pii.detect` reports them: libphonenumber's valid numbers for each region, and
numbers of a possible length where the text writes them as phone numbers (an international prefix, or a phone
word right before). Digits the text says are something else are not read as a phone number: a piece of a longer
run of digit groups (an account number, an IBAN whose check failed, a long reference), and a number right after a
word naming a reference ("ref", "order", "invoice", "account" ...)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from datetime import date

import phonenumbers

from engram.lang import phone_reader

# The ddd-dd-dddd shape of a US social security number: the SSN check's to judge, not some region's numbering plan.
SSN_SHAPE = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
# A day.month.year date ("3.4.2027", "03.04.27"), which some numbering plans also accept as a phone number.
_DOTTED_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})")

# A number written as a phone number: with an international prefix ("+44 ...", "0044 ..."), or right after a word
# that says it is one ("phone is", "mobile:", "tel."). Such a number needs only the right length for its country,
# not a range the numbering plan lists as assigned (metadata lags new ranges; "+44 7700 900123" is in a range kept
# free, and still someone's number as written).
_INTERNATIONAL = re.compile(r"(?<![\w+])(?:\+|00)[1-9]")
_PHONE_WORD = r"\b(?:phone|telephone|mobile|cell|cellphone|tel|fax|whatsapp)\b"
_SAID_PHONE = re.compile(_PHONE_WORD + r"\.?(?:\s+(?:number|no\.?|is|was|on|at))*\s*[:#]?\s*$", re.IGNORECASE)
_SAID_PHONE_ANYWHERE = re.compile(_PHONE_WORD, re.IGNORECASE)
# A word right before the digits that says they are a reference of some kind, not a number to call ("ref 0151
# 2345 6789", "invoice no. 0301234567"). A number with an international prefix is still read: that prefix is how
# phone numbers are written.
_SAID_REFERENCE = re.compile(
    r"\b(?:ref|reference|order|invoice|account|acct|iban|customer|client|ticket|booking|tracking|serial|policy"
    r"|membership|member|transaction|case|confirmation|parcel|shipment)\b\.?"
    r"(?:\s+(?:number|no\.?|nr\.?|id|code|is|was))*\s*[:#]?\s*$",
    re.IGNORECASE,
)
# Digit groups joined by single separators: more digits than any phone number holds with its international prefix
# (15 by E.164, after "00") is an account, card or reference number, and its pieces are not phone numbers.
_DIGIT_RUN = re.compile(r"\d+(?:[ ./-]\d+)*")
_MOST_DIGITS = 17
_SEEN_BEFORE = 40  # characters before a number read for a phone or reference word


def spans(text: str, regions: Sequence[str]) -> list[tuple[int, int]]:
    """Where the phone numbers are, valid readings first (on overlap `pii.detect` keeps the first)."""
    out: dict[tuple[int, int], None] = {}
    # Only a text with a prefix or a phone word is read a second time for numbers of a possible length.
    said = bool(_INTERNATIONAL.search(text) or _SAID_PHONE_ANYWHERE.search(text))
    lenient = (
        (phonenumbers.Leniency.VALID, phonenumbers.Leniency.POSSIBLE)
        if said
        else (phonenumbers.Leniency.VALID,)
    )
    runs = _long_runs(text)

    # Candidates no reading keeps are passed over unparsed, their inner pieces included.
    def not_a_phone(candidate: str, offset: int) -> bool:
        return _within(runs, offset, offset + len(candidate)) or _said_reference(text, offset, candidate)

    def possible_only_written(candidate: str, offset: int) -> bool:
        if not_a_phone(candidate, offset):
            return True
        return not _INTERNATIONAL.search(candidate) and not _written_as_phone(text, offset, candidate)

    dropped = {
        phonenumbers.Leniency.VALID: not_a_phone,
        phonenumbers.Leniency.POSSIBLE: possible_only_written,
    }
    for leniency, m in phone_reader.matches(text, regions, lenient, dropped):
        if SSN_SHAPE.fullmatch(m.raw_string) or _is_dotted_date(m.raw_string):
            continue
        if _within(runs, m.start, m.end) or _said_reference(text, m.start, m.raw_string):
            continue  # an inner piece of a candidate: its own place decides
        if leniency == phonenumbers.Leniency.POSSIBLE and not _written_as_phone(text, m.start, m.raw_string):
            continue
        out.setdefault((m.start, m.end), None)
    return list(out)


def _long_runs(text: str) -> list[tuple[int, int]]:
    """The runs of digit groups holding more digits than a phone number, in order."""
    found = []
    for m in _DIGIT_RUN.finditer(text):
        if m.end() - m.start() > _MOST_DIGITS and sum(c.isdigit() for c in m.group()) > _MOST_DIGITS:
            found.append((m.start(), m.end()))
    return found


def _within(runs: list[tuple[int, int]], start: int, end: int) -> bool:
    at = bisect.bisect_right(runs, (start, 2**62)) - 1
    return at >= 0 and runs[at][0] <= start and end <= runs[at][1]


def _said_reference(text: str, start: int, raw: str) -> bool:
    return not _INTERNATIONAL.match(raw) and bool(
        _SAID_REFERENCE.search(text[max(0, start - _SEEN_BEFORE) : start])
    )


def _written_as_phone(text: str, start: int, raw: str) -> bool:
    """Whether the number at `start` is written as a phone number: an international prefix, or a phone word
    right before it; at least seven digits either way (no year or short count)."""
    if sum(c.isdigit() for c in raw) < 7:
        return False
    return bool(_INTERNATIONAL.match(raw) or _SAID_PHONE.search(text[max(0, start - _SEEN_BEFORE) : start]))


def _is_dotted_date(raw: str) -> bool:
    """Whether `raw` is a real calendar day written day.month.year (no 31.02.)."""
    shape = _DOTTED_DATE.fullmatch(raw)
    if shape is None:
        return False
    day, month, year = (int(part) for part in shape.groups())
    try:
        date(year if year >= 100 else 2000 + year, month, day)
    except ValueError:
        return False
    return True
