"""A question, understood once: `read_query` turns its text into an immutable `Query` (the words searched and
their stems, the time it names, whether it counts, its intent, an event it is relative to, the days a question
about things to do names), and every later step reads that value instead of the text. What a query asks in words
(intent, counting, asking for memories or for things to do) is decided here too."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from engram.errors import InvalidInput
from engram.lang import analysis, due, timewords
from engram.lang.anchors import EventAnchor, event_anchor
from engram.lang.tense import asked_ahead
from engram.lang.text import STOPWORDS, joined_spellings, stem, stems, terms
from engram.lang.text import words as words_of
from engram.lang.timewords import TimeRange
from engram.model.record import text_problem
from engram.recall.intent import OCCASIONS, asks_for_memories, intent, names_no_topic
from engram.recall.kin import kin_words
from engram.recall.named import names_asked
from engram.recall.scoring import Period
from engram.recall.synonyms import other_words

# A possessive pronoun opening an event phrase ("his operation"): whose event it is, the question may say.
_OWNER = re.compile(r"(?:his|her|their)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimeClause:
    """How a time applies to a search's results: `filter` (created within it: the time_range option, or the time
    of an event the question is relative to), `boost` (the time score favours it: a time the question names) or
    `due` (the days reminders are due)."""

    phrase: str | None
    after: datetime | None
    before: datetime | None
    applied: str
    event: str | None = None  # the memory an event anchor resolved to

    def shown(self) -> dict[str, Any]:
        """As search_memory's query_analysis shows it."""
        out: dict[str, Any] = {"phrase": self.phrase, "after": self.after, "before": self.before}
        if self.event is not None:
            out["event"] = self.event
        out["applied"] = self.applied
        return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in out.items()}


@dataclass(frozen=True, slots=True)
class Query:
    """What a question asks. `search` is the text searched by meaning and by words: the question as asked, or
    without the event phrase once that event is resolved to a time. `named` is the time `search` names, which
    the time score favours; `time` says how a time applies to the results. `concepts` and `expansions` (related
    tags) are read by search_memory only."""

    text: str
    now: datetime
    search: str
    terms: tuple[str, ...]
    stems: tuple[str, ...]
    named: TimeRange | None
    counts: bool
    intent: str
    recent: bool = False
    topic_stems: tuple[str, ...] = ()  # the stems without the named time's words, when it names one
    anchor: EventAnchor | None = None
    time: TimeClause | None = None
    due: TimeRange | None = None
    topic: str = ""
    concepts: tuple[str, ...] = ()
    expansions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Words it splits that people also write as one ("e-mail": "email"): the store's spelling is searched.
    spellings: tuple[tuple[str, str], ...] = ()
    # Other words for its words and phrases (father: dad; spouse: husband, wife), which a memory may say instead.
    others: tuple[tuple[str, tuple[str, ...]], ...] = ()
    corrections: tuple[tuple[str, str], ...] | None = None  # misspelled words: engram.recall.spelling

    @property
    def period(self) -> Period | None:
        """The named time as the time score reads it."""
        return None if self.named is None else Period(self.named.after, self.named.before)

    @property
    def about_time(self) -> bool:
        """Whether when a memory was made or used bears on the answer: the question asks about the latest or
        current state of things without naming when (a time it names, "recently" among them, is the time
        score's: the age priors on top of it weighed the same thing twice), or asks for things to do."""
        return (self.recent and self.named is None) or self.intent == "remind"

    @property
    def expansion_terms(self) -> list[str]:
        """The words of the related tags, which the text search looks for beside the question's own."""
        return [t for near in self.expansions.values() for tag in near for t in terms(tag.replace("-", " "))]

    def asks_for_tasks(self) -> bool:
        """Whether it only asks for things to do ("what do I need to do this week?"), about nothing in particular."""
        return self.intent == "remind" and names_no_topic(self.concepts)

    def asks_for_occasions(self) -> bool:
        """Whether it asks for things to do that are yearly occasions only ("birthdays coming up")."""
        return self.asks_for_tasks() and OCCASIONS.search(self.text) is not None

    def asks_for_memories(self) -> bool:
        """Whether it asks for memories themselves, about nothing in particular ("what did I tell you today?")."""
        return asks_for_memories(self.concepts)

    @property
    def event(self) -> str:
        """Its anchor's event as looked for: "after his operation" of a question naming the father-in-law is the
        father-in-law's operation, not whichever memory says an operation (or a GP surgery)."""
        assert self.anchor is not None
        phrase = self.anchor.phrase
        owner = _OWNER.match(phrase)
        if owner is None:
            return phrase
        rest = self.text.replace(phrase, " ")
        whom = [*kin_words(rest), *names_asked(rest)]
        return f"{whom[0]}'s {phrase[owner.end() :]}" if whom else phrase

    def anchored(self, event: str, at: datetime) -> Query:
        """The question with its event resolved: created before (or after) the memory that mentions it, and the
        event phrase no longer searched for."""
        assert self.anchor is not None
        said = f"{self.anchor.relation} {self.anchor.phrase}"
        search = self.search.replace(said, " ").strip() or self.search
        after, before = (None, at) if self.anchor.relation == "before" else (at, None)
        clause = TimeClause(said, after, before, "filter", event)
        return replace(self, time=clause, **_words(search, self.now), topic=search)


