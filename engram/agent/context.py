"""What an agent should know when a session starts: who the user is, what they prefer, the open tasks due soon,
the recent decisions of the project (and, given what the session is about, the memories most relevant to it),
as one compact text within a token budget, with the ids it used.

Only approved, unexpired memories are shown (never pending, rejected, superseded or archived ones), of the global
scope, the project asked for (every project when none is named) and the session asking. Reading the context
counts no use of a memory unless asked: a session start is no recall, and counting it would make the memories
shown at every start the most used, so shown again. The sections share the budget by taking turns, one line
each, so a long list of preferences cannot crowd out the tasks. Personal data in a line shows as its marker, but
for the user's own address in the user's own lines, and a last line says why."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

from engram.agent.browse import shorten
from engram.agent.subject import someone_else
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput
from engram.lang import analysis, pii
from engram.lang.due import reminder_day, standing, to_do
from engram.model.agent_answers import SessionContextAnswer
from engram.model.record import Category, Kind, MemoryRecord, MemoryType, Scope, Status, as_utc, utcnow
from engram.recall.modes import RecallMode
from engram.recall.query import read_query
from engram.recall.retriever import Retriever
from engram.store.roles import Rows
from engram.store.values import Filter

MIN_TOKENS, MAX_TOKENS = 50, 20_000
LINE_CHARS = 240  # of one memory in the context: a sentence or two
READ = 200  # newest memories read per section
OVERDUE = timedelta(days=7)  # a task due longer ago than this is taken as done or dropped, not open
RELEVANT = 8  # memories recalled for the session's topic
# Words that state a liking or a standing instruction; identity memories without them say who the user is.
_PREFERS = re.compile(
    r"\b(prefer\w*|like[sd]?|love[sd]?|hate[sd]?|dislike[sd]?|favou?rite|enjoy\w*|rather|always|never|"
    r"can'?t stand|don'?t (?:like|want|use))\b",
    re.I,
)
_DECIDED_KINDS = frozenset({"decision", "constraint"})
_OWN = ("About the user", "Preferences", "Open tasks")  # the sections of the user's own lines
# Why a marker stands in a line: a context goes into every session, whatever it is about.
_WITHHELD = (
    "(Phone numbers, e-mail addresses and other personal data show as markers here, as this text goes into every "
    "session; search_memory gives them when asked.)"
)
# A decision already made, in the past tense or under way ("We decided to use PostgreSQL", "we're going with"):
# called a task, it has nothing left to do; "Make a decision on the vendor" is still one.
_MADE = re.compile(
    r"\b(?:we|I)(?:\s+have|'ve)?\s+(?:decided|chose|agreed|settled)\b|\b(?:we're|we are|I'm|I am)\s+going with\b"
    r"|^\s*(?:decided|decision)\s*:",  # a note headed as one ("Decided: we won't move Dad before the wedding")
    re.I,
)


class SessionContext:
    def __init__(self, settings: Settings, store: Rows, embedder: Embedder, retriever: Retriever) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._retriever = retriever

    def __call__(
        self,
        *,
        max_tokens: int,
        scope_id: str | None,
        query: str | None,
        session: str | None,
        now: datetime | None,
        touch: bool,
    ) -> SessionContextAnswer:
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int):
            raise InvalidInput("max_tokens", f"must be a whole number, got {max_tokens!r}")
        if not MIN_TOKENS <= max_tokens <= MAX_TOKENS:
            raise InvalidInput(
                "max_tokens", f"must be between {MIN_TOKENS} and {MAX_TOKENS}, got {max_tokens}"
            )
        if query is not None and not query.strip():
            query = None
        when = utcnow() if now is None else as_utc(now)

        def seen(record: MemoryRecord) -> bool:
            if record.scope is Scope.SESSION:
                return session is not None and record.scope_id == session
            return record.scope is Scope.GLOBAL or scope_id is None or record.scope_id == scope_id

        def read(where: Filter) -> list[MemoryRecord]:
            return [r for r in self._store.select(where, limit=READ) if seen(r)]

        base = Filter(session=session, now=when)
        # A reminder is listed with its day among the open tasks, whatever its kind: a birthday is a fact about
        # someone, filed as a reminder so that it comes up when its day nears.
        reminders = read(Filter(categories=(Category.REMINDERS,), session=session, now=when))
        listed = {r.id for r in reminders}
        identity = [
            r for r in read(Filter(kinds=(Kind.IDENTITY,), session=session, now=when)) if r.id not in listed
        ]
        others = [r for r in identity if someone_else(r.content)]
        own = [r for r in identity if r not in others]
        prefers = [r for r in own if _prefers(r)]
        prefers += [r for r in read(Filter(categories=(Category.SYSTEM,), session=session, now=when))]
        about = [r for r in own if not _prefers(r)]
        sections: dict[str, list[tuple[str, str]]] = {
            "About the user": [(r.id, _line(r)) for r in _by_weight(about)],
            "Preferences": [(r.id, _line(r)) for r in _by_weight(_unique(prefers))],
            "Other people": [(r.id, _line(r)) for r in _by_weight(others)],
        }
        if query is not None:
            asked = read_query(query, when, longest=self._settings.max_content_chars)
            hits = self._retriever.recall(
                asked, base, limit=RELEVANT, mode=RecallMode.RELATED, profile="default", touch=False
            )
            sections["Relevant to this session"] = [
                (h.record.parent_id or h.record.id, _line(h.record)) for h in hits if seen(h.record)
            ]
        tasks = _unique([*read(Filter(kinds=(Kind.TASK,), session=session, now=when)), *reminders])
        sections["Open tasks"] = list(_open_tasks([r for r in tasks if not _made(r.content)], when))
        recent = read(base)
        sections["Recent decisions"] = [
            (r.id, f"{_line(r)} ({_dated(r)})")
            for r in recent
            if (r.kind is not Kind.TASK or _made(r.content)) and _decided(r, self._settings.chunk_tokens)
        ]
        read_records = [*identity, *prefers, *tasks, *recent]
        if query is not None:
            read_records += [h.record for h in hits]
        sections = self._with_updates(sections, {r.id: r for r in read_records}, when)
        # An address in the user's own lines (where they live, the flat they leave, where a task takes them) is
        # theirs to see: a marker in its place left the agent unable to say where.
        theirs = {i for title in _OWN for i, _ in sections.get(title, [])}
        text, used = _fill(sections, max_tokens, self._count, theirs)
        ids = list(dict.fromkeys(i for shown in used.values() for i in shown))
        if touch and ids:
            self._store.touch(ids, when)
        return {
            "text": text,
            "ids": ids,
            "sections": used,
            "tokens": self._count(text),
            "max_tokens": max_tokens,
        }

    def _with_updates(
        self, sections: dict[str, list[tuple[str, str]]], records: dict[str, MemoryRecord], now: datetime
    ) -> dict[str, list[tuple[str, str]]]:
        """Each line of a memory a newer one says has changed ("My sister Clara lives in Lisbon", then "Clara
        moved to Porto") followed by that update, which is not listed again on its own: shown alone, the older
        line told every session the old fact; left out, a corrected invoice lost the day it is due."""
        newer_ids = {
            n for i, _ in (x for items in sections.values() for x in items)
            if i in records and isinstance(n := records[i].metadata.get("updated_by"), str)
        }  # fmt: skip
        if not newer_ids:
            return sections
        live = {
            r.id: r
            for r in self._store.get_many(sorted(newer_ids))
            if r.status is Status.APPROVED and (r.expires_at is None or as_utc(r.expires_at) > now)
        }
        shown: set[str] = set()
        out: dict[str, list[tuple[str, str]]] = {}
        for title, items in sections.items():
            out[title] = []
            for memory_id, line in items:
                older = records.get(memory_id)
                newer = None if older is None else live.get(str(older.metadata.get("updated_by")))
                if newer is not None:
                    said = newer.created_at.date().isoformat()
                    line = f"{line} [updated {said}: {shorten(newer.content, LINE_CHARS // 2)[0]}]"
                    shown.add(newer.id)
                out[title].append((memory_id, line))
        return {title: [(i, line) for i, line in items if i not in shown] for title, items in out.items()}

    def _count(self, text: str) -> int:
        return len(self._embedder.token_offsets(text))


def _prefers(record: MemoryRecord) -> bool:
    candidate = record.metadata.get("candidate")
    if isinstance(candidate, dict) and candidate.get("kind") == "preference":
        return True
    return record.category is Category.SYSTEM or bool(_PREFERS.search(record.content))


def _made(content: str) -> bool:
    return _MADE.search(content) is not None


def _decided(record: MemoryRecord, passage_tokens: int) -> bool:
    """A decision: SHODH's Decision type, a decision or constraint extracted from a conversation, or a text that
    says one was made ("we decided", "going with"). Never a document, added from a file or stored whole (longer
    than a passage): notes that mention a decision somewhere in 1,700 words showed as one line of their opening
    words."""
    if record.metadata.get("source_path") or record.token_count > passage_tokens:
        return False
    candidate = record.metadata.get("candidate")
    if record.type is MemoryType.DECISION:
        return True
    if isinstance(candidate, dict) and candidate.get("kind") in _DECIDED_KINDS:
        return True
    indicators = record.metadata.get("importance_indicators")
    if isinstance(indicators, list):
        return "decision" in indicators
    return analysis.says_decision(record.content)


def _by_weight(records: list[MemoryRecord]) -> list[MemoryRecord]:
    """The most important first, then the newest (a stable sort keeps the store's newest-first order)."""
    return sorted(records, key=lambda r: -(r.importance + (0.5 if r.user_marked_important else 0)))


def _unique(records: list[MemoryRecord]) -> list[MemoryRecord]:
    return list({r.id: r for r in records}.values())


def _open_tasks(tasks: list[MemoryRecord], now: datetime) -> Iterator[tuple[str, str]]:
    """Tasks with a due day, soonest first (overdue ones too, for a week from their day or from when they were
    said late), then the undated, newest first; never a rule or a habit."""
    dated: list[tuple[datetime, MemoryRecord]] = []
    undated: list[MemoryRecord] = []
    for record in tasks:
        if standing(record.content):
            continue  # a rule or a habit the classifier called a task: nothing to complete
        day = reminder_day(record.content, record.created_at, now)  # a yearly occasion: its next day
        if day is None:
            # With no day, only what is worded as a thing to do, as the due list has it: a statement filed as a
            # task or a reminder ("Kwame's mother will make jollof for the buffet") has nothing to complete.
            if to_do(record.content):
                undated.append(record)
        # A task said when already late stays open for a week from when it was said.
        elif max(day, record.created_at) >= now - OVERDUE:
            dated.append((day, record))
    for day, record in sorted(dated, key=lambda d: d[0]):
        late = " - overdue" if day.date() < now.date() else ""
        yield record.id, f"{_line(record)} (due {day.date().isoformat()}{late})"
    for record in sorted(undated, key=lambda r: r.created_at, reverse=True):
        yield record.id, _line(record)


def _line(record: MemoryRecord) -> str:
    return shorten(record.content, LINE_CHARS)[0]


def _dated(record: MemoryRecord) -> str:
    where = f", project {record.scope_id}" if record.scope is Scope.PROJECT and record.scope_id else ""
    return f"{record.created_at.date().isoformat()}{where}"


def _shown(text: str, own: bool) -> str:
    """A line with its personal data as markers; an address kept in a line of the user's own."""
    found = pii.detect(text)
    return pii.redact(text, [f for f in found if not (own and f.kind is pii.PiiKind.ADDRESS)])


def _fill(
    sections: dict[str, list[tuple[str, str]]],
    budget: int,
    count: Callable[[str], int],
    own: frozenset[str] | set[str] = frozenset(),
) -> tuple[str, dict[str, list[str]]]:
    """The sections' lines within `budget` tokens: each section in turn gives its next line while one fits; a
    memory shown once is not shown again under another title. With a marker shown, a last line says why, when
    it fits."""
    lines: dict[str, list[str]] = {title: [] for title in sections}
    used: dict[str, list[str]] = {title: [] for title in sections}
    shown: set[str] = set()
    queues = {title: list(items) for title, items in sections.items() if items}
    spent = 0
    while queues:
        for title in list(queues):
            queue = queues[title]
            while queue and queue[0][0] in shown:
                queue.pop(0)
            if not queue:
                del queues[title]
                continue
            memory_id, text = queue.pop(0)
            # A context goes into every session, whatever it is about: personal data (the user's phone number,
            # an e-mail address) shows as its marker, and search_memory gives it when a session asks for it.
            line = f"- {_shown(text, memory_id in own)}"
            cost = count(line) + 1 + (0 if lines[title] else count(f"## {title}") + 2)
            if spent + cost > budget:
                continue  # a shorter line further on may still fit
            spent += cost
            lines[title].append(line)
            used[title].append(memory_id)
            shown.add(memory_id)
    blocks = [f"## {title}\n" + "\n".join(shown_lines) for title, shown_lines in lines.items() if shown_lines]
    text = "\n\n".join(blocks)
    while blocks and count(text) > budget:  # counted in parts, the whole may differ by a token or two
        title = next(t for t in reversed(list(lines)) if lines[t])
        lines[title].pop()
        used[title].pop()
        blocks = [f"## {t}\n" + "\n".join(ls) for t, ls in lines.items() if ls]
        text = "\n\n".join(blocks)
    if pii.MARKER.search(text) and count(with_note := f"{text}\n\n{_WITHHELD}") <= budget:
        text = with_note
    return text, {title: ids for title, ids in used.items() if ids}
