"""Seed 003's access-based lifecycle: what a memory is worth is how it is used, not how old it is.

priority = min(10, base_relevance x (1 + access_count / days) x category_weight x (2 if user-marked important)
           x access_recency x cluster_bonus)

- days = max(1, age in days since the memory was created);
- access_recency = clamp(1.5 - hours since last access / 72, 0.5, 1.5): a memory never accessed counts from its
  creation, so a new memory starts at the top of the range;
- cluster_bonus = min(1.5, 1 + 0.1 x cluster_size), cluster_size = the other live memories of its scope within
  cosine 0.85;
- category_weight: personal 2.0, technical 1.8, project 1.7, casual 1.0, general 1.0, from the seed 002
  category when there is one, else from the kind (`lifecycle_category`).

Tiers: short = the last 10 memories of a session (FIFO); long = promoted (access_count >= 5, marked important,
or cluster_size >= 3); mid = the rest. In "persona" mode the tiers have capacities (mid 20 slots, pruned only
above 15; long 100): pruning moves the lowest-priority memories to `archived` (never a marked one), never
deletes. In "store" mode (the default) there are no capacities: nothing is pruned for room.

SHODH consolidation (seed 004): the quality of a memory unused for 30 days halves every 90 days of disuse,
computed from the time since the last maintenance so running it twice changes nothing; below 0.1 an unmarked
memory is archived. Feedback moves quality by 0.1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from engram.errors import InvalidInput
from engram.operations import operation
from engram.record import Category, Kind, MemoryRecord, Scope, Status, Tier, as_utc, utcnow
from engram.store.protocol import Filter

if TYPE_CHECKING:
    from engram.memory import Memory

_LAST_RUN = "lifecycle:maintained_at"

CATEGORY_WEIGHTS = {"personal": 2.0, "technical": 1.8, "project": 1.7, "casual": 1.0, "general": 1.0}
# The seed's five categories from ours: the seed 002 category says what a memory is about; the kind decides
# when there is none.
_OF_CATEGORY = {
    Category.CONTEXTS: "personal",
    Category.PROJECTS: "project",
    Category.REMINDERS: "project",
    Category.LEARNINGS: "technical",
    Category.REFERENCES: "technical",
    Category.SYSTEM: "technical",
    Category.INTERACTIONS: "casual",
}
_OF_KIND = {
    Kind.IDENTITY: "personal",
    Kind.TASK: "project",
    Kind.KNOWLEDGE: "technical",
    Kind.REFERENCE: "technical",
    Kind.NOTE: "casual",
}


@dataclass(frozen=True, slots=True)
class Rules:
    mode: str = "store"  # store | persona
    short_term: int = 10
    mid_slots: int = 20
    prune_above: int = 15
    long_capacity: int = 100
    promote_accesses: int = 5
    promote_cluster: int = 3
    cluster_cosine: float = 0.85
    quality_idle_days: float = 30.0
    quality_half_life_days: float = 90.0
    quality_floor: float = 0.1


def lifecycle_category(record: MemoryRecord) -> str:
    if record.category is not None:
        return _OF_CATEGORY[record.category]
    return _OF_KIND.get(record.kind, "general")


def access_recency(hours_since_access: float) -> float:
    return min(1.5, max(0.5, 1.5 - hours_since_access / 72))


def cluster_bonus(cluster_size: int) -> float:
    return min(1.5, 1 + 0.1 * cluster_size)


def _hours(later: datetime, earlier: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / 3600)


def priority(record: MemoryRecord, now: datetime) -> float:
    days = max(1.0, _hours(now, record.created_at) / 24)
    last = record.last_accessed_at or record.created_at
    value = (
        record.base_relevance
        * (1 + record.access_count / days)
        * CATEGORY_WEIGHTS[lifecycle_category(record)]
        * (2.0 if record.user_marked_important else 1.0)
        * access_recency(_hours(now, last))
        * cluster_bonus(record.cluster_size)
    )
    return min(10.0, value)


def promoted(record: MemoryRecord, rules: Rules) -> bool:
    return (
        record.access_count >= rules.promote_accesses
        or record.user_marked_important
        or record.cluster_size >= rules.promote_cluster
    )


def decayed_quality(quality: float, idle_days: float, elapsed_days: float, rules: Rules) -> float:
    """Quality after `elapsed_days` more of disuse, for a memory idle `idle_days` now: only the disuse past
    the idle allowance counts."""
    counted = min(elapsed_days, max(0.0, idle_days - rules.quality_idle_days))
    return float(quality * 0.5 ** (counted / rules.quality_half_life_days))


@dataclass(slots=True)
class Plan:
    """What one maintenance pass changes: record id -> the fields to set, and why."""

    changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    reasons: dict[str, list[str]] = field(default_factory=dict)

    def set(self, record: MemoryRecord, reason: str, **fields: Any) -> None:
        current = self.changes.setdefault(record.id, {})
        current.update(fields)
        self.reasons.setdefault(record.id, []).append(reason)


def plan(
    records: Iterable[MemoryRecord],
    clusters: dict[str, int],
    now: datetime,
    rules: Rules,
    last_run: datetime | None,
) -> Plan:
    """The changes for one scope's live memories (approved, top level): cluster sizes, priorities, tiers,
    quality decay and, in persona mode, capacity pruning."""
    out = Plan()
    live = [r for r in records if r.status == Status.APPROVED]
    elapsed = 0.0 if last_run is None else _hours(now, last_run) / 24
    state: dict[str, MemoryRecord] = {}
    for r in live:
        size = clusters.get(r.id, r.cluster_size)
        current = r.model_copy(update={"cluster_size": size})
        value = round(priority(current, now), 6)
        if size != r.cluster_size or value != r.priority:
            out.set(r, "priority", cluster_size=size, priority=value)
        state[r.id] = current.model_copy(update={"priority": value})

    sessions = [r for r in state.values() if r.scope == Scope.SESSION]
    newest = {r.id for r in sorted(sessions, key=lambda r: r.created_at, reverse=True)[: rules.short_term]}
    for r in state.values():
        tier = Tier.LONG if promoted(r, rules) else Tier.SHORT if r.id in newest else Tier.MID
        if tier != r.tier:
            out.set(r, f"tier {r.tier.value} -> {tier.value}", tier=tier)
            state[r.id] = r.model_copy(update={"tier": tier})

    for r in list(state.values()):
        idle = _hours(now, r.last_accessed_at or r.created_at) / 24
        if r.user_marked_important or idle <= rules.quality_idle_days or elapsed <= 0:
            continue
        quality = decayed_quality(
            r.quality_score if r.quality_score is not None else 1.0, idle, elapsed, rules
        )
        if quality < rules.quality_floor:
            out.set(r, f"quality {quality:.3f} below {rules.quality_floor}", quality_score=quality,
                    status=Status.ARCHIVED)  # fmt: skip
            del state[r.id]
        elif quality != r.quality_score:
            out.set(r, "quality decay", quality_score=round(quality, 6))

    if rules.mode == "persona":
        _prune(state, out, rules)
    return out


def _prune(state: dict[str, MemoryRecord], out: Plan, rules: Rules) -> None:
    """Persona capacities: long-term over capacity goes back to mid (lowest priority first); mid-term above
    `prune_above` of its slots is archived down to that, lowest priority first. Marked memories never move."""
    by_priority = sorted(state.values(), key=lambda r: (r.priority or 0.0, r.created_at))
    long = [r for r in by_priority if r.tier == Tier.LONG and not r.user_marked_important]
    excess = sum(1 for r in state.values() if r.tier == Tier.LONG) - rules.long_capacity
    for r in long[: max(0, excess)]:
        out.set(r, "long-term over capacity", tier=Tier.MID)
        state[r.id] = r.model_copy(update={"tier": Tier.MID})
    mid = [
        r
        for r in sorted(state.values(), key=lambda r: (r.priority or 0.0, r.created_at))
        if r.tier == Tier.MID
    ]
    if len(mid) <= rules.prune_above:
        return
    for r in [m for m in mid if not m.user_marked_important][: len(mid) - rules.prune_above]:
        out.set(r, f"mid-term above {rules.prune_above} of {rules.mid_slots} slots", status=Status.ARCHIVED)


def rules_of(mem: Memory) -> Rules:
    return Rules(mode=mem.settings.lifecycle_mode, long_capacity=mem.settings.long_term_capacity)


def clusters(mem: Memory, records: list[MemoryRecord], rules: Rules) -> dict[str, int]:
    """Per memory, how many other live memories of its scope lie within `cluster_cosine`."""
    vectors = mem.store.vectors([r.id for r in records])
    out: dict[str, int] = {}
    for r in records:
        vector = vectors.get(r.id)
        if vector is None:
            continue
        where = Filter(scope=r.scope, scope_id=r.scope_id, include_expired=True)
        near = mem.store.vector_search(vector, 21, where)
        out[r.id] = sum(1 for i, cos in near if i != r.id and cos >= rules.cluster_cosine)
    return out


def maintain(mem: Memory, now: datetime | None = None) -> dict[str, Any]:
    """One maintenance pass over every approved top-level memory, as one operation that `rollback` undoes.
    Idempotent: a second pass at the same moment changes nothing."""
    now = utcnow() if now is None else as_utc(now)
    rules = rules_of(mem)
    stamp = mem.store.get_meta(_LAST_RUN)
    last = None if stamp is None else datetime.fromisoformat(stamp)
    if last is not None and now < last:
        raise InvalidInput("now", f"is before the last maintenance ({stamp})")
    records = mem.store.select(Filter(statuses=(Status.APPROVED,), include_expired=True), limit=10_000_000)
    sizes = clusters(mem, records, rules)
    scopes: dict[tuple[Scope, str | None], list[MemoryRecord]] = {}
    for r in records:
        scopes.setdefault((r.scope, r.scope_id), []).append(r)
    changes = Plan()
    for group in scopes.values():
        part = plan(group, sizes, now, rules, last)
        changes.changes.update(part.changes)
        changes.reasons.update(part.reasons)
    by_id = {r.id: r for r in records}
    counts = {"promoted": 0, "archived": 0, "short": 0, "quality_decayed": 0}
    operation_id = None
    if changes.changes:
        with operation(mem.store, "maintain") as op:
            operation_id = op.id
            for memory_id, fields in changes.changes.items():
                before = by_id[memory_id]
                op.before_memory(memory_id, before)
                mem.store.update(before.model_copy(update=fields))
                if fields.get("tier") == Tier.LONG:
                    counts["promoted"] += 1
                if fields.get("tier") == Tier.SHORT:
                    counts["short"] += 1
                if fields.get("status") == Status.ARCHIVED:
                    counts["archived"] += 1
                if "quality_score" in fields:
                    counts["quality_decayed"] += 1
                if changes.reasons[memory_id] != ["priority"]:
                    op.audit("lifecycle", memory_id, {"reasons": changes.reasons[memory_id],
                                                      "fields": {k: str(v) for k, v in fields.items()}})  # fmt: skip
    mem.store.set_meta(_LAST_RUN, now.isoformat())
    report = {"processed": len(records), "changed": len(changes.changes), **counts, "mode": rules.mode,
              "operation_id": operation_id, "at": now.isoformat()}  # fmt: skip
    mem.store.audit("maintain", None, report)
    return report


def feedback(mem: Memory, memory_id: str, helpful: bool) -> MemoryRecord:
    """Thumbs up or down: quality moves by 0.1 (from 1.0 when it has none yet)."""
    record = mem.get(memory_id)
    quality = record.quality_score if record.quality_score is not None else 1.0
    quality = min(1.0, max(0.0, quality + (0.1 if helpful else -0.1)))
    updated = record.model_copy(update={"quality_score": round(quality, 6)})
    mem.store.update(updated)
    mem.store.audit("feedback", memory_id, {"helpful": helpful, "quality_score": updated.quality_score})
    return updated


__all__ = [
    "CATEGORY_WEIGHTS",
    "Plan",
    "Rules",
    "access_recency",
    "cluster_bonus",
    "decayed_quality",
    "feedback",
    "lifecycle_category",
    "maintain",
    "plan",
    "priority",
    "promoted",
]
