"""Where a person stands, told as an event rather than as a change: "Tom started at Hillside Secondary in
September" after "Tom teaches at Oakfield Primary" (a new place of work, school or home), "Priya and I got married
in June" after "Engaged to Priya" (a new status on one line: single, seeing someone, engaged, married, apart; or
expecting, then the baby born). Neither says "changed" or "now", and the two embed far apart, so each is read for
whom it is about and what it states of them. An added activity ("Tom started coaching the football team"), a
visit, or anyone else's status ("Priya's brother is engaged") states nothing that ends the older one."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.lang.text import STOPWORDS, words
from engram.lang.timewords import DAYS, MONTHS

_CALENDAR = re.compile(rf"^(?:{MONTHS}|(?:{DAYS})s?)$", re.IGNORECASE)
USER = "i"  # the user, however the text says it: "I", "we", "Priya and I", or no subject at all

_PLACE = r"(?P<place>(?:(?-i:[A-Z])[\w'\u2019&-]*\s+){0,3}(?-i:[A-Z])[\w'\u2019&-]*)"  # up to four capitalised words
# Where someone works, studies or lives, as a standing fact: "Tom teaches at Oakfield Primary", "Kenji is a nurse at
# St Mary's", "Olivia studies law at Leeds", "Grandma lives in Croydon".
_AT_PLACE = re.compile(
    r"\b(?:(?:works?|working|teach(?:es)?|teaching|stud(?:y|ies|ying)|(?P<home>lives?|living)|based|attends?|is|am"
    r"|['\u2019]s|['\u2019]m|are)(?:\s+(?:as\s+)?(?:an?|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+|\s+[a-z]+"
    # Whom with or in what, then where: "lives in a flat in Croydon", "lives with Aunt Carol in Derby", "lives in
    # her own bungalow in Rhyl".
    r"|\s+(?:in|with)\s+(?:an?\s+|the\s+|(?:my|his|her|their|our)\s+(?:own\s+)?)?[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?)??"
    rf"\s+(?:at|in|for)|goes\s+to|going\s+to)\s+(?:the\s+)?{_PLACE}",
    re.IGNORECASE,
)
# A move to another place of work, study or home, told as the event: "started at Hillside Secondary", "joined
# Kingsmead FC as their coach", "got a job at The Fig Tree", "moved to the Amsterdam office", "transferred to Leeds",
# "jumped ship to PwC", "gone into Fairview care home".
_MOVED_TO = re.compile(
    r"\b(?:(?:start(?:s|ed|ing)?|beg(?:an|ins|inning)|transferr?(?:ed|ing|s)?|(?P<home>relocat(?:ed|ing)|mov(?:ed|ing)|(?:gone|went)(?=\s+into))"
    r"|went\s+back|jump(?:s|ed|ing)?\s+ship)(?:\s+(?:down|up|over|back|across|away))?\s+(?:at|to|with|for|in|into)"
    # Into a kind of home, then where: "moved into sheltered housing in Harrogate".
    r"(?:(?<=into)\s+(?:an?\s+|the\s+)?(?:(?-i:[a-z])[\w-]*\s+){1,3}(?:in|at))?|join(?:s|ed|ing)?|(?:got|took|landed|accepted)\s+(?:a|the|an)\s+"
    r"(?:new\s+)?(?:job|post|position|role|place)(?:\s+as\s+(?:an?\s+)?[\w-]+(?:\s+[\w-]+)?)?"
    r"(?:\s+(?:at|with|in))?)"
    rf"\s+(?:the\s+)?{_PLACE}",
    re.IGNORECASE,
)
# An addition, not a replacement: "also", "as well", "too", "on the side", a visit or a trip, a club or a class
# one joins besides one's work or school.
_ADDED = re.compile(
    r"\b(?:also|as\s+well|too|on\s+the\s+side|in\s+addition|visit(?:s|ed|ing)?|trip|for\s+a\s+(?:week|day|workshop)"
    r"|club|society|choir|band|class(?:es)?|course|gym|league|group|team)\b",
    re.IGNORECASE,
)
# Cosine from which a move to a named place ends an older place of the same person: a club or a course one joins
# besides ("I joined the Harriers") is further from where one works than another job is.
MOVED_AT = 0.25

# A status on one line of a life, and the words that state each; a text states the first it names.
_STATUS = (
    ("apart", r"divorced?|separated|split\s+up|broke\s+up|broken\s+up|called\s+it\s+off|ended\s+things"),
    ("married", r"married|tied\s+the\s+knot|newlyweds?"),
    ("engaged", r"engaged|proposed\s+to\s+(?-i:[A-Z])\w*|fianc[eé]e?"),
    (
        "together",
        r"dating|(?:been|started)\s+seeing\s+(?:someone|(?-i:[A-Z])\w+)|going\s+out\s+with"
        r"|(?:been|are|were|got|['\u2019]re|back)\s+together|in\s+a\s+relationship",
    ),
    ("single", r"(?:am|['\u2019]m|is|['\u2019]s|are|['\u2019]re|still|now|being|was|been)\s+single"),
    (
        "born",
        r"had\s+(?:the|a|their|her)\s+baby|gave\s+birth|(?:was|were)\s+born|baby\s+(?:arrived|is\s+here)",
    ),
    ("expecting", r"pregnant|expecting\s+(?:a\s+baby|twins|our\s+first|a\s+boy|a\s+girl)"),
)
_LINE = {"apart": 0, "married": 0, "engaged": 0, "together": 0, "single": 0, "born": 1, "expecting": 1}
_STATUS_WORDS = re.compile("|".join(rf"(?P<{name}>\b(?:{said})\b)" for name, said in _STATUS), re.IGNORECASE)
# Whose status it is, before its words: "I'm", "we", "Priya and I", "Aisha and Daniel", "Lucy", "Engaged ..." (no
# subject: the user's own note); someone's kin or partner ("Priya's brother Ravi") is another person.
_KIN = (
    r"(?:sister|brother|mum|mom|dad|mother|father|son|daughter|cousin|friend|aunt|uncle|niece|nephew|gran\w*)"
)
_AGE = (
    r"(?:(?:best|old|older|younger|little|big|baby|eldest|oldest|youngest|twin|step)\s+)?"  # "my best friend"
)
_OF = re.compile(
    rf"(?:\b(?:my|our|his|her|their)\s+{_AGE}|[\w]+['\u2019]s\s+{_AGE})({_KIN})\b\s*((?-i:[A-Z])\w+)?", re.I
)
_ONE_OF = frozenset({"mum", "mom", "mother", "dad", "father"})  # kin one has one of
_USER = re.compile(
    r"^\s*(?:i\b|i['\u2019]m\b|i['\u2019]ve\b|we\b|we['\u2019](?:re|ve)\b|me\s+and\b|my\s+partner\b)", re.I
)
_AND_I = re.compile(r"^\s*((?-i:[A-Z])\w+)\s+and\s+(?:i|me)\b", re.IGNORECASE)
# "'s" before a verb's past form is "has" ("Hannah's moved to Cardiff"), not whose ("Tom's wife ...").
_HAS = r"(?!\s+(?:\w{3,}ed|gone|got|been|begun|taken|left|just|finally)\b)"
_POSSESSIVE = re.compile(rf"^\s*(?-i:[A-Z])\w*['\u2019]s\b{_HAS}")  # someone else's relation
_OWN = re.compile(r"^\s*(?:my|our)\b", re.IGNORECASE)
_NAMED = re.compile(rf"^\s*((?-i:[A-Z])\w+)\b(?!['\u2019]s\b{_HAS})(?:\s+and\s+((?-i:[A-Z])\w+))?")
_TO = re.compile(r"\b(?:to|with|and)\s+((?-i:[A-Z])\w+)")


def _subject(text: str) -> frozenset[str]:
    """Whom a text's first clause is about, lower-cased: the user as USER, with a partner it names; empty when it
    is about someone's kin ("Priya's brother Ravi", "my sister")."""
    clause = re.split(r"[.;!?]|,\s", text, maxsplit=1)[0]
    if _POSSESSIVE.match(clause) and not _OF.match(clause.strip()):
        return frozenset()
    if (kin := _OF.match(clause.strip())) is not None:
        # One's own mother or father is also who "Mum" or "Dad" names: "My mum Carol" is Carol and Mum.
        one = {kin.group(1).lower()} if _OWN.match(clause) and kin.group(1).lower() in _ONE_OF else set()
        return frozenset(({kin.group(2).lower()} if kin.group(2) else set()) | one)
    if (both := _AND_I.match(clause)) is not None:
        return frozenset({USER, both.group(1).lower()})
    # One's own: said as I or we, of my or our household, or a note with no subject ("Engaged to Priya!",
    # "Started at Hillside today").
    if _USER.match(clause) or _OWN.match(clause) or _STATUS_WORDS.match(clause) or _MOVED_TO.match(clause):
        return frozenset({USER})
    named = _NAMED.match(clause)
    if named is None or words(named.group(1))[:1] == [] or words(named.group(1))[0] in STOPWORDS:
        return frozenset()
    return frozenset(words(n)[0] for n in named.groups() if n and words(n))


