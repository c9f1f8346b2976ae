"""The tools that change memories as a person would through an agent: edit one, forget every memory with a tag,
decide on the review queue, and read a conversation into memories."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pydantic

from engram.agent.browse import summary
from engram.agent.inputs import MAX_MESSAGES, ChatMessage
from engram.errors import InvalidInput, NotFound
from engram.model.agent_answers import (
    ForgetByTagAnswer,
    IngestConversationAnswer,
    PendingMemory,
    ReviewMemoriesAnswer,
    UpdateMemoryAnswer,
)
from engram.model.answers import FORGET_NOTE
from engram.model.record import Kind, MemoryRecord, Scope, Status, invalid_from, tag_form
from engram.review.extract import KINDS
from engram.review.ingest import Ingestor
from engram.review.queue import MAX_BULK, ReviewQueue, extraction_confidence, why_waiting
from engram.store.roles import Rows
from engram.store.values import Filter
from engram.write.edit import Editor, fetch

_BATCH = 100  # memories deleted per page read by forget_by_tag
# The report fields of an ingest that are not the outcomes of its writes.
_REPORTED = frozenset(
    {"messages", "messages_already_ingested", "candidates", "approved", "pending", "by_kind"}
)


class Curation:
    def __init__(self, store: Rows, editor: Editor, review: ReviewQueue, ingestor: Ingestor) -> None:
        self._store = store
        self._editor = editor
        self._review = review
        self._ingestor = ingestor

    def update_memory(self, memory_id: str, fields: dict[str, Any]) -> UpdateMemoryAnswer:
        """The fields given (not None) changed; new content is embedded again."""
        given = {name: value for name, value in fields.items() if value is not None}
        if not given:
            raise InvalidInput(
                "content", f"give new content or a field to change ({', '.join(list(fields)[1:])})"
            )
        old = fetch(self._store, memory_id)
        new = self._editor.update(memory_id, given)
        changed = [name for name in given if getattr(old, name) != getattr(new, name)]
        return {
            "id": new.id,
            "changed": changed,
            "reembedded": new.content_hash != old.content_hash,
            "memory": summary(new),
        }

    def forget_by_tag(self, tag: str, *, confirm: bool, session: str | None) -> ForgetByTagAnswer:
        """Every memory carrying `tag` (in any status; not another session's session memories) deleted, each as
        forget deletes one: its chunks too, and no trace of its text."""
        wanted = tag_form(tag) if isinstance(tag, str) else ""
        if not wanted:
            raise InvalidInput("tag", "must name a tag, not be empty")
        where = Filter(tags=(wanted,), statuses=tuple(Status), include_expired=True, session=session)
        if confirm is not True and (found := len(self._store.select(where, limit=MAX_BULK + 1))):
            many = (
                f"{MAX_BULK}+ memories"
                if found > MAX_BULK
                else f"{found} memor{'y' if found == 1 else 'ies'}"
            )
            raise InvalidInput(
                "confirm", f"must be true to delete the {many} tagged {wanted!r} for good (no undo)"
            )
        ids: list[str] = []
        archived: list[str] = []
        while batch := [r for r in self._store.select(where, limit=_BATCH) if r.id not in ids]:
            for record in batch:
                archived += self._editor.forget(record.id)
                ids.append(record.id)
        archived = [i for i in dict.fromkeys(archived) if i not in ids]  # one archived, then deleted: deleted
        return {"tag": wanted, "deleted": len(ids), "ids": ids, "archived": archived, "note": FORGET_NOTE}

    def review_memories(
        self,
        action: str,
        *,
        ids: Sequence[str] | None,
        kind: str | None,
        below_confidence: float | None,
        limit: int,
        session: str | None = None,
    ) -> ReviewMemoriesAnswer:
        """`session`: the session asking (MCP); another session's session memories are neither shown to it nor
        decided by it, by id (not found, as elsewhere) or by filter, as its searches and lists leave them out."""
        mine = _of_session(session)
        if action == "list":
            if ids:
                raise InvalidInput(
                    "ids", "are for approve or reject; list shows the queue (filter it by kind)"
                )
            waiting = [r for r in self._waiting(kind, below_confidence, MAX_BULK) if mine(r)][:limit]
            pending = [_pending(r) for r in waiting]
            return {"action": action, "pending": pending, "reviewed": [], "count": len(pending)}
        if action not in ("approve", "reject"):
            raise InvalidInput("action", f"must be list, approve or reject, got {action!r}")
        for memory_id in ids or ():
            if isinstance(memory_id, str) and (record := self._store.get(memory_id)) and not mine(record):
                raise NotFound(memory_id)
        if session is not None and not ids and (kind is not None or below_confidence is not None):
            ids = [r.id for r in self._waiting(kind, below_confidence, MAX_BULK) if mine(r)][:limit]
            if not ids:
                return {"action": action, "pending": [], "reviewed": [], "count": 0}
        decided = self._review.review_many(
            action, ids=ids or (), kind=kind, below_confidence=below_confidence, limit=limit
        )
        reviewed = [r.id for r in decided]
        return {"action": action, "pending": [], "reviewed": reviewed, "count": len(reviewed)}

    def _waiting(self, kind: str | None, below: float | None, limit: int) -> list[MemoryRecord]:
        """Pending memories, newest first: of a kind (a memory kind or an extracted one), under a confidence."""
        if kind is not None and kind not in {k.value for k in Kind} | set(KINDS):
            raise InvalidInput(
                "kind",
                f"must be a memory kind ({', '.join(k.value for k in Kind)}) or one of {', '.join(KINDS)}",
            )
        if kind is None and below is None:
            return self._review.pending(limit)

        def keeps(record: MemoryRecord) -> bool:
            candidate = record.metadata.get("candidate")
            extracted = candidate.get("kind") if isinstance(candidate, dict) else None
            if kind is not None and kind not in (record.kind.value, extracted):
                return False
            confidence = extraction_confidence(record)
            return below is None or (confidence is not None and confidence < below)

        return [r for r in self._review.pending(MAX_BULK) if keeps(r)][:limit]

    def ingest_conversation(
        self,
        messages: Sequence[dict[str, Any] | ChatMessage],
        *,
        conversation_id: str | None,
        scope: str,
        scope_id: str | None,
    ) -> IngestConversationAnswer:
        if isinstance(messages, str | dict) or not isinstance(messages, Sequence):
            raise InvalidInput("messages", "must be a list of messages ({role, content, timestamp})")
        if not 1 <= len(messages) <= MAX_MESSAGES:
            raise InvalidInput(
                "messages",
                f"must hold 1 to {MAX_MESSAGES} messages, got {len(messages)}: send a long one in parts",
            )
        rows = []
        for i, message in enumerate(messages):
            try:
                checked = ChatMessage.model_validate(message)
            except pydantic.ValidationError as exc:
                err = invalid_from(exc)
                raise InvalidInput(f"messages[{i}].{err.field}", err.problem) from None
            said = {"role": checked.role, "content": checked.content, "ts": checked.timestamp}
            rows.append(said | {"conversation_id": conversation_id or ""})
        report = self._ingestor.ingest(rows, scope=scope, scope_id=scope_id)
        return {
            "messages": report.get("messages", 0),
            "already_ingested": report.get("messages_already_ingested", 0),
            "candidates": report.get("candidates", 0),
            "approved": report.get("approved", 0),
            "pending": report.get("pending", 0),
            "by_kind": dict(report.get("by_kind", {})),
            "outcomes": {k: v for k, v in report.items() if k not in _REPORTED},
        }


def _of_session(session: str | None) -> Callable[[MemoryRecord], bool]:
    """Whether the session asking may see a memory: any but another session's session memory."""
    if session is None:
        return lambda record: True
    return lambda record: record.scope != Scope.SESSION or record.scope_id == session


def _pending(record: MemoryRecord) -> PendingMemory:
    return PendingMemory(**summary(record), why=why_waiting(record), confidence=extraction_confidence(record))
