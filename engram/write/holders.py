"""Who holds a role one has one of at a time ("my manager is Dana", "Plumber: Kev Morris", "reporting to Tom
Becker"), and the user's own details one has one of ("my address is 12 Oak Road"): a new holder or value replaces
the old one, however far apart the two statements embed (engram.write.updates)."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.lang.text import STOPWORDS, words

# Roles a person has one of at a time: a new holder replaces the old one, said as "my/our (new) <role> is (now)
# <Name>", "new <role>: <Name>", "switched (my) <role> to <Name>" or at a clause's start, "Plumber: <Name>". Kin
# with several holders (a sister, a cousin, a neighbour) are not among them.
_ROLE = (
    r"(line manager|engineering manager|product manager|project manager|product owner|scrum master|tech lead"
    r"|technical lead|team leader|manager|team lead|supervisor|head of department|headteacher|head teacher"
    r"|form tutor|personal tutor|health visitor|social worker|key worker|boss|landlord|landlady|accountant|dentist|doctor|gp|therapist|mentor|husband"
    r"|wife|partner|plumber|electrician|vet|hairdresser|barber|cleaner|childminder|solicitor|mechanic|physio)"
)
_NAME = r"(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?((?-i:[A-Z])[\w'\u2019-]*)"  # a capitalised name, whatever the case
_HELD = re.compile(
    rf"(?:\b(?:my|our|user['\u2019]s)\s+(?:new\s+)?{_ROLE}\s+is\s+(?:now\s+)?|(?<![\w'\u2019]\s)\bnew\s+{_ROLE}"
    rf"\s*(?:is\b|:)\s*|\b(?:switched|changed|moved)\s+(?:(?:my|our)\s+)?{_ROLE}\s+to\s+"
    # The role changed, then who holds it: "Changed accountant - it's now Tom Reilly".
    rf"|\b(?:switched|changed)\s+(?:(?:my|our)\s+)?{_ROLE}s?\s*(?:[-\u2013:,;]\s*)?(?:(?:it|he|she)\s*(?:['\u2019]s|is)\s+)?"
    r"(?:now\s+)?"
    # A clause that opens with the role, owned by no one named: "Landlord: Mr Patel", "..., plumber is Kev Morris".
    rf"|(?:^\s*|[.;,!?\u2013-]\s+)(?:the\s+)?{_ROLE}\s*(?:is\b|:)\s*(?:now\s+)?){_NAME}",
    re.IGNORECASE,
)
# A name first, then the role it now holds: "Lena took over as tech lead", "Omar is our new landlord", "Dmitri is
# now engineering manager".
_TOOK = re.compile(
    rf"{_NAME}\s+(?:(?:has\s+|had\s+)?(?:took|taken|takes|is\s+taking|stepped\s+in|stepped\s+up)\s+(?:over\s+)?as"
    rf"|(?:is|['\u2019]s)\s+(?:now\s+)?(?:(?:the|our|my)\s+)new|(?:is|['\u2019]s)\s+now(?:\s+(?:the|our|my))?)"
    rf"\s+(?:(?:the|our|my)\s+)?(?:new\s+)?{_ROLE}\b",
    re.IGNORECASE,
)
# Whom one reports to is one's manager: "Reporting to Tom Becker after the reorg".
_REPORTS = re.compile(rf"\b(?:reporting|report|reports)\s+(?:directly\s+)?to\s+{_NAME}", re.IGNORECASE)
# Details one has one of at a time, the user's own (not "my sister's address"), said as "my address is ..." or
# "New address: ...": a new value replaces the old one. A bare "Phone: ..." heads any contact's card.
_DETAIL = re.compile(
    r"(?:\b(?:my|our|user['\u2019]s)\s+(?:new\s+)?|(?<![\w'\u2019]\s)\bnew\s+)(home address|address|postcode|zip code"
    r"|mobile number|mobile|phone number|email address|e-mail address|email|e-mail)\s*(?:is\b|:)\s*(?:now\s+)?"
    r"([^,;()\n]{3,60})",
    re.IGNORECASE,
)


# The new memory is read against each of its neighbours in turn: its own readings are kept for the next one.
@lru_cache(maxsize=64)
def holders(text: str) -> tuple[tuple[str, str], ...]:
    """Each role and its holder's first name that `text` states ("my manager is Dana" -> manager, dana; "Dmitri is
    now engineering manager, Lena took over as tech lead": both), or a detail of the user's and its value ("my
    address is 12 Oak Road" -> address, 12 oak road), in the order said; the first of each role."""
    found: list[tuple[int, str, str]] = []
    for held in _HELD.finditer(text):
        *roles, name = held.groups()
        found.append((held.start(), _role(next(g for g in roles if g is not None)), name.lower()))
    for took in _TOOK.finditer(text):
        if took.group(1).lower() not in STOPWORDS:  # "She is now the new manager": whom, not said
            found.append((took.start(), _role(took.group(2)), took.group(1).lower()))
    if (reports := _REPORTS.search(text)) is not None:
        found.append((reports.start(), "manager", reports.group(1).lower()))
    if not found and (detail := _DETAIL.search(text)) is not None:
        kind = detail.group(1).lower().replace("e-mail", "email")
        kind = {"home address": "address", "mobile": "mobile number", "email address": "email"}.get(
            kind, kind
        )
        found.append((detail.start(), kind, " ".join(words(detail.group(2).rstrip(". ")))))
    first: dict[str, str] = {}
    for _, role, name in sorted(found):
        first.setdefault(role, name)
    return tuple(first.items())


def _role(said: str) -> str:
    role = re.sub(r"\s+", " ", said.lower())
    return {"line manager": "manager", "technical lead": "tech lead", "head teacher": "headteacher"}.get(
        role, role
    )


def holder(text: str) -> tuple[str, str] | None:
    """The first role and its holder that `text` states (`holders`), None for none."""
    return next(iter(holders(text)), None)


def states_holder(text: str) -> bool:
    """Whether `text` names who holds a role one has one of at a time, or a detail one has one of: such a
    statement updates an older one of the same role or detail however far apart the two embed."""
    return holder(text) is not None
