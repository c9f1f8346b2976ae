"""Events on a day: "Mia's school play is on December 12", "Haircut on Thursday at 4pm". Something a person goes
to on a day is on the list of things to do that day, as a deadline is (engram.lang.due reads the day)."""

from __future__ import annotations

import re
from itertools import pairwise

from engram.lang.foreign_dates import arranged_in_chinese, names_day
from engram.lang.lemmas import getAllLemmas
from engram.lang.timewords import DATE, DAYS, MONTHS, SHORT_MONTHS
from engram.lang.weekday_dates import spelled

SENTENCE = re.compile(r"(?:^|(?<=[.!?;:])\s+)(\S.*?)(?=[.!?;:](?:\s|$)|$)", re.DOTALL)
# After an opening word that can be a noun too, what shows it is a verb: its object's determiner, a pronoun or
# a particle ("Book the venue", "Hand in the form", "Call me").
OBJECT = frozenset(
    """the a an my our your his her their its this that these those some all any me him them us it up in out
    back off down over""".split()  # noqa: SIM905
)

# An event and the day it is on: "<what> is on <day>", "<what> takes place on <day>", or a fragment that names
# only the event ("Haircut on Thursday", "Dentist check-up on 17 December at 8:40am").
# A verb of its own says the day: "starts Friday 18 December", "moved to Monday 7 December", "is scheduled for
# 8 December" ("on" may follow or not); without one, the fragment needs "on". What ends on a day ("our fix ends 31
# January") is a state's end, no event to go to (engram.lang.conditions).
_EVENT = re.compile(
    r"^\s*(?P<what>[^.!?;:]{2,80}?)\s+(?:(?P<verb>(?:(?:is|are|was|were|has been|have been)\s+)?(?:moved|"
    r"rescheduled|postponed|pushed back|brought forward|scheduled|planned|booked|set|fixed)|moves|starts"
    r"|begins)\s+(?:(?:on|to|for|until)\s+)?|(?P<be>is|are|['\u2019]s|takes place|take place)\s+on\s+|on\s+)"
    rf"(?:(?:this|next)\s+)?(?:{DAYS}|{MONTHS}|(?:{SHORT_MONTHS})\b|the\s+\d|\d)",
    re.IGNORECASE,
)
# A time of day ("at 10:00", "6pm", "19 Uhr", "十点"), or hours written after the day they fall on ("Wednesday
# next week 4.30", "tonight 4-7"): with a day named, an appointment.
_CLOCK = re.compile(
    r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|\b\d{1,2}:\d{2}\b|\b\d{1,2}(?::\d{2})?\s*uhr\b"
    rf"|\b(?:{DAYS}|today|tonight|tomorrow|week)\s+\d{{1,2}}(?:\.[0-5]\d|\s*[-\u2013]\s*\d{{1,2}}(?:\.[0-5]\d)?)\b(?![%.,]?\d)"
    r"|\bat\s+\d{1,2}(?=\s*(?:[.,;!?](?!\d+\s*%)|$|o['\u2019]clock))|[\d一二两三四五六七八九十]{1,3}点",  # not "at 1.99%"
    re.IGNORECASE,
)
# A date that comes back every year is a fact about someone, not an event to go to.
_RECURRING = re.compile(r"\b(?:birthdays?|anniversar(?:y|ies)|name ?days?)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")


def event(text: str) -> bool:
    """Whether a sentence of `text` tells of an event on a day, something a person goes to: "<what> is on
    <day>", or a fragment naming only what (nouns and names) and the day. A birthday or an anniversary recurs
    and is a fact; "Mia turns seven on 6 December" has a verb of its own, "The play was on Saturday" is past."""
    if timed(text) or arranged_in_chinese(text):
        return True
    for sentence in SENTENCE.finditer(text[:2000]):
        found = _EVENT.match(sentence.group(1))
        if found is None or _RECURRING.search(found.group("what")):
            continue
        if found.group("verb") is not None or found.group("be") is not None:
            return True
        words = _WORD.findall(found.group("what"))
        if words and all(_names_a_thing(w) for w in words) and not _said_of(words):
            return True
    return False


