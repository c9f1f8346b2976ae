"""The advanced tools that `discover_memory_tools` lists (seed 002), grouped as the seed groups them.

health_score, in 0..1, is the mean of four parts, each 1 when all is well:
- storage: 1 with no inconsistency from validate_storage, else 1 / (1 + number of problem kinds);
- tags: 1 - (tags that consolidation would fold + orphan tags) / active tags;
- classification: 1 - share of memories without a category;
- index freshness: vectors indexed / embeddings stored.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
from pydantic import Field

from engram.errors import InvalidInput
from engram.interop.transfer import file_at
from engram.model.record import MemoryRecord, Scope, Status, utcnow
from engram.recall.candidates import scored as scored_candidates
from engram.recall.scoring import shortfall
from engram.store.values import Filter
from engram.tags.vocabulary import consolidate
from engram.write.edit import count_uses, whole
from engram.write.operations import operation

if TYPE_CHECKING:
    from engram.memory import Memory

TOOLS: dict[str, list[str]] = {
    "maintenance": ["memory_stats", "optimize_tags", "merge_memories"],
    "analysis": ["memory_timeline", "concept_network", "usage_patterns"],
    "migration": ["export_memories", "import_memories", "backup_restore"],
    "debugging": ["trace_search", "validate_storage", "repair_index"],
}
# Tools that change nothing (trace_search counts as a search: it touches no memory).
READ_ONLY = frozenset({"memory_stats", "memory_timeline", "concept_network", "usage_patterns", "export_memories",
                       "trace_search", "validate_storage"})  # fmt: skip
# The advanced tools' numeric arguments, by what they count: checked wherever a tool is called by name.
# Numbers as JSON has them: "5" is a caller's mistake, named, not read as 5 (as in search_memory's options).
Count = Annotated[int, Field(ge=1, le=100_000, strict=True)]
Examples = Annotated[int, Field(ge=0, le=1000, strict=True)]
Days = Annotated[int, Field(ge=1, strict=True)]
Share = Annotated[float, Field(ge=0, le=1, strict=True)]
_ALL = Filter(statuses=tuple(Status), include_expired=True)
_WIDTH = {"year": 4, "month": 7, "day": 10}


def discover_memory_tools(mem: Memory) -> dict[str, Any]:
    health = health_report(mem)
    return {
        "advanced_tools": TOOLS,
        "current_system_state": {
            "total_memories": mem.store.count(_ALL),
            "health_score": health["health_score"],
            "optimization_opportunities": health["optimization_opportunities"],
        },
    }


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def health_report(mem: Memory) -> dict[str, Any]:
    issues = mem.store.integrity()
    tags = mem.store.tags()
    merges = consolidate(tags, mem.is_word)
    orphan = sum(i["count"] for i in issues if i["problem"].startswith("active tags no memory"))
    total = mem.store.count(_ALL)
    uncategorised = mem.store.count(Filter(statuses=tuple(Status), include_expired=True, uncategorised=True))
    index = mem.store.check_index()
    problems = {i["check"] for i in issues if i["check"] != "tags"}
    parts = {
        "storage": 1 / (1 + len(problems)),
        "tags": 1 - min(1.0, (len(merges) + orphan) / len(tags)) if tags else 1.0,
        "classification": 1 - uncategorised / total if total else 1.0,
        "index_freshness": min(index["indexed"], index["embedded"]) / index["embedded"]
        if index["embedded"]
        else 1.0,
    }
    opportunities = []
    if merges:
        opportunities.append(f"consolidate {_count(len(merges), 'duplicate tag')}")
    if orphan:
        opportunities.append(f"archive {_count(orphan, 'orphan tag')}")
    if uncategorised:
        opportunities.append(f"categorise {_count(uncategorised, 'memory', 'memories')} the classifier was unsure of")
    opportunities += [f"repair: {i['problem']}" for i in issues if i["check"] != "tags"]
    return {
        "health_score": round(sum(parts.values()) / len(parts), 4),
        "parts": {k: round(v, 4) for k, v in parts.items()},
        "optimization_opportunities": opportunities,
    }


# ---- maintenance -------------------------------------------------------------------------------------------
def memory_stats(mem: Memory) -> dict[str, Any]:
    stats = mem.stats()
    tags = mem.store.tags(("active", "archived", "merged"))
    stats["categories"] = {(k or "uncategorised"): v for k, v in mem.store.grouped("category", _ALL).items()}
    stats["tags"] = dict(Counter(t.status for t in tags))
    stats["operations"] = len(mem.store.operations())
    return stats


def optimize_tags(mem: Memory, *, dry_run: bool = False, archive_after_days: int = 180) -> dict[str, Any]:
    """Fold duplicate tags into their descriptive form (on every memory that carries them) and archive tags
    unused for `archive_after_days`; as one operation that `rollback` undoes."""
    rows = mem.store.tags()
    merges = consolidate(rows, mem.is_word)
    cutoff = utcnow() - timedelta(days=archive_after_days)
    merged = {m.tag for m in merges}
    stale = [r for r in rows if r.last_used_at < cutoff and r.tag not in merged]
    report: dict[str, Any] = {
        "tags_before": len(rows),
        "merges": [
            {"tag": m.tag, "into": m.into, "reason": m.reason, "similarity": m.similarity} for m in merges
        ],
        "archived": [r.tag for r in stale],
    }
    after = len(rows) - len(merges) - len(stale)
    report |= {"tags_after": after, "reduction": round(1 - after / len(rows), 4) if rows else 0.0}
    if dry_run or not (merges or stale):
        return report | {"operation_id": None, "dry_run": dry_run}
    by_tag = {r.tag: r for r in rows}
    with operation(mem.store, "optimize_tags") as op:
        for m in merges:
            gained = 0  # memories that carry the kept tag only once the folded one is renamed
            for record in mem.store.select(Filter(statuses=tuple(Status), include_expired=True, tags=(m.tag,)),
                                           limit=1_000_000):  # fmt: skip
                gained += m.into not in record.tags
                op.before_memory(record.id, record)
                tags = tuple(dict.fromkeys(m.into if t == m.tag else t for t in record.tags))
                update: dict[str, Any] = {"tags": tags}
                if isinstance(automatic := record.metadata.get("auto_tags"), list):
                    # The folded tag stays automatic under its new name: new text replaces it as before.
                    renamed = list(dict.fromkeys(m.into if t == m.tag else t for t in automatic))
                    update["metadata"] = record.metadata | {"auto_tags": renamed}
                mem.store.update(record.model_copy(update=update))
            source, target = by_tag[m.tag], mem.store.tag(m.into) or by_tag[m.into]
            op.before_tag(m.tag)
            op.before_tag(m.into)
            mem.store.put_tag(replace(source, status="merged", merged_into=m.into))
            mem.store.put_tag(
                replace(
                    target,
                    usage_count=target.usage_count + gained,  # a memory carrying both counts once
                    last_used_at=max(target.last_used_at, source.last_used_at),
                )
            )
            op.audit("merge_tag", None, {"tag": m.tag, "into": m.into, "reason": m.reason,
                                          "similarity": m.similarity})  # fmt: skip
        for r in stale:
            op.before_tag(r.tag)
            mem.store.put_tag(replace(r, status="archived"))
            op.audit("archive_tag", None, {"tag": r.tag, "last_used_at": r.last_used_at.isoformat()})
        op.summary = {k: report[k] for k in ("tags_before", "tags_after", "reduction")}
    mem.forget_vocabulary()
    return report | {"operation_id": op.id, "dry_run": False}


def merge_memories(mem: Memory, ids: list[str], *, into: str | None = None) -> dict[str, Any]:
    """Fold memories into one (the first, or `into`): it takes the union of their tags, the highest
    importance and their summed use; the others are marked superseded, pointing at it. Rollback undoes it."""
    if len(set(ids)) < 2:
        raise InvalidInput("ids", "give at least two different memory ids")
    records = [whole(mem, i, "merge") for i in dict.fromkeys(ids)]
    # A superseded memory was merged (or replaced) already: merged again, one rollback undid what another redid.
    if gone := next((r for r in records if r.status is Status.SUPERSEDED), None):
        newer = gone.metadata.get("merged_into") or gone.metadata.get("superseded_by") or "another memory"
        raise InvalidInput("ids", f"memory {gone.id} is already superseded by {newer}; merge that one instead")
    target_id = into or records[0].id
    if target_id not in {r.id for r in records}:
        raise InvalidInput("into", "must be one of the ids being merged")
    target = next(r for r in records if r.id == target_id)
    others = [r for r in records if r.id != target_id]
    # What is kept must be found as the others were: an approved memory folded into a rejected or pending one
    # dropped out of search.
    if target.status is not Status.APPROVED and any(r.status is Status.APPROVED for r in others):
        raise InvalidInput("into", f"memory {target.id} is {target.status.value}: merge into an approved memory")
    with operation(mem.store, "merge_memories") as op:
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
        mem.store.update(merged)
        added = [t for t in merged.tags if t not in target.tags]
        for tag in added:
            op.before_tag(tag)
        count_uses(mem, added)  # the memory kept carries them now; the merged ones still do too
        for r in others:
            op.before_memory(r.id, r)
            mem.store.update(
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


# ---- analysis -----------------------------------------------------------------------------------------------
def memory_timeline(
    mem: Memory, *, granularity: str = "month", examples: int = 3, session: str | None = None
) -> dict[str, Any]:
    """`session`: the MCP session asking (as in every tool that shows memories): other sessions' session-scoped
    memories are neither counted nor shown."""
    if granularity not in _WIDTH:
        raise InvalidInput("granularity", f"unknown; choose one of {sorted(_WIDTH)}")
    counts = mem.store.histogram("created_at", _WIDTH[granularity], Filter(statuses=tuple(Status), session=session))
    periods = []
    for period, n in counts.items():
        start = datetime.fromisoformat(period + {"year": "-01-01", "month": "-01", "day": ""}[granularity])
        start = start.replace(tzinfo=None)
        end = _next(start, granularity)
        shown = mem.store.select(Filter(created_after=start, created_before=end, session=session), limit=examples)
        periods.append({"period": period, "count": n,
                        "memories": [{"id": r.id, "content": r.content[:200]} for r in shown]})  # fmt: skip
    return {"granularity": granularity, "periods": periods, "total": sum(counts.values())}


def _next(start: datetime, granularity: str) -> datetime:
    if granularity == "day":
        return start + timedelta(days=1)
    if granularity == "month":
        return start.replace(year=start.year + start.month // 12, month=start.month % 12 + 1)
    return start.replace(year=start.year + 1)


def concept_network(
    mem: Memory, *, min_cooccurrence: int = 1, similarity: float = 0.6, limit: int = 100, session: str | None = None
) -> dict[str, Any]:
    """Tags as nodes; edges where tags share memories (weight: how many) or their embeddings are close. A tag
    only other sessions' session memories carry is not shown to `session`."""
    seen = None
    if session is not None:  # a pass of its own: the store is read in batches, never held whole
        seen = {t for batch in mem.store.iter_all() for r in batch if r.parent_id is None and _seen_by(r, session)
                for t in r.tags}  # fmt: skip
    ranked = sorted(mem.store.tags(), key=lambda r: r.usage_count, reverse=True)
    rows = [r for r in ranked if seen is None or r.tag in seen][:limit]
    names = {r.tag for r in rows}
    pairs: Counter[tuple[str, str]] = Counter()
    for batch in mem.store.iter_all():
        for record in batch:
            if record.parent_id is None and _seen_by(record, session):
                present = sorted(t for t in record.tags if t in names)
                pairs.update(itertools.combinations(present, 2))
    edges = [{"source": a, "target": b, "weight": n, "kind": "co-occurrence"}
             for (a, b), n in pairs.most_common() if n >= min_cooccurrence]  # fmt: skip
    with_vectors = [r for r in rows if r.vector is not None]
    if len(with_vectors) > 1:
        matrix = np.stack([r.vector for r in with_vectors if r.vector is not None])
        sims = matrix @ matrix.T
        for i, j in zip(*np.triu_indices(len(with_vectors), k=1), strict=True):
            if sims[i, j] >= similarity:
                edges.append({"source": with_vectors[i].tag, "target": with_vectors[j].tag,
                              "weight": round(float(sims[i, j]), 4), "kind": "similarity"})  # fmt: skip
    return {"nodes": [{"id": r.tag, "usage_count": r.usage_count} for r in rows], "edges": edges}


