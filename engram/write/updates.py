"""When a new memory says that an older one changed: "We moved the Acme standup to 10am" after "Our daily standup
with Acme is at 9:30am", "Clara moved to Porto" after "My sister Clara lives in Lisbon", "Correction: the invoice is
1,250 EUR, not 1,200". Such pairs embed far apart for one fact (cosine 0.59 to 0.75 with the default model), no
closer than statements about the same person that did not change ("Clara's husband Tom works at Siemens", 0.55;
"Our weekly retro with Acme", 0.64), so the closeness alone cannot tell them. The new text must say that something
changed, name who or what it is about as the older one does, add no other topic, and differ from it in a number, a
day or a name. A role one person holds at a time ("my manager is Sofia Ruiz", then "my manager is now Priya Nair")
is about the role, not the names: the two share none."""

from __future__ import annotations

import re
from itertools import pairwise

from engram.lang.analysis import ADDRESS
from engram.lang.pii import MARKER
from engram.lang.text import stem, stems, words
from engram.lang.timewords import DAYS, MONTHS, SHORT_MONTHS
from engram.write.details import kinds, priced, renumbered, sum_for
from engram.write.holders import holders as _holders
from engram.write.replaced import REPLACED_AT, replaced
from engram.write.rules import same_particulars
from engram.write.standing import ends_standing
from engram.write.told import (
    ASIDE,
    CAPITALISED,
    CHANGE,
    CLAUSES,
    DIGIT,
    STATE,
    WHEN_SAID,
    ended,
    named_in,
    says_change,
    topic_of,
)

UPDATE_AT = 0.6  # cosine from which a memory that says something changed may update an older one
# Cosine from which a memory that ends a named thing ("sold the Skoda") updates an older one naming it: the
# replacement it also names ("bought a Corolla hybrid") takes the pair further apart than a change of one value.
ENDED_AT = 0.45

# Who told a change ("Gaz says my rate goes up"), and when it holds from ("from next term"): neither is its topic.
_TELLER = re.compile(r"\b(?-i:[A-Z])[\w'\u2019-]*\s+(?:says|said|reckons|told\s+me)\b", re.IGNORECASE)
_FROM_NEXT = re.compile(r"\bfrom\s+next\s+\w+", re.IGNORECASE)
# A code of letters and digits joined by hyphens ("Blue-Fox-19") is a value, as an address is: no name, no topic.
_CODE = re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[^\W\d_])\w+(?:-\w+)+\b")


def _bare(text: str) -> str:
    """`text` without the addresses and codes it gives."""
    return _CODE.sub(" ", ADDRESS.sub(" ", text))


# A note headed by what it is about ("Coffee: flat white, oat milk", "Parking space at work: P2-114"): a later note
# under the same heading, or its first words, with another short value of the same shape restates it.
_LABEL = re.compile(r"^\s*([^\W\d_][^\W\d_' \u2019]*(?:\s+[^\W\d_]+){0,3})\s*:\s*(\S.*)$", re.DOTALL)
_NO_TOPIC_LABELS = frozenset(
    """note notes todo to-do reminder update idea ideas lesson goal plan question fyi important decided decision
    meeting call summary status tip warning correction""".split()  # noqa: SIM905
)


def headed(text: str) -> bool:
    """Whether `text` is a note headed by what it is about ("Coffee: flat white"), which a later note under the
    same heading may restate."""
    head = _LABEL.match(text)
    return head is not None and bool(said := words(head.group(1))) and said[0] not in _NO_TOPIC_LABELS


def _restated(new: str, old: str) -> bool:
    """Whether `new` is a note under `old`'s heading, or its first words, with another short value of the same
    shape ("Coffee: cortado, whole milk" after "Coffee: flat white, oat milk"; "Parking: P4-022" after "Parking
    space at work: P2-114"); not a heading that labels the statement ("Decided: ...", "Note: ...")."""
    heads = [_LABEL.match(t) for t in (new, old)]
    if heads[0] is None or heads[1] is None:
        return False
    (new_head, new_value), (old_head, old_value) = (m.groups() for m in heads)  # type: ignore[union-attr]
    said, had = words(new_head), words(old_head)
    short, long = sorted((said, had), key=len)
    if not short or short[0] in _NO_TOPIC_LABELS or long[: len(short)] != short:
        return False
    if len(words(new_value)) > 6 or words(new_value) == words(old_value):
        return False
    return all(
        bool(pattern.search(new_value)) == bool(pattern.search(old_value)) for pattern in (DIGIT, CAPITALISED)
    )