def timed(text: str) -> bool:
    """Whether `text` names a time of day and a day ("Dentist appointment next Thursday at 9", "Termin am 9.
    Dezember um 10:30", "明天上午十点开会"): an appointment, whatever words tell of it. The day is read as the due day
    is, so a clock time alone ("the backup runs at 2am") is none."""
    head = text[:2000]
    return _CLOCK.search(head) is not None and (DATE.search(head) is not None or names_day(head))


# What comes up on a day without being a thing to do: an occasion ("Rosa turns 70 on 12 February", "Lena's birthday
# is on 3 March"), or a journey or a visit ("Flight to Lisbon on 22 December", "Rosa and Heinz visit us from 27
# December"). A birthday is a fact about someone, and its next day is still one to see coming.
_OCCASION = re.compile(
    r"\b(?:birthdays?|anniversar(?:y|ies)|name ?days?|turns\s+(?:\d{1,3}|[a-z]+(?:-[a-z]+)?)\s+(?:on|this|next)\b)",
    re.IGNORECASE,
)
_JOURNEY = re.compile(
    r"\b(?:flights?|train|ferry|trip|journey|visits?|visiting|arrives?|arriving|lands?|landing|departs?|departing"
    r"|flies|fly|flying|leaves?|leaving|check-?in)\b[^.!?;]{0,60}?\b(?:on|from)\s+(?:(?:this|next)\s+)?"
    rf"(?:{DAYS}|{MONTHS}|(?:{SHORT_MONTHS})\b|the\s+\d|\d)",
    re.IGNORECASE,
)

# The same in Polish, the day read by the Polish date reader ("lecimy 22 grudnia do Krakowa", "wylot w piątek"):
# flying, going, coming, returning and the nouns of a flight or a trip.
_POLISH_JOURNEY = re.compile(
    r"\b(?:lec(?:ę|isz|i|imy|icie|ą)|(?:przy|wy|od)lat(?:uję|ujesz|uje|ujemy|ujecie|ują)|jad(?:ę|ą)"
    r"|jedzie(?:sz|my|cie)?|(?:przy|wy)jeżdża(?:m|sz|my|cie|ją)?|wraca(?:m|sz|my|cie|ją)?|lot|wylot|przylot"
    r"|wyjazd|przyjazd|podróż|pociąg)(?!\w)",
    re.IGNORECASE,
)

# A time counted ahead of when it was said ("Amara's cast comes off in three weeks", "the results are back in
# 10 days"): something that comes up on that day, whatever it is.
_AHEAD = re.compile(
    r"\bin\s+(?:\d{1,3}|a|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|a\s+few)\s+"
    r"(?:days?|weeks?|fortnights?)(?:['\u2019]\s*time)?\b|\bin\s+a\s+fortnight\b",
    re.IGNORECASE,
)


# A day pointed to from when it was said ("next Thursday", "this Friday", "Tuesday week", "a week on Monday"): one
# day to come, whatever happens on it.
_POINTED = re.compile(
    rf"\b(?:(?:next|this|coming)\s+(?:{DAYS})\b(?!\s*s\b)|(?:{DAYS})\s+week\b|a\s+week\s+(?:on|from)\s+(?:{DAYS})\b)",
    re.IGNORECASE,
)


def on_calendar(text: str) -> bool:
    """Whether a sentence of `text` names an occasion (a birthday, an anniversary, an age turned), a journey or
    a visit, or a time counted ahead, which a day it names puts on the calendar (engram.lang.due reads the day,
    none for a story told in the past)."""
    sentences = [s.group(1) for s in SENTENCE.finditer(text[:2000])]
    journey = any(
        _JOURNEY.search(s) is not None
        or _AHEAD.search(s) is not None
        or _POINTED.search(s) is not None
        or (_POLISH_JOURNEY.search(s) is not None and names_day(s))
        for s in sentences
    )
    return journey or occasion(text)


