"""How a change is told: the words that say a fact changed or was wrong, or that a thing had is no more; the
clauses a text says it in; and whom and what a text names, which an update must share with the fact it changes
(engram.write.updates)."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.lang.analysis import WHEN_ALONE
from engram.lang.lemmas import getAllLemmas
from engram.lang.text import STOPWORDS, stem, words
from engram.lang.timewords import DAYS, MONTHS, SHORT_MONTHS

# Words that say a fact changed or was wrong.
CHANGE = re.compile(
    r"\b(?:moved|moving|changed|switched|swapped|rescheduled|postponed|brought forward|corrected|correction"
    r"|actually|now|no longer|any ?more|instead|updated?|raised|lowered|cancelled|canceled|renamed"
    r"|increased|decreased|reduced|upped|went up|went down|pushed back|pushed|bumped|relocated|rebooked"
    r"|migrated|upgraded|downgraded|replaced|these days|going forward|no more|reset|moves|decommissioned|retired"
    r"|promoted|transferred|renewed|renewal|remortgaged|slid|rearranged|reshuffled|rotated"
    # A dose or a plan someone put one on: "Doc put me on 100mg of sertraline".
    r"|put\s+(?:me|him|her|them|us)\s+on"
    rf"|as\s+of\s+(?:today|tomorrow|now|this\s+\w+|next\s+\w+|{DAYS}|{MONTHS}|\d)"
    # A new value of a detail one has one of: "new wifi password is ...", "new number 07700 ...".
    r"|new\s+(?:[\w-]+\s+)?(?:number|password|passcode|code|pin|address|email|e-mail|phone|mobile|postcode)"
    # A date that slipped, a duty handed on, a price come down to a figure ("came down to £42k", "down to £38").
    r"|slip(?:s|ped|ping)|shifted|handed\s+(?:[\w'\u2019-]+\s+){0,3}over|handed\s+over"
    r"|(?:(?:came|come|coming|comes|went|gone|going|goes)\s+(?:up|down)|down)\s+to(?=\s*[£$€]?\d)"
    # A new one had ("Sam has a new number"), or a change from a time on ("from next week", "from Monday", "from 1 June").
    r"|(?:has|have|got|gets?)\s+(?:a|an|his|her|their|my|our)\s+new"
    r"|put(?:s|ting)?\s+(?:[\w'\u2019%]+\s+){0,3}(?:up|down)"
    rf"|from\s+(?:today|tomorrow|next\s+\w+|{DAYS}|{MONTHS}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{MONTHS}|{SHORT_MONTHS})))\b",
    re.IGNORECASE,
)
# A thing had or used that is no more, named: "sold the Skoda", "stopped using Xero", "stopped the amlodipine",
# "no more Lily's Kitchen", "given up on the drill idea". The thing is the word after it, which the older memory must say.
_ENDED = re.compile(
    r"\b(?:sold|scrapped|traded\s+in|traded|part[- ]?exchanged|got\s+rid\s+of|ditched|stopped\s+using|no\s+longer\s+(?:use|using|have|drive)"
    r"|(?:gave|given|giving)\s+up(?:\s+on)?|cancelled|canceled|no\s+more|last\s+day\s+at|stopped(?:\s+taking)?"
    # Left for another, or dropped, said of a named thing: "Switched from Duolingo to ...", "Dropped Spotify".
    r"|switched\s+(?:over\s+)?from|moved\s+(?:away\s+)?from|dropped(?=\s+(?-i:[A-Z])))\s+"
    r"(?:(?:the|my|our|his|her|their|old|an?)\s+){0,2}(?:(?-i:[A-Z])\w*['\u2019]s\s+)?([^\W\d_][\w'\u2019-]*)",
    re.IGNORECASE,
)
ACRONYM = re.compile(r"\b[A-Z]{2,}\b")
DIGIT = re.compile(r"\d")
CAPITALISED = re.compile(r"\b[A-Z][\w'\u2019-]*")
# Where a sentence or a clause opens, so that any word there is capitalised: "Bins go out...", "Upgraded the DB".
_OPENS = re.compile(r"(?:^|[.!?:;\n(]|\s[-\u2013])\s*$")
# A clause of its own: what says the change is told apart from why or how one feels about it ("physio is
# thursdays at 9 now, Karen changed her hours"; "standup 9:45 from next week so the US folks can join"). A stop
# inside a word ("jake@mossdesign.co.uk", "8.30") ends no clause, nor a colon or a comma inside a figure ("23:55",
# "£1,240").
CLAUSES = re.compile(
    r"(?:[;!?()\n]|[,:](?!\d)|\.(?!\S))+|\s[-\u2013]\s|\b(?:so|since|because|bc|cos|cuz|as|but|after)\b",
    re.IGNORECASE,
)
CALENDAR = re.compile(rf"^(?:{MONTHS}|{SHORT_MONTHS}|(?:{DAYS})s?)$", re.IGNORECASE)
_CHANGE_WORDS = frozenset(
    {"move", "moved", "moving", "now", "change", "changed", "switch", "switched", "correction", "corrected",
     "actually", "longer", "anymore", "instead", "update", "updated", "again", "new", "raised", "lowered",
     "next", "from", "increased", "decreased", "reduced", "upped", "went", "pushed", "came", "come", "coming",
     "comes", "going", "goes", "gone", "handed", "slipped", "slips", "slipping", "brought", "forward", "shifted",
     "promoted", "transferred", "rearranged", "reshuffled", "rotated"}
)  # fmt: skip


def says_change(text: str) -> bool:
    """Whether a text says that something changed or was wrong, or that a thing named is no more."""
    return (
        CHANGE.search(text) is not None or _ENDED.search(text) is not None or _CLOSED.search(text) is not None
    )


# A named place or firm that is no more, the name before it: "Little Acorns closed", "Bensons has shut down".
_CLOSED = re.compile(
    r"\b((?-i:[A-Z])[\w'\u2019-]*)\s+(?:has\s+|have\s+)?(?:closed|shut|went\s+bust|gone\s+bust)"
    r"(?:\s+(?:down|for\s+good))?(?=\s*(?:[,.;!?)]|$|\s+(?:down|for\s+good)))",
)


@lru_cache(maxsize=64)
def ended(text: str) -> frozenset[str]:
    """The names of the things `text` says are no more ("sold the Skoda" -> skoda), lower-cased."""
    return frozenset(
        said[0]
        for found in (*_ENDED.finditer(text), *_CLOSED.finditer(text))
        if (said := words(found.group(1))) and said[0] not in STOPWORDS
    )


def named_in(text: str) -> set[str]:
    """The capitalised words that are not a stopword, a change word, a month or a day: who or what it is about,
    lower-cased, a possessive's "'s" dropped."""
    out = set()
    for match in CAPITALISED.finditer(text):
        found = match.group()
        word = words(found)
        name = word[0] if word else ""
        acronym = found.isupper() and len(found) > 1  # GP, NHS: a kind, not whom
        # A word the dictionary knows, capitalised only because a sentence opens with it, names no one.
        opening = _OPENS.search(text, 0, match.start()) is not None and bool(getAllLemmas(name))
        if (
            name
            and name not in STOPWORDS
            and name not in _CHANGE_WORDS
            and not CALENDAR.match(name)
            and not acronym
            and not opening
        ):
            out.add(name)
    return out