def hides_value(text: str) -> bool:
    """Whether a value in `text` was hidden by redaction ("the wifi password is [REDACTED_SECRET]")."""
    return MARKER.search(text) is not None


def _revalued(new: str, old: str) -> bool:
    """Whether both texts hide the same kinds of value and say the same of the same thing otherwise ("changed the
    wifi password to [REDACTED_SECRET]" after "the wifi password is [REDACTED_SECRET]"): the hidden values cannot
    be compared, and the newer one is the value as it is now. Another thing's ("the guest wifi password") is
    another topic."""
    kinds = [sorted(set(MARKER.findall(t))) for t in (new, old)]
    if not kinds[0] or kinds[0] != kinds[1]:
        return False
    plain = [MARKER.sub(" ", t) for t in (new, old)]
    names = [named_in(t) for t in plain]
    if names[0] != names[1]:
        return False
    topics = [topic_of(t, n) - WHEN_SAID for t, n in zip(plain, names, strict=True)]
    return topics[0] == topics[1]


def updates(new: str, old: str, cosine: float) -> bool:
    """Whether `new`, said later, updates `old`: both name the holder of one role (or the value of one detail)
    and the holders differ; or it says something changed, is close to it, shares a name with it when either names
    anyone, adds in the clauses that say the change no topic the older one lacks but one word that is who made it
    or the new value (the standup is not the retro; a preference for backend work is not one for client projects)
    and differs from it in a number, a day or a name. Or it says a thing the older one
    names is no more ("sold the Skoda" after "I drive a Skoda Octavia"), and the two are not far apart; or it
    restates the older one's heading with another value ("Coffee: cortado" after "Coffee: flat white")."""
    had = dict(_holders(old))
    # One role, said by who holds it: another name is a new holder.
    if held := [(name, had[role]) for role, name in _holders(new) if role in had]:
        return any(name != was for name, was in held)
    if cosine >= REPLACED_AT and replaced(new, old):
        return True  # moved to another provider, or its time no more and another given
    if cosine >= ENDED_AT and ended(new) & set(words(old)):
        return True  # the thing the older one says is had or used is no more
    if cosine >= UPDATE_AT and _restated(new, old):
        return True
    if cosine >= UPDATE_AT and _revalued(new, old):
        return True  # a hidden value said again: the newer one holds
    if ends_standing(new, old, cosine):
        return True  # another status of the same person, or a move from the place the older one names
    if cosine >= ENDED_AT and _rescheduled(new, old):
        return True
    if cosine < ENDED_AT or not says_change(new):
        return False
    if _planned(old, new) or _ADDED.search(new):
        return False  # "goes to nursery on Wednesdays too, from next week": a day added, the older one still holds
    # An address one writes to or opens is a value, as a number is: its parts are no topic words, and two memories
    # giving different ones name different particulars.
    addressed = any(p.findall(new) != p.findall(old) for p in (ADDRESS, _CODE))
    # Who told it ("Gaz says my rate goes up") is not whom the change is about, as the new holder is not.
    new, old = _TELLER.sub(" ", _bare(new)), _bare(old)
    changing = _changing(new)
    if addressed and _another_kind(new, old):
        return False  # "IT rotated the guest wifi, password's Blue-Fox-19 now": not the office wifi
    given = _handed_to(new)  # the new holder is the value that changed, not whom the fact is about
    new_names, old_names = named_in(new) - given, named_in(old)
    new_words, old_words = set(words(new)), set(words(old))
    new_stems, old_stems = {stem(w) for w in new_words}, {stem(w) for w in old_words}
    old_stems |= kinds(old_stems, new_stems)
    shared = {stem(n) for n in new_names} & old_stems | {stem(n) for n in old_names} & new_stems
    if not shared:  # a reason's names are not whom it is about: "club is Tuesdays now, Sarah's got choir"
        new_names = named_in(changing) - given
        shared = {stem(n) for n in new_names} & old_stems | {stem(n) for n in old_names} & new_stems
    valued = _value_after(changing, new_names | given, old_stems)
    if valued is not None:  # the names and words of the new value are no other topic: "is with Admiral now"
        new_names, given = new_names - valued, given | valued
    if (new_names or old_names) and not shared and not (valued is not None and not new_names):
        return False
    # "from next term": when the change holds from, as "from next week" is, not a topic of it.
    said = kinds(topic_of(_FROM_NEXT.sub(" ", changing), new_names | given) - ASIDE, old_stems)
    own = said - old_stems - (valued or set())
    shared_count = len(said & old_stems) + len(shared)
    # Further apart, only a change told in the older one's own words, its names among them ("the locker combo"); a
    # new value in words is a word of its own there ("Halden Bank's risk team is moving to the 5th floor").
    if cosine < UPDATE_AT and (
        (said | ((valued or set()) - named_in(new) - {stem(n) for n in named_in(new)})) - old_stems
        or not said
        or shared_count < 2
        or {stem(n) for n in new_names} - old_stems
    ):
        return False
    if valued is not None and valued - old_stems and not own:
        return True  # the thing the older memory says of, with a value of its own
    if own and not (
        len(own) == 1
        and (
            _one_of_its_own(changing, new_names | given, old_stems, shared_count)
            or priced(own, new, old)
            or sum_for(own, changing, old)
            or renumbered(own, new, old)
        )
    ):
        return False
    return addressed or not same_particulars(new, old) or bool((new_names | given) - old_words)


