"""The outermost layer of the server, in front of every route (REST, SHODH, /mcp, the web UI, /docs).

- Local mode (no API keys): the Host header must name this machine (localhost, 127.0.0.1, [::1], the bound host
  or a configured extra), so a page that rebinds its own DNS name to 127.0.0.1 reaches nothing; and a request
  that changes state (POST, PUT, PATCH, DELETE) from a page of another origin is refused, body-less or not.
- A body is read once, bounded in size, and refused before any JSON parser sees it when it nests deeper than a
  request ever needs (a parser's recursion takes the connection down), when a string in it is no valid
  Unicode (a lone surrogate) or an object in it gives a key twice (Python keeps the last copy, other readers
  the first: what a proxy or a person checked is not what would be stored), naming the field; and when it is
  compressed or not JSON by its Content-Type (415, naming the header, not a parser's words on its bytes).
- A header that names who asks or what is asked for (Host, Origin, the API key, the MCP session) or how long the
  body is given twice is refused: the checks here and the app behind them would read different copies; so is a
  body given both a Content-Length and a Transfer-Encoding (a proxy reading the other would be smuggled a request).
- A body must arrive within `body_seconds` (an upload: with no pause that long, and past that time at least
  UPLOAD_RATE bytes a second on average), else 408: a client that sends half a body and waits, or an upload a
  byte at a time, held its connection, and a task, for ever.
- An unexpected error is a 500 problem+json with a generic detail: no stack and no input in the answer, the
  connection kept open, and only the error's type and where it arose in the log.
- Every answer carries the headers that keep it from being framed or sniffed; pages get a Content-Security-Policy.
"""

from __future__ import annotations

import json
import logging
import math
import re
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import Any

import anyio
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.interfaces.http.access import logged_path
from engram.interfaces.http.flow import Unread, parts, read_body, trickles
from engram.interfaces.http.problems import NUL_PROBLEM, UPLOADS, has_nul, nul_in_address, problem
from engram.model.jsonkeys import parse_marking, twice

