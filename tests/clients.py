"""Fixtures for tests that talk to Engram as a client does: an in-process MCP client over a fake-embedder store,
and a REST test client of a local server. A test module imports the ones it uses."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.http.serve import build_app
from engram.interfaces.mcp.server import build


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client(tmp_path: Path, settings: Settings) -> AsyncIterator[Any]:
    """An MCP client of a server over a fresh store."""
    from mcp import Client

    with Memory(tmp_path / "mcp.db", embedder=FakeEmbedder(), settings=settings) as mem:
        async with Client(build(lambda ctx: mem)) as c:
            yield c


@pytest.fixture
def api(tmp_path: Path) -> Iterator[TestClient]:
    """A REST client of a local server (no API key) over a fresh store."""
    app = build_app(
        Settings(home=tmp_path, maintain_every_minutes=0),
        db=tmp_path / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client