def topic_of(text: str, names: set[str]) -> set[str]:
    """The stems of its words that are no name, acronym, number, stopword, change word or time of day: "GP
    increased my metformin" names who changed it, as a name would, not another topic."""
    names = names | {a.lower() for a in ACRONYM.findall(text)}
    return {
        stem(w)
        for w in words(text)
        if w.isalpha() and w not in STOPWORDS and w not in _CHANGE_WORDS and not CHANGE.fullmatch(w)
        and w not in names and w not in {"am", "pm"} and w not in WHEN_ALONE and not CALENDAR.match(w)
    }  # fmt: skip


# Change words that say the whole clause is how things are now ("my favourite spot is Kiln in Soho these days"),
# not a verb with what changed before it and the new value after.
STATE = frozenset({"now", "these days", "going forward", "instead", "any more", "anymore", "no more"})
# Words that say when, or how it went, not what changed: "Dentist rang - it's 10 May now, same time".
_ASIDES = (
    "today tonight yesterday last finally still same time back rang ugh weird these days going forward turns guess put"
    " use uses using"
)
ASIDE = {stem(w) for w in _ASIDES.split()}
# When a value was set, said with it ("... from today"), and the verbs that set it: no topic of their own.
WHEN_SAID = {stem(w) for w in "today tonight yesterday week weekend morning evening reset set".split()}  # noqa: SIM905
