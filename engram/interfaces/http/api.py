"""The REST API: a thin FastAPI adapter over `Memory` (OpenAPI at /docs).

/v1 is Engram's own surface (the two tools, recall with explanations, memories CRUD with cursor paging, the
advanced tools); /api is the SHODH Memory API (engram.interfaces.http.shodh). Every route resolves the caller's
tenant first and only ever sees that tenant's `Memory`. Errors are problem-details JSON naming the field: 4xx for
bad input, never a 500.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from typing_extensions import TypedDict

import engram
from engram import (
    ID_CHARS,
    KIND_CHARS,
    NAME_CHARS,
    TAG_CHARS,
    DiscoverResult,
    EngramError,
    ForgetAnswer,
    Hit,
    InvalidInput,
    MaintainAnswer,
    MemoryRecord,
    ModelMismatch,
    NotFound,
    SearchMemoryResult,
    StatsAnswer,
    StoreMemoryResult,
    StoreUnavailable,
)
from engram.agent.registry import TOOLS
from engram.interfaces.http.bodies import (
    FeedbackBody,
    RecallBody,
    SearchBody,
    StoreBody,
    ToolBody,
    strict_fields,
)
from engram.interfaces.http.caller import Who
from engram.interfaces.http.docs import docs_assets, offline_docs
from engram.interfaces.http.guard import Guard
from engram.interfaces.http.manage import manage_router
from engram.interfaces.http.problems import (
    MAX_BODY_BYTES,
    UPLOADS,
    document_problems,
    http_problem,
    known_query,
    problem,
    validation_problem,
)
from engram.interfaces.http.shodh import shodh_router
from engram.interfaces.tenants import Keys, Tenants

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]
Position = tuple[datetime, str]


class BodyLimit:
    """Refuses bodies over `limit` bytes (413), counting what arrives as well as trusting Content-Length."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit
        self.detail = f"the body is over {limit} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in UPLOADS:  # an upload's route caps it
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


class ScoredMemory(TypedDict):
    """A recall hit: the memory, its score, why it is shown (match or sibling), the score's components and how
    surely it answers the query (high, medium or low, as search_memory grades it)."""

    memory: MemoryRecord
    score: float
    why: str
    components: dict[str, float]
    confidence: str | None


class RecallResponse(TypedDict):
    results: list[ScoredMemory]
    count: int


class MemoryPage(TypedDict):
    memories: list[MemoryRecord]
    next_cursor: str | None


class AuditEntry(TypedDict):
    id: int
    at: str
    memory_id: str | None
    action: str
    detail: dict[str, Any]
    operation_id: str | None


class AuditLog(TypedDict):
    entries: list[AuditEntry]


def hit_json(hit: Hit) -> ScoredMemory:
    return {
        "memory": hit.record,
        "score": round(hit.score, 6),
        "why": hit.why,
        "components": {k: round(v, 6) for k, v in hit.components.items()},
        "confidence": hit.confidence,
    }


def _cursor(last: MemoryRecord) -> str:
    """The page's last (created_at, id): the next page starts past it, so writes between pages shift nothing."""
    at = last.created_at
    position = json.dumps(
        [(at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)).isoformat(), last.id]
    )
    return base64.urlsafe_b64encode(position.encode()).decode()


def _position(cursor: str | None) -> Position | None:
    if not cursor:
        return None
    try:
        created, memory_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        at = datetime.fromisoformat(created)
        # A cursor is the caller's to alter: a time past the calendar once in UTC, or an id no store could hold
        # (a lone surrogate), answered 500.
        if at.tzinfo is not None and isinstance(memory_id, str) and memory_id.isprintable():
            memory_id.encode()
            return at.astimezone(UTC), memory_id
    except (binascii.Error, ValueError, TypeError, RecursionError, OverflowError):
        pass
    raise InvalidInput("cursor", "is not a cursor this API returned")