def usage_patterns(mem: Memory, *, top: int = 10, session: str | None = None) -> dict[str, Any]:
    """Recalls over time (by day of last access), the most and least used memories, and those never recalled;
    of another `session`'s session-scoped memories, none."""
    used: list[MemoryRecord] = []
    never: list[MemoryRecord] = []
    by_category: Counter[str] = Counter()
    for batch in mem.store.iter_all():
        for r in batch:
            if r.parent_id is not None or r.status is not Status.APPROVED or not _seen_by(r, session):
                continue
            (used if r.access_count else never).append(r)
            by_category[r.category.value if r.category else "uncategorised"] += r.access_count
    used.sort(key=lambda r: (r.access_count, r.last_accessed_at or r.created_at), reverse=True)

    def brief(r: MemoryRecord) -> dict[str, Any]:
        last = None if r.last_accessed_at is None else r.last_accessed_at.isoformat()
        return {"id": r.id, "content": r.content[:200], "access_count": r.access_count, "last_accessed": last}

    return {
        "accesses_by_day": mem.store.histogram("last_accessed_at", 10, Filter(session=session)),
        "most_used": [brief(r) for r in used[:top]],
        "least_used": [brief(r) for r in used[::-1][:top]],
        "never_recalled": {
            "count": len(never),
            "oldest": [brief(r) for r in sorted(never, key=lambda r: r.created_at)[:top]],
        },
        "accesses_by_category": dict(by_category),
    }


