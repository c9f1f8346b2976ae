"""The app served for real in tests: uvicorn on a free loopback port in a thread, the fake embedder, a temporary
home; and API keys for its tenants."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from engram import FakeEmbedder, Settings
from engram.interfaces.http.pacing import PacedH11
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import Keys

# An MCP client's first message, as the tests that open a session over HTTP send it.
MCP_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """`engram serve`'s app over `home` (its local database `local.db`), running until `stop`."""

    def __init__(
        self,
        home: Path,
        *,
        require_key: bool,
        maintain_every_minutes: float = 0,
        log_level: str = "warning",
        **settings: Any,
    ) -> None:
        self.settings = Settings(home=home, maintain_every_minutes=maintain_every_minutes, **settings)
        self.app = build_app(
            self.settings, db=home / "local.db", embedder=FakeEmbedder(), require_key=require_key
        )
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level=log_level, http=PacedH11)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def key(self, tenant: str) -> str:
        """A new API key of `tenant`."""
        keys = Keys(self.settings.home / "keys.db")
        try:
            return keys.create(tenant, "test")[1]
        finally:
            keys.close()

    def client(self, tenant: str | None = None) -> httpx.Client:
        """A client with a key of `tenant` (none: no key), with a timeout a busy 2-core machine needs."""
        headers = {"Authorization": f"Bearer {self.key(tenant)}"} if tenant else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
