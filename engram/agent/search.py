"""Seed 002's two tools: `store_memory(content, context)` and `search_memory(query, options)`.

store_memory runs the seed's pipeline: content analysis (concepts, entities, urgency), category, tags mapped onto
the vocabulary, importance 1-5, then the core write path (kind, dedup, chunking), all in one transaction, with
every automatic decision in the audit log. search_memory understands the query (intent, concepts, time) and
ranks with the "redesign" profile: 0.4 semantic + 0.3 exact match + 0.1 importance + 0.1 recency + 0.1 usage;
a question that only asks for things to do searches the reminders, each an exact match of it.
Both return the seed's formats field for field, plus a few fields the seed implies (outcome, needs_category).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engram.errors import InvalidInput
from engram.lang import analysis, due, pii, timewords
from engram.lang.timewords import TimeRange
from engram.model.record import (
    Category,
    Kind,
    NewMemory,
    SourceType,
    as_utc,
    invalid_from,
    parse,
    plain_text,
    text_problem,
    through_day,
    utcnow,
)
from engram.model.vectors import Vector
from engram.recall import retriever as retrieve
from engram.recall.scoring import RecallMode
from engram.store.values import Filter
from engram.tags import tagger as enrich
from engram.tags.vocabulary import TagPlan, Vocabulary, key
from engram.write import writer as write

if TYPE_CHECKING:
    from engram.memory import Hit, Memory
    from engram.write.operations import Operation

SIMILAR_AT = 0.75  # cosine at which another memory is reported as similar
MERGE_AT = 0.9  # ... and suggested for merging (the core merges by itself from 0.95)
EXPANSION_AT = 0.6  # cosine at which a tag expands a query concept

# Words an agent uses for a content type, beside the category and kind names themselves.
_CONTENT_TYPES: dict[str, Category | Kind] = {
    "reminder": Category.REMINDERS,
    "task": Category.REMINDERS,
    "todo": Category.REMINDERS,
    "preference": Category.CONTEXTS,
    "personal": Category.CONTEXTS,
    "project": Category.PROJECTS,
    "learning": Category.LEARNINGS,
    "factual": Category.REFERENCES,
    "fact": Category.REFERENCES,
    "reference": Category.REFERENCES,
    "procedure": Category.REFERENCES,
    "interaction": Category.INTERACTIONS,
    "meeting": Category.INTERACTIONS,
    "conversation": Category.INTERACTIONS,
}
_SOURCES = {
    "conversation": SourceType.USER,
    "user": SourceType.USER,
    "document": SourceType.FILE,
    "file": SourceType.FILE,
    "web": SourceType.WEB,
    "api": SourceType.API,
    "system": SourceType.SYSTEM,
    "assistant": SourceType.AI_GENERATED,
}


class StoreContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    force_category: Category | None = None
    force_importance: int | None = Field(None, ge=1, le=5, strict=True)  # true is no importance
    expires_at: datetime | None = None
    additional_tags: tuple[Annotated[str, Field(min_length=1, max_length=64)], ...] = Field((), max_length=50)
    source: str | None = Field(None, max_length=64)
    user_note: str | None = Field(None, max_length=2000)

    _plain = field_validator("*", mode="before")(plain_text)

    @field_validator("expires_at", mode="before")
    @classmethod
    def _through_day(cls, value: Any) -> Any:
        return through_day(value)


class TimeRangeOption(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    after: datetime | None = None
    before: datetime | None = None

    @model_validator(mode="after")
    def _ordered(self) -> TimeRangeOption:
        if self.after is not None and self.before is not None and as_utc(self.after) >= as_utc(self.before):
            # before is exclusive ("before 20 November" leaves the 20th out): one day is after D, before D + 1.
            raise ValueError("after must be earlier than before (before is exclusive: for one day, give the next)")
        return self


class SearchOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # Numbers and flags as JSON has them: "5" or "yes" is a caller's mistake, named, not read as 5 or true.
    limit: int = Field(10, ge=1, le=100, strict=True)
    min_relevance: float = Field(0.3, ge=0, le=1, strict=True)
    time_range: TimeRangeOption | None = None
    importance_min: int | None = Field(None, ge=1, le=5, strict=True)
    content_type: str | None = None
    include_expired: bool = Field(False, strict=True)


def check_query(mem: Memory, query: Any) -> None:
    """A query is text a store can search: not empty, valid Unicode, no longer than the longest memory."""
    if not isinstance(query, str):
        raise InvalidInput("query", f"must be text, not {type(query).__name__}")
    if not query.strip():
        raise InvalidInput("query", "must not be empty")
    if problem := text_problem(query):
        raise InvalidInput("query", problem)
    write.check_length(mem, query, "query")


def importance_1_5(importance: float) -> int:
    return round(importance * 4) + 1


def _validated(model: type[BaseModel], data: dict[str, Any] | None, name: str) -> Any:
    if data is not None and not isinstance(data, dict):
        raise InvalidInput(name, "must be an object")
    try:
        return model.model_validate(data or {})
    except ValidationError as exc:
        err = invalid_from(exc)
        raise InvalidInput(f"{name}.{err.field}", err.problem) from None


def store_memory(
    mem: Memory,
    content: str,
    context: dict[str, Any] | None = None,
    *,
    fields: dict[str, Any] | None = None,
    op: Operation | None = None,
) -> dict[str, Any]:
    """`fields` are further record fields an importer keeps (id, created_at, tags, metadata); `op` is the bulk
    operation this store belongs to, so it can be rolled back."""
    ctx: StoreContext = _validated(StoreContext, context, "context")
    fields = fields or {}
    # A new memory already expired would never be found: most likely a mistyped year. An import (its own
    # fields kept) brings old memories as they were, expired ones too.
    if ctx.expires_at is not None and op is None and not fields and as_utc(ctx.expires_at) <= utcnow():
        raise InvalidInput("context.expires_at", "is in the past; a memory that has already expired is never found")
    if not isinstance(content, str):
        raise InvalidInput("content", "must be a string")
    # Bad text (empty, NUL bytes, broken Unicode, too long) is refused before the analysis spends time on it.
    parse(NewMemory, {"content": content})
    write.check_length(mem, content)
    # Personal data is looked for before anything reads the text: with redaction on, no concept, tag or entity
    # carries it either.
    report = pii.scan(content)
    redact = report.risk == 2 and mem.settings.redact_pii
    if redact:
        content = report.redacted
    tagging = enrich.tagged(mem, content, [*fields.get("tags", ()), *ctx.additional_tags])
    found, plan = tagging.found, tagging.plan
    importance = ctx.force_importance or found.importance
    overridden = [
        name
        for name, value in (
            ("category", ctx.force_category),
            ("importance", ctx.force_importance),
            ("expires_at", ctx.expires_at),
            ("tags", ctx.additional_tags or None),
        )
        if value is not None
    ]
    metadata: dict[str, Any] = fields.get("metadata", {}) | tagging.metadata
    if ctx.source is not None:
        metadata["source"] = ctx.source
    if ctx.user_note is not None:
        metadata["user_note"] = ctx.user_note
    if overridden:
        metadata["overridden"] = overridden
    if report.risk == 2:
        metadata["pii_redacted" if redact else "pii_found"] = report.names
    # Validated like any write: bad content or fields are an InvalidInput naming the field.
    item = parse(
        NewMemory,
        dict(
            id=fields.get("id"),
            created_at=fields.get("created_at"),
            content=content,
            tags=plan.tags,
            importance=(importance - 1) / 4,
            category=ctx.force_category,
            expires_at=ctx.expires_at,
            source_type=_SOURCES.get((ctx.source or "user").lower(), SourceType.USER),
            metadata=metadata,
        ),
    )
    audit = mem.store.audit if op is None else op.audit
    with mem.store.atomic():
        mem.operation = op
        try:
            result = mem.remember_many([item], embedded=tagging.embedded, count_tags=False)[0]
        finally:
            mem.operation = None
        record = mem.get(result.id)
        if result.created:
            if op is not None:
                # Recorded once created: the id may be the write's own (an importer's old id was taken), and
                # an operation that does not know it cannot roll the memory back.
                op.before_memory(record.id, None)
                for tag in plan.tags:
                    op.before_tag(tag)
            mem.record_tags(plan, tagging.vectors, record.created_at)
            audit(
                "store_memory",
                record.id,
                {
                    "category": {
                        "label": None if record.category is None else record.category.value,
                        "confidence": record.category_confidence,
                        "method": record.category_method,
                    },
                    "kind": {"label": record.kind.value, "confidence": record.kind_confidence},
                    "tags": {"tags": list(plan.tags), "mapped": plan.mapped, "new": list(plan.new),
                             "off_topic": tagging.off_topic},
                    "importance": {"score": importance, "indicators": list(found.indicators)},
                    "overridden": overridden,
                },
            )
    # A new memory's write already searched its nearest memories (for dedup and the classifiers' votes).
    near = (
        result.neighbours
        if result.created
        else mem.similar_to(record.id, SIMILAR_AT, 6, Filter(scope=record.scope, scope_id=record.scope_id))
    )
    similar = [(i, s) for i, s in near if s >= SIMILAR_AT and i != record.id][:5]
    # Seed 002's "suggest updates vs new storage": a close memory that names other numbers, dates or times, or
    # says the opposite, is most likely an older version of this fact ("moved to 5 May", "not vegetarian
    # anymore"); merge_memories([new, old], into=new) keeps the new one and marks the old superseded.
    older = {r.id: r for r in mem.store.get_many([i for i, _ in similar])} if result.created else {}
    updated = {
        i for i, r in older.items() if r.parent_id is None and not write.same_particulars(record.content, r.content)
    }
    return {
        "success": True,
        "memory_id": record.id,
        "outcome": result.outcome,
        "analysis": {
            "detected_category": None if record.category is None else record.category.value,
            "generated_tags": list(record.tags),
            "importance_score": importance_1_5(record.importance),
            "confidence": record.category_confidence,
            "concepts_extracted": list(found.concepts),
            "kind": record.kind.value,
            "needs_category": record.category is None,
            # seed 001's levels: 0 none, 1 only redaction markers, 2 raw personal data stored
            "pii": report.summary(mem.settings.redact_pii),
        },
        "recommendations": {
            "similar_memories": [i for i, _ in similar],
            "suggested_merges": [i for i, s in similar if s >= MERGE_AT and i not in updated],
            "suggested_updates": [i for i, _ in similar if i in updated],
            "tag_consolidations": plan.mapped,
        },
    }


def _content_type(value: str) -> Category | Kind:
    name = value.strip().lower()
    for enum in (Category, Kind):
        try:
            return enum(name)
        except ValueError:
            pass
    if name in _CONTENT_TYPES:
        return _CONTENT_TYPES[name]
    valid = sorted({*(c.value for c in Category), *(k.value for k in Kind), *_CONTENT_TYPES})
    raise InvalidInput("options.content_type", f"unknown; choose one of {valid}")


def _time_filter(
    mem: Memory, query: str, opts: SearchOptions, now: datetime, session: str | None
) -> tuple[str, datetime | None, datetime | None, dict[str, Any] | None]:
    """The query to search with, and the created-at window: from the options, else relative to an event the
    memories mention ("before the launch"). A time the query names ("last week", "in March") filters nothing:
    the ranking's time score favours the memories of that period (a filter lost the older sessions that a
    question about last Saturday's event also needs). The event is looked for among the memories `session` sees."""
    if opts.time_range is not None:
        after, before = (None if t is None else as_utc(t) for t in (opts.time_range.after, opts.time_range.before))
        return query, after, before, {"phrase": None, "after": after, "before": before, "applied": "filter"}
    found = timewords.time_range(query, now)
    if found is not None:
        return query, None, None, {"phrase": found.phrase, "after": found.after, "before": found.before,
                                   "applied": "boost"}  # fmt: skip
    anchor = timewords.event_anchor(query)
    if anchor is not None:
        event = mem.recall(anchor.phrase, limit=1, mode=RecallMode.RANKED, touch=False, now=now, session=session)
        if event:
            at = event[0].record.created_at
            after, before = (None, at) if anchor.relation == "before" else (at, None)
            text = query.replace(f"{anchor.relation} {anchor.phrase}", " ").strip() or query
            return text, after, before, {"phrase": f"{anchor.relation} {anchor.phrase}", "after": after,
                                         "before": before, "event": event[0].record.id,
                                         "applied": "filter"}  # fmt: skip
    return query, None, None, None


