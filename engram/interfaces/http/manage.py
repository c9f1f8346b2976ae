"""/v1 routes for managing a store from the web UI: bulk review decisions, tags with their counts, export as a
download and import from an upload, and a memory's text rendered from Markdown.

Export and import run the migration tools (export_memories, import_memories) on a scratch file in the tenant's
own files directory (the only place those tools reach for it), removed once the answer is read (an export's
file once it is open: it is sent from there a block at a time)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import Field, StrictInt
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send
from typing_extensions import TypedDict

from engram import InvalidInput
from engram.agent.registry import BY_NAME
from engram.interfaces.http.bodies import Number, _Body
from engram.interfaces.http.caller import Caller, Who
from engram.interfaces.http.problems import MAX_UPLOAD_BYTES, known_query, problem
from engram.interfaces.tenants import Tenants, private_dir


@cache
def _markdown() -> Any:
    """CommonMark with tables and strikethrough; raw HTML is escaped, never passed through, and markdown-it refuses
    javascript:, vbscript:, file: and non-image data: links: memory text cannot run script in the page. Images are
    off (an image stays its text): memory text does not make the page fetch from other sites. Loaded when a page
    first shows a memory, not in every server."""
    from markdown_it import MarkdownIt

    return (
        MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
        .enable(["table", "strikethrough"])
        .disable("image")
    )


class ReviewBody(_Body):
    action: Literal["approve", "reject"]
    ids: list[str] = Field(default_factory=list, description="the memories to decide on")
    kind: str | None = Field(None, description="or: the pending memories of this kind")
    # Strict, as every number of a body: `true` read as 1.0 picked every pending memory extracted with a confidence.
    below_confidence: Number | None = Field(
        None, description="or: the pending memories extracted with a confidence under this"
    )
    limit: StrictInt = Field(1000, ge=1, le=1000)


class ReviewAnswer(TypedDict):
    action: str
    reviewed: int
    ids: list[str]


class TagCount(TypedDict):
    name: str
    count: int


class TagList(TypedDict):
    tags: list[TagCount]


class Rendered(TypedDict):
    id: str
    html: str


def render_markdown(text: str) -> str:
    """`text` as HTML from Markdown, safe to put in a page (see `_markdown`)."""
    markdown = _markdown()
    tokens = markdown.parse(text)
    for token in tokens:
        # A table column's alignment comes as a style attribute, which the page's CSP refuses: a class instead.
        align = token.attrs.pop("style", None)
        if isinstance(align, str) and align.startswith("text-align:"):
            token.attrSet("class", "align-" + align.removeprefix("text-align:"))
    return str(markdown.renderer.render(tokens, markdown.options, {}))


@contextmanager
def _scratch(request: Request, who: Caller, suffix: str) -> Iterator[tuple[str, Path]]:
    """A file name the migration tools accept for this caller (one in its tenant's files directory, the only
    place they reach for it), and where that is on disk; removed afterwards."""
    tenants: Tenants = request.app.state.tenants
    root = private_dir(tenants.files(who.tenant))
    name = f".web-{uuid.uuid4().hex}{suffix}"
    try:
        yield name, root / name
    finally:
        (root / name).unlink(missing_ok=True)


def _blocks(file: BinaryIO) -> Iterator[bytes]:
    with file:
        while block := file.read(1 << 20):
            yield block


class _Sent(StreamingResponse):
    """An open file's bytes sent a block at a time (an export sent whole was read into the server's memory
    first, as large as every memory of the store with its embedding), the file closed however the sending ends:
    a client that stops reading left it open until the collector came."""

    def __init__(self, file: BinaryIO, media_type: str, headers: dict[str, str]) -> None:
        self._file = file
        size = os.fstat(file.fileno()).st_size
        super().__init__(
            _blocks(file), media_type=media_type, headers=headers | {"Content-Length": str(size)}
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # no block is being read now: a read under way is waited for when the sending is given up
            self._file.close()


def _too_large() -> Response:
    limit = f"{MAX_UPLOAD_BYTES // 2**20} MiB"
    detail = f"is over the {limit} an upload may be; import it with `engram import FILE` instead"
    return problem(413, "Payload too large", detail, "file")


def manage_router() -> APIRouter:
    v1 = APIRouter(prefix="/v1", tags=["engram"], dependencies=[Depends(known_query)])

    @v1.post("/review")
    def review(body: ReviewBody, who: Who) -> ReviewAnswer:
        """Approve or reject many pending memories at once: by id, or those a filter picks (kind, extraction
        confidence under below_confidence). Checked first, then decided together."""
        decided = who.memory.review_many(
            body.action,
            ids=body.ids,
            kind=body.kind,
            below_confidence=body.below_confidence,
            limit=body.limit,
        )
        return {"action": body.action, "reviewed": len(decided), "ids": [r.id for r in decided]}

    @v1.get("/tags")
    def tags(who: Who) -> TagList:
        """Every tag a memory carries, with how many carry it, the most used first."""
        counts = who.memory.tag_counts()
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return {"tags": [{"name": name, "count": n} for name, n in ordered]}

    @v1.get("/export", response_class=Response)
    def export(
        request: Request,
        who: Who,
        with_embeddings: Annotated[bool, Query(description="include each memory's embedding")] = False,
    ) -> Response:
        """Every memory as a download: SHODH records in JSON Lines with a header line (export_memories)."""
        with _scratch(request, who, ".jsonl") as (name, path):
            who.memory.export_memories(name, with_embeddings=with_embeddings)
            file = path.open("rb")  # read after its name is removed: no copy of the export stays on disk
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
        return _Sent(
            file,
            "application/x-ndjson",
            {"Content-Disposition": f'attachment; filename="engram-export-{stamp}.jsonl"'},
        )

    @v1.post("/import", response_model=BY_NAME["import_memories"].answer)
    async def import_file(request: Request, who: Who) -> Any:
        """Import an uploaded file of SHODH records (JSON Lines, as /v1/export gives), sent as the request body
        (at most 256 MiB, streamed to disk); one operation that rollback undoes."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
            return _too_large()
        with _scratch(request, who, ".jsonl") as (name, path):
            size = 0
            with path.open("wb") as file:
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > MAX_UPLOAD_BYTES:  # a body that did not say its length, or said it wrong
                        return _too_large()
                    file.write(chunk)
            if size < 4096 and not path.read_bytes().strip():
                raise InvalidInput("file", "is empty")
            return await run_in_threadpool(who.memory.import_memories, name)

    @v1.get("/memories/{memory_id}/rendered")
    def rendered(memory_id: str, who: Who) -> Rendered:
        """A memory's content rendered from Markdown to HTML (raw HTML in it is shown as text)."""
        record = who.memory.get(memory_id)
        return {"id": record.id, "html": render_markdown(record.content)}

    return v1


__all__ = ["manage_router", "render_markdown"]