# Initials written with full stops ("M.O.T", "N.H.S."), which memories mostly write as one word: read as
# letters, each was a stopword or a word of its own and the abbreviation was lost.
_DOTTED = re.compile(r"(?<![\w.@])(?:[A-Za-z]\.){1,5}[A-Za-z](?![\w@]|\.\w)\.?")


def undotted(text: str) -> str:
    """`text` with initials written with full stops as one word ("M.O.T" is "MOT")."""
    return _DOTTED.sub(lambda m: m.group().replace(".", ""), text)


# A question is read to its first READ_CHARS characters, cut at a space: the model reads fewer still, and
# reading every word of a 100,000-character one cost seconds of processor time in each search.
READ_CHARS = 4_000


def read_part(text: str) -> str:
    """The part of a question a search reads: all of it up to READ_CHARS characters, else its first
    READ_CHARS cut after its last space there (a word is not cut in two)."""
    if len(text) <= READ_CHARS:
        return text
    head = text.lstrip()[:READ_CHARS]  # not a run of spaces before the question
    space = max(head.rfind(" "), head.rfind("\n"))
    return head[:space] if space > READ_CHARS // 2 else head


def read_query(text: Any, now: datetime, *, longest: int) -> Query:
    """`text` understood; refused when it is no text a store can search (empty, broken Unicode, longer than
    `longest` characters); only its first READ_CHARS characters are read (read_part)."""
    check_query(text, longest)
    text = undotted(read_part(text))
    return Query(
        text=text,
        now=now,
        **_words(text, now),
        counts=counts(text),
        intent=intent(text),
        recent=recent(text),
        topic=text,
        spellings=tuple(joined_spellings(text).items()),
        others=tuple(other_words(text).items()),
    )


def read_search(
    text: Any, now: datetime, *, longest: int, after: datetime | None = None, before: datetime | None = None
) -> Query:
    """A search_memory question: the time range option filters; else a time the question names favours that
    period; else an event it is relative to ("before the launch") is looked for (`Query.anchored`). The time
    phrase is no topic: concepts are read from the rest."""
    query = read_query(text, now, longest=longest)
    text = query.text
    clause: TimeClause | None = None
    anchor: EventAnchor | None = None
    if after is not None or before is not None:
        clause = TimeClause(None, after, before, "filter")
    elif query.named is not None:
        clause = TimeClause(query.named.phrase, query.named.after, query.named.before, "boost")
    else:
        anchor = event_anchor(text)
    topic = (
        text
        if not (clause and clause.phrase)
        else re.sub(re.escape(str(clause.phrase)), " ", text, flags=re.I)
    )
    window = due.window(text, now)
    if window is not None and window.phrase and query.intent == "remind":
        # The days a request for things to do names ("before Christmas") are no topic either.
        topic = re.sub(re.escape(window.phrase), " ", topic, flags=re.I)
    return replace(query, time=clause, anchor=anchor, due=window, topic=topic)


def check_query(query: Any, longest: int) -> None:
    """A query is text a store can search: not empty, valid Unicode, no longer than the longest memory."""
    if not isinstance(query, str):
        raise InvalidInput("query", f"must be text, not {type(query).__name__}")
    if not query.strip():
        raise InvalidInput("query", "must not be empty")
    if problem := text_problem(query):
        raise InvalidInput("query", problem)
    if len(query) > longest:
        raise InvalidInput("query", f"is {len(query)} characters; the maximum is {longest}")


def _words(search: str, now: datetime) -> dict[str, Any]:
    """The parts of a query read from the text it searches. The words of a time it names ("last week", "in
    June") are searched, but a memory need not say them to answer: `topic_stems` leaves them out."""
    named = asked_ahead(timewords.time_range(search, now), search, now)
    found = topical(search)
    topic = search if named is None else re.sub(re.escape(named.phrase), " ", search, flags=re.IGNORECASE)
    said = found if named is None else topical(topic)
    untimed = [w for w in said if w not in _PRESENT]
    return {
        "search": search,
        "terms": found,
        "stems": tuple(sorted(stems(" ".join(found)))),
        "topic_stems": tuple(sorted(stems(" ".join(untimed))))
        if named is not None or len(untimed) < len(said)
        else (),
        "named": named,
    }


# Words asking for the present state ("how much is the rent now?", "do I still ..."). They are searched (an update
# often says "now"), but the memory that answers need not say them: as a named time's words, `coverage` leaves
# them out, or "how much is the rent now?" matched the rent's memory half as well as "how much is the rent?".
_PRESENT = frozenset({"now", "nowadays", "currently", "still", "anymore"})


