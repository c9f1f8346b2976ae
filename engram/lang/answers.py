"""The kind of answer a question asks for, and whether a text gives one. "When is Hannah's birthday" wants a time
and "how much did the robot cost" an amount: a memory holding no time (or no number) does not answer it, however
many of its words it shares ("We decided to replace the robot with a Rowa unit" for the cost). Only the kinds a
text shows on its face are read: a time (a date, a month, a weekday, a season, an hour, a period), an hour or a
part of the day for "what time", an amount (a digit or a number word), a password (said as one, a key or a code,
or redacted as a secret), where someone lives (said as living, an address, or a place after "in", "at" or a
comma), an address (a street, a house number, a postcode) and someone's job (said as working, teaching, or being
one of the trades and professions). Who, other wheres and what are said too many ways to tell from the words."""

from __future__ import annotations

import re
from typing import Literal

from engram.lang.timewords import DAYS, MONTHS, SEASONS, SHORT_MONTHS

Asked = Literal[
    "time", "amount", "money", "time or amount", "password", "clock", "abode", "address", "job", "age"
]

_WHEN = re.compile(
    r"^\W*(?:when\b|by when\b|what (?:time|date|day|year)\b|which (?:day|date|year)\b|how long ago\b)"
    r"|\b(?:what time|what date)\b|什么时候|几点|哪天",
    re.IGNORECASE,
)
# "What time" asks for the hour or the part of the day, not for any time: "every six months" or "in October" does
# not say what time the hearing test is. "What time of year" asks for a time like "when".
_CLOCK_ASKED = re.compile(r"\bwhat time\b(?! of (?:the )?year)|几点", re.IGNORECASE)
_CLOCK = re.compile(
    r"\d[:.]\d\d(?:ish)?\b|\b\d{1,2}ish\b|\d\s*(?:am|pm|a\.m\.|p\.m\.)|\bat \d|\d\s*(?:till|til|until|to|-|\u2013)\s*\d|o['\u2019]clock"
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
# Where someone lives; an address that is no e-mail, web or IP address asks for the street.
_ABODE_ASKED = re.compile(r"\bwhere\s+(?:does|do|did)\s+[^?]{1,40}?\s+live\b", re.IGNORECASE)
_ADDRESS_ASKED = re.compile(
    r"(?<!e-mail )(?<!email )(?<!web )(?<!ip )(?<!mac )(?<!wallet )(?<!return )\baddress\b(?!\s+book)",
    re.IGNORECASE,
)
# An address as a memory writes it: a flat, a house number and a street, a postcode.
_STREET = "street|road|lane|avenue|close|drive|crescent|terrace|court|square|gardens|postcode"
_ADDRESS = re.compile(
    rf"(?i:\b(?:flat|{_STREET}|st|rd|ave|place|way|row|mews|strasse|straße|weg|ulica|ul|rua|rue|via|calle)\b)"
    rf"|\b\d{{1,4}}[a-zA-Z]?,?\s+(?!(?i:{DAYS}|{MONTHS}|{SHORT_MONTHS})\b)[A-Z]"
    r"|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\b\d{5}\b|地址"
)
# How a memory says where: living or moving, an address's words, a postcode, or a capitalised place after "in",
# "at", "near", "from" or a comma ("Douglas and Carol Haldane, Carlisle").
_ABODE = re.compile(
    rf"(?i:\b(?:lives?|living|lived|moved|moving|address|flat|house|home|bungalow|cottage|{_STREET}|care home"
    r"|nursing home)\b)"
    r"|\b(?i:in|at|near|outside|from)\s+(?:the\s+)?[A-Z]|,\s*[A-Z][a-z]|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b"
    r"|住|地址"
)
# Someone's job or where they work: "what does my partner do for a living?", "what's my wife's job?", "where does Tom
# work?". Not "what's the fee for an emergency job", "the Christmas do for work" or "where do I like to work from"
# (a place to sit, not a job).
_JOB_ASKED = re.compile(
    r"\bdo(?:es)?\s+[^?]{1,30}?\s+do\s+for\s+(?:a\s+)?(?:living|work|job)\b|(?:['\u2019]s|s['\u2019]|\bmy|\bhis|\bher|\btheir)\s+"
    r"(?:job|occupation|profession|career)\b|\bwhat\s+job\b|\bwhere\s+(?:does|do|did)\s+[^?]{1,40}?\s+work\b(?!\s+from)",
    re.IGNORECASE,
)
# How a memory says a job: working as, at or for; teaching; being a nurse, a solicitor, a driver...; "arbeitet als";
# a trade or profession named before whom it is for. Said loosely: a memory read wrongly as giving a job is only
# left as surely as its match says.
_JOB = re.compile(
    r"\b(?:works?|working|worked)\s+(?:as|at|for|in|nights|days|shifts|from\s+home)\b|\bteach(?:es|ing)?\b"
    # when before where: "I work Saturdays and Wednesday evenings at the Waterstones on Deansgate"
    r"|\b(?:works?|working|worked)(?:\s+(?:on|and|(?:week|mon|tues|wednes|thurs|fri|satur|sun)?days?|weekends?|evenings?"
    r"|mornings?|nights?|shifts?|part-time|full-time)){1,6}\s+(?:at|for)\s+(?:the\s+)?(?-i:[A-Z])"
    r"|\b(?:is|was|am|['\u2019]s|['\u2019]m)\s+(?:a|an)\s+(?:[\w-]{1,30}\s+){0,3}?(?:[\w-]{1,30}(?:er|or|ist|ian|ant|ent|ic|ive)"
    r"|nurse|doctor|gp|chef|cook|clerk|vet|pilot|coach|judge|midwife|surgeon|officer|agent|analyst|consultant|assistant"
    r"|designer|editor|carer|student)\b|\b(?:job|employed|self-employed|freelance|retired|profession|occupation"
    r"|career|arbeitet|arbeite|beruf|pracuje|工作)\b"
    # or a trade or profession before whom it is for: "geologist for an oil company", "accountant at Deloitte".
    r"|\b(?!(?:together|whatever|however|forever|another|neither|whether|further|rather|dinner|summer|winter"
    r"|number|member|register|monitor|corridor|calendar|student)\b)(?-i:[a-z])[a-z-]{4,30}(?:ist|ian|er|or|ant|ent|eer)\s+"
    r"(?:for|at)\s+(?:an?\s+|the\s+)?[\w&-]",
    re.IGNORECASE,
)
_AMOUNT = re.compile(r"\bhow (?:much|far|big)\b|\b(?:cost|costs|price|number)\b", re.IGNORECASE)
# What something cost or pays is a sum of money: "how much did the car seat cost?" is not answered by "Maxi-Cosi
# Pebble 360". A sum is written with its currency, as a word of money, as a rate or a share, or as nothing paid.
_MONEY_ASKED = re.compile(
    r"\bhow much\b.*\b(?:cost|costs|costing|pay|pays|paid|paying|spend|spends|spent|charge|charges|charged|owe|owes"
    r"|owed|earn|earns|earned|worth)\b|\bwhat (?:did|does|do|will|would)\b.*\bcost\b|\bwhat(?:['\u2019]s| is| was)"
    r" the (?:price|cost|fee)\b",
    re.IGNORECASE,
)
_MONEY = re.compile(
    r"[£$€¥₹]|\b(?:gbp|usd|eur|chf|pln|zł|quid|pounds?|dollars?|euros?|pence|cents?|grand|free|nothing|zlot[ya]|złot[ya]"
    r"|rupees?|yuan|元|块)\b|\d(?:\.\d+)?\s*(?:p|k|m|bn)\b|\d\s*[元%]"
    # or as a rate: "rent 1,150 a month", "1.69% per transaction".
    r"|\d\s*(?:a|an|per|each)\s+(?:month|week|year|day|hour|night|session|lesson|class|visit|word|head|person|go)\b",
    re.IGNORECASE,
)
# How old someone or something is: a number as an age or a year is written ("she's 74", "Dad (Graham, 81)", "a 2009
# combi", "Leo's fifth birthday"), not a day of the month, an hour, a sum or a measure ("staying 23rd to 28th").
_AGE_ASKED = re.compile(r"\bhow old\b|\bwhat age\b", re.IGNORECASE)
_AGE = re.compile(
    r"(?<![\d.,:/£$€#])\b\d{1,4}\b(?!(?:st|nd|rd|th)\b|[:.,/]\d|\s*(?:%|am|pm|[ap]\.m|mins?|minutes?|hours?|hrs?"
    r"|miles?|km|kg|g|mg|ml|l|p)\b)|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh"
    r"|twelfth|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teens?|twenties|thirties|forties"
    r"|fifties|sixties|seventies|eighties|nineties)\b|\bborn\b",
    re.IGNORECASE,
)
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
    if _ABODE_ASKED.search(question):
        return "abode"
    if _ADDRESS_ASKED.search(question):
        return "address"
    if _JOB_ASKED.search(question):
        return "job"
    if _CLOCK_ASKED.search(question):
        return "clock"
    if _WHEN.search(question):
        return "time"
    if _AGE_ASKED.search(question):
        return "age"
    if _EITHER.search(question):
        return "time or amount"
    if _MONEY_ASKED.search(question):
        return "money"
    return "amount" if _AMOUNT.search(question) else None


def gives(text: str, kind: Asked) -> bool:
    """Whether `text` holds an answer of that kind: a time, an hour, an amount, a sum of money, either, or a
    password."""
    if kind == "password":
        return bool(_CREDENTIAL.search(text))
    if kind == "clock":
        return bool(_CLOCK.search(text))
    if kind == "abode":
        return bool(_ABODE.search(text))
    if kind == "address":
        return bool(_ADDRESS.search(text))
    if kind == "job":
        return bool(_JOB.search(text))
    if kind == "age":
        return bool(_AGE.search(text))
    if kind == "money":
        return bool(_MONEY.search(text))
    if kind != "amount" and _TIME.search(text):
        return True
    return kind != "time" and bool(_AMOUNTS.search(text))
