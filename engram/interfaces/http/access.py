"""One log line a request: method, path, status and time. Never a body, a header (API keys travel there) or
the query string, where a search's words would be: what people store and ask is theirs, not the log's. The path is
written with its control characters escaped: `%0a` in a URL wrote a line of the caller's choosing into the log."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("engram.requests")


def logged_path(scope: Scope) -> str:
    """The request's path as one line of printable text: a character that is not printable (a line break, a
    carriage return, an escape sequence, a bidi control) written as its Python escape."""
    path = str(scope.get("path", ""))
    if path.isprintable():
        return path
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in path)


class RequestLog:
    """ASGI middleware writing `METHOD /path STATUS N ms` to the engram.requests logger at INFO."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the client gets when the app fails before it answers

        async def noted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, noted)
        finally:
            took = (time.perf_counter() - started) * 1000
            log.info("%s %s %d %.0f ms", scope.get("method", "?"), logged_path(scope), status, took)


__all__ = ["RequestLog", "logged_path"]
