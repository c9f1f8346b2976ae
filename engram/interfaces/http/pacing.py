"""A connection must finish sending a request's head (its line and headers) in time, and read its answers. uvicorn's
HTTP/1.1 protocol waits for a head as long as the client likes: a client that opens a connection and sends
nothing, or a header a line at a time (slowloris), holds it for ever, and a few thousand of them take every file
descriptor the server has. It also waits for a client to read: an answer given up (the Guard's, in
engram.interfaces.http.guard) only asks the connection to close once its buffered bytes are sent, which a client
that never reads never lets happen. A head's body is the Guard's to time. A head uvicorn cannot read (over h11's size for one, or no HTTP) was
answered in plain text naming nothing: it is now problem+json naming the part too long or wrong."""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

import h11
from fastapi.responses import JSONResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

from engram.interfaces.http.problems import problem

# Far more than any client needs to send a few kilobytes of headers, or to read a part of an answer.
HEAD_SECONDS = 30.0
# The most of a head h11 holds before refusing it (its default, which uvicorn keeps).
HEAD_BYTES = 16_384


class PacedH11(H11Protocol):
    """uvicorn's h11 protocol, closing a connection on which no request head has arrived for HEAD_SECONDS while
    the server waits for one, and dropping one that could not write for HEAD_SECONDS (its client reads nothing).
    A request being answered, however long (an event stream), is not timed while its client reads."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._blocked_since: float | None = None
        self._watch(None)

    def pause_writing(self) -> None:
        super().pause_writing()
        self._blocked_since = self.loop.time()

    def resume_writing(self) -> None:
        super().resume_writing()
        self._blocked_since = None

    def send_400_response(self, msg: str) -> None:
        """A head that could not be read, answered as every refusal is (problem+json, naming what is wrong), and
        the connection closed."""
        refusal = _unreadable(self.conn.trailing_data[0])
        status = refusal.status_code
        headers = [(b"content-type", b"application/problem+json"), (b"connection", b"close")]
        for event in (
            h11.Response(status_code=status, headers=headers, reason=HTTPStatus(status).phrase),
            h11.Data(data=bytes(refusal.body)),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

    def _watch(self, cycle: Any) -> None:
        self.loop.call_later(HEAD_SECONDS, self._check, cycle)

    def _check(self, cycle: Any) -> None:
        blocked = self._blocked_since
        if blocked is not None and self.loop.time() - blocked >= HEAD_SECONDS:
            self.transport.abort()  # a close would wait for the client to read what is buffered: it never will
            return
        if self.transport.is_closing():
            if blocked is not None:  # closing, but only once its buffered answer is read
                self._watch(cycle)
            return
        if self.conn.their_state is h11.IDLE and self.cycle is cycle:  # no new head in all that time
            self.transport.close()
            return
        self._watch(self.cycle)


def _unreadable(received: bytes) -> JSONResponse:
    """Why a head could not be read: a request line or headers longer than h11 reads (what a client sent so
    far passes that size with no end in sight), or no HTTP/1.1 at all."""
    limit = HEAD_BYTES
    if len(received) > limit and b"\r\n\r\n" not in received[: limit + 4]:
        if b"\n" not in received[:limit]:
            return problem(414, "URI too long", f"the request line is over {limit} bytes", "url")
        return problem(431, "Headers too large", f"the request's headers are over {limit} bytes", "headers")
    return problem(400, "Bad request", "is not a valid HTTP/1.1 request head", "request")


__all__ = ["HEAD_SECONDS", "PacedH11"]
