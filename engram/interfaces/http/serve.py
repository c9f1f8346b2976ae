"""`engram serve`: the REST API, the web UI and MCP over streamable HTTP, in one process.

Routes: /v1 and /api (engram.interfaces.http.api), /mcp (engram.interfaces.mcp, the caller's key picks the tenant), /docs, and
the web UI at /. Keys are required unless the server runs in local mode, which only binds to loopback.
Shutdown on SIGINT/SIGTERM lets in-flight requests finish, then closes every store (each write is committed
when its call returns, so nothing acknowledged is lost).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram import Embedder, Memory
from engram.config import Settings
from engram.interfaces.http.access import RequestLog
from engram.interfaces.http.api import create_app
from engram.interfaces.http.caller import secret_of
from engram.interfaces.http.descriptors import most_descriptors, quiet_exhaustion
from engram.interfaces.http.guard import jsonrpc_error, replaying
from engram.interfaces.http.heap import limit_arenas, limit_workers
from engram.interfaces.http.lines import OneLine
from engram.interfaces.http.pacing import PacedH11
from engram.interfaces.mcp import server as mcp_server
from engram.interfaces.mcp import stdio
from engram.interfaces.tenants import LOCAL, Keys, Tenants
from engram.model.standins import spacy_for_tagging_only, tag_without_spacy

WEB = Path(__file__).resolve().parents[1] / "web"
SESSION = "mcp-session-id"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class McpGate:
    """Lets an MCP request through only with a live key (or with none, in local mode), and into a session only
    for the tenant that opened it: another tenant's key can neither use nor end it (404, as for no session)."""

    def __init__(
        self, app: ASGIApp, keys: Keys | None, require_key: bool, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.app, self.keys, self.require_key, self.clock = app, keys, require_key, clock
        self.owners: dict[str, str] = {}  # session id -> the tenant that opened it
        self.used: dict[str, float] = {}  # session id -> when a request last asked for it (monotonic)
        # session id -> its requests in flight (an event stream may last hours)
        self.open: Counter[str] = Counter()
        self.swept = clock()

    def forget_ended(self, now: float) -> None:
        """Forget the owners of sessions the SDK has closed for idleness. Only well past its timeout and with
        nothing in flight: a forgotten owner lets any tenant name the session (the SDK then answers 404)."""
        if now - self.swept < 60:
            return
        self.swept = now
        for session in [s for s, t in self.used.items() if now - t > 2 * DEFAULT_SESSION_IDLE_TIMEOUT]:
            if not self.open[session]:
                self.owners.pop(session, None)
                self.used.pop(session, None)
                del self.open[session]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        secret = secret_of(headers)
        tenant = self.keys.tenant_of(secret) if secret is not None and self.keys is not None else None
        if (secret is not None and tenant is None) or (secret is None and self.require_key):
            await jsonrpc_error(401, "a valid API key is required")(scope, receive, send)
            return
        tenant = tenant or LOCAL
        session = headers.get(SESSION)
        self.forget_ended(self.clock())
        if session is not None and self.owners.get(session, tenant) != tenant:
            # The SDK's own answer to a session it does not hold, to the byte: which ids are live is no one's to learn
            await jsonrpc_error(404, "Session not found")(scope, receive, send)
            return

        async def noted(message: Message) -> None:
            if message["type"] == "http.response.start":
                opened = dict(message.get("headers") or []).get(SESSION.encode())
                status = message.get("status", 500)
                # The SDK names a session in a refusal too, then drops it: kept here, every refused request
                # would leave an owner behind for an hour.
                if opened is not None and status < 400:
                    self.owners.setdefault(opened.decode("latin-1"), tenant)
                    self.used[opened.decode("latin-1")] = self.clock()
                ended = scope.get("method") == "DELETE" and status < 300
                if session is not None and (ended or status == 404):  # 404: the SDK no longer has it
                    self.owners.pop(session, None)
                    self.used.pop(session, None)
            await send(message)

        replay = receive
        if scope.get("method") == "POST":
            body, replay = await _buffered(receive)
            if (refused := _refused(body)) is not None:
                await refused(scope, receive, send)
                return
        if session is None or session not in self.owners:
            await self.app(scope, replay, noted)
            return
        self.used[session], self.open[session] = self.clock(), self.open[session] + 1
        try:
            await self.app(scope, replay, noted)
        finally:
            self.open[session] -= 1
            if self.open[session] <= 0:
                del self.open[session]
            if session in self.owners:
                self.used[session] = self.clock()


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    """The request's body (the Guard has bounded it) and a receive that hands it on again."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    return body, replaying(body, receive)


def _refused(body: bytes) -> ASGIApp | None:
    """A JSON-RPC error for a message whose id or method name is huge, or that is no JSON-RPC message the SDK
    reads (a batch), as over stdio, else None: the SDK answered a 50,000-character method's "Method not found"
    quoting it whole, repeats any id, and refused a malformed message as bad params quoting pydantic's dump."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None  # the SDK's transport names it
    try:
        stdio.one_message(body, value, stdio.oversized(value))
    except stdio.Refused as refused:
        error = {"code": refused.code, "message": str(refused)}
        return JSONResponse({"jsonrpc": "2.0", "id": refused.request_id, "error": error}, status_code=400)
    return None


def _maintain_every(tenants: Tenants, settings: Settings, stop: threading.Event) -> None:
    """Lifecycle maintenance of every open tenant on a timer."""
    log = logging.getLogger("engram.serve")
    while not stop.wait(settings.maintain_every_minutes * 60):
        with tenants.each() as open_:
            current = list(open_.items())
        for _, mem in current:
            try:
                mem.maintain()
            except Exception:  # one tenant's failure must not stop the others' upkeep
                log.exception("maintenance failed for a tenant")


def build_app(
    settings: Settings,
    *,
    db: str | Path | None = None,
    embedder: Embedder | None = None,
    require_key: bool = True,
    host: str = "127.0.0.1",
    hosts: Iterable[str] = (),
) -> FastAPI:
    """The whole server as one ASGI app (tests serve it with uvicorn exactly as `engram serve` does). In local
    mode it answers to loopback names, `host`, `hosts` and those in ENGRAM_ALLOWED_HOSTS (comma-separated)."""
    tenants = Tenants(settings, embedder=embedder, db=db)
    keys = Keys(settings.home / "keys.db")

    def resolve(ctx: Context) -> Memory:
        secret = secret_of(ctx.headers)
        tenant = keys.tenant_of(secret) if secret else (None if require_key else LOCAL)
        if tenant is None:
            raise PermissionError("a valid API key is required")
        return tenants.memory(tenant)

    mcp = mcp_server.build(resolve)
    # The Guard checks Host and Origin for every route, /mcp included, against one allow-list. The SDK's own check
    # knew only loopback names with a port: it refused a configured host the REST API answers, in plain text.
    unchecked = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    mcp_app = mcp.streamable_http_app(streamable_http_path="/mcp", host=host, transport_security=unchecked)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        limit_workers()
        stop = threading.Event()
        upkeep = threading.Thread(target=_maintain_every, args=(tenants, settings, stop), daemon=True)
        if settings.maintain_every_minutes > 0:
            upkeep.start()
        async with mcp.session_manager.run():
            try:
                yield
            finally:
                stop.set()
                if upkeep.is_alive():
                    upkeep.join(30)
                tenants.close()
                keys.close()

    extra = [h.strip() for h in os.environ.get("ENGRAM_ALLOWED_HOSTS", "").split(",") if h.strip()]
    app = create_app(tenants, keys, require_key=require_key, lifespan=lifespan, hosts=[host, *hosts, *extra])
    for route in mcp_app.routes:  # the /mcp endpoint, behind the key check
        app.router.routes.append(route)
        endpoint = getattr(route, "app", None)
        if endpoint is not None:
            route.app = McpGate(OneLine(endpoint), keys, require_key)  # type: ignore[attr-defined]
    if WEB.is_dir():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


def serve(
    settings: Settings,
    *,
    db: str | Path | None = None,
    host: str = "127.0.0.1",
    port: int = 8765,
    local: bool = False,
) -> None:
    """Run until SIGINT/SIGTERM. `local`: no API keys, allowed only on a loopback address."""
    import uvicorn

    if local and not is_loopback(host):
        raise ValueError(f"local mode (no API keys) only binds to loopback, not {host}")
    limit_arenas()  # before the server's threads allocate
    most_descriptors()  # a slow client holds a descriptor: as many as the system allows
    quiet_exhaustion()
    spacy_for_tagging_only()  # nothing in a server builds spaCy's parser, entities or classifiers
    tag_without_spacy()  # the same tags from numpy, without spaCy's framework in the process
    app = build_app(settings, db=db, require_key=not local, host=host)
    logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK logs every session at INFO

    class Server(uvicorn.Server):
        # A signal means a clean shutdown: stop accepting, finish in-flight requests, close the stores, exit 0
        # (uvicorn would re-raise it afterwards, failing the lifespan mid-close). A second Ctrl-C forces.
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            self.should_exit = True

    logged = RequestLog(app)  # uvicorn's access log would print query strings, which hold what was searched
    config = uvicorn.Config(
        logged, host=host, port=port, log_level="warning", timeout_graceful_shutdown=10, http=PacedH11
    )
    Server(config).run()


__all__ = ["build_app", "is_loopback", "serve"]
