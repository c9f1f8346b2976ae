"""Bulk operations (tag consolidation, merges, imports) under an operation id, and their rollback.

An operation runs in one transaction and records, before each change, the prior state of the memory or tag
it touches (with the memory's embedding). Rolling back restores those states in reverse order and removes what
the operation created, so the store is as it was; the audit log keeps both the operation and its rollback.
A forget erases the before-images of the memory it deletes (a mark stays), so no rollback brings its text back.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol, cast

from engram.errors import InvalidInput, NotFound
from engram.model.answers import OperationEntry, RollbackAnswer
from engram.model.record import MemoryRecord, Status, as_utc
from engram.store.roles import AuditLog, OperationLog, Rows, TagRegistry, Transactions
from engram.store.values import Change, Filter, TagRow
from engram.tags.service import TagService


class OperationStore(Transactions, Rows, TagRegistry, OperationLog, AuditLog, Protocol):
    """What a bulk operation records and its rollback restores: memories, tags, their before-images, the log."""


class Operation:
    """One bulk operation under way: call `before_memory` / `before_tag` before changing one, so that its
    rollback can restore it."""

    def __init__(self, store: OperationStore, name: str) -> None:
        self.store = store
        self.name = name
        self.id = f"op_{uuid.uuid4().hex[:16]}"
        self.summary: dict[str, Any] = {}
        self._seen: set[tuple[str, str]] = set()

    def before_memory(self, memory_id: str, record: MemoryRecord | None) -> None:
        """Call before creating (record None) or changing a memory; only the first state counts."""
        if ("memory", memory_id) in self._seen:
            return
        self._seen.add(("memory", memory_id))
        vector = None if record is None else self.store.vectors([memory_id]).get(memory_id)
        before = None if record is None else record.model_dump(mode="json")
        self.store.record_change(self.id, Change("memory", memory_id, before, vector))

    def before_tag(self, tag: str) -> None:
        if ("tag", tag) in self._seen:
            return
        self._seen.add(("tag", tag))
        row = self.store.tag(tag)
        before = None if row is None else _tag_json(row)
        self.store.record_change(self.id, Change("tag", tag, before, None if row is None else row.vector))

    def audit(self, action: str, memory_id: str | None, detail: dict[str, Any]) -> None:
        self.store.audit(action, memory_id, detail, operation_id=self.id)


class Operations:
    """Runs bulk operations and rolls them back. A rollback restores tag rows, so the tag service reloads."""

    def __init__(self, store: OperationStore, tags: TagService) -> None:
        self._store = store
        self._tags = tags

    @contextmanager
    def run(self, name: str) -> Iterator[Operation]:
        """All of it or none of it: one transaction, recorded as done with the operation's summary."""
        op = Operation(self._store, name)
        with self._store.atomic():
            self._store.begin_operation(op.id, name)
            yield op
            self._store.finish_operation(op.id, "done", op.summary)

    def rollback(self, operation_id: str) -> RollbackAnswer:
        """Undo a bulk operation completely (refused once its memories changed since)."""
        try:
            return _rollback(self._store, operation_id)
        finally:
            self._tags.reload()

    def latest(self, limit: int) -> list[OperationEntry]:
        """The latest bulk operations, newest first, each with its id and whether it was rolled back."""
        return cast(list[OperationEntry], self._store.operations(limit))


def _rollback(store: OperationStore, operation_id: str) -> RollbackAnswer:
    """Restore everything an operation changed; returns what was restored and removed."""
    known = {o["id"]: o for o in store.operations(limit=1_000_000)}
    if operation_id not in known:
        raise NotFound(operation_id, "operation")
    if known[operation_id]["status"] != "done":
        raise InvalidInput("operation_id", f"operation is {known[operation_id]['status']}, not done")
    restored = removed = 0
    with store.atomic():
        changes = list(reversed(store.changes(operation_id)))
        if changed := _changed_since(store, changes, known[operation_id]["finished_at"]):
            shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
            raise InvalidInput(
                "operation_id",
                f"{len(changed)} of its memories changed after it ({shown}): rolling it back would undo those "
                "changes too, so it is refused",
            )
        # Memories first: whether a tag the operation created is still carried depends on what stays.
        for change in sorted(changes, key=lambda c: c.entity != "memory"):
            if change.entity == "memory":
                if change.before is None:
                    removed += store.delete(change.key)
                elif change.before.get("forgotten"):
                    continue  # its text was erased by a forget: nothing is brought back
                else:
                    record = MemoryRecord.model_validate(change.before)
                    if store.get(record.id) is None:
                        store.insert([record], [change.before_vector])
                    else:
                        store.update(record, change.before_vector)
                    restored += 1
            elif change.before is None:
                # A tag the operation created that memories stored since still carry stays, counted by them.
                carried = store.count(
                    Filter(statuses=tuple(Status), include_expired=True, tags=(change.key,))
                )
                row = store.tag(change.key)
                if carried and row is not None:
                    store.put_tag(replace(row, usage_count=carried, status="active", merged_into=None))
                else:
                    store.delete_tag(change.key)
                    removed += 1
            else:
                row = _tag_from_json(change.before, change.before_vector)
                # Counted by the memories carrying it now: memories stored since the operation carry it too.
                carried = store.count(
                    Filter(statuses=tuple(Status), include_expired=True, tags=(change.key,))
                )
                store.put_tag(replace(row, usage_count=carried) if row.status == "active" else row)
                restored += 1
        summary = {"restored": restored, "removed": removed}
        store.finish_operation(
            operation_id, "rolled_back", known[operation_id]["summary"] | {"rollback": summary}
        )
        store.audit("rollback", None, {"operation": operation_id, **summary}, operation_id=operation_id)
    return {"operation_id": operation_id, "restored": restored, "removed": removed}


def _changed_since(store: OperationStore, changes: list[Change], finished: str | None) -> list[str]:
    """The memories an operation touched that were edited or forgotten after it: restoring its earlier states
    would silently undo those later changes."""
    if finished is None:
        return []
    after = as_utc(datetime.fromisoformat(finished))
    out = []
    for change in changes:
        if change.entity != "memory":
            continue
        current = store.get(change.key)
        if current is None:
            if change.before is not None:
                out.append(change.key)  # forgotten since: a rollback would bring it back
        elif current.updated_at is not None and as_utc(current.updated_at) > after:
            out.append(change.key)
    return out


def _tag_json(row: TagRow) -> dict[str, Any]:
    return {
        "tag": row.tag,
        "usage_count": row.usage_count,
        "first_used_at": row.first_used_at.isoformat(),
        "last_used_at": row.last_used_at.isoformat(),
        "status": row.status,
        "merged_into": row.merged_into,
    }


def _tag_from_json(data: dict[str, Any], vector: Any) -> TagRow:
    return TagRow(
        data["tag"],
        int(data["usage_count"]),
        datetime.fromisoformat(data["first_used_at"]),
        datetime.fromisoformat(data["last_used_at"]),
        data["status"],
        data["merged_into"],
        vector,
    )
