"""The access-based lifecycle run over a store: a maintenance pass (priorities, tiers, promotion, quality decay
and, in persona mode, pruning to archive) as one operation that rollback undoes, and feedback on a memory. The
policy itself is engram.lifecycle.policy."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from datetime import datetime
from typing import Protocol, cast

from engram.config import Settings
from engram.errors import InvalidInput
from engram.lifecycle.policy import DECAY_EVERY, Pages, Plan, Rules, Standing, plan
from engram.model.answers import MaintainAnswer
from engram.model.record import MemoryRecord, Scope, Status, Tier, as_utc, utcnow
from engram.store.roles import AuditLog, MergedText, Meta, Rows, SearchIndex
from engram.store.values import Filter, Position
from engram.write.edit import fetch
from engram.write.operations import Operations

_LAST_RUN = "lifecycle:maintained_at"
_LAST_DECAY = "lifecycle:decayed_at"  # the last pass that counted decay (a store without it: the last pass)
_SETTLE = 5  # at most this many plans per pass while the memories it archives settle


class LifecycleStore(Meta, Rows, SearchIndex, AuditLog, Protocol):
    """What a maintenance pass reads and changes."""


_NEAR = 21  # neighbours looked at per memory: itself and 20 others
# Memories read (and their vectors searched) per step: a pass holds one step's records and vectors at a time,
# and for every memory only what the policy reads (`Standing`) and the neighbours close enough to count.
BATCH = 512


class _Neighbours:
    """Per memory, its nearest memories of its scope, searched once; a pass that archives some counts
    clusters again without them (after it they are not live).

    Only what a cluster counts is kept: the neighbours within `cluster_cosine`. When fewer than `_NEAR` were,
    the list holds every such memory of the scope and one archived is simply not counted; a memory whose
    `_NEAR` nearest are all that close (`full`) may have more beyond them, so it is searched again without the
    archived ones, as it would be found after the pass."""

    def __init__(self, store: LifecycleStore, rules: Rules) -> None:
        self.store, self.rules = store, rules
        self.close: dict[str, tuple[str, ...]] = {}  # memory -> the others within cluster_cosine, when any
        self.unsearched: set[str] = set()  # memories without a vector: their cluster size stays as stored
        self.full: set[str] = set()
        self.where: dict[str, Filter] = {}  # memory -> its scope's filter, for the ones searched again

    def add(self, records: list[Standing]) -> None:
        """Search the neighbours of one batch of memories."""
        vectors = self.store.vectors([r.id for r in records])
        for r in records:
            vector = vectors.get(r.id)
            if vector is None:
                self.unsearched.add(r.id)
                continue
            where = Filter(scope=r.scope, scope_id=r.scope_id, include_expired=True)
            near = self.store.vector_search(vector, _NEAR, where)
            self._keep(r.id, near, where)

    def _keep(self, memory_id: str, near: list[tuple[str, float]], where: Filter) -> None:
        close = tuple(i for i, cos in near if cos >= self.rules.cluster_cosine and i != memory_id)
        if close:  # most memories have none: they are not kept, and count 0
            self.close[memory_id] = close
        if len(near) >= _NEAR and near[-1][1] >= self.rules.cluster_cosine:
            self.full.add(memory_id)
            self.where[memory_id] = where

    def cluster_sizes(self, leave_out: set[str]) -> dict[str, int]:
        """Per memory with any, how many other live memories of its scope lie within `cluster_cosine` (see
        `of`)."""
        again = [i for i in self.full if i in leave_out or any(j in leave_out for j in self.close[i])]
        sizes = {i: sum(1 for j in close if j not in leave_out) for i, close in self.close.items()}
        for start in range(0, len(again), BATCH):
            part = again[start : start + BATCH]
            vectors = self.store.vectors(part)
            for memory_id in part:
                near = self.store.vector_search(
                    vectors[memory_id], _NEAR + len(leave_out), self.where[memory_id]
                )
                kept = [(i, cos) for i, cos in near if i not in leave_out][:_NEAR]
                sizes[memory_id] = sum(
                    1 for i, cos in kept if i != memory_id and cos >= self.rules.cluster_cosine
                )
        return sizes

    def of(self, records: Iterable[Standing | MemoryRecord], sizes: dict[str, int]) -> dict[str, int]:
        """The cluster sizes of `records` from `cluster_sizes`' answer."""
        return {r.id: sizes.get(r.id, 0) for r in records if r.id not in self.unsearched}


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
        decayed = self._store.get_meta(_LAST_DECAY)
        last_decay = last if decayed is None else datetime.fromisoformat(decayed)
        # Less than a day since decay was last counted: this pass counts none (the next one a day on counts the
        # whole day); a memory no pass has seen still counts all its disuse.
        decays = last_decay is None or now - last_decay >= DECAY_EVERY
        counted_since = last_decay if decays else now
        # Persona mode's pruning weighs each scope's memories against each other: it plans whole scopes, of
        # the policy's few fields. Store mode plans page by page and holds no record per memory.
        persona = rules.mode == "persona"
        scopes: dict[tuple[Scope, str | None], list[Standing]] = {}
        stored_at: dict[str, datetime] = {}
        neighbours = _Neighbours(self._store, rules)
        processed = 0
        for batch in self._batches():
            processed += len(batch)
            if persona:
                for r in batch:
                    scopes.setdefault((r.scope, r.scope_id), []).append(Standing.of(r))
                stored_at |= self._store.stored_times([r.id for r in batch])
            neighbours.add([Standing.of(r) for r in batch])

        def pages(sizes: dict[str, int]) -> Iterator[tuple[Plan, list[MemoryRecord]]]:
            if persona:
                whole = Plan()
                for group in scopes.values():
                    part = plan(group, neighbours.of(group, sizes), now, rules, counted_since, stored_at)
                    whole.changes.update(part.changes)
                    whole.reasons.update(part.reasons)
                yield whole, []
                return
            planner = Pages(now, rules, counted_since)
            for batch in self._batches():
                times = self._store.stored_times([r.id for r in batch])
                yield planner.plan(batch, neighbours.of(batch, sizes), times), batch

        # Clusters count live memories, so they are counted without the ones this pass archives, until that set
        # settles; else the next pass would find smaller clusters and change priorities and tiers again.
        leave_out: set[str] = set()
        for _ in range(_SETTLE):
            sizes = neighbours.cluster_sizes(leave_out)
            archived = {
                i
                for part, _ in pages(sizes)
                for i, fields in part.changes.items()
                if fields.get("status") == Status.ARCHIVED
            }
            if archived == leave_out:
                break
            leave_out = archived
        counts = {"promoted": 0, "archived": 0, "short": 0, "quality_decayed": 0}
        operation_id, changed, reprioritised = None, 0, 0
        with ExitStack() as stack:
            op = None
            for part, batch in pages(sizes):
                for memory_id, fields, before in self._whole(part, batch):
                    if (
                        op is None
                    ):  # the operation begins with its first change: a pass changing nothing has none
                        op = stack.enter_context(self._operations.run("maintain"))
                        operation_id = op.id
                    changed += 1
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
                    if part.reasons[memory_id] != ["priority"]:
                        op.audit(
                            "lifecycle",
                            memory_id,
                            {
                                "reasons": part.reasons[memory_id],
                                "fields": {k: str(v) for k, v in fields.items()},
                            },
                        )
                    reprioritised += "priority" in part.reasons[memory_id]
            if op is not None:  # the history shows what the pass did, not only how many memories it touched
                op.summary.update({k: v for k, v in (counts | {"reprioritised": reprioritised}).items() if v})
        if last is None or now > last:  # the clock only moves on: time counted once is not counted again
            self._store.set_meta(_LAST_RUN, now.isoformat())
        if decays and (last_decay is None or now > last_decay):
            self._store.set_meta(_LAST_DECAY, now.isoformat())
        elif (
            decayed is None and last_decay is not None
        ):  # a store from before the stamp: decay counts from here
            self._store.set_meta(_LAST_DECAY, last_decay.isoformat())
        report = {
            "processed": processed,
            "changed": changed,
            **counts,
            "mode": rules.mode,
            "operation_id": operation_id,
            "at": now.isoformat(),
        }
        self._store.audit("maintain", None, report)
        # After the pass's operation: the full-text index merged in bounded steps, each a write of its own.
        if isinstance(self._store, MergedText):
            self._store.merge_text_index()
        return cast(MaintainAnswer, report)

    def _batches(self) -> Iterator[list[MemoryRecord]]:
        """Every approved top-level memory, newest first, `BATCH` at a time."""
        where = Filter(statuses=(Status.APPROVED,), include_expired=True)
        after: Position | None = None
        while page := self._store.select(where, limit=BATCH, after=after):
            after = (page[-1].created_at, page[-1].id)
            yield page

    def _whole(
        self, changes: Plan, records: list[MemoryRecord]
    ) -> Iterator[tuple[str, dict[str, object], MemoryRecord]]:
        """Each change with the whole record it changes: from `records` (the page it was planned from), else
        read `BATCH` at a time."""
        if records:
            for record in records:
                if record.id in changes.changes:
                    yield record.id, changes.changes[record.id], record
            return
        ids = list(changes.changes)
        for start in range(0, len(ids), BATCH):
            for record in self._store.get_many(ids[start : start + BATCH]):
                yield record.id, changes.changes[record.id], record

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
