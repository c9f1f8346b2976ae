"""The web UI imports a realistically large export (a few thousand memories with their embeddings, megabytes
over the 1 MB a JSON request may be), streamed to disk, and refuses a file over the upload cap naming the cap,
in Debian's Chromium against a real server."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.http import manage
from engram.interfaces.http.problems import MAX_BODY_BYTES
from engram.interfaces.tenants import LOCAL

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

COUNT = 3000
TOPICS = [
    "the deploy",
    "billing",
    "the garden",
    "Sarah's birthday",
    "the Postgres upgrade",
    "my running plan",
]
OPENINGS = ["We decided to move", "Remember that", "I prefer to handle", "Next week I need to review"]
WORDS = ["carefully", "weekly", "after lunch", "with Tom", "in March", "by Friday", "because costs rose"]


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An export of COUNT memories with their embeddings, as `engram export --with-embeddings` writes it."""
    home = tmp_path_factory.mktemp("large-export")
    rng = random.Random(7)
    texts = [
        f"{rng.choice(OPENINGS)} {rng.choice(TOPICS)} ({i}): " + " ".join(rng.choice(WORDS) for _ in range(8))
        for i in range(COUNT)
    ]
    with Memory(home / "source.db", embedder=FakeEmbedder(), settings=Settings(home=home)) as memory:
        memory.remember_many([{"content": t} for t in texts])
        memory.export_memories(str(home / "export.jsonl"), with_embeddings=True)
    return home / "export.jsonl"


@pytest.fixture
def target(tmp_path: Path) -> Iterator[Server]:
    empty = Server(tmp_path, seed=False)
    yield empty
    empty.stop()


def _scratch_left(server: Server) -> list[Path]:
    app: Any = server.server.config.app
    return list(app.state.tenants.files(LOCAL).glob(".web-*"))


def test_a_large_export_imports_through_the_page(browser: Any, target: Server, export: Path) -> None:
    assert export.stat().st_size > 5 * MAX_BODY_BYTES  # far over what one JSON request may carry
    tab = Tab(browser, target.url)
    try:
        page = tab.open("data")
        page.locator("#import-file").set_input_files(str(export))
        page.locator("#import-btn").click()
        status = page.locator("#import-status")
        sync_api.expect(status).to_contain_text(f"Imported {COUNT}", timeout=180_000)
        with httpx.Client(base_url=target.url, timeout=30) as api:
            assert api.get("/v1/stats").json()["memories"] == COUNT
        assert tab.errors == [] and not _scratch_left(target)
    finally:
        tab.context.close()


def test_a_file_over_the_cap_is_refused_naming_the_cap(
    browser: Any, target: Server, export: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(manage, "MAX_UPLOAD_BYTES", 2 * 2**20)  # the export is larger than this
    tab = Tab(browser, target.url)
    try:
        page = tab.open("data")
        page.locator("#import-file").set_input_files(str(export))
        page.locator("#import-btn").click()
        status = page.locator("#import-status")
        sync_api.expect(status).to_contain_text("2 MiB", timeout=60_000)
        assert "engram import" in status.inner_text() and "export.jsonl" in status.inner_text()
        assert all("413" in e for e in tab.errors), tab.errors
    finally:
        tab.context.close()
    data = export.read_bytes()
    with httpx.Client(base_url=target.url, timeout=30) as api:
        # A body that does not say its length is counted as it arrives, and refused the same way.
        answer = api.post(
            "/v1/import", content=iter([data[i : i + 65536] for i in range(0, len(data), 65536)])
        )
        assert answer.status_code == 413 and answer.json()["field"] == "file"
        assert "2 MiB" in answer.json()["detail"]
        assert api.get("/v1/stats").json()["memories"] == 0  # nothing was stored
        # Other routes keep the 1 MB a JSON body may be.
        big = api.post("/v1/store", json={"content": "x" * (MAX_BODY_BYTES + 10)})
        assert big.status_code == 413
        assert api.post("/v1/import", content=b"  \n").json()["detail"] == "is empty"
    assert not _scratch_left(target)
