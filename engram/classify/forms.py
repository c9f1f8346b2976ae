"""What a statement's form says of its kind, beside what it is about: marks read by the project's own readers of
dates and addresses, given to the kinds' linear read-out as features next to the embedding.

- `deadline`: the statement is something to do by a day, as store_memory reads a reminder: it states a deadline
  or is worded as an instruction, and names a day ("Conference talk abstract due 8 Dec.", "下周五之前把报告发给王经理").
- `address`: it holds a way to reach someone or something: a URL, an e-mail address or a phone number.
- `meeting`: it opens with a heading that names a meeting or a call ("Call with the landlord: ...", "Standup: ...",
  "Team meeting notes - ..."): what follows is an account of it, whatever its topic or the actions it lists.
- `recurring`: it states a time that comes round ("Bin days: black bin Tuesdays", "Sea swim every Saturday
  morning", "Mum's birthday is 3 March") and is no instruction, obligation or deadline: a habit, a timetable or a
  yearly occasion, not a thing to do.

The embedding of a short text is mostly its topic: "Conference talk abstract due 8 Dec." sat among meeting notes,
"Good article on Postgres index types: https://..." among statements about the user. The read-out learns how
much each mark weighs from the seed sentences, as it learns the embedding's dimensions (never from a labelled
set), so a mark moves a decision only as far as the seeds show it should (docs/design/classification.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from engram.lang import analysis, due, events, pii
from engram.lang.instruction import instruction
from engram.lang.recurring import weekly
from engram.lang.timewords import DAYS, day_start
from engram.lang.weekday_dates import may_name_day, weekday_span
from engram.model.vectors import Matrix

FORMS = ("deadline", "address", "speaker", "meeting", "recurring")
_ADDRESSES = frozenset({"url", "email"})
# The speaker's own words for themself, English, German and Chinese (我, not 我们 "we"): closed-class words, not
# topics. Chinese writes no spaces, so 我 is read without word boundaries.
_SPEAKER = re.compile(
    r"(?i)(?<![\w'\u2019])(i|me|my|mine|myself|i['\u2019](?:m|ve|d|ll)|"
    r"ich|mich|mir|mein|meine|meinen|meinem|meiner|meines)(?![\w'\u2019])|我(?!们)"
)
# Letters of the Latin script's Central and Eastern European languages (Polish, Czech, Croatian, Romanian, ...),
# never written in English or German: in such a text a lowercase "i" is "and" and "ich" is Polish "their".
_EXTENDED_LATIN = re.compile("[\u0100-\u017f]")
# A sentence opening with a verb of liking or loathing, its subject left out ("Prefer window seats", "Hate being
# phoned before 9am", "Can't stand video calls"): the liking is the speaker's, whether told of them or asked of
# the assistant ("Prefer Python examples"), and the kinds file preferences under who the user is.
_ELIDED_SPEAKER = re.compile(
    r"(?i)(?:^|[.!?;]\s+)(?:(?:really|still|much|also|definitely|totally)\s+)?"
    r"(?:prefer|love|hate|dislike|loathe|adore|detest|(?:can['\u2019]?t|cannot)\s+(?:stand|bear))\b"
    r"(?!\s+(?:is|was|are|were|has|had|can|will|would|makes?)\b)"  # "Love is blind": the noun
)
# A heading: a few words before ": " or a spaced dash, at the start of the text.
_HEADING = re.compile(r"^\s*((?:[^:\n]|:(?=\S)){1,80}?)(?::\s|\s[-\u2013\u2014]\s)")
# Nouns that name a meeting or a call (English, German, Spanish, French, Portuguese): closed-class, not topics.
_MEETING = frozenset(
    [
        "meeting",
        "call",
        "standup",
        "stand-up",
        "sync",
        "1:1",
        "retro",
        "debrief",
        "catch-up",
        "interview",
        "agm",
        "committee",
        "coffee",
        "lunch",
        "dinner",
        "chat",
        # a meeting named by what it is for: a student's, an employee's or a patient's
        "tutorial",
        "supervision",
        "appraisal",
        "review",
        "consultation",
        "besprechung",
        "gespräch",
        "telefonat",
        "sitzung",
        "reunión",
        "llamada",
        "réunion",
        "appel",
        "reunião",
        "chamada",
    ]
)
# What may follow the meeting's noun inside the heading: whom it was with, or that these are its notes.
_AFTER_MEETING = frozenset(
    [
        "with",
        "mit",
        "con",
        "avec",
        "com",
        "notes",
        "recap",
        "takeaways",
        "summary",
        "after",
        "nach",
        "notizen",
        "protokoll",
    ]
)
# A time that comes round ("every other Friday", "Mondays", "twice a week", "on the 1st of every month", "jeden
# Dienstag", 每周): closed-class words of the calendar, not topics. "always", "never" and "usually" are left out:
# they state rules and habits of every kind, not a slot in the week.
_RECURRING = re.compile(
    rf"(?i)\b(?:every|each)\s+(?:other\s+|single\s+|second\s+)?(?:day|night|morning|afternoon|evening|week|weekend"
    rf"|weekday|fortnight|month|year|{DAYS})\b|\b(?:{DAYS})s\b|\bevery\s+(?:\d+|few|couple of|two|three|four|five|six"
    r"|ten)\s+(?:days|nights|weeks|months|years)\b|\b(?:once|twice|three times)\s+(?:a|per|every)\s+(?:day|week"
    rf"|month|year)\b|\b(?:{DAYS})\s+(?:mornings|afternoons|evenings|nights)\b|\b(?:weekends|weekdays|daily|nightly|weekly|fortnightly|monthly)\b|\b(?:jeden|jede|jedes"
    r"|täglich|wöchentlich|montags|dienstags|mittwochs|donnerstags|freitags|samstags|sonntags)\b|每天|每周|每个星期|每月"
)
# The words a yearly occasion is named by, looked for before the occasion reader spells its dates out.
_OCCASION = re.compile(r"(?i)birthday|anniversary|name ?day")
# An age turned on a day ("Felix turns 16 on 9 March"): a birthday told by its age.
_TURNS = re.compile(r"(?i)\bturns\s+\d{1,3}\s+on\s+(?:the\s+)?\d")
# Prepositions that make the meeting's noun what a heading's other words came from or happen around.
_PREPOSITIONS = frozenset(
    ["from", "after", "before", "for", "about", "at", "in", "of", "since", "during", "aus", "nach"]
)
_NOTES = frozenset(["notes", "recap", "summary", "minutes", "takeaways", "notizen", "protokoll"])
_HEADING_WORDS = 7  # a longer opening before a colon is a sentence, not a heading
_NAMED_BEFORE = 4  # at most this many words in a heading whose last word names the meeting
_DIGIT = re.compile(r"\d")  # any decimal digit, as the phone matcher reads them (full-width ones too)


def read(text: str, said_at: datetime | None = None) -> frozenset[str]:
    """The marks `text` carries, read as if said at `said_at` (now by default: a due day is read forward)."""
    said = day_start((said_at or datetime.now(UTC)).astimezone(UTC))
    found = set()
    meeting = _meeting(text)
    # Under a meeting's heading its noun is a noun: "Debrief after Saturday's shout: ..." tells of a debrief, it
    # asks for none, so whether it is a thing to do is read as "The debrief after ..." (an instruction after the
    # heading stays); its day is read as written.
    told = f"The {text.lstrip()[:1].lower()}{text.lstrip()[1:]}" if meeting else text
    if may_name_day(text) and due.to_do(told) and due.deadline_day(text, said) is not None:
        found.add("deadline")
    if _address(text):
        found.add("address")
    if _speaker(text):
        found.add("speaker")
    if meeting:
        found.add("meeting")
    if _recurring(text):
        found.add("recurring")
    return frozenset(found)


def read_all(texts: Sequence[str], said_at: datetime | None = None) -> list[frozenset[str]]:
    """`read` of each text, all read as if said at the same moment (a bulk write reads them at once)."""
    said = said_at or datetime.now(UTC)
    return [read(text, said) for text in texts]


def _speaker(text: str) -> bool:
    """Whether the speaker speaks of themself: their own words for themself, or a verb of liking with its
    subject left out. In a text written in a Central or Eastern European language, "i" and "ich" are its own
    words ("and", "their")."""
    if _ELIDED_SPEAKER.search(text):
        return True
    foreign = _EXTENDED_LATIN.search(text) is not None
    return any(
        not (foreign and (found.group(0) == "i" or found.group(0).lower() == "ich"))
        for found in _SPEAKER.finditer(text)
    )


def _address(text: str) -> bool:
    """Whether `text` names a URL, an e-mail address or a phone number, as `analysis.entities` and `pii.detect`
    find them, asking each only what the mark needs (`names_link`: the other seven entity patterns need not run);
    a phone number needs digits, so a text without one is no phone (most statements)."""
    if analysis.names_link(text):
        return True
    return _DIGIT.search(text) is not None and any(f.kind is pii.PiiKind.PHONE for f in pii.detect(text))


def _meeting(text: str) -> bool:
    """Whether `text` opens with a heading naming a meeting: the meeting's noun among its first two words,
    ending the heading or followed by whom it was with ("Call with ...", "Supervisor meeting notes", "Ops
    meeting"). "Can't stand video calls before 9am - ..." and "Insight from the retro: ..." are no such heading,
    nor is an instruction ("Call the plumber - ...")."""
    heading = _HEADING.match(text)
    if heading is None:
        return False
    words = [w.strip("'\u2019,.").lower() for w in heading.group(1).split()]
    if len(words) > _HEADING_WORDS:
        return False
    for i, word in enumerate(words[:2]):
        if _names_meeting(word):
            return i + 1 == len(words) or words[i + 1] in _AFTER_MEETING
    # The noun ending a short heading that is no instruction: "Year 10 team meeting: ...", "Weekly ops call - ...";
    # "Prepare for the meeting: ..." asks for something, and "Insight from the retro: ..." tells what came of one,
    # unless the heading says it holds the notes ("Notes from the catch-up: ...").
    if len(words) > _NAMED_BEFORE or not _names_meeting(words[-1]) or instruction(heading.group(1)):
        return False
    return words[0] in _NOTES or not _PREPOSITIONS.intersection(words[:-1])


def _names_meeting(word: str) -> bool:
    return word.rstrip("s") in _MEETING or word in _MEETING


def _recurring(text: str) -> bool:
    """Whether `text` states a time that comes round, as a fact rather than a thing asked: "Bin days: black bin
    Tuesdays", "Kids' swimming: Mondays 6-7pm", "Sea swim every Saturday morning", or a yearly occasion's day
    ("Grandad's birthday is on 14 June": a fact about the family, a reminder by the calendar). An instruction, an
    obligation or a deadline ("Water the plants every Sunday", "I have to call Mum every week", "Rent is due on the
    5th of every month") is a thing to do, however often (`due.owed`)."""
    occasion = _OCCASION.search(text) is not None and events.stated_occasion(text)
    yearly = occasion or _TURNS.search(text) is not None
    # What a weekday holds each week ("Friday night is pizza night") or a span of weekdays ("works Monday to
    # Wednesday"), as the due reader finds a habit that is never due.
    week = weekly(text) or weekday_span(text)
    return (yearly or week or _RECURRING.search(text) is not None) and not due.owed(text)


def marks(found: Sequence[frozenset[str]], forms: Sequence[str]) -> Matrix:
    """One row per text, one column per form in `forms`: 1 where the text carries it."""
    out = np.zeros((len(found), len(forms)), dtype=np.float32)
    for row, carried in enumerate(found):
        for column, form in enumerate(forms):
            out[row, column] = float(form in carried)
    return out
