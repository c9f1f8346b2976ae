"""Memories that hold, or do not hold, the detail a question asks for. "What's Declan's email?" over "Declan's
mobile is 07700 918 244" is about the right person and says none of what was asked: such a memory is at most a
low-confidence guess, as one holding no time is for a "when" question (engram.recall.typed). Only an e-mail address
or a phone number asked for as such counts there: "how often do I phone my dad" or "did I email the landlord" ask
for no detail. The other way round (`held_as_asked`), the first memory that names whom the question asks about and
holds the one detail asked for (an e-mail address, a phone number, a street address, a number or a reference),
when nothing near it does, is a likely answer: "what's Fiona McAlister's e-mail?" over "tutor Dr Fiona McAllister,
fiona.mcallister@openuni.example" shares two of the question's words, and the calibrator, which weighs shared words,
left it low. Only memories standing alone are judged: a conversation's turns leave the detail to the turns around
them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engram.lang.answers import asked, gives
from engram.lang.pii import MARKER, MARKERS, PiiKind, detect
from engram.lang.text import STOPWORDS, stem, words
from engram.model.results import Scored
from engram.recall.named import names_asked, says
from engram.store.values import Facts

# The detail named as a thing wanted: "e-mail address", "email for the vet", a question ending on "email".
_EMAIL = re.compile(r"\be-?mails?(?=\s*(?:address|\?|$|for\b|of\b))", re.IGNORECASE)
_PHONE = re.compile(
    r"\b(?:(?:tele)?phone|mobile|cell)\s+(?:number|no)\b|\b(?:tele)?phone(?=\s*(?:\?|$|for\b|of\b))",
    re.IGNORECASE,
)


def contact_asked(question: str) -> frozenset[PiiKind]:
    """The kinds of contact detail the question asks for by name (an e-mail address, a phone number)."""
    kinds = {PiiKind.EMAIL} if _EMAIL.search(question) else set()
    return frozenset(kinds | ({PiiKind.PHONE} if _PHONE.search(question) else set()))


def without_contact(shown: Sequence[Scored[Facts]], question: str) -> set[str]:
    """The memories of `shown` standing alone that hold none of the contact details the question asks for."""
    wanted = contact_asked(question)
    if not wanted:
        return set()
    return {s.record.id for s in shown if s.record.episode is None and not wanted & held(s.record.content)}


def held(text: str) -> set[PiiKind]:
    """The kinds of contact detail a text holds, as written or as redacted ("[REDACTED_EMAIL]": the store held one,
    and the question about it is answered by that memory even where redaction hid the value)."""
    return {f.kind for f in detect(text)} | {kind for kind, marker in MARKERS.items() if marker in text}


# A number or a reference asked for as the thing wanted, with the word that says which ("microchip number", "the
# booking reference for our trip"), or a registration ("what's the van's reg?", "my number plate"). Not "the
# neighbours at number 16". Whose number it is ("Declan's number") says no kind. Each word is bounded: unbounded, a
# 100,000-character run of one word was read to its end again from each of its letters.
_NUMBER_ASKED = re.compile(
    r"(?:\b([a-z][\w'\u2019-]{0,40})\s+)?\b(?:number|no|reference|ref|id)\s*\??\s*$"
    r"|(?:\b([a-z][\w'\u2019-]{0,40})\s+)?\b(?:number|reference)\s+(?:for|of|on)\b"
    r"|\b(reg|registration|plate)\b(?:\s+(?:number|no))?\s*(?:\?|$|for\b|of\b|on\b)",
    re.IGNORECASE,
)
# A number as a record writes one: five digits or more (a year has four), letters and digits together ("TP1363",
# "YK19 WFD"), or one redacted.
_NUMBER = re.compile(r"\d{5,}|\d[\d ]{4,}\d|\b(?=\w*\d)(?=\w*[A-Z])[A-Z\d]{4,}\b|\b[A-Z]{2}\d\d\s?[A-Z]{3}\b")
_PLATE = re.compile(r"\b(?:reg|registration|plate|number plate)\b|\b[A-Z]{2}\d\d\s?[A-Z]{3}\b", re.IGNORECASE)
# The first hit is weighed against the two after it: a detail held by several near hits says no one of them.
_RIVALS = 2


def held_as_asked(
    judged: Sequence[Scored[Facts]], question: str, doubtful: set[str], spelt: dict[str, str]
) -> set[str]:
    """The first of `judged` (hits with their confidence) when it is low, stands alone, is not `doubtful`, says
    every name the question asks about (as asked or as `spelt`: misspelled names' corrections) and holds the
    detail the question asks for, which neither of the next hits that also says those names holds; else
    nothing."""
    wanted = detail_asked(question)
    if wanted is None or not judged:
        return set()
    first = judged[0]
    if first.confidence != "low" or first.record.episode is not None or first.record.id in doubtful:
        return set()
    names = names_asked(question)

    def answers(s: Scored[Facts]) -> bool:
        text = s.record.content.lower()
        # A possessive typed without its apostrophe ("Priya Shahs phone number") names Shah.
        named = all(says(text, spelt.get(n, n)) or says(text, n.removesuffix("s")) for n in names)
        return named and holds_detail(s.record.content, wanted)

    rivals = [s for s in judged[1 : 1 + _RIVALS] if s.record.id not in doubtful]
    if not answers(first) or any(answers(s) for s in rivals):
        return set()
    return {first.record.id}


@dataclass(frozen=True, slots=True)
class NumberAsked:
    """A number asked for, and the word that says which (None: anyone's, or a registration when `plate`)."""

    which: str | None
    plate: bool = False


def detail_asked(question: str) -> frozenset[PiiKind] | str | NumberAsked | None:
    """The detail asked for: contact kinds, "address" or a number."""
    if contact := contact_asked(question):
        return contact
    if asked(question) == "address":
        return "address"
    found = _NUMBER_ASKED.search(question)
    if found is None:
        return None
    if found.group(3):
        return NumberAsked(None, plate=True)
    which = (found.group(1) or found.group(2) or "").lower().replace("-", "")
    whose = which.endswith(("'s", "\u2019s", "s'")) or which in STOPWORDS or not which
    return NumberAsked(None if whose else which)


def holds_detail(text: str, wanted: frozenset[PiiKind] | str | NumberAsked) -> bool:
    """Whether `text` holds the detail: a contact detail of the kinds, a street address, or a number of the kind
    asked (a memory saying "chip 977200009812443" for a microchip number, "booked: TP1363" for a booking
    reference)."""
    if isinstance(wanted, frozenset):
        return bool(wanted & held(text))
    if wanted == "address":
        return gives(text, "address")
    if not isinstance(wanted, NumberAsked):
        return False
    if wanted.plate:
        return bool(_PLATE.search(text)) and bool(_NUMBER.search(text))
    if not (_NUMBER.search(text) or MARKER.search(text)):
        return False
    return wanted.which is None or _says_kind(text, wanted.which)


def _says_kind(text: str, which: str) -> bool:
    """Whether `text` says the word `which` by its stem, or a word inside it or around it ("chip": microchip)."""
    said = {w.replace("-", "") for w in words(text)}
    if stem(which) in {stem(w) for w in said}:
        return True
    return any(len(w) >= 4 and (w in which or which in w) for w in said)
