"""A change told by what replaced the older value, however far apart the two embed: a thing moved to another
provider ("Switched my current account to Monzo" after "I bank with Barclays, current account and savings"), or
the older memory's time said to be no more beside the new one ("Getting the 7:12 now, the 6:50 got cancelled for
good" after "I get the 6:50 train to Leeds"). The words of such a change are mostly the new value's, so it sits
further from the older memory (cosine 0.3 to 0.45) than a change of one value in the older memory's words."""

from __future__ import annotations

import re

from engram.lang.text import stem, words
from engram.write.told import named_in, topic_of

# Cosine from which such a change is read: below it, even a sentence about the same kind of thing is another one.
REPLACED_AT = 0.3

# A thing switched, moved or transferred to a named provider: "Switched my current account to Monzo".
_SWITCHED = re.compile(
    r"\b(?:switch(?:ed)?|mov(?:ed|e)|transferr?(?:ed)?)\s+(?:over\s+)?(?:(?:my|our|the)\s+)?"
    r"((?:[^\W\d_][\w'\u2019-]*\s+){1,3}?)(?:over\s+)?to\s+((?-i:[A-Z])[\w'\u2019-]*)",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b\d{1,2}[:.]\d{2}\b")
# A value said to be no more ("the 6:50 got cancelled", "the 7:40 doesn't run any more"), and words that say the
# new one holds from now on, not one day's ("for good", "now"): a train cancelled today is no change.
_GONE = re.compile(
    r"\b(?:cancell?ed|canceled|scrapped|axed|withdrawn|discontinued|stopped|(?:doesn['\u2019]t|does\s+not|don['\u2019]t"
    r"|no\s+longer)\s+(?:run|go|exist)s?)\b",
    re.IGNORECASE,
)
_FOR_GOOD = re.compile(
    r"\b(?:now|any\s?more|no\s+longer|for\s+good|permanently|these\s+days|from\s+now\s+on)\b", re.IGNORECASE
)
_CLAUSE = re.compile(r"[,;!?\n]|\.(?!\d)|\s[-\u2013]\s")


def replaced_said(text: str) -> bool:
    """Whether `text` tells a change by what replaced the older value, so that it is read against neighbours
    from REPLACED_AT."""
    return _SWITCHED.search(text) is not None or (
        _FOR_GOOD.search(text) is not None
        and _GONE.search(text) is not None
        and len(_TIME.findall(text)) >= 2
    )


def replaced(new: str, old: str) -> bool:
    """Whether `new` says the thing `old` says of moved to another named provider, the thing in `old`'s words
    and the provider `old` names another ("Switched my current account to Monzo" after "I bank with Barclays,
    current account ..."), or says `old`'s time is no more and gives another for good."""
    return _switched(new, old) or _time_gone(new, old)


def _switched(new: str, old: str) -> bool:
    old_stems = {stem(w) for w in words(old)}
    old_names = named_in(old)
    for found in _SWITCHED.finditer(new):
        thing = topic_of(found.group(1), set())
        provider = words(found.group(2))
        if not thing or thing - old_stems or not provider or provider[0] in old_names:
            continue
        if provider[0] in named_in(new) and old_names - named_in(new):
            return True  # the older memory names the provider it was with, the newer another
    return False


def _time_gone(new: str, old: str) -> bool:
    if _FOR_GOOD.search(new) is None:
        return False
    had = set(_TIME.findall(old))
    gone = {t for c in _CLAUSE.split(new) if _GONE.search(c) for t in _TIME.findall(c)}
    return bool(gone & had) and bool(set(_TIME.findall(new)) - had)
