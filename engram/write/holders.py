"""Who holds a role one has one of at a time ("my manager is Dana", "Plumber: Kev Morris", "reporting to Tom
Becker"), and the user's own details one has one of ("my address is 12 Oak Road"): a new holder or value replaces
the old one, however far apart the two statements embed (engram.write.updates)."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.lang.text import words

# Roles a person has one of at a time: a new holder replaces the old one, said as "my/our (new) <role> is (now)
# <Name>", "new <role>: <Name>", "switched (my) <role> to <Name>" or at a clause's start, "Plumber: <Name>". Kin
# with several holders (a sister, a cousin, a neighbour) are not among them.
_ROLE = (
    r"(line manager|manager|team lead|boss|landlord|landlady|accountant|dentist|doctor|gp|therapist|mentor|husband"
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
def holder(text: str) -> tuple[str, str] | None:
    """The role and its holder's first name that `text` states ("my manager is Dana" -> manager, dana), or a
    detail of the user's and its value ("my address is 12 Oak Road" -> address, 12 oak road)."""
    found = _HELD.search(text)
    if found is not None:
        *roles, name = found.groups()
        role = next(g for g in roles if g is not None)
        role = re.sub(r"\s+", " ", role.lower())
        return ("manager" if role == "line manager" else role), name.lower()
    if (reports := _REPORTS.search(text)) is not None:
        return "manager", reports.group(1).lower()
    detail = _DETAIL.search(text)
    if detail is None:
        return None
    kind = detail.group(1).lower().replace("e-mail", "email")
    kind = {"home address": "address", "mobile": "mobile number", "email address": "email"}.get(kind, kind)
    return kind, " ".join(words(detail.group(2).rstrip(". ")))


def states_holder(text: str) -> bool:
    """Whether `text` names who holds a role one has one of at a time, or a detail one has one of: such a
    statement updates an older one of the same role or detail however far apart the two embed."""
    return holder(text) is not None
