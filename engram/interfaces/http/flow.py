"""How fast a body must arrive and an answer be read. An upload may take long, but once the time any body is
given is over it must keep up UPLOAD_RATE: one sent a byte every few seconds held its connection, its task and
a temporary file for as long as its client liked. An answer is written in parts of SEND_PART bytes, each once
the client has read enough of the one before: a client that asked for an export and read none of it held the
whole answer in the server's memory, and the task sending it, for as long as it kept the connection open."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.types import Message, Receive

from engram.interfaces.http.problems import problem

# Half the rate a request body is given (a megabyte in 30 seconds): an upload sent at any usual speed keeps it.
UPLOAD_RATE = 16_384
SEND_PART = 1 << 16


def trickles(received: float, elapsed: float) -> bool:
    """Whether an upload that has sent `received` bytes falls behind UPLOAD_RATE, `elapsed` seconds after the
    time any body is given (none before it)."""
    return received < elapsed * UPLOAD_RATE


def parts(message: Message) -> Iterable[Message]:
    """An answer's body in parts of SEND_PART bytes: the server writes each part only once the client has read
    enough of the one before, so a client that reads nothing holds one part, not the whole answer."""
    body = message.get("body", b"")
    if message["type"] != "http.response.body" or len(body) <= SEND_PART:
        yield message
        return
    last = len(body) - 1
    for start in range(0, len(body), SEND_PART):
        more = start + SEND_PART <= last or message.get("more_body", False)
        yield {**message, "body": body[start : start + SEND_PART], "more_body": more}


class Unread(Exception):
    """An answer's part waited `body_seconds` for the client to read: its connection is given up."""


async def read_body(receive: Receive, limit: int) -> tuple[bytes, Any]:
    """The request's whole body, or a 413 once it passes `limit` bytes (nothing more is read)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", problem(413, "Payload too large", f"the body is over {limit} bytes", "body")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), None


__all__ = ["SEND_PART", "UPLOAD_RATE", "Unread", "parts", "read_body", "trickles"]
