"""The legacy TinyDB store, imported through store_memory's pipeline (tags, importance, category when the old one
does not map), keeping its memories' ids (a new one when the old is taken), dates and old category as a tag; its
tags keep their dates, and an old tag no memory carries is kept archived. One operation, rolled back as one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from engram.interop.legacy import read_tinydb, to_new_memory
from engram.model.answers import StoreMemoryResult
from engram.store.roles import Rows, TagRegistry
from engram.store.values import TagRow
from engram.tags.service import TagService
from engram.write.operations import Operations

# store_memory as the importer calls it: content, context, the record fields to keep, the operation.
StoreFn = Callable[..., StoreMemoryResult]


class LegacyStoreRows(Rows, TagRegistry, Protocol):
    """What the TinyDB import reads and writes beside store_memory."""


class TinyDbImport:
    def __init__(
        self, store: LegacyStoreRows, operations: Operations, tags: TagService, store_memory: StoreFn
    ) -> None:
        self._store = store
        self._operations = operations
        self._tags = tags
        self._store_memory = store_memory

    def __call__(self, directory: Path) -> dict[str, Any]:
        """The old TinyDB layout through the store_memory pipeline, as one operation."""
        old = read_tinydb(directory)
        outcomes: dict[str, int] = {}
        kept_ids: list[str] = []
        with self._operations.run("import_tinydb") as op:
            for item in old.memories:
                fields = to_new_memory(item)
                exists = self._store.get(item.id) is not None
                context: dict[str, Any] = {}
                if fields.get("category") is not None:
                    context["force_category"] = fields["category"]
                if item.expires_at is not None:
                    context["expires_at"] = item.expires_at
                keep = {k: fields[k] for k in ("created_at", "tags", "metadata") if fields.get(k) is not None}
                if item.importance is not None:
                    context["force_importance"] = item.importance
                if not exists:
                    keep["id"] = item.id
                result = self._store_memory(fields["content"], context, fields=keep, operation=op)
                outcomes[result["outcome"]] = outcomes.get(result["outcome"], 0) + 1
                kept_ids.append(result["memory_id"])
            for tag in old.tags:
                row = self._store.tag(tag.tag)
                op.before_tag(tag.tag)
                if row is None:  # an old tag no memory carries: kept, archived
                    self._store.put_tag(TagRow(tag.tag, 0, tag.created_at, tag.last_used_at, "archived"))
                else:
                    self._store.put_tag(
                        TagRow(
                            row.tag,
                            row.usage_count,
                            min(row.first_used_at, tag.created_at),
                            max(row.last_used_at, tag.last_used_at),
                            row.status,
                            row.merged_into,
                            row.vector,
                        )
                    )
            op.summary = {
                "memories": len(old.memories),
                "outcomes": outcomes,
                "old_tags": len(old.tags),
                "old_categories": list(old.categories),
            }
            op.audit("import_tinydb", None, {"directory": str(directory), **op.summary})
        self._tags.reload()
        return {"operation_id": op.id, **op.summary, "ids": kept_ids}