# Words that ask for the latest memories when the query names no time: "recent memories", "everything new".
_LATEST = frozenset({"recent", "recently", "latest", "new", "memory", "memories", "everything", "all", "notes"})


def _memories_of(
    concepts: tuple[str, ...],
    where: Filter,
    time_info: dict[str, Any] | None,
    opts: SearchOptions,
    ranked: Callable[[Filter, bool, int], tuple[list[Hit], int]],
) -> tuple[list[Hit], int, dict[str, Any] | None]:
    """A query that names no topic, only memories ("what did I tell you today?", "recent memories"): each memory
    of the time it names (or of the time range option) is what was asked, newest first. A named time filters
    here: with no topic to rank by, a boost would return every memory. With neither a time nor a word such as
    "recent", nothing is listed (the plain search runs)."""
    if time_info is not None and time_info.get("applied") == "boost":
        where = replace(where, created_after=time_info["after"], created_before=time_info["before"])
        time_info = time_info | {"applied": "filter"}
    elif opts.time_range is None and not any(w in _LATEST for c in concepts for w in c.lower().split()):
        shown, total = ranked(where, False, opts.limit)
        return shown, total, time_info
    shown, total = ranked(where, True, LISTED)
    return sorted(shown, key=lambda h: h.record.created_at, reverse=True)[: opts.limit], total, time_info


