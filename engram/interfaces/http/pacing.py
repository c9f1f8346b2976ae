"""A connection must finish sending a request's head (its line and headers) in time. uvicorn's HTTP/1.1 protocol
waits for a head as long as the client likes: a client that opens a connection and sends nothing, or a header a
line at a time (slowloris), holds it for ever, and a few thousand of them take every file descriptor the server
has. A head's body is the Guard's to time (engram.interfaces.http.guard)."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# Far more than any client needs to send a few kilobytes of headers.
HEAD_SECONDS = 30.0


class PacedH11(H11Protocol):
    """uvicorn's h11 protocol, closing a connection on which no request head has arrived for HEAD_SECONDS while
    the server waits for one. A request being answered, however long (an event stream), is not timed."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch(None)

    def _watch(self, cycle: Any) -> None:
        self.loop.call_later(HEAD_SECONDS, self._check, cycle)

    def _check(self, cycle: Any) -> None:
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE and self.cycle is cycle:  # no new head in all that time
            self.transport.close()
            return
        self._watch(self.cycle)


__all__ = ["HEAD_SECONDS", "PacedH11"]
