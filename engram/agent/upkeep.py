"""The maintenance tools: memory_stats, optimize_tags (fold duplicate tags, archive unused ones) and
merge_memories; each bulk change as one operation that rollback undoes."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta
from typing import Any, Protocol, cast

from engram.errors import InvalidInput
from engram.model.answers import (
    IndexCounts,
    MemoryStatsAnswer,
    MergeMemoriesAnswer,
    OptimizeTagsAnswer,
    StatsAnswer,
)
from engram.model.record import Status, utcnow
from engram.store.roles import Meta, OperationLog, Rows, TagRegistry, Upkeep
from engram.store.values import Filter
from engram.tags.service import TagService
from engram.write.edit import whole
from engram.write.operations import Operations

EVERY = Filter(statuses=tuple(Status), include_expired=True)


class UpkeepStore(Meta, Rows, TagRegistry, OperationLog, Upkeep, Protocol):
    """What the maintenance tools read and write."""


def store_stats(store: UpkeepStore) -> StatsAnswer:
    """Counts by kind, scope and status, the model, the index and the database size."""
    s = store.stats()
    return {
        "memories": s.memories,
        "chunks": s.chunks,
        "by_kind": s.by_kind,
        "by_scope": s.by_scope,
        "by_status": s.by_status,
        "embedded": s.embedded,
        "model": s.model,
        "dim": s.dim,
        "size_bytes": s.size_bytes,
        "index": cast(IndexCounts, store.check_index()),
    }


class Maintenance:
    def __init__(self, store: UpkeepStore, tags: TagService, operations: Operations) -> None:
        self._store = store
        self._tags = tags
        self._operations = operations

    def memory_stats(self) -> MemoryStatsAnswer:
        """Counts by category, kind, scope, status and tier; tags; storage size."""
        stats = cast(MemoryStatsAnswer, store_stats(self._store))
        tags = self._store.tags(("active", "archived", "merged"))
        stats["categories"] = {
            (k or "uncategorised"): v for k, v in self._store.grouped("category", EVERY).items()
        }
        stats["tags"] = dict(Counter(t.status for t in tags))
        stats["operations"] = len(self._store.operations())
        return stats

    def optimize_tags(self, *, dry_run: bool = False, archive_after_days: int = 180) -> OptimizeTagsAnswer:
        """Fold duplicate tags into their descriptive form (on every memory that carries them) and archive tags
        unused for `archive_after_days`; as one operation that `rollback` undoes."""
        store = self._store
        rows = store.tags()
        merges = self._tags.merges(rows)
        cutoff = utcnow() - timedelta(days=archive_after_days)
        merged = {m.tag for m in merges}
        stale = [r for r in rows if r.last_used_at < cutoff and r.tag not in merged]
        report: dict[str, Any] = {
            "tags_before": len(rows),
            "merges": [
                {"tag": m.tag, "into": m.into, "reason": m.reason, "similarity": m.similarity, "why": m.why}
                for m in merges
            ],
            "archived": [r.tag for r in stale],
        }
        after = len(rows) - len(merges) - len(stale)
        report |= {"tags_after": after, "reduction": round(1 - after / len(rows), 4) if rows else 0.0}
        if dry_run or not (merges or stale):
            return cast(OptimizeTagsAnswer, report | {"operation_id": None, "dry_run": dry_run})
        by_tag = {r.tag: r for r in rows}
        with self._operations.run("optimize_tags") as op:
            for m in merges:
                gained = 0  # memories that carry the kept tag only once the folded one is renamed
                for record in store.select(replace(EVERY, tags=(m.tag,)), limit=1_000_000):
                    gained += m.into not in record.tags
                    op.before_memory(record.id, record)
                    tags = tuple(dict.fromkeys(m.into if t == m.tag else t for t in record.tags))
                    update: dict[str, Any] = {"tags": tags}
                    if isinstance(automatic := record.metadata.get("auto_tags"), list):
                        # The folded tag stays automatic under its new name: new text replaces it as before.
                        renamed = list(dict.fromkeys(m.into if t == m.tag else t for t in automatic))
                        update["metadata"] = record.metadata | {"auto_tags": renamed}
                    store.update(record.model_copy(update=update))
                source, target = by_tag[m.tag], store.tag(m.into) or by_tag[m.into]
                op.before_tag(m.tag)
                op.before_tag(m.into)
                store.put_tag(replace(source, status="merged", merged_into=m.into))
                store.put_tag(
                    replace(
                        target,
                        usage_count=target.usage_count + gained,  # a memory carrying both counts once
                        last_used_at=max(target.last_used_at, source.last_used_at),
                    )
                )
                detail = {"tag": m.tag, "into": m.into, "reason": m.reason, "similarity": m.similarity}
                op.audit("merge_tag", None, detail)
            for r in stale:
                op.before_tag(r.tag)
                store.put_tag(replace(r, status="archived"))
                op.audit("archive_tag", None, {"tag": r.tag, "last_used_at": r.last_used_at.isoformat()})
            op.summary = {k: report[k] for k in ("tags_before", "tags_after", "reduction")}
        self._tags.reload()
        return cast(OptimizeTagsAnswer, report | {"operation_id": op.id, "dry_run": False})

    def merge_memories(self, ids: list[str], *, into: str | None = None) -> MergeMemoriesAnswer:
        """Fold memories into one (the first, or `into`): it takes the union of their tags, the highest
        importance and their summed use; the others are marked superseded, pointing at it. Rollback undoes it."""
        if len(set(ids)) < 2:
            raise InvalidInput("ids", "give at least two different memory ids")
        records = [whole(self._store, i, "merge") for i in dict.fromkeys(ids)]
        # A superseded memory was merged (or replaced) already: merged again, one rollback undid what another redid.
        if gone := next((r for r in records if r.status is Status.SUPERSEDED), None):
            newer = gone.metadata.get("merged_into") or gone.metadata.get("superseded_by") or "another memory"
            raise InvalidInput(
                "ids", f"memory {gone.id} is already superseded by {newer}; merge that one instead"
            )
        target_id = into or records[0].id
        if target_id not in {r.id for r in records}:
            raise InvalidInput("into", "must be one of the ids being merged")
        target = next(r for r in records if r.id == target_id)
        others = [r for r in records if r.id != target_id]
        # What is kept must be found as the others were: an approved memory folded into a rejected or pending one
        # dropped out of search.
        if target.status is not Status.APPROVED and any(r.status is Status.APPROVED for r in others):
            raise InvalidInput(
                "into", f"memory {target.id} is {target.status.value}: merge into an approved memory"
            )
        with self._operations.run("merge_memories") as op:
            op.before_memory(target.id, target)
            merged = target.model_copy(
                update={
                    "tags": tuple(dict.fromkeys(t for r in records for t in r.tags)),
                    "importance": max(r.importance for r in records),
                    "access_count": sum(r.access_count for r in records),
                    "user_marked_important": any(r.user_marked_important for r in records),
                    "updated_at": utcnow(),
                }
            )
            self._store.update(merged)
            added = [t for t in merged.tags if t not in target.tags]
            for tag in added:
                op.before_tag(tag)
            self._tags.count_uses(added)  # the memory kept carries them now; the merged ones still do too
            for r in others:
                op.before_memory(r.id, r)
                self._store.update(
                    r.model_copy(
                        update={
                            "status": Status.SUPERSEDED,
                            "metadata": r.metadata | {"merged_into": target.id},
                            "updated_at": utcnow(),
                        }
                    )
                )
                op.audit("merge_memory", r.id, {"into": target.id, "content": r.content})
            op.summary = {"into": target.id, "merged": [r.id for r in others]}
        return {"operation_id": op.id, "memory_id": target.id, "merged": [r.id for r in others]}