LOOPBACK = ("localhost", "127.0.0.1", "::1")
MAX_BODY_DEPTH = (
    128  # past the deepest field a route takes (32), so that field is named; far from any parser's limit
)
# A megabyte's body at 35 kB/s; an upload may take longer but not pause longer, nor trickle (flow.py).
BODY_SECONDS = 30.0
CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Cytoscape adds one <style> of its own (".__________cytoscape_container { position: relative; }"): that text's
# hash is the only inline style allowed.
CSP = (
    "default-src 'self'; script-src 'self'; "
    "style-src 'self' 'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
# ReDoc writes its styles into the page as it renders and searches in a worker it starts from a blob; its
# scripts are files, so no inline script runs there either.
REDOC_CSP = CSP.replace(
    CSP[CSP.index("style-src") : CSP.index("img-src")], "style-src 'self' 'unsafe-inline'; "
)
REDOC_CSP += "; worker-src 'self' blob:"
MCP = "/mcp"
# Read by the Guard and, maybe from another copy, by what is behind it (Starlette's headers give the first copy).
_ONCE = frozenset(
    {
        b"host",
        b"origin",
        b"authorization",
        b"x-api-key",
        b"mcp-session-id",
        b"content-length",
        b"transfer-encoding",
    }
)
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")
log = logging.getLogger("engram.http")


def host_name(host: str) -> str:
    """The name in a Host header or an origin's authority, without its port or IPv6 brackets, lower-case."""
    host = host.strip().lower()
    # Only a port of digits is taken off: "127.0.0.1:8765.evil.com" is no loopback name, and stays whole.
    if (found := _AUTHORITY.fullmatch(host)) is not None:
        return found.group(1) or found.group(2)
    return host


_AUTHORITY = re.compile(r"\[([^\]]*)\](?::\d+)?|([^:\[\]]*)(?::\d+)?")


def too_deep(body: bytes, limit: int = MAX_BODY_DEPTH) -> bool:
    """Whether a JSON text nests deeper than `limit`, found without parsing it (strings skipped)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKET)
    depth = 0
    for c in brackets:
        if c in b"[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def invalid_text(value: Any, at: str = "", unfit: Callable[[str], bool] | None = None) -> str | None:
    """The dotted path of the first string (or key) in `value` that is no valid Unicode (or `unfit`), if any."""
    bad = unfit or _unencodable
    stack: list[tuple[Any, str]] = [(value, at)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if bad(item):
                return path or "body"
        elif isinstance(item, dict):
            for key, v in item.items():
                name = f"{path}.{key}" if path else str(key)
                if bad(key):
                    return path or "body"
                stack.append((v, name))
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
    return None


def _unencodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class Guard:
    """See the module's doc. `local`: the server answers without API keys (and only on loopback)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        local: bool,
        hosts: Iterable[str] = (),
        limit: int = 1_000_000,
        body_seconds: float | None = None,
    ) -> None:
        self.app, self.local, self.limit = app, local, limit
        self.body_seconds = BODY_SECONDS if body_seconds is None else body_seconds
        self.hosts = frozenset(host_name(h) for h in (*LOOPBACK, *hosts) if h)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        policy = (REDOC_CSP if scope.get("path") == "/redoc" else CSP).encode()

        async def guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers") or [])
                headers += [*_HEADERS, (b"content-security-policy", policy)]
                message = {**message, "headers": headers}
            for part in parts(message):
                with anyio.move_on_after(self.body_seconds) as waited:
                    await send(part)
                if waited.cancelled_caught:  # the client reads nothing: the answer and its task are let go
                    raise Unread

        late = False
        upload = {"began": anyio.current_time(), "bytes": 0}

        async def paced() -> Message:  # an upload's next part, or a disconnect once it pauses or trickles
            nonlocal late
            with anyio.move_on_after(self.body_seconds):
                message = await receive()
                upload["bytes"] += len(message.get("body", b""))
                elapsed = anyio.current_time() - upload["began"] - self.body_seconds
                if message.get("more_body") and trickles(upload["bytes"], elapsed):
                    late = True
                    return {"type": "http.disconnect"}
                return message
            late = True
            return {"type": "http.disconnect"}

        try:
            refusal = _repeated(scope) or self._refusal(scope) or nul_in_address(scope)
            if refusal is not None:
                await _spoken(scope, refusal)(scope, receive, guarded)
                return
            replay = receive
            if scope.get("method") in CHANGES and scope.get("path") not in UPLOADS:  # an upload streams
                body, early = b"", _late(self.body_seconds)
                with anyio.move_on_after(self.body_seconds):
                    body, early = await read_body(receive, self.limit)
                if early is None:
                    early = _body_problem(body, scope)
                if early is not None:
                    await _spoken(scope, early)(scope, receive, guarded)
                    return
                replay = replaying(body, receive)
            elif scope.get("method") in CHANGES:
                replay = paced
            await self.app(scope, replay, guarded)
        except Unread:
            log.info(
                "%s %s: the client read nothing for %g seconds",
                scope.get("method"),
                logged_path(scope),
                self.body_seconds,
            )
        except Exception as exc:  # the last line: whatever was not foreseen is a 500 like any other error
            if late and not started:
                await _spoken(scope, _late(self.body_seconds))(scope, receive, guarded)
                return
            _log(scope, exc)
            if not started:
                detail = "an unexpected error; the server's log says where"
                failed = problem(500, "Internal server error", detail, code="internal")
                await _spoken(scope, failed)(scope, receive, guarded)

    def _refusal(self, scope: Scope) -> Any:
        if not self.local:
            return None
        headers = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        host = headers.get(b"host")
        if host is None or host_name(host) not in self.hosts:
            return problem(
                421, "Misdirected request", "this server answers only to its own host names", "host"
            )
        if scope.get("method") not in CHANGES:
            return None
        origin = headers.get(b"origin")
        cross = headers.get(b"sec-fetch-site") == "cross-site"
        if cross or (origin is not None and not self._same_origin(origin, host)):
            return problem(403, "Forbidden", "a request from another site may not change anything", "origin")
        return None

    def _same_origin(self, origin: str, host: str) -> bool:
        scheme, _, authority = origin.partition("://")
        if scheme not in ("http", "https") or not authority:
            return False  # "null" (a sandboxed frame, a file) included
        return authority.lower() == host.strip().lower() or host_name(authority) in self.hosts - set(LOOPBACK)


def _spoken(scope: Scope, answer: JSONResponse) -> JSONResponse:
    """A refusal as the caller reads errors: problem+json, or on /mcp a JSON-RPC error (an MCP client reads
    nothing else, and waited out its own timeout for an answer it could not parse)."""
    if scope.get("path") != MCP:
        return answer
    return jsonrpc_error(answer.status_code, json.loads(bytes(answer.body))["error"])


def jsonrpc_error(status: int, message: str) -> JSONResponse:
    """An MCP answer over HTTP that no request id can be given for, as the SDK's own: the message, the status."""
    code = -32603 if status >= 500 else -32600  # JSON-RPC's internal error, invalid request
    error = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    return JSONResponse(error, status_code=status)


