"""store_memory: zero-decision storage. Content analysis (concepts, entities, urgency), category, tags mapped
onto the vocabulary, importance 1-5, then the core write path (kind, dedup, chunking), all in one transaction,
with every automatic decision in the audit log; and what the caller may want to do next (similar memories,
merges, an older version of the same fact)."""

from __future__ import annotations

from typing import Any, Protocol

from engram.agent.arguments import StoreContext, validated
from engram.config import Settings
from engram.errors import InvalidInput
from engram.lang import due, events, pii
from engram.model.answers import StoreMemoryResult
from engram.model.record import (
    Category,
    Kind,
    MemoryRecord,
    NewMemory,
    SourceType,
    Status,
    as_utc,
    parse,
    utcnow,
)
from engram.model.results import RememberResult
from engram.store.roles import AuditLog, Rows, SearchIndex, Transactions
from engram.store.values import Filter
from engram.tags.service import TagService
from engram.tags.tagger import Tagger
from engram.write.edit import fetch
from engram.write.holders import states_holder
from engram.write.operations import Operation
from engram.write.replaced import REPLACED_AT, replaced_said
from engram.write.rules import same_particulars
from engram.write.standing import tells_standing
from engram.write.told import says_change
from engram.write.updates import ENDED_AT, headed, hides_value, updates
from engram.write.writer import Writer

SIMILAR_AT = 0.75  # cosine at which another memory is reported as similar
MERGE_AT = 0.9  # ... and suggested for merging (the core merges by itself from 0.95)

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


class StoreMemoryStore(Transactions, Rows, SearchIndex, AuditLog, Protocol):
    """What store_memory reads and writes besides the write path."""


def importance_1_5(importance: float) -> int:
    """A stored importance (0..1) on store_memory's scale of 1 to 5."""
    return round(importance * 4) + 1