# A status wished or planned is none yet: "Kofi and I want to get married in 2028" leaves "together since 2019".
_WISHED = re.compile(
    r"\b(?:want|wants|wanted|hope|hoping|plan|plans|planning|would\s+like|['\u2019]d\s+like|going|thinking\s+of)"
    r"\s+(?:to\s+)?(?:get(?:ting)?\s+|be(?:ing)?\s+)?$",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def status(text: str) -> tuple[str, frozenset[str]] | None:
    """The status a text states and of whom ("Priya and I got married" -> married, {i, priya}); None when it
    states none, or only someone's kin's."""
    found = _STATUS_WORDS.search(text)
    if found is None or found.lastgroup is None or _WISHED.search(text, 0, found.start()):
        return None
    who = _subject(text)
    if not who:
        return None
    partner = _TO.search(text, found.end())
    return found.lastgroup, who | ({partner.group(1).lower()} if partner and USER in who else set())


@lru_cache(maxsize=64)
def _place(text: str) -> tuple[frozenset[str], str, bool] | None:
    """Whom a text says works, studies or lives somewhere, the place's words, lower-cased, and whether it is
    their home."""
    found = _AT_PLACE.search(text)
    if found is None or not (where := _where(found.group("place"))):
        return None
    return _subject(text), where, found.group("home") is not None


def _where(place: str) -> str:
    """A place's words, lower-cased, without a month or a day ("in September")."""
    return " ".join(w for w in words(place) if not _CALENDAR.match(w))


@lru_cache(maxsize=64)
def _moved(text: str) -> tuple[frozenset[str], str, bool] | None:
    """Whom a text says started at, joined or moved to a named place, the place's words, and whether it is a
    new home (moved, relocated) rather than work or school; None when it says the place is an addition or a
    visit."""
    found = _MOVED_TO.search(text)
    if found is None or _ADDED.search(text) or not (where := _where(found.group("place"))):
        return None
    return _subject(text), where, found.group("home") is not None


def tells_standing(text: str) -> bool:
    """Whether a text states a status or a move to a named place: it is read against every neighbour."""
    return status(text) is not None or _moved(text) is not None


def ends_standing(new: str, old: str, cosine: float) -> bool:
    """Whether `new` states of the same person another status on the same line of a life as `old` ("got married"
    after "engaged"; "had the baby" after "pregnant"), or a move to a place `old` does not name, where `old` says
    they work, study or live."""
    had, has = status(old), status(new)
    if had is not None and has is not None and had[1] & has[1] and _LINE[had[0]] == _LINE[has[0]]:
        return had[0] != has[0] and not (had[0] == "born" and has[0] == "expecting")
    where, moved = _place(old), _moved(new)
    if cosine < MOVED_AT or where is None or moved is None or not where[0] & moved[0] or where[2] != moved[2]:
        return False  # another person's, or a new job where the older one says where they live
    return moved[1] not in where[1] and where[1] not in moved[1]
