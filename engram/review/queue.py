"""The review queue: memories waiting for a person (uncertain extractions, personal data), and the decisions on
them: approve, reject, or edit (approved as edited)."""

from __future__ import annotations

from typing import Protocol

from engram.errors import InvalidInput
from engram.model.record import MemoryRecord, Status
from engram.store.roles import AuditLog, Rows
from engram.store.values import Filter
from engram.write.edit import Editor, fetch


class ReviewStore(Rows, AuditLog, Protocol):
    """What the queue lists and records."""


class ReviewQueue:
    def __init__(self, store: ReviewStore, editor: Editor) -> None:
        self._store = store
        self._editor = editor

    def pending(self, limit: int = 100) -> list[MemoryRecord]:
        """Pending memories, newest first."""
        return self._store.select(Filter(statuses=(Status.PENDING,), include_expired=True), limit=limit)

    def review(self, memory_id: str, action: str, content: str | None = None) -> MemoryRecord:
        """approve, reject, or edit (new content; the memory is approved as edited)."""
        record = fetch(self._store, memory_id)
        if record.status in (Status.SUPERSEDED, Status.ARCHIVED):
            # Approving a superseded memory would make it live beside the one that replaced it.
            raise InvalidInput("id", f"is {record.status.value}, not a memory to review")
        if action == "approve":
            updated = self._editor.update(memory_id, {"status": Status.APPROVED})
        elif action == "reject":
            updated = self._editor.update(memory_id, {"status": Status.REJECTED})
        elif action == "edit":
            if content is None:
                raise InvalidInput("content", "is required to edit a memory")
            updated = self._editor.update(memory_id, {"content": content, "status": Status.APPROVED})
        else:
            raise InvalidInput("action", "must be approve, reject or edit")
        self._store.audit("review", memory_id, {"action": action, "from": record.status.value})
        return updated
