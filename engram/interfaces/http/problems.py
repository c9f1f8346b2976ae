"""Errors as problem details (RFC 9457, with SHODH's `error` and `code`), and how the OpenAPI
document shows them."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from pydantic_core import ErrorDetails
from starlette.exceptions import HTTPException
from starlette.types import Scope

from engram import InvalidInput
from engram.agent import refusal

MAX_BODY_BYTES = 1_000_000
# Routes whose body is a file, streamed to disk by the route under its own cap rather than read into memory:
# an export of a few thousand memories with their embeddings is tens of megabytes.
UPLOADS = frozenset({"/v1/import"})
MAX_UPLOAD_BYTES = 256 * 1024 * 1024


def problem(status: int, title: str, detail: str, field: str | None = None, code: str = "") -> JSONResponse:
    # Every answer's text cut short: a message may quote what was given, and that may be 60,000 characters.
    detail = refusal.brief(detail)
    field = None if field is None else refusal.brief(field, 120)
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    if field is not None:
        body["field"] = field
    # SHODH's ErrorResponse fields, so its clients read the same error.
    body |= {
        "error": detail if field is None else f"{field}: {detail}",
        "code": code or title.lower().replace(" ", "_"),
    }
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


_LOCATIONS = ("body", "query", "path", "header", "cookie")
_TITLES = {404: "Not found", 405: "Method not allowed", 413: "Payload too large"}


def validation_problem(errors: list[ErrorDetails], route: str = "") -> JSONResponse:
    """The first refused value as the sentence MCP gives (refusal.problem), its field relative to the body. A
    name sent at the top of a body that belongs inside it (a tool's argument outside "arguments", a search
    option outside "options") says where it goes: "limit" at the top of a search answered only that extra
    inputs are not permitted."""
    if not errors:
        return problem(400, "Invalid input", "invalid", "body")
    first = errors[0]
    if first["type"] == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "")
        return problem(400, "Invalid input", f"is not valid JSON ({reason})".replace(" ()", ""), "body")
    loc = list(first["loc"])
    inner = loc[1:] if loc and loc[0] in _LOCATIONS else loc
    field = refusal.path(inner) or "body"
    detail = refusal.problem(first, refusal.path(inner[:-1]), "a field of this request")
    if first["type"] == "extra_forbidden" and loc[:1] == ["body"] and len(inner) == 1:
        if route.startswith("/v1/tools/"):
            detail += '; a tool\'s arguments go in "arguments"'
        elif route == "/v1/search":
            detail += refusal.misplaced("search_memory", field)
    return problem(400, "Invalid input", detail, field)


NUL_PROBLEM = "holds a NUL character (U+0000), which no stored text, id, tag or name holds"


def nul_in_address(scope: Scope) -> Any:
    """A NUL (%00) in the path or a query parameter, refused naming the parameter (the path names an id)."""
    if has_nul(str(scope.get("path", ""))):
        return problem(400, "Invalid input", NUL_PROBLEM, "path", code="invalid_input")
    query = bytes(scope.get("query_string") or b"")
    if b"%00" in query or b"\x00" in query:
        for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if has_nul(value) or has_nul(name):
                shown = name.replace("\x00", "") or "query"
                return problem(400, "Invalid input", NUL_PROBLEM, shown, code="invalid_input")
    return None


def has_nul(text: str) -> bool:
    return "\x00" in text


def known_query(request: Request) -> None:
    """Refuse a query parameter the route does not take (a router dependency): a list asked with a filter it
    does not have (`?category=reminders`) answered every memory, as if filtered. One given twice is refused too:
    `?with_embeddings=true&with_embeddings=false` answered as the last copy said, silently."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None or request.url.path == "/api/health":  # a monitor may add a cache-buster
        return
    taken: set[str] = set()
    stack = [dependant]
    while stack:  # the route's own parameters and those of its dependencies
        each = stack.pop()
        taken.update(p.alias for p in each.query_params)
        stack.extend(each.dependencies)
    seen: set[str] = set()
    for name, _ in request.query_params.multi_items():
        if name in seen:  # the route reads one copy (the last), a proxy or a log may have read the other
            raise InvalidInput(refusal.shown(name).strip('"'), "is given twice: send it once")
        seen.add(name)
        if name not in taken:
            listed = ", ".join(sorted(taken)) or "none"
            raise InvalidInput(
                refusal.shown(name).strip('"'), f"is not a parameter of this route (it takes {listed})"
            )


def http_problem(request: Request, exc: HTTPException) -> JSONResponse:
    """Starlette's own errors (no route, wrong method, body too large) as problem+json like every other."""
    status = exc.status_code
    path = request.url.path
    detail = {404: f"nothing at {path}", 405: f"{request.method} is not allowed on {path}"}
    title = _TITLES.get(status) or HTTPStatus(status).phrase
    response = problem(status, title, detail.get(status, str(exc.detail)), "body" if status == 413 else None)
    response.headers.update(exc.headers or {})
    return response


class Problem(BaseModel):
    """An error as problem details (RFC 9457), with SHODH's `error` and `code` beside them."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    field: str | None = Field(None, description="the input the error is about, as a dotted path")
    error: str
    code: str


def _problem_responses(path: str, operation: dict[str, Any]) -> dict[str, str]:
    """The errors an operation can answer with, by status."""
    params = operation.get("parameters", [])
    answers: dict[str, str] = {}
    if params or "requestBody" in operation:
        answers["400"] = "Invalid input; `field` names it"
    if path != "/api/health":
        answers["401"] = "No valid API key"
    if any(p.get("in") == "path" and p.get("name") == "memory_id" for p in params):
        answers["404"] = "No such memory"
    if "requestBody" in operation:
        answers["413"] = f"The body is over {MAX_BODY_BYTES:,} bytes"
    return answers


def document_problems(schema: dict[str, Any]) -> dict[str, Any]:
    """FastAPI documents a 422 HTTPValidationError on every route; the API answers 400 problem+json."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    components["Problem"] = Problem.model_json_schema()
    content = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, item in schema.get("paths", {}).items():
        for operation in item.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            for status, description in _problem_responses(path, operation).items():
                responses[status] = {"description": description, "content": content}
    return schema


__all__ = [
    "MAX_BODY_BYTES",
    "MAX_UPLOAD_BYTES",
    "NUL_PROBLEM",
    "UPLOADS",
    "Problem",
    "document_problems",
    "has_nul",
    "http_problem",
    "known_query",
    "nul_in_address",
    "problem",
    "validation_problem",
]
