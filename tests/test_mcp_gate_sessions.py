"""The MCP gate remembers which tenant opened each session, so another tenant's key can neither use nor end it.
That record must end with the session: one the SDK has closed (idle past its timeout, or unknown to it) is
forgotten, while one still in use, even by a request that lasts hours (an event stream), is kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT
from starlette.types import Message, Receive, Scope, Send

from engram.interfaces.http.serve import McpGate
from engram.interfaces.tenants import Keys


class Sdk:
    """Stands in for the SDK's session manager: opens a session on a request without one, answers 404 for a
    session it does not hold, and can keep a request open until told to finish."""

    def __init__(self) -> None:
        self.live: set[str] = set()
        self.hold = asyncio.Event()
        self.hold.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        session = headers.get(b"mcp-session-id")
        if session is None:
            opened = f"s{len(self.live)}".encode()
            self.live.add(opened.decode())
            await send(
                {"type": "http.response.start", "status": 200, "headers": [(b"mcp-session-id", opened)]}
            )
        elif session.decode() not in self.live:
            await send({"type": "http.response.start", "status": 404, "headers": []})
        else:
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await self.hold.wait()
        await send({"type": "http.response.body", "body": b"{}"})


async def _ask(gate: McpGate, secret: str, session: str | None = None) -> tuple[int, dict[bytes, bytes]]:
    headers = [(b"authorization", f"Bearer {secret}".encode())]
    if session is not None:
        headers.append((b"mcp-session-id", session.encode()))
    scope = {"type": "http", "method": "GET", "path": "/mcp", "headers": headers}
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await gate(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], dict(start.get("headers") or [])


def _gate(tmp_path: Path) -> tuple[McpGate, Sdk, list[float], str, str]:
    keys = Keys(tmp_path / "keys.db")
    _, owner = keys.create("owner")
    _, other = keys.create("other")
    sdk, now = Sdk(), [1000.0]
    return McpGate(sdk, keys, require_key=True, clock=lambda: now[0]), sdk, now, owner, other


def test_a_session_the_sdk_no_longer_holds_is_forgotten(tmp_path: Path) -> None:
    async def run() -> None:
        gate, sdk, _, owner, other = _gate(tmp_path)
        status, headers = await _ask(gate, owner)
        assert status == 200
        session = headers[b"mcp-session-id"].decode()
        assert gate.owners == {session: "owner"}
        assert (await _ask(gate, other, session))[0] == 404  # not the other tenant's
        sdk.live.clear()  # the SDK closed it
        assert (await _ask(gate, owner, session))[0] == 404
        assert gate.owners == {} and gate.used == {}

    asyncio.run(run())


def test_owners_of_sessions_idle_past_the_sdks_timeout_are_forgotten_but_not_while_in_use(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        gate, sdk, now, owner, other = _gate(tmp_path)
        idle = (await _ask(gate, owner))[1][b"mcp-session-id"].decode()
        streaming = (await _ask(gate, owner))[1][b"mcp-session-id"].decode()
        sdk.hold.clear()
        stream = asyncio.create_task(_ask(gate, owner, streaming))  # an event stream left open
        await asyncio.sleep(0)
        assert gate.open[streaming] == 1

        now[0] += DEFAULT_SESSION_IDLE_TIMEOUT + 120  # closed by the SDK, but not yet past twice its timeout
        await _ask(gate, owner)
        assert idle in gate.owners
        now[0] += DEFAULT_SESSION_IDLE_TIMEOUT + 120
        await _ask(gate, owner)
        assert idle not in gate.owners and idle not in gate.used
        assert gate.owners[streaming] == "owner"  # in use all along
        assert (await _ask(gate, other, streaming))[0] == 404

        sdk.hold.set()
        assert (await stream)[0] == 200
        assert streaming not in gate.open
        now[0] += 2 * DEFAULT_SESSION_IDLE_TIMEOUT + 120
        await _ask(gate, owner)
        assert streaming not in gate.owners

    asyncio.run(run())