# Words that add to what the older memory says rather than replace it.
# "Too" ends its clause so ("on Wednesdays too"): "Tuesdays were too full" adds nothing.
_ADDED = re.compile(
    r"\b(?:(?:too|as well)(?=\s*(?:[,.;:!?)]|$))|also|additionally|on top of)\b", re.IGNORECASE
)


# Whom a duty was handed or passed to, or swapped with ("handed the school run over to Grace", "swapped on-call
# with Priya"): a name the older memory need not share, as it is the new holder.
_HANDED_TO = re.compile(
    r"\b(?:hand(?:s|ed|ing)?|pass(?:es|ed|ing)?)\s+[^,.;:!?\n]{0,80}?\bto\s+((?-i:[A-Z])[\w'\u2019-]*)"
    r"|\bswap(?:s|ped|ping)?\s+[^,.;:!?\n]{0,40}?\bwith\s+((?-i:[A-Z])[\w'\u2019-]*)"
    # A thing switched to another provider: "Switched broadband to Sky" (the new value, not whom it is about).
    r"|\b(?:switch(?:es|ed|ing)?|chang(?:es|ed|ing)|mov(?:es|ed|ing)|transferr(?:ed|ing)|transfers?)\s+(?:[\w'\u2019-]+\s+){1,4}?to\s+((?-i:[A-Z])[\w'\u2019-]*)",
    re.IGNORECASE,
)


def _handed_to(text: str) -> set[str]:
    """The names `text` says a duty went to or was swapped with, lower-cased."""
    return {said[0] for m in _HANDED_TO.finditer(text) for n in m.groups() if n and (said := words(n))}


# A thing moved in time, what moved before the verb and the time after it: "Completion has slipped to 18 December".
_RESCHEDULED = re.compile(
    r"\b(?:slip(?:s|ped|ping)|(?:brought|bring(?:s|ing)?)\s+forward|push(?:ed|es|ing)?\s+back|postponed"
    r"|put(?:s|ting)?\s+(?:back|forward)"
    r"|rescheduled|mov(?:ed|es|ing)|shifted)\b",
    re.IGNORECASE,
)
_NOW = re.compile(r"\s*now\b", re.IGNORECASE)
_WHEN = re.compile(rf"\d|\b(?:{DAYS})s?\b|\b(?:{MONTHS}|{SHORT_MONTHS})\b", re.IGNORECASE)
# An intention and its verb: "Moved the sofa" after "Planning to move the sofa" is how a plan went, not a change.
_PLAN = re.compile(
    r"\b(?:plan(?:s|ning)?|going|want(?:s|ing)?|hop(?:e|es|ing)|aim(?:s|ing)?|intend(?:s|ing)?|mean(?:s|ing)?"
    r"|thinking\s+(?:of|about)|will|['\u2019]ll|might)\s+(?:to\s+)?(?:(?:try|get)\s+(?:to\s+)?)?([a-z]+)",
    re.IGNORECASE,
)