def _expansions(mem: Memory, concepts: tuple[str, ...]) -> dict[str, list[str]]:
    """Each query concept that is a tag in use, with the tags closest to it (seed: expansion through the tag
    graph). Concepts outside the vocabulary are not embedded: the query's own embedding already searches by
    meaning, and a model call per concept would cost more than the rest of the search."""
    vocabulary = mem.vocabulary()
    known: list[tuple[str, str, Vector]] = []
    for concept in concepts:
        tag = analysis.normalize_tag(concept)
        name = tag if vocabulary.vector(tag) is not None else vocabulary.spelled(tag)
        vector = None if name is None else vocabulary.vector(name)
        if name is not None and vector is not None:
            known.append((concept, name, vector))
    if not known:
        return {}
    out: dict[str, list[str]] = {}
    nearest = vocabulary.nearest(np.stack([v for _, _, v in known]), 4)
    for (concept, name, _), near in zip(known, nearest, strict=True):
        kept = [tag for tag, cosine in near if cosine >= EXPANSION_AT and key(tag) != key(name)][:3]
        if kept:
            out[concept] = kept
    return out


LISTED = 500  # reminders read for a question about things to do


def _by_due(
    hits: list[Hit], query: str, now: datetime
) -> tuple[list[Hit], dict[str, datetime | None], TimeRange | None]:
    """Reminders due on the days `query` names (all if it names none), soonest first, then those naming no day
    in their order; each one's due day; the days named."""
    days = {h.record.id: due.due_day(h.record.content, h.record.created_at) for h in hits}
    span = due.window(query, now)
    if span is not None:
        hits = [h for h in hits if (d := days[h.record.id]) is None or span.contains(d)]
    dated = sorted((h for h in hits if days[h.record.id] is not None), key=lambda h: days[h.record.id] or now)
    return [*dated, *(h for h in hits if days[h.record.id] is None)], days, span