def _repeated(scope: Scope) -> Any:
    """A 400 naming the first of the headers read once (_ONCE) that the request gives twice, else None."""
    seen: set[bytes] = set()
    for key, _ in scope.get("headers") or []:
        name = key.lower()
        if name in _ONCE:
            if name in seen:
                return problem(
                    400, "Invalid input", "is given twice: send it once", name.decode(), code="invalid_input"
                )
            seen.add(name)
    if b"content-length" in seen and b"transfer-encoding" in seen:
        # Two lengths for one body: a proxy in front that reads the other one would see a second request in it
        # (request smuggling). Refused, and the connection closed, as RFC 9112 asks.
        refused = problem(
            400,
            "Invalid input",
            "is given with Content-Length: send one of them",
            "transfer-encoding",
            code="invalid_input",
        )
        refused.headers["connection"] = "close"
        return refused
    return None


def _late(seconds: float) -> Any:
    wait = f"{seconds:g} seconds" if math.isfinite(seconds) else "the time allowed"
    return problem(408, "Request timeout", f"the body did not arrive within {wait}", "body")


def _media_problem(scope: Scope) -> Any:
    """A 415 naming the header when a body is compressed or declared as something other than JSON: the parser
    behind answered a gzip body "There was an error parsing the body" and a form's "must be an object, got"
    quoting the raw bytes. A body with no Content-Type is read as JSON, as FastAPI does."""
    headers = {k.lower(): v.decode("latin-1").strip().lower() for k, v in scope.get("headers") or []}
    coding = headers.get(b"content-encoding", "identity")
    if coding not in ("", "identity"):
        detail = f"{coding[:40]!r} is not read: send the body uncompressed"
        return problem(
            415, "Unsupported media type", detail, "content-encoding", code="unsupported_media_type"
        )
    media = headers.get(b"content-type", "application/json").partition(";")[0].strip()
    if media != "application/json" and not media.endswith("+json"):
        detail = f"must be application/json, not {media[:60]!r}"
        return problem(415, "Unsupported media type", detail, "content-type", code="unsupported_media_type")
    return None


def _body_problem(body: bytes, scope: Scope) -> Any:
    if body and (media := _media_problem(scope)) is not None:
        return media
    if body.lstrip()[:1] not in (b"{", b"["):
        return None
    if too_deep(body):
        return problem(
            400, "Invalid input", f"nested deeper than {MAX_BODY_DEPTH} levels", "body", code="invalid_input"
        )
    try:
        value = parse_marking(body)
    except json.JSONDecodeError:
        return None  # not JSON: the route's own parser names the problem
    except UnicodeDecodeError as exc:  # a ValueError too: no "number too long" for bytes that are no text
        detail = f"is not UTF-8 text (byte {exc.start})"
        return problem(400, "Invalid input", detail, "body", code="invalid_input")
    except ValueError:  # JSON, but an integer longer than Python converts: the parser says only "an error"
        return problem(
            400,
            "Invalid input",
            f"holds a number of more than {sys.get_int_max_str_digits()} digits",
            "body",
            code="invalid_input",
        )
    except RecursionError:
        return None
    where = invalid_text(value)
    if where is not None:
        return problem(
            400, "Invalid input", "is not valid Unicode (a lone surrogate)", where, code="invalid_input"
        )
    # No stored text, id, tag or name holds a NUL: PostgreSQL refuses one in any query, which answered 500.
    if (where := invalid_text(value, unfit=has_nul)) is not None:
        # A tool's argument is named as the tool's own checks name it: `path`, not `arguments.path`.
        where = where.removeprefix("arguments.") if scope.get("path", "").startswith("/v1/tools/") else where
        return problem(400, "Invalid input", NUL_PROBLEM, where, code="invalid_input")
    if (repeated := twice(value)) is not None:
        detail = "is given twice in one object: send it once"
        return problem(400, "Invalid input", detail, repeated, code="invalid_input")
    return None


def replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that hands on `body`, already read, then whatever comes after it."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _log(scope: Scope, exc: BaseException) -> None:
    """The error's type and Engram's frames it went through (the framework's are noise): never its message, which
    may quote the input."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if "/engram/" in f.filename] or frames[-1:]
    where = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}" for f in reversed(own))
    log.error(
        "unexpected %s on %s %s at %s", type(exc).__name__, scope.get("method"), logged_path(scope), where
    )


__all__ = [
    "CSP",
    "LOOPBACK",
    "MAX_BODY_DEPTH",
    "Guard",
    "host_name",
    "invalid_text",
    "jsonrpc_error",
    "too_deep",
]
