"""The kind of answer a question asks for, and whether a text gives one. "When is Hannah's birthday" wants a time
and "how much did the robot cost" an amount: a memory holding no time (or no number) does not answer it, however
many of its words it shares ("We decided to replace the robot with a Rowa unit" for the cost). Only the kinds a
text shows on its face are read: a time (a date, a month, a weekday, a season, an hour, a period), an hour or a
part of the day for "what time", an amount (a digit or a number word) and a password (said as one, a key or a code, or redacted as a secret). Who, where and
what are said too many ways to tell from the words."""

from __future__ import annotations

import re
from typing import Literal

from engram.lang.timewords import DAYS, MONTHS, SEASONS, SHORT_MONTHS

Asked = Literal["time", "amount", "time or amount", "password", "clock"]

_WHEN = re.compile(
    r"^\W*(?:when\b|by when\b|what (?:time|date|day|year)\b|which (?:day|date|year)\b|how long ago\b)"
    r"|\b(?:what time|what date)\b|什么时候|几点|哪天",
    re.IGNORECASE,
)
# "What time" asks for the hour or the part of the day, not for any time: "every six months" or "in October" does
# not say what time the hearing test is. "What time of year" asks for a time like "when".
_CLOCK_ASKED = re.compile(r"\bwhat time\b(?! of (?:the )?year)|几点", re.IGNORECASE)
_CLOCK = re.compile(
    r"\d[:.]\d\d\b|\d\s*(?:am|pm|a\.m\.|p\.m\.)|\bat \d|\d\s*(?:till|til|until|to|-|\u2013)\s*\d|o['\u2019]clock"
    r"|\b(?:noon|midday|midnight|mornings?|afternoons?|evenings?|nights?|tonight|lunchtime|teatime|bedtime"
    r"|breakfast|lunch|dinner|half past|quarter (?:past|to))\b|[点早晚]",
    re.IGNORECASE,
)
# A password is asked for by name; "the reservation code" is answered by a booking reference, so a code is not.
_PASSWORD = re.compile(r"\b(?:password|passwords|passcode|passphrase|pin)\b", re.IGNORECASE)
# A sort code, a postcode or a dialling code is no credential.
_CREDENTIAL = re.compile(
    r"\b(?:password|passcode|passphrase|pin|key|(?<!\bsort )(?<!\bpost )(?<!\bzip )(?<!\barea )(?<!\bdialling )code"
    r"|combination|secret|login|credentials)\b|\[REDACTED_SECRET\]",
    re.IGNORECASE,
)
_AMOUNT = re.compile(r"\bhow (?:much|old|far|big)\b|\b(?:cost|costs|price|number)\b", re.IGNORECASE)
# How often and how long are answered by a period as often as by a number: "every Sunday", "twice a month".
_EITHER = re.compile(r"\bhow (?:often|long)\b(?! ago)", re.IGNORECASE)

_PERIODS = (
    r"days?|weeks?|weekends?|months?|years?|hours?|minutes?|mornings?|afternoons?|evenings?|nights?|tonight|today"
    r"|tomorrow|yesterday|noon|midnight|daily|weekly|fortnightly|monthly|yearly|annually|every|ago|since|until"
    r"|now|soon|later|christmas|easter|new year|half-term|term|bank holiday"
)
_TIME = re.compile(
    rf"\b(?:(?:{MONTHS}|{SHORT_MONTHS}|{DAYS})s?|{SEASONS}|{_PERIODS})\b|\d|[年月日号周点]|星期",
    re.IGNORECASE,
)
_NUMBERS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand"
    r"|million|billion|dozen|half|once|twice|free|none|zero|a few|several|couple"
)
_AMOUNTS = re.compile(rf"\d|\b(?:{_NUMBERS})\b|[一二两三四五六七八九十百千万]", re.IGNORECASE)


def asked(question: str) -> Asked | None:
    """The kind of answer `question` asks for, if it is a time, an hour, an amount or a password; None for any
    other."""
    if _PASSWORD.search(question):
        return "password"
    if _CLOCK_ASKED.search(question):
        return "clock"
    if _WHEN.search(question):
        return "time"
    if _EITHER.search(question):
        return "time or amount"
    return "amount" if _AMOUNT.search(question) else None


def gives(text: str, kind: Asked) -> bool:
    """Whether `text` holds an answer of that kind: a time, an hour, an amount, either, or a password."""
    if kind == "password":
        return bool(_CREDENTIAL.search(text))
    if kind == "clock":
        return bool(_CLOCK.search(text))
    if kind != "amount" and _TIME.search(text):
        return True
    return kind != "time" and bool(_AMOUNTS.search(text))