def create_app(
    tenants: Tenants,
    keys: Keys | None = None,
    *,
    require_key: bool = True,
    lifespan: Lifespan | None = None,
    hosts: Iterable[str] = (),
) -> FastAPI:
    """The REST app. With `require_key` every route but /api/health needs a live API key (Bearer or X-API-Key);
    without it (local, loopback-only mode) a request with no key acts for the local tenant, and only a request
    to a loopback name or one of `hosts`, from no other site, is answered (engram.interfaces.http.guard)."""
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
    app.add_middleware(Guard, local=not require_key, hosts=hosts, limit=MAX_BODY_BYTES)  # outermost
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
        return validation_problem(list(exc.errors()), request.url.path)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        return http_problem(request, exc)

    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_problems(plain_openapi())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    v1 = APIRouter(prefix="/v1", tags=["engram"], dependencies=[Depends(known_query)])

    @v1.post("/store")
    def store(body: StoreBody, who: Who) -> StoreMemoryResult:
        """store_memory: category, tags, importance and kind inferred; `context` may force any of them."""
        return who.memory.store_memory(body.content, body.context)

    @v1.post("/search")
    def search(body: SearchBody, who: Who) -> SearchMemoryResult:
        """search_memory: natural-language search with time understanding, ranked by its own profile."""
        return who.memory.search_memory(body.query, body.options, touch=body.touch)

    @v1.post("/recall")
    def recall(body: RecallBody, who: Who) -> RecallResponse:
        """Hybrid recall, each hit with its score components."""
        hits = who.memory.recall(
            body.query,
            limit=body.limit,
            mode=body.mode,
            kind=body.kind,
            scope=body.scope,
            scope_id=body.scope_id,
            profile=body.profile,
            user_id=body.user_id,
            workspace_id=body.workspace_id,
            touch=body.touch,
        )
        return {"results": [hit_json(h) for h in hits], "count": len(hits)}

    @v1.get("/memories")
    def list_memories(
        who: Who,
        kind: Annotated[str | None, Query(max_length=KIND_CHARS)] = None,
        scope: Annotated[str | None, Query(max_length=KIND_CHARS)] = None,
        scope_id: Annotated[str | None, Query(max_length=NAME_CHARS)] = None,
        status: Annotated[str | None, Query(max_length=KIND_CHARS)] = None,
        tag: Annotated[str | None, Query(max_length=TAG_CHARS)] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        cursor: str | None = None,
    ) -> MemoryPage:
        """Top-level memories, newest first; pass `next_cursor` back as `cursor` for the next page."""
        after = _position(cursor)
        rows = who.memory.list(
            kind=kind, scope=scope, scope_id=scope_id, status=status, tag=tag, limit=limit + 1, after=after
        )
        page = rows[:limit]
        return {
            "memories": page,
            "next_cursor": _cursor(page[-1]) if len(rows) > limit else None,
        }

    @v1.get("/memories/{memory_id}")
    def get_memory(memory_id: str, who: Who) -> MemoryRecord:
        """One memory, every field."""
        return who.memory.get(memory_id)

    @v1.patch("/memories/{memory_id}")
    def patch_memory(memory_id: str, fields: dict[str, Any], who: Who) -> MemoryRecord:
        """Change fields (kind, scope, tags, importance, user_marked_important, validity_score, ...)."""
        return who.memory.update(memory_id, **strict_fields(fields))

    @v1.delete("/memories/{memory_id}")
    def delete_memory(memory_id: str, who: Who) -> ForgetAnswer:
        """Delete a memory and its chunks: explicit, audited."""
        return who.memory.forget(memory_id)

    @v1.post("/memories/{memory_id}/feedback")
    def feedback(memory_id: str, body: FeedbackBody, who: Who) -> MemoryRecord:
        """Thumbs up or down: the memory's quality moves by 0.1."""
        return who.memory.feedback(memory_id, body.helpful)

    @v1.post("/maintain")
    def maintain(who: Who) -> MaintainAnswer:
        """Run lifecycle maintenance now (engram serve also runs it on a timer)."""
        return who.memory.maintain()

    @v1.get("/tools")
    def tools(who: Who) -> DiscoverResult:
        """discover_memory_tools: the advanced tools by group and the store's health."""
        return who.memory.discover_memory_tools()

    for tool in TOOLS:
        v1.add_api_route(
            f"/tools/{tool.name}",
            _tool_route(tool.name),
            methods=["POST"],
            response_model=tool.answer,
            summary=tool.name,
            description=f'{tool.description}\n\nBody: {{"arguments": {{...}}}}, the tool\'s arguments (none: defaults).',
        )

    @v1.post("/tools/{name}")
    def run_tool(name: str, who: Who, body: ToolBody | None = None) -> Any:
        """A tool that is not one of those above: refused, naming the tools there are."""
        return who.memory.run_tool(name, **(body.arguments if body is not None else {}))

    @v1.get("/stats")
    def stats(who: Who) -> StatsAnswer:
        """Counts by kind, scope and status, the model, the vector index and the database size."""
        return who.memory.stats()

    @v1.get("/audit")
    def audit(
        who: Who,
        memory_id: Annotated[
            str | None, Query(max_length=ID_CHARS, description="only this memory's entries")
        ] = None,
        limit: Annotated[int, Query(ge=1, le=500, description="most entries, newest first")] = 100,
    ) -> AuditLog:
        """The audit log: every automatic decision and every change, with its reason, newest first."""
        return {"entries": cast(list[AuditEntry], who.memory.audit_log(memory_id, limit))}

    app.include_router(v1)
    app.include_router(manage_router())  # bulk review, tags, export/import files, rendered text
    app.include_router(shodh_router(started))
    return app


def _tool_route(name: str) -> Callable[..., Any]:
    """The route of one tool: its arguments in the body (none: the tool's defaults), run by the caller's Memory."""

    def run(who: Who, body: ToolBody | None = None) -> Any:
        return who.memory.run_tool(name, **(body.arguments if body is not None else {}))

    run.__name__ = f"tool_{name}"
    return run


__all__ = ["create_app"]