class StoreMemory:
    def __init__(
        self, settings: Settings, store: StoreMemoryStore, writer: Writer, tagger: Tagger, tags: TagService
    ) -> None:
        self._settings = settings
        self._store = store
        self._writer = writer
        self._tagger = tagger
        self._tags = tags

    def __call__(
        self,
        content: str,
        context: dict[str, Any] | None = None,
        *,
        fields: dict[str, Any] | None = None,
        operation: Operation | None = None,
    ) -> StoreMemoryResult:
        """`fields` are further record fields an importer keeps (id, created_at, tags, metadata); `operation` is
        the bulk operation this store belongs to, so it can be rolled back."""
        ctx: StoreContext = validated(StoreContext, context, "context")
        fields = fields or {}
        # A new memory already expired would never be found: most likely a mistyped year. An import (its own
        # fields kept) brings old memories as they were, expired ones too.
        expires = ctx.expires_at
        if expires is not None and operation is None and not fields and as_utc(expires) <= utcnow():
            raise InvalidInput(
                "context.expires_at", "is in the past; a memory that has already expired is never found"
            )
        if not isinstance(content, str):
            raise InvalidInput("content", "must be a string")
        # Bad text (empty, NUL bytes, broken Unicode, too long) is refused before the analysis spends time on it.
        parse(NewMemory, {"content": content})
        self._writer.check_length(content)
        # Personal data is looked for before anything reads the text: with redaction on, no concept, tag or entity
        # carries it either.
        report = pii.scan(content)
        redact = report.risk == 2 and self._settings.redact_pii
        if redact:
            content = report.redacted
        tagging = self._tagger.tagged(content, [*fields.get("tags", ()), *ctx.additional_tags])
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
        audit = self._store.audit if operation is None else operation.audit
        with self._store.atomic():
            result = self._writer.remember_many(
                [item], embedded=tagging.embedded, count_tags=False, operation=operation
            )[0]
            record = fetch(self._store, result.id)
            if result.created and ctx.force_category is None:
                record = self._as_reminder(record)
            if result.created:
                if operation is not None:
                    # Recorded once created: the id may be the write's own (an importer's old id was taken),
                    # and an operation that does not know it cannot roll the memory back.
                    operation.before_memory(record.id, None)
                    for tag in plan.tags:
                        operation.before_tag(tag)
                self._tags.record(plan, tagging.vectors, record.created_at)
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
                        "tags": {
                            "tags": list(plan.tags),
                            "mapped": plan.mapped,
                            "new": list(plan.new),
                            "off_topic": tagging.off_topic,
                        },
                        "importance": {"score": importance, "indicators": list(found.indicators)},
                        "overridden": overridden,
                    },
                )
        similar, updated = self._similar(record, result)
        # An import's memories are the old store's as they were, and its rollback would leave a mark behind.
        older = self._older_version(record, result) if operation is None else []
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
                "pii": report.summary(self._settings.redact_pii),
                "due_date": _due_date(record),
            },
            "recommendations": {
                "similar_memories": [i for i, _ in similar],
                "suggested_merges": [i for i, s in similar if s >= MERGE_AT and i not in {*updated, *older}],
                "suggested_updates": [*older, *(i for i, _ in similar if i in updated and i not in older)],
                "tag_consolidations": plan.mapped,
            },
        }

    def _as_reminder(self, record: MemoryRecord) -> MemoryRecord:
        """A memory that says by which day something is to be done ("by 4 December", "due Monday", "before
        Friday"), an instruction naming a day ("Prepare the slides for the review on 2 December"), or an occasion
        or a journey on a day ("Rosa turns 70 on 12 February", "Flight to Lisbon on 22 December") is a reminder
        with that due day, whatever category its text suggested. A month alone is a plan's horizon ("a
        marathon by October"), and a rule or a habit is never due ("no deploys on Fridays", "I run 5k every
        Tuesday")."""
        if record.category is Category.REMINDERS:
            return record
        # "calendar": an occasion or a journey, no thing to do; the classifier's own category is in the audit log.
        method = "deadline" if due.to_do(record.content) else "calendar"
        if method == "calendar" and not events.on_calendar(record.content):
            return record
        if due.deadline_day(record.content, record.created_at) is None:
            return record
        updated = record.model_copy(
            update={"category": Category.REMINDERS, "category_confidence": 1.0, "category_method": method}
        )
        self._store.update(updated)
        return updated

    def _similar(
        self, record: MemoryRecord, result: RememberResult
    ) -> tuple[list[tuple[str, float]], set[str]]:
        """The memories close to it, and of those the ones it seems to update: a close memory that names other
        numbers, dates or times, or says the opposite, is most likely an older version of this fact ("moved to 5
        May", "not vegetarian anymore"); merge_memories([new, old], into=new) keeps the new one and marks the old
        superseded."""
        # A new memory's write already searched its nearest memories (for dedup and the classifiers' votes).
        near = result.neighbours if result.created else self._near(record)
        similar = [(i, s) for i, s in near if s >= SIMILAR_AT and i != record.id][:5]
        older = {r.id: r for r in self._store.get_many([i for i, _ in similar])} if result.created else {}
        updated = {
            i
            for i, r in older.items()
            if r.parent_id is None and not same_particulars(record.content, r.content)
        }
        return similar, updated

    def _older_version(self, record: MemoryRecord, result: RememberResult) -> list[str]:
        """The older memory a new one says has changed ("we moved the standup to 10am"), when one of its close
        neighbours is that fact as it was (engram.write.updates): the closest such one, marked `updated_by` the
        new memory (which lists it in `updates`), so that search puts the newer first and the session context
        shows the older with its update. Nothing is hidden or superseded: merge_memories does that when asked."""
        # A new holder of a role ("my dentist is Dr Evans"), status ("we got married") or place ("Tom started at
        # Hillside") is read against every neighbour: the older memory shares little else with it.
        held = states_holder(record.content) or tells_standing(record.content)
        said = held or says_change(record.content) or headed(record.content) or hides_value(record.content)
        if not result.created or record.parent_id is not None or not said:
            return []
        near = dict(result.neighbours)
        # A change told by what replaced the value sits further from the older memory (engram.write.replaced).
        floor = -1.0 if held else REPLACED_AT if replaced_said(record.content) else ENDED_AT
        olders = self._store.get_many([i for i, s in result.neighbours if s >= floor and i != record.id])
        for old in sorted(olders, key=lambda r: -near[r.id]):
            if (
                old.parent_id is None
                and old.status is Status.APPROVED
                and old.created_at <= record.created_at
                and "updated_by" not in old.metadata
                and updates(record.content, old.content, near[old.id])
                and not self._store.children(old.id)
            ):
                with self._store.atomic():
                    self._store.update(
                        old.model_copy(update={"metadata": old.metadata | {"updated_by": record.id}})
                    )
                    self._store.update(
                        record.model_copy(update={"metadata": record.metadata | {"updates": [old.id]}})
                    )
                    self._store.audit("updated_by", old.id, {"by": record.id})
                return [old.id]
        return []

    def _near(self, record: MemoryRecord) -> list[tuple[str, float]]:
        """Searchable memories of its scope within SIMILAR_AT cosine of it."""
        vector = self._store.vectors([record.id]).get(record.id)
        if vector is None:
            return []
        where = Filter(scope=record.scope, scope_id=record.scope_id)
        return [(i, s) for i, s in self._store.vector_search(vector, 6, where) if s >= SIMILAR_AT]


def _due_date(record: MemoryRecord) -> str | None:
    """The day a reminder or a task is due, as search_memory's list of things to do shows it."""
    if record.category is not Category.REMINDERS and record.kind is not Kind.TASK:
        return None
    day = due.reminder_day(record.content, record.created_at)
    return None if day is None else day.date().isoformat()