def _planned(old: str, new: str) -> bool:
    """Whether `old` plans the very act `new` says was done ("Planning to move the sofa" -> "Moved the sofa")."""
    planned = {stem(m.group(1).lower()) for m in _PLAN.finditer(old)}
    done = {stem(w) for m in CHANGE.finditer(new) for w in words(m.group())}
    return bool(planned & done)


def _rescheduled(new: str, old: str) -> bool:
    """Whether a clause of `new` moves what `old` is about to another time: before the verb only words `old`
    says ("Completion has slipped to Friday 18 December" after "Completion on the flat set for Friday 11
    December"; a shortening of one of its words counts: "hip op" for "hip operation"), after it a time and no word
    of its own, the times differ, and no one is named that `old` does not name: a date moved embeds far from a long
    first statement. A carol concert moved is not the school play."""
    if not _WHEN.search(old) or same_particulars(new, old) or _planned(old, new):
        return False
    had = set(words(old))
    old_stems = {stem(w) for w in had}
    clauses = [c for c in CLAUSES.split(new) if c and not c.isspace()]
    for i, clause in enumerate(clauses):
        told = _RESCHEDULED.search(clause)
        if told is not None and i + 1 < len(clauses) and _NOW.match(clauses[i + 1]):
            clause = f"{clause} {clauses[i + 1]}"  # "Completion's moved again, now Friday 8 January"
        if told is None or not _WHEN.search(clause, told.end()):
            continue
        names = named_in(clause)
        before = kinds(topic_of(clause[: told.start()], names), old_stems)
        after = kinds(topic_of(clause[told.end() :], names) - ASIDE, old_stems)
        said = all(w in old_stems or (len(w) > 1 and any(h.startswith(w) for h in had)) for w in before)
        if (before or after) and said and not after - old_stems and not names - had:
            return True
    return False


_COPULA = re.compile(r"\b(?:is|are|was|were)\b|['\u2019]re\b", re.IGNORECASE)
# A verb that gives a value: "is", or "'s" before a figure, a capitalised name or where or when ("Rent's £1,240",
# "Book club's at Priya's"), never a possessive ("Tom's birthday dinner").
_GIVES = re.compile(
    r"\b(?:is|are|was|were)\b|['\u2019]re\b|['\u2019]s(?=\s+(?:[£$€\d]|(?:at|on|in|with|now)\b|(?-i:[A-Z])))",
    re.IGNORECASE,
)


def _value_after(changing: str, names: set[str], old_stems: set[str]) -> set[str] | None:
    """The stems of the value a change gives after "is" to what the older memory says it of ("New wifi password is
    kettle-otter-9" after "The wifi password is bluefrog22"): before the verb at least two of the older memory's
    words and none of its own; None when the change gives no such value."""
    verb = _GIVES.search(changing)
    if verb is None:
        return None
    subject = kinds(topic_of(changing[: verb.start()], names) - ASIDE, old_stems)
    # Whom it is about counts among the older memory's words: "Gareth's station got moved - he's at Middlemoor".
    whom = named_in(changing[: verb.start()])
    if len(subject | whom) < 2 or not subject or subject - old_stems or whom - old_stems:
        return None
    after = changing[verb.end() :]
    return (
        kinds(topic_of(after, set()) - ASIDE, old_stems)
        | named_in(after)
        | {stem(n) for n in named_in(after)}
    )


def _another_kind(new: str, old: str) -> bool:
    """Whether a clause of a change whose value is a code or an address names another kind of a thing the older
    memory names, a word of its own before it ("IT rotated the guest wifi, password's Blue-Fox-19 now" after
    "Office wifi password is ..."): the value, read apart, says nothing of which thing it is."""
    old_stems = {stem(w) for w in words(old)}
    names = named_in(new)
    return any(
        topic_of(w, names) - old_stems and stem(n) in old_stems
        for c in CLAUSES.split(new)
        if c and c.strip() and says_change(c)
        for w, n in pairwise(words(c))
    )