def _seen_by(record: MemoryRecord, session: str | None) -> bool:
    return session is None or record.scope is not Scope.SESSION or record.scope_id == session


# ---- debugging -----------------------------------------------------------------------------------------------
def trace_search(
    mem: Memory, query: str, options: dict[str, Any] | None = None, *, session: str | None = None
) -> dict[str, Any]:
    """search_memory with its working shown: every candidate, each score component, and why it was cut; the
    candidates `session` can see (as search_memory's)."""
    from engram.agent.search import SearchOptions, _validated

    opts: SearchOptions = _validated(SearchOptions, options, "options")
    now = utcnow()
    # A trace looks on: the search it shows leaves usage (access counts, last access) as it was.
    found = mem.search_memory(query, (options or {}) | {"limit": opts.limit}, now=now, touch=False, session=session)
    where = Filter(include_expired=opts.include_expired, now=now, session=session)
    scored, _ = scored_candidates(mem, query, where, opts.limit, "redesign", now)
    profile = mem.settings.profiles["redesign"]
    returned = {r["id"] for r in found["results"]}
    candidates = []
    for rank, s in enumerate(scored, 1):
        short = shortfall(s, opts.min_relevance, profile) if opts.min_relevance > 0 else None
        if s.record.id in returned:
            why = "returned"
        elif short is not None:
            why = short
        elif rank > opts.limit:
            why = f"ranked {rank}, beyond limit {opts.limit}"
        else:
            why = "excluded by the query's filters (time, importance, content type)"
        candidates.append({"id": s.record.id, "content": s.record.content[:200], "rank": rank,
                           "score": round(s.score, 4), "components": {k: round(v, 4) for k, v in s.components.items()},
                           "outcome": why})  # fmt: skip
    return {"query_analysis": found["query_analysis"], "profile": profile.model_dump(),
            "candidates": candidates, "results": found["results"]}  # fmt: skip