def _scope(content_type: Category | Kind | None) -> str:
    return "content+tags" if content_type is None else f"content+tags in {content_type.value}"


def search_memory(
    mem: Memory,
    query: str,
    options: dict[str, Any] | None = None,
    *,
    now: datetime | None = None,
    touch: bool = True,
    session: str | None = None,
) -> dict[str, Any]:
    opts: SearchOptions = _validated(SearchOptions, options, "options")
    check_query(mem, query)
    now = utcnow() if now is None else as_utc(now)
    text, after, before, time_info = _time_filter(mem, query, opts, now, session)
    content_type = None if opts.content_type is None else _content_type(opts.content_type)
    where = Filter(
        kinds=(content_type,) if isinstance(content_type, Kind) else (),
        categories=(content_type,) if isinstance(content_type, Category) else (),
        importance_min=None if opts.importance_min is None else (opts.importance_min - 1) / 4,
        include_expired=opts.include_expired,
        created_after=after,
        created_before=before,
        now=now,
        session=session,
    )

    # The time a query names is read as a time, not as concepts ("last week" is no topic to expand).
    phrase = None if time_info is None else time_info["phrase"]  # None for the time_range option
    topic = text if not phrase else re.sub(re.escape(str(phrase)), " ", text, flags=re.IGNORECASE)

    def analysed() -> tuple[tuple[str, ...], dict[str, list[str]]]:
        concepts = analysis.query_concepts(topic)
        return concepts, _expansions(mem, concepts)

    # The concepts and their tag expansions feed only the text search, so where the store reads on other
    # threads they are worked out beside the model (keyphrase extraction took 2 ms before the query embedded).
    # This job is queued before the text search that waits for it, and the pool runs jobs in order, so
    # concurrent searches cannot fill every worker with waiting text searches.
    job = mem.workers().submit(analysed) if mem.store.reads_anywhere() else None
    found = job.result if job is not None else functools.cache(analysed)

    def expansion_words() -> list[str]:
        return [t.replace("-", " ") for near in found()[1].values() for t in near]

    def ranked(where: Filter, exact: bool, limit: int) -> tuple[list[Hit], int]:
        return retrieve.ranked(mem, text, where, limit=limit, profile="redesign", when=now,
                          expansions=expansion_words, floor=opts.min_relevance, exact=exact)  # fmt: skip

    # "What do I need to do this week?" names no topic: it asks for the things to do. The reminders are searched,
    # each an exact match of what was asked (whatever words it shares with the question), those due soonest
    # first, and only those due on the days the question names, if it names some (undated ones follow); with
    # no reminder, all memories are.
    ask = analysis.intent(query)
    listing = ask == "remind" and content_type is None and analysis.names_no_topic(found()[0])
    shown: list[Hit] = []
    total, days, span = 0, dict[str, datetime | None](), None
    if listing:
        # Reminders are few; all of them are read, so the days asked for can be picked from every one.
        shown, total = ranked(replace(where, categories=(Category.REMINDERS,)), True, LISTED)
        listing = bool(shown)  # none due on the days asked is an answer; no reminder at all is not
        if listing:
            shown, days, span = _by_due(shown, query, now)
            shown, total = shown[: opts.limit], len(shown)
    if not listing and analysis.asks_for_memories(found()[0]):
        shown, total, time_info = _memories_of(found()[0], where, time_info, opts, ranked)
    elif not listing:
        shown, total = ranked(where, False, opts.limit)
    concepts, expansions = found()
    if span is not None:  # the days the reminders are due, not when memories were made
        time_info = {"phrase": span.phrase, "after": span.after, "before": span.before, "applied": "due"}
    if shown and touch:
        mem.store.touch([h.record.id for h in shown], now)
    # "need", "due": the words of a question for things to do are no concepts a memory matches.
    topical = [c for c in concepts if not analysis.names_no_topic([c])]
    wanted = {*(c.lower() for c in topical), *(t for near in expansions.values() for t in near)}
    results = []
    seen: set[str] = set()
    for hit in shown:
        r = hit.record
        # A long memory answers with the passage (chunk) that matched, under the memory's own id, once.
        owner = r.parent_id or r.id
        if owner in seen:
            continue
        seen.add(owner)
        results.append(
            {
                "id": owner,
                "content": r.content,
                "relevance_score": round(hit.score, 4),
                "matched_concepts": analysis.matched_concepts(wanted, r.content, r.tags),
                "category": None if r.category is None else r.category.value,
                "importance": importance_1_5(r.importance),
                "created_at": r.created_at.isoformat(),
                "last_accessed": None if r.last_accessed_at is None else r.last_accessed_at.isoformat(),
            }
            | ({"due": None if (day := days.get(r.id)) is None else day.date().isoformat()} if listing else {})
        )
    return {
        "results": results,
        "total_found": total,
        "query_analysis": {
            "extracted_concepts": list(concepts),
            "search_scope": _scope(Category.REMINDERS if listing else content_type),
            "semantic_expansions": expansions,
            "intent": ask,
            "time_range": None
            if time_info is None
            else {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in time_info.items()},
        },
    }


__all__ = ["SearchOptions", "StoreContext", "TagPlan", "Vocabulary", "search_memory", "store_memory"]
