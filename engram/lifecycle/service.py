"""The access-based lifecycle run over a store: a maintenance pass (priorities, tiers, promotion, quality decay
and, in persona mode, pruning to archive) as one operation that rollback undoes, and feedback on a memory. The
policy itself is engram.lifecycle.policy."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, cast

from engram.config import Settings
from engram.errors import InvalidInput
from engram.lifecycle.policy import Plan, Rules, plan
from engram.model.answers import MaintainAnswer
from engram.model.record import MemoryRecord, Scope, Status, Tier, as_utc, utcnow
from engram.store.roles import AuditLog, Meta, Rows, SearchIndex
from engram.store.values import Filter
from engram.write.edit import fetch
from engram.write.operations import Operations

_LAST_RUN = "lifecycle:maintained_at"
_SETTLE = 5  # at most this many plans per pass while the memories it archives settle


class LifecycleStore(Meta, Rows, SearchIndex, AuditLog, Protocol):
    """What a maintenance pass reads and changes."""


_NEAR = 21  # neighbours looked at per memory: itself and 20 others


class _Neighbours:
    """Per memory, its nearest memories of its scope, searched once; a pass that archives some counts
    clusters again without them (after it they are not live), searching again only where they were near."""

    def __init__(self, store: LifecycleStore, records: list[MemoryRecord], rules: Rules) -> None:
        self.store, self.records, self.rules = store, records, rules
        self.vectors = store.vectors([r.id for r in records])
        self.near = {r.id: self._search(r, set()) for r in records if r.id in self.vectors}

    def _search(self, record: MemoryRecord, leave_out: set[str]) -> list[tuple[str, float]]:
        where = Filter(scope=record.scope, scope_id=record.scope_id, include_expired=True)
        near = self.store.vector_search(self.vectors[record.id], _NEAR + len(leave_out), where)
        return [(i, cos) for i, cos in near if i not in leave_out][:_NEAR]

    def cluster_sizes(self, leave_out: set[str]) -> dict[str, int]:
        """Per memory, how many other live memories of its scope lie within `cluster_cosine`."""
        out: dict[str, int] = {}
        for r in self.records:
            near = self.near.get(r.id)
            if near is None:
                continue
            if any(i in leave_out for i, _ in near):
                near = self._search(r, leave_out)
            out[r.id] = sum(1 for i, cos in near if i != r.id and cos >= self.rules.cluster_cosine)
        return out


class Lifecycle:
    def __init__(self, settings: Settings, store: LifecycleStore, operations: Operations) -> None:
        self._settings = settings
        self._store = store
        self._operations = operations

    def rules(self) -> Rules:
        return Rules(mode=self._settings.lifecycle_mode, long_capacity=self._settings.long_term_capacity)

    def maintain(self, now: datetime | None = None) -> MaintainAnswer:
        """One maintenance pass over every approved top-level memory, as one operation that `rollback` undoes.
        Idempotent: a second pass at the same moment changes nothing. A `now` before the last pass (a clock that
        ran fast once) is no error: it decays nothing already counted and does the rest."""
        if now is not None and not isinstance(now, datetime):
            raise InvalidInput("now", f"must be a date and time, not {type(now).__name__} {now!r}")
        now = utcnow() if now is None else as_utc(now)
        rules = self.rules()
        stamp = self._store.get_meta(_LAST_RUN)
        last = None if stamp is None else datetime.fromisoformat(stamp)
        records = self._store.select(
            Filter(statuses=(Status.APPROVED,), include_expired=True), limit=10_000_000
        )
        scopes: dict[tuple[Scope, str | None], list[MemoryRecord]] = {}
        for r in records:
            scopes.setdefault((r.scope, r.scope_id), []).append(r)
        stored_at = self._store.stored_times([r.id for r in records])
        neighbours = _Neighbours(self._store, records, rules)
        # Clusters count live memories, so they are counted without the ones this pass archives, until that set
        # settles; else the next pass would find smaller clusters and change priorities and tiers again.
        leave_out: set[str] = set()
        for _ in range(_SETTLE):
            sizes = neighbours.cluster_sizes(leave_out)
            changes = Plan()
            for group in scopes.values():
                part = plan(group, sizes, now, rules, last, stored_at)
                changes.changes.update(part.changes)
                changes.reasons.update(part.reasons)
            archived = {i for i, fields in changes.changes.items() if fields.get("status") == Status.ARCHIVED}
            if archived == leave_out:
                break
            leave_out = archived
        by_id = {r.id: r for r in records}
        counts = {"promoted": 0, "archived": 0, "short": 0, "quality_decayed": 0}
        operation_id = None
        if changes.changes:
            with self._operations.run("maintain") as op:
                operation_id = op.id
                for memory_id, fields in changes.changes.items():
                    before = by_id[memory_id]
                    op.before_memory(memory_id, before)
                    self._store.update(before.model_copy(update=fields))
                    if fields.get("tier") == Tier.LONG:
                        counts["promoted"] += 1
                    if fields.get("tier") == Tier.SHORT:
                        counts["short"] += 1
                    if fields.get("status") == Status.ARCHIVED:
                        counts["archived"] += 1
                    if "quality_score" in fields:
                        counts["quality_decayed"] += 1
                    if changes.reasons[memory_id] != ["priority"]:
                        op.audit(
                            "lifecycle",
                            memory_id,
                            {
                                "reasons": changes.reasons[memory_id],
                                "fields": {k: str(v) for k, v in fields.items()},
                            },
                        )
        if last is None or now > last:  # the clock only moves on: time counted once is not counted again
            self._store.set_meta(_LAST_RUN, now.isoformat())
        report = {
            "processed": len(records),
            "changed": len(changes.changes),
            **counts,
            "mode": rules.mode,
            "operation_id": operation_id,
            "at": now.isoformat(),
        }
        self._store.audit("maintain", None, report)
        return cast(MaintainAnswer, report)

    def feedback(self, memory_id: str, helpful: bool) -> MemoryRecord:
        """Thumbs up or down: quality moves by 0.1 (from 1.0 when it has none yet). Below the floor, the next
        maintenance archives it."""
        if not isinstance(helpful, bool):  # "no" is truthy: it would count as a thumbs up
            raise InvalidInput("helpful", f"must be true or false, not {type(helpful).__name__} {helpful!r}")
        record = fetch(self._store, memory_id)
        if record.parent_id is not None:  # recall returns passages: feedback on one is feedback on its memory
            record = fetch(self._store, record.parent_id)
        quality = record.quality_score if record.quality_score is not None else 1.0
        quality = min(1.0, max(0.0, quality + (0.1 if helpful else -0.1)))
        updated = record.model_copy(update={"quality_score": round(quality, 6)})
        self._store.update(updated)
        self._store.audit("feedback", record.id, {"helpful": helpful, "quality_score": updated.quality_score})
        return updated
