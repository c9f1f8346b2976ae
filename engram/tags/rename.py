"""Renaming a tag on every memory that carries it; a name already in use makes it a merge. One bulk operation that
rollback undoes: the old tag is kept, marked merged into the new one, never deleted."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any, Protocol

from engram.errors import InvalidInput, NotFound
from engram.lang.analysis import normalize_tag
from engram.model.answers import RenameTagAnswer
from engram.model.names import mixed_script_problem
from engram.model.record import TAG_CHARS, MemoryRecord, Status, tag_form
from engram.store.roles import Rows, TagRegistry
from engram.store.values import Filter, TagRow
from engram.tags.service import TagService

_EVERY = Filter(statuses=tuple(Status), include_expired=True)


class RenameStore(Rows, TagRegistry, Protocol):
    """What a rename reads and writes: the memories carrying the tag and the tag registry."""


class Recording(Protocol):
    """A bulk operation under way (engram.write.operations.Operation): before-images for its rollback."""

    id: str
    summary: dict[str, Any]

    def before_memory(self, memory_id: str, record: MemoryRecord | None) -> None: ...
    def before_tag(self, tag: str) -> None: ...
    def audit(self, action: str, memory_id: str | None, detail: dict[str, Any]) -> None: ...


class Runs(Protocol):
    def run(self, name: str) -> AbstractContextManager[Recording]: ...


def fold(store: RenameStore, op: Recording, source: TagRow, into: str, target: TagRow) -> int:
    """Put `into` in place of `source` on every memory carrying it (the automatic tags follow), mark `source`
    merged into it and count the memories that gained it on `target`; the number of memories changed."""
    gained = changed = 0
    for record in store.select(replace(_EVERY, tags=(source.tag,)), limit=1_000_000):
        changed += 1
        gained += into not in record.tags  # a memory carrying both counts once
        op.before_memory(record.id, record)
        update: dict[str, Any] = {
            "tags": tuple(dict.fromkeys(into if t == source.tag else t for t in record.tags))
        }
        if isinstance(automatic := record.metadata.get("auto_tags"), list):
            # The tag stays automatic under its new name: an edit of the text replaces it as before.
            renamed = list(dict.fromkeys(into if t == source.tag else t for t in automatic))
            update["metadata"] = record.metadata | {"auto_tags": renamed}
        store.update(record.model_copy(update=update))
    op.before_tag(source.tag)
    op.before_tag(into)
    store.put_tag(replace(source, status="merged", merged_into=into))
    store.put_tag(
        replace(
            target,
            status="active",
            merged_into=None,
            usage_count=target.usage_count + gained,
            last_used_at=max(target.last_used_at, source.last_used_at),
        )
    )
    return changed


class TagRenamer:
    def __init__(self, store: RenameStore, tags: TagService, operations: Runs) -> None:
        self._store = store
        self._tags = tags
        self._operations = operations

    def rename_tag(self, old: str, new: str) -> RenameTagAnswer:
        """Rename tag `old` to `new` on every memory; when `new` is a tag already, `old` merges into it."""
        source = self._store.tag(old) or self._store.tag(normalize_tag(old))
        if source is None or source.status == "merged":
            raise NotFound(old, "tag")
        if problem := mixed_script_problem(new, "tag"):  # normalize_tag would make it no name at all
            raise InvalidInput("new", problem)
        if len(tag_form(new)) > TAG_CHARS:  # normalize_tag would cut it short and rename to another name
            raise InvalidInput("new", f"is longer than {TAG_CHARS} characters (a tag's most)")
        name = normalize_tag(new)
        if not name:
            raise InvalidInput(
                "new", "must hold a letter or digit (tags are lowercase words joined by hyphens)"
            )
        if name == source.tag:
            raise InvalidInput("new", f"is the tag's name already ({name!r})")
        existing = self._store.tag(name)
        merged = existing is not None and existing.status != "merged"
        if existing is not None and existing.status != "merged":
            target = existing
        else:
            target = TagRow(
                name, 0, source.first_used_at, source.last_used_at, vector=self._tags.embed([name])[0]
            )
        with self._operations.run("rename_tag") as op:
            changed = fold(self._store, op, source, name, target)
            detail = {"old": source.tag, "new": name, "merged": merged, "memories": changed}
            op.audit("rename_tag", None, detail)
            op.summary = detail
        self._tags.reload()
        return {"old": source.tag, "new": name, "merged": merged, "memories": changed, "operation_id": op.id}