def validate_storage(mem: Memory) -> dict[str, Any]:
    issues = mem.store.integrity()
    stored = mem.store.model()
    if stored is not None and stored != (mem.embedder.name, mem.embedder.dim):
        issues.append({"check": "model", "problem": f"embedded with {stored[0]}, opened with {mem.embedder.name}",
                       "count": 1, "repair": "reembed"})  # fmt: skip
    return {"ok": not issues, "issues": issues}


def repair_index(mem: Memory) -> dict[str, Any]:
    """Repair what validate_storage found: rebuild the full-text and vector indexes, recount the tags."""
    before = validate_storage(mem)["issues"]
    done: list[str] = []
    repairs = {i["repair"] for i in before}
    if "rebuild_fts" in repairs:
        mem.store.rebuild_fts()
        done.append("rebuilt the full-text index")
    if "rebuild_vectors" in repairs:
        done.append(f"rebuilt the vector index ({mem.store.rebuild_index()} vectors)")
    if "recount_tags" in repairs:
        done.append(f"recounted {mem.store.recount_tags()} tags")
        mem.forget_vocabulary()
    if "reembed" in repairs:
        done.append(f"re-embedded {mem.reembed()} memories")
    mem.store.audit("repair_index", None, {"before": before, "done": done})
    after = validate_storage(mem)["issues"]
    return {"repaired": done, "issues_before": before, "issues_after": after}


# ---- migration -------------------------------------------------------------------------------------------------
def backup_restore(mem: Memory, action: str, path: str | Path) -> dict[str, Any]:
    if action not in ("backup", "restore"):
        raise InvalidInput("action", "choose backup or restore")
    target = file_at(path, mem.files, new=action == "backup")
    if action == "backup":
        result = mem.store.backup(target)
    else:
        result = mem.store.restore(target)
        mem.forget_vocabulary()
        mem.reset_classifiers()
    # The check counts rows, chunks among them; say memories and chunks apart, as stats does.
    stats = mem.store.stats()
    return {"action": action, "path": str(target), **result, "memories": stats.memories, "chunks": stats.chunks}
