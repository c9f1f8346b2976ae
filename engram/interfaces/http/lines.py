"""MCP's answers over streamable HTTP as one line each: the line and paragraph separators (U+2028, U+2029) and NEL
(U+0085) written as JSON escapes, not raw. JSON lets them stand raw inside a string, and the SSE framing ends lines
only at CR and LF, but the line reader Python's MCP client uses (httpx's) ends a line at each of them too: an
answer quoting a memory that held one (pasted text has them) arrived as two broken lines, and the agent waited
for an answer that never came. Escaped, the JSON means the same text and no reader splits it."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Their UTF-8 bytes, each as JSON's escape. No other character's UTF-8 holds these sequences.
_RAW = {b"\xe2\x80\xa8": b"\\u2028", b"\xe2\x80\xa9": b"\\u2029", b"\xc2\x85": b"\\u0085"}
_TYPES = (b"text/event-stream", b"application/json")


def escaped(body: bytes) -> bytes:
    for raw, escape in _RAW.items():
        if raw in body:
            body = body.replace(raw, escape)
    return body


def _split_tail(chunk: bytes) -> tuple[bytes, bytes]:
    """`chunk` less a trailing start of one of the sequences, kept for the next chunk to complete."""
    for cut in (2, 1):
        if len(chunk) >= cut and any(raw.startswith(chunk[-cut:]) for raw in _RAW):
            return chunk[:-cut], chunk[-cut:]
    return chunk, b""


class OneLine:
    """Wraps the MCP endpoint: each JSON or SSE answer with the separators escaped. A JSON answer that says its
    length is held whole and its length said again; a stream is escaped chunk by chunk."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        rewrite = sized = False
        held = b""

        async def escaping(message: Message) -> None:
            nonlocal start, rewrite, sized, held
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                rewrite = kind.startswith(_TYPES)
                sized = rewrite and any(k.lower() == b"content-length" for k, _ in headers)
                if sized:
                    start = message  # sent once the whole body, and so its length, is known
                    return
                await send(message)
                return
            if message["type"] != "http.response.body" or not rewrite:
                await send(message)
                return
            more = bool(message.get("more_body", False))
            body = held + message.get("body", b"")
            if sized:
                held = body
                if more:
                    return
                body = escaped(body)
                assert start is not None
                headers = [(k, v) for k, v in start.get("headers") or [] if k.lower() != b"content-length"]
                await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body, "more_body": False})
                return
            body, held = _split_tail(body) if more else (body, b"")
            await send({**message, "body": escaped(body)})

        await self.app(scope, receive, escaping)


__all__ = ["OneLine", "escaped"]
