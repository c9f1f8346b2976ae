"""A connection must finish sending a request's head (its line and headers) in time, and read its answers. uvicorn's
HTTP/1.1 protocol waits for a head as long as the client likes: a client that opens a connection and sends
nothing, or a header a line at a time (slowloris), holds it for ever, and a few thousand of them take every file
descriptor the server has. It also waits for a client to read: an answer given up (the Guard's, in
engram.interfaces.http.guard) only asks the connection to close once its buffered bytes are sent, which a client
that never reads never lets happen. A head's body is the Guard's to time."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# Far more than any client needs to send a few kilobytes of headers, or to read a part of an answer.
HEAD_SECONDS = 30.0


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


__all__ = ["HEAD_SECONDS", "PacedH11"]