def _one_of_its_own(changing: str, names: set[str], old_stems: set[str], shared: int) -> bool:
    """Whether the one word of its own a change says (beside the older memory's) may stand: as who made the
    change, before the verb, when what changed follows it ("Landlord put the rent up", "Council have changed our
    recycling day"); as the new value, after it, beside two words it shares ("moved Mum down to room 3 on the
    ground floor" after "Room 14, first floor"). Before a verb with nothing shared after it, it is what changed:
    "Lotte's swimming lessons moved to Wednesday" is not her ballet lessons."""
    told = next((m for m in CHANGE.finditer(changing) if m.group().lower() not in STATE), None)
    if told is None:  # "my favourite spot is Kiln in Soho these days": the clause is how things are now
        # ... its new value after the verb; a word of its own before a noun the older memory names makes it
        # another kind of that thing ("Gran's chiropodist visit is 7pm now" is not her care visits).
        verb = _COPULA.search(changing)
        said = words(changing[: verb.start()]) if verb is not None else []
        return shared >= 2 and not any(
            topic_of(w, names) - old_stems and stem(n) in old_stems for w, n in pairwise(said)
        )
    after = topic_of(changing[told.end() :], names)
    return bool(after & old_stems) or (
        shared >= 2 and not topic_of(changing[: told.start()], names) - old_stems
    )


def unchanged_stems(older: str, newer: str) -> frozenset[str]:
    """The stems of the older memory's other facts, which the newer one that updates it leaves as they were and
    does not say: of "Mum ... is at Beechwood care home. Room 14, first floor. Her key worker is Precious", updated
    by "moved Mum down to room 3 on the ground floor", the care home's and the key worker's words. When no part of
    the older memory says what changed ("Clara moved to Porto" of "My sister Clara lives in Lisbon"), all of it
    changed."""
    changing = _changing(newer)
    changed = topic_of(changing, named_in(newer)) - ASIDE
    parts = [stems(c) for c in CLAUSES.split(older) if c and not c.isspace()]
    if not any(p & changed for p in parts):
        # Only a name and a value: the name's clauses changed ("FraudGuard came down to £42,000" of "FraudGuard
        # ... renews 31 January. They quoted £48,000. Account manager ..."), unless it is all its clauses.
        changed = {stem(n) for n in named_in(changing)}
        if all(p & changed for p in parts) or not any(p & changed for p in parts):
            return frozenset()
    replaced = frozenset().union(*(p for p in parts if p & changed))
    return frozenset().union(*(p for p in parts if not p & changed)) - replaced - stems(newer)


# A time a thing is at, as a change gives it: a day, a month, a time of day, a part of the day.
_TIME = re.compile(
    rf"\b(?:(?:{DAYS})s?|{MONTHS}|{SHORT_MONTHS}|mornings?|afternoons?|evenings?|nights?)\b"
    r"|\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)\b|\b\d{1,2}[:.]\d{2}\b",
    re.IGNORECASE,
)
_AMOUNT = re.compile(r"[£$€]\s*\d|\d\s*(?:%|mg|ml|kg|k\b)", re.IGNORECASE)


def moves_time(newer: str, older: str) -> bool:
    """Whether `newer` changes only when a thing is (by its first change, not its why), naming no one new."""
    changing = _changing(newer)
    first = next((c for c in CLAUSES.split(newer) if c and says_change(c) and _TIME.search(c)), changing)
    only = _TIME.search(changing) is not None and _AMOUNT.search(changing) is None
    return only and not named_in(first) - set(words(older))


def _changing(text: str) -> str:
    """The clauses of `text` that say something changed, or all of it: what else it says is why, or how one feels
    about it ("physio is thursdays at 9 now, Karen changed her hours")."""
    said = [c for c in CLAUSES.split(text) if c and says_change(c)]
    # Of several, those giving a value say what changed; the others who changed it ("the agency changed the rota").
    valued = [c for c in said if _WHEN.search(c)]
    changing = " ".join(valued or said)
    # A renewal names when, not what: what changed is the clause giving a value beside it ("Rent's £1,240 after
    # the renewal"). A clause saying "now" of a pronoun ("he does it now") still says the change.
    if said and all(m.group().lower() == "renewal" for c in said for m in CHANGE.finditer(c)):
        return " ".join(c for c in CLAUSES.split(text) if c and _WHEN.search(c)) or changing
    return changing or text
