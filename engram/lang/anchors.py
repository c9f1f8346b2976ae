"""A time relative to an event a question names ("before the launch", "after my surgery"), which recall resolves to
the time of the memory that mentions the event (engram.recall.query)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EventAnchor:
    phrase: str
    relation: str  # before | after


# "before the launch", not "looks after our dog" or "named after her aunt": phrasal verbs with after / before.
_EVENT = re.compile(
    r"(?<!\blook )(?<!\blooks )(?<!\blooked )(?<!\blooking )(?<!\btake )(?<!\btakes )(?<!\btook )"
    r"(?<!\bnamed )(?<!\bgo )(?<!\bgoes )(?<!\bwent )(?<!\brun )(?<!\bruns )(?<!\bran )(?<!\bask )"
    r"(?<!\basked )(?<!\bcame )(?<!\bcome )(?<!\bcomes )(?<!\bclean )(?<!\bcleans )(?<!\bchase )"
    r"\b(before|after)\s+((?:the|my|our|his|her|their)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})",
    re.I,
)


def event_anchor(query: str) -> EventAnchor | None:
    """ "before the launch", "after my surgery": a time relative to an event; "before the end of May" is none."""
    m = _EVENT.search(query)
    if m is None or re.match(r"the\s+(?:end|start|beginning|middle)\s+of\b", m.group(2), re.I):
        return None
    phrase = re.sub(r"[?.!,]+$", "", m.group(2)).strip()
    return EventAnchor(phrase, m.group(1).lower())