# A birthday or an anniversary in German or Chinese ("Felix hat am 9. Dezember Geburtstag", "妈妈的生日是三月三日"),
# read in the whole text: a German date's dot ends no sentence.
_FOREIGN_OCCASION = re.compile(r"geburtstag|jahrestag|namenstag|生日|周年|纪念日", re.IGNORECASE)


def _foreign_occasion(text: str) -> bool:
    return _FOREIGN_OCCASION.search(text) is not None and names_day(text)


def occasion(text: str) -> bool:
    """Whether a sentence of `text` names an occasion (a birthday, an anniversary, an age turned) with its day."""
    if _foreign_occasion(text[:2000]):
        return True
    return any(
        _OCCASION.search(said := s.group(1)) is not None and DATE.search(said) is not None
        for s in SENTENCE.finditer(spelled(text[:2000]))  # "the 2nd of December" as the date readers know it
    )


def yearly(text: str) -> bool:
    """Whether `text` names an occasion that comes back every year (a birthday, an anniversary, a name day) with
    its day: due again each year, where a task or a journey on a day is due once."""
    head = spelled(text[:2000])
    return (_RECURRING.search(head) is not None and DATE.search(head) is not None) or _foreign_occasion(head)


# An occasion's day stated as it stands ("Our anniversary is 14/08", "Ravi's birthday falls on the 2nd of
# December"): the day it comes back, even beside a past told of it ("..., we married in 2015").
_STATED = re.compile(
    r"\b(?:birthday|anniversary|name ?day)\s+(?:is|falls)\s+(?:on\s+|the\s+)?(?=\d|the\s+\d|"
    rf"(?:{MONTHS}|{SHORT_MONTHS})\b)",
    re.IGNORECASE,
)


def stated_occasion(text: str) -> bool:
    """Whether `text` states the day of a yearly occasion in the present ("Mum's birthday is 3 March")."""
    return _STATED.search(spelled(text[:2000])) is not None


# A booking told as done, of something on a day to come: "Booked the car in for its MOT on 3 December at 9am",
# "We've scheduled the boiler service for Friday". The booking is past; the day it names is ahead.
_BOOKED = re.compile(
    r"^(?:(?:i|we|they|he|she|you)\s+(?:have\s+|['\u2019]ve\s+)?)?(?:booked|scheduled|arranged|reserved|confirmed"
    r"|organised|organized|made\s+(?:an?\s+)?(?:appointment|booking|reservation))\b",
    re.IGNORECASE,
)
_FOR_DAY = re.compile(
    rf"\bfor\s+(?:(?:this|next)\s+)?(?:{DAYS}|{MONTHS}|(?:{SHORT_MONTHS})\b|the\s+\d|\d{{1,2}}\b)",
    re.IGNORECASE,
)


def booked_ahead(text: str) -> bool:
    """Whether a sentence of `text` tells of a booking made for a day ("... for Friday") or for a day and a time
    of day ("... on 3 December at 9am"): an appointment to come, though told in the past."""
    for sentence in SENTENCE.finditer(spelled(text[:2000])):
        said = sentence.group(1)
        if _BOOKED.match(said) and (_FOR_DAY.search(said) is not None or timed(said)):
            return True
    return False


def _said_of(words: list[str]) -> bool:
    """Whether a verb follows a name or pronoun ("Mia turns seven", "Tom arrives"): a clause, no fragment."""
    return any(
        (not getAllLemmas(before.lower()) or before.lower() in {"he", "she", "it"})
        and word.lower().endswith("s")
        and "VERB" in getAllLemmas(word.lower())
        for before, word in pairwise(words)
    )


def _names_a_thing(word: str) -> bool:
    """A word that can be a noun or a name (unknown to the dictionary), or a determiner before one."""
    lowered = word.lower().removesuffix("'s").removesuffix("\u2019s")
    if lowered in OBJECT:
        return True
    readings = getAllLemmas(lowered)
    return not readings or "NOUN" in readings or "PROPN" in readings
