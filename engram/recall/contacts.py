"""Memories that hold no contact detail of the kind a question asks for: "what's Declan's email?" over "Declan's
mobile is 07700 918 244" is about the right person and says none of what was asked. Such a memory is at most a
low-confidence guess, as one holding no time is for a "when" question (engram.recall.typed). Only an e-mail address
or a phone number asked for as such counts: "how often do I phone my dad" or "did I email the landlord" ask for no
detail, and an address or a place is said in too many ways to be checked. Only memories standing alone are
judged: a conversation's turns leave the detail to the turns around them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.lang.pii import MARKERS, PiiKind, detect
from engram.model.results import Scored
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
