"""The access-based lifecycle: what a memory is worth is how it is used, not how old it is.

priority = min(10, base_relevance x (1 + access_count / days) x category_weight x (2 if user-marked important)
           x access_recency x cluster_bonus)

- days = max(1, days since Engram stored the memory);
- access_recency = clamp(1.5 - hours since last access / 72, 0.5, 1.5): a memory never accessed counts from when
  it was stored, so a new memory starts at the top of the range;
- cluster_bonus = min(1.5, 1 + 0.1 x cluster_size), cluster_size = the other live memories of its scope within
  cosine 0.85;
- category_weight: personal 2.0, technical 1.8, project 1.7, casual 1.0, general 1.0, from the memory's
  category when there is one, else from the kind (`lifecycle_category`).

Tiers: short = the last 10 memories of a session (FIFO); long = promoted (access_count >= 5, marked important,
or cluster_size >= 3); mid = the rest. In "persona" mode the tiers have capacities (mid 20 slots, pruned only
above 15; long 100): pruning moves the lowest-priority memories to `archived` (never a marked one), never
deletes. In "store" mode (the default) there are no capacities: nothing is pruned for room.

Every span of time is Engram's own: since it stored the memory or last used it (recall), never the time the memory
is about (`created_at`, which an ingested history or an import dates in the past).

SHODH consolidation: the quality of a memory unused for 30 days halves every further 90 days of
disuse. The first pass to see a memory counts all its disuse, later ones the time since the last pass that
counted decay (none when the clock went back), so no disuse counts twice and a second pass at the same moment
changes nothing. Decay is counted at most once a day (`DECAY_EVERY`), and a priority is written again only when it
moved by more than `PRIORITY_TOLERANCE`: `engram serve` runs a pass every 10 minutes, and each rewrote nearly every
memory (and kept a before-image of each for rollback) for changes of a fraction of a percent.
Feedback moves quality by 0.1. Below 0.1, whatever lowered it, an unmarked memory is archived.
Who the user and the people around them are (kind identity: "Mia is allergic to peanuts") never decays, as a
marked memory: it holds until edited, however long nobody asks for it (feedback still lowers it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from engram.model.record import Category, Kind, MemoryRecord, Scope, Status, Tier

CATEGORY_WEIGHTS = {"personal": 2.0, "technical": 1.8, "project": 1.7, "casual": 1.0, "general": 1.0}
# The lifecycle's five weight classes from ours: the category says what a memory is about; the kind decides
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


@dataclass(frozen=True, slots=True)
class Standing:
    """The part of a memory the policy reads and plans: a pass over a large store holds this, a tenth of the
    record (no text, tags, metadata or classifier scores), for every memory at once."""

    id: str
    scope: Scope
    scope_id: str | None
    status: Status
    tier: Tier
    kind: Kind
    category: Category | None
    created_at: datetime
    last_accessed_at: datetime | None
    access_count: int
    base_relevance: float
    user_marked_important: bool
    cluster_size: int
    priority: float | None
    quality_score: float | None

    @classmethod
    def of(cls, record: MemoryRecord | Standing) -> Standing:
        if isinstance(record, Standing):
            return record
        return cls(**{name: getattr(record, name) for name in cls.__slots__})


AnyRecord = MemoryRecord | Standing


def lifecycle_category(record: AnyRecord) -> str:
    if record.category is not None:
        return _OF_CATEGORY[record.category]
    return _OF_KIND.get(record.kind, "general")


def access_recency(hours_since_access: float) -> float:
    return min(1.5, max(0.5, 1.5 - hours_since_access / 72))


def cluster_bonus(cluster_size: int) -> float:
    return min(1.5, 1 + 0.1 * cluster_size)


def _hours(later: datetime, earlier: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / 3600)


def used_at(record: AnyRecord, stored_at: datetime | None) -> datetime:
    """When Engram last stored or used the memory; `stored_at` None: a record on its own (created_at)."""
    stored = record.created_at if stored_at is None else stored_at
    last = record.last_accessed_at
    return stored if last is None or last < stored else last


def priority(record: AnyRecord, now: datetime, stored_at: datetime | None = None) -> float:
    days = max(1.0, _hours(now, record.created_at if stored_at is None else stored_at) / 24)
    last = used_at(record, stored_at)
    value = (
        record.base_relevance
        * (1 + record.access_count / days)
        * CATEGORY_WEIGHTS[lifecycle_category(record)]
        * (2.0 if record.user_marked_important else 1.0)
        * access_recency(_hours(now, last))
        * cluster_bonus(record.cluster_size)
    )
    return min(10.0, value)


def promoted(record: AnyRecord, rules: Rules) -> bool:
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

    def set(self, record: AnyRecord, reason: str, **fields: Any) -> None:
        current = self.changes.setdefault(record.id, {})
        current.update(fields)
        self.reasons.setdefault(record.id, []).append(reason)


# The fields a pass may change; a plan holds only those whose final value differs from the stored one.
_PLANNED = ("cluster_size", "priority", "quality_score", "tier", "status")


@dataclass(slots=True)
class _Draft:
    """One scope's memories as the pass goes: each step sees the earlier steps' results, and only the net
    change is planned (a promotion that pruning takes back is no change)."""

    live: dict[str, Standing]
    gone: dict[str, Standing] = field(default_factory=dict)  # archived by this pass
    why: dict[str, dict[str, str]] = field(default_factory=dict)

    def set(self, memory_id: str, reason: str, **fields: Any) -> None:
        self.live[memory_id] = replace(self.live[memory_id], **fields)
        self.why.setdefault(memory_id, {}).update(dict.fromkeys(fields, reason))

    def archive(self, memory_id: str, reason: str) -> None:
        self.set(memory_id, reason, status=Status.ARCHIVED)
        self.gone[memory_id] = self.live.pop(memory_id)


def _since_counted(record: AnyRecord, now: datetime, last_run: datetime | None) -> float:
    """Days of this pass that count towards decay. A memory no pass has seen yet (no priority: it is set on
    every live memory a pass sees, and rollback clears it with the decay) counts its whole disuse; one seen
    counts the time since the last pass, none when `now` is before it (that time was counted already)."""
    if last_run is None or record.priority is None:
        return math.inf
    return _hours(now, last_run) / 24


DECAY_EVERY = timedelta(days=1)  # the least time a decay step counts (the half-life is 90 days)
PRIORITY_TOLERANCE = 0.05  # a stored priority within this share of the computed one is kept


def _settled(computed: float, stored: float | None) -> float:
    """The priority to keep: the stored one while it is within `PRIORITY_TOLERANCE` of the computed one."""
    value = round(computed, 6)
    if stored is not None and abs(value - stored) <= PRIORITY_TOLERANCE * max(value, stored):
        return stored
    return value


def plan(
    records: Iterable[AnyRecord],
    clusters: dict[str, int],
    now: datetime,
    rules: Rules,
    last_run: datetime | None,
    stored_at: dict[str, datetime] | None = None,
) -> Plan:
    """The changes for one scope's live memories (approved, top level): cluster sizes, priorities, quality
    decay and archiving below the floor, tiers and, in persona mode, capacity pruning. `stored_at`: when Engram
    stored each memory (the store keeps it); a memory missing from it counts from its `created_at`."""
    stored = {r.id: Standing.of(r) for r in records if r.status == Status.APPROVED}
    kept = stored_at or {}
    draft = _Draft(live={})
    for r in stored.values():
        current = replace(r, cluster_size=clusters.get(r.id, r.cluster_size))
        value = _settled(priority(current, now, kept.get(r.id)), r.priority)
        draft.live[r.id] = replace(current, priority=value)
        draft.why[r.id] = dict.fromkeys(("cluster_size", "priority"), "priority")

    # Quality before tiers: a memory archived here leaves the short-term window and the capacities to the rest.
    for r in list(draft.live.values()):
        if r.user_marked_important:
            continue
        quality = r.quality_score if r.quality_score is not None else 1.0
        idle = _hours(now, used_at(r, kept.get(r.id))) / 24
        decayed = decayed_quality(quality, idle, _since_counted(stored[r.id], now, last_run), rules)
        if r.kind is Kind.IDENTITY:  # no decay; feedback still counts
            decayed = quality
        if decayed < quality:  # strictly: None -> 1.0 is no decay
            draft.set(r.id, "quality decay", quality_score=decayed)
        if decayed < rules.quality_floor:  # whatever lowered it, decay or feedback
            draft.archive(r.id, f"quality {decayed:.3f} below {rules.quality_floor}")

    sessions = [r for r in draft.live.values() if r.scope == Scope.SESSION]
    newest = {r.id for r in sorted(sessions, key=lambda r: r.created_at, reverse=True)[: rules.short_term]}
    for r in list(draft.live.values()):
        tier = Tier.LONG if promoted(r, rules) else Tier.SHORT if r.id in newest else Tier.MID
        if tier != r.tier:
            draft.set(r.id, f"tier {stored[r.id].tier.value} -> {tier.value}", tier=tier)

    if rules.mode == "persona":
        _prune(draft, rules)

    out = Plan()
    for memory_id, before in stored.items():
        after = draft.gone.get(memory_id) or draft.live[memory_id]
        fields = {f: getattr(after, f) for f in _PLANNED if getattr(after, f) != getattr(before, f)}
        if fields:
            out.changes[memory_id] = fields
            out.reasons[memory_id] = list(dict.fromkeys(draft.why[memory_id][f] for f in fields))
    return out


def _prune(draft: _Draft, rules: Rules) -> None:
    """Persona capacities: long-term over capacity goes back to mid (lowest priority first); mid-term above
    `prune_above` of its slots is archived down to that, lowest priority first. Marked memories never move."""
    by_priority = sorted(draft.live.values(), key=lambda r: (r.priority or 0.0, r.created_at))
    long = [r for r in by_priority if r.tier == Tier.LONG and not r.user_marked_important]
    excess = sum(1 for r in draft.live.values() if r.tier == Tier.LONG) - rules.long_capacity
    for r in long[: max(0, excess)]:
        draft.set(r.id, "long-term over capacity", tier=Tier.MID)
    mid = [
        r
        for r in sorted(draft.live.values(), key=lambda r: (r.priority or 0.0, r.created_at))
        if r.tier == Tier.MID
    ]
    if len(mid) <= rules.prune_above:
        return
    for r in [m for m in mid if not m.user_marked_important][: len(mid) - rules.prune_above]:
        draft.archive(r.id, f"mid-term above {rules.prune_above} of {rules.mid_slots} slots")


class Pages:
    """Store mode's plan one page at a time, the same as `plan` over each whole scope: pages come newest first
    (as `plan` sorts a scope's session memories for the short-term window), and nothing but the pruning of
    persona mode weighs one memory against another. A pass over a large store then holds a page, not a record
    per memory."""

    def __init__(self, now: datetime, rules: Rules, last_run: datetime | None) -> None:
        self.now, self.rules, self.last_run = now, rules, last_run
        self._newest: dict[str | None, int] = {}  # per session, its live memories planned so far

    def plan(
        self, records: Iterable[AnyRecord], clusters: dict[str, int], stored_at: dict[str, datetime]
    ) -> Plan:
        """The changes for the next page (newest first, after the pages planned before it)."""
        now, rules, out = self.now, self.rules, Plan()
        for record in records:
            if record.status != Status.APPROVED:
                continue
            before = Standing.of(record)
            stored = stored_at.get(before.id)
            current = replace(before, cluster_size=clusters.get(before.id, before.cluster_size))
            after = replace(current, priority=_settled(priority(current, now, stored), before.priority))
            why = dict.fromkeys(("cluster_size", "priority"), "priority")
            if not after.user_marked_important:
                quality = after.quality_score if after.quality_score is not None else 1.0
                idle = _hours(now, used_at(after, stored)) / 24
                decayed = decayed_quality(quality, idle, _since_counted(before, now, self.last_run), rules)
                if after.kind is Kind.IDENTITY:
                    decayed = quality
                if decayed < quality:
                    after, why["quality_score"] = replace(after, quality_score=decayed), "quality decay"
                if decayed < rules.quality_floor:
                    after = replace(after, status=Status.ARCHIVED)
                    why["status"] = f"quality {decayed:.3f} below {rules.quality_floor}"
            if after.status == Status.APPROVED:
                newest = False
                if after.scope == Scope.SESSION:
                    seen = self._newest.get(after.scope_id, 0)
                    self._newest[after.scope_id] = seen + 1
                    newest = seen < rules.short_term
                tier = Tier.LONG if promoted(after, rules) else Tier.SHORT if newest else Tier.MID
                if tier != after.tier:
                    after, why["tier"] = (
                        replace(after, tier=tier),
                        f"tier {before.tier.value} -> {tier.value}",
                    )
            fields = {f: getattr(after, f) for f in _PLANNED if getattr(after, f) != getattr(before, f)}
            if fields:
                out.changes[before.id] = fields
                out.reasons[before.id] = list(dict.fromkeys(why[f] for f in fields))
        return out