# Words that frame a question rather than name its topic: "tell me anything about the house" is about the house.
# Searched as words, "anything" made a memory that says "anything over £50k" an answer.
FRAMING = frozenset(
    {"tell", "told", "say", "said", "mention", "mentioned", "anything", "something", "everything", "stuff"}
    | {"remember", "know", "show", "find", "details", "info", "information", "thing", "things"}
    # Whoever and whichever a question leaves open: "does anyone in the family", "do either of the kids".
    | {"anyone", "anybody", "someone", "somebody", "everyone", "everybody", "whoever", "either", "neither"}
    # What kind of answer is wanted, which a memory gives without the word: "my boss's name" for "My manager is
    # Dana Whitlock", "what's my niece called".
    | {"name", "called"}
)


# A phrase that asks for a kind of answer as "name" does: "what does he do for a living" wants a job, which a memory
# gives without saying "living" ("Kemal is a firefighter"); searched, "living" found whoever "lives" somewhere.
# "What time" and "which day" want a time or a day: searched, "time" found "hives last time". "What's going on
# with the dog" asks for news of the dog.
_ASKS_FOR = re.compile(
    r"\bfor\s+a\s+living\b|(?<=\bwhat\s)(?:time|day|date)\b|(?<=\bwhich\s)(?:day|date)\b"
    r"|\bgoing\s+on\b(?=\s+(?:with|at|in|for)\b)"
    # The day of a holiday is the holiday: "the plan for Christmas day" is not about a "140 day streak".
    r"|(?:(?<=\bchristmas )|(?<=\bboxing )|(?<=\byear's )|(?<=\bmother's )|(?<=\bfather's )|(?<=\bvalentine's ))day\b",
    re.IGNORECASE,
)


# "Where are we going on holiday?" wants a place, which a memory gives without the verb ("holiday booked:
# Keswick"); searched, "going" was a word no memory says, and its weight left the answer half matched.
_WHERE_TO = re.compile(
    r"\b(where(?:'s|\s+\w+){1,3}?\s+)(?:going|go|goes|gone|went|headed|heading)\b", re.IGNORECASE
)


def topical(text: str) -> tuple[str, ...]:
    """The content words of a question without those that frame it (all of them if nothing else is left)."""
    found = terms(_WHERE_TO.sub(r"\1", _ASKS_FOR.sub(" ", text)))
    return tuple([w for w in found if w not in FRAMING] or found)


# ---- what a question asks, in words --------------------------------------------------------------------------
_QUESTION = frozenset({"what", "when", "where", "who", "whom", "which", "why", "how", "did", "do"})
_QUESTION |= {"does", "is", "are", "was", "were", "can", "could", "should", "would", "tell", "show"}
_QUESTION |= {"find", "remember", "me", "about"}


def query_concepts(query: str) -> tuple[str, ...]:
    """The topics a question names: its keyphrases without question words, and its other content words."""
    phrases = [
        p for p in analysis.concepts(query) if p.lower().split()[0] not in _QUESTION or len(p.split()) > 1
    ]
    cleaned = [" ".join(w for w in p.split() if w.lower() not in _QUESTION) for p in phrases]
    words = [w for w in re.findall(r"[A-Za-z][\w+#-]*", query) if w.lower() not in STOPWORDS | _QUESTION]
    out = [c for c in cleaned if c]
    out += [w for w in words if not any(w.lower() in c.lower().split() for c in out)]
    return tuple(dict.fromkeys(out))


def matched_concepts(concepts: Iterable[str], content: str, tags: Iterable[str]) -> list[str]:
    """The concepts a memory answers: a tag of it, or a phrase most of whose content words (stemmed; "sister's"
    is "sister") are among its words or its tags' words. Whole words only: "phone" is not in "telephone"."""
    tag_set = set(tags)
    have = {
        stem(w.removesuffix("'s")) for w in [*words_of(content), *(p for t in tag_set for p in t.split("-"))]
    }
    out = []
    for concept in concepts:
        wanted = {stem(w) for w in terms(concept.replace("-", " "))}
        if concept in tag_set or (wanted and 2 * len(wanted & have) > len(wanted)):
            out.append(concept)
    return sorted(set(out))


# "How many trips", "how often", "the total cost", "altogether": a question that counts or sums instances.
_COUNTING = re.compile(r"\bhow (?:many|often)\b|\btotal\b|\baltogether\b|\bcombined\b", re.IGNORECASE)


# "What's my current address", "the latest plan", "recently", "still", "any more": the newest memory answers.
# Not "new": "the new shoes", "her new puppy" name a thing, which the memory that answers says new too.
_RECENT = re.compile(
    r"\b(?:recent(?:ly)?|latest|newest|lately|current(?:ly)?|now|nowadays|these days|this time|so far|still|"
    r"any ?more|up to date|most recent|last time)\b|最近|最新|现在|目前",
    re.IGNORECASE,
)


def recent(query: str) -> bool:
    """Whether a query asks about the latest or current state of things, which the newest memory answers."""
    return _RECENT.search(query) is not None


def counts(query: str) -> bool:
    """Whether a query counts or sums what was said on a topic, so wants each memory of it, however alike."""
    return _COUNTING.search(query) is not None
