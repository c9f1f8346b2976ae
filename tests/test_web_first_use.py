"""The web UI as someone new to it uses it, in Debian's Chromium against a real server: importing a file twice
says so in words (it showed "nullnull"), a file of another kind is refused with what the import reads, and a
document added from a file is listed under its title rather than run into its text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab

from engram.interfaces.tenants import LOCAL

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

TRIP = "# Trip to Lisbon\n\nFlights booked with TAP, leaving 14 May.\n\n## Hotel\n\nCasa do Bairro, check-in 15:00.\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-first-use"))
    yield running
    running.stop()


@pytest.fixture
def tab(browser: Any, server: Server) -> Iterator[Tab]:
    t = Tab(browser, server.url)
    yield t
    t.context.close()


def _import(page: Any, path: Path) -> Any:
    page.locator("#import-file").set_input_files(str(path))
    page.locator("#import-btn").click()
    status = page.locator("#import-status")
    sync_api.expect(status).not_to_contain_text("Importing")
    return status


def test_importing_what_is_already_here_says_so_in_words(tab: Tab, server: Server, tmp_path: Path) -> None:
    export = tmp_path / "export.jsonl"
    with httpx.Client(base_url=server.url, timeout=30) as api:
        export.write_bytes(api.get("/v1/export").content)
    page = tab.open("data")
    status = _import(page, export)
    sync_api.expect(status).to_contain_text("Imported 0, skipped")
    assert "null" not in status.inner_text()
    assert tab.errors == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("trip.md", TRIP),  # notes
        ("chat.jsonl", '{"role": "user", "content": "I moved to Porto", "conversation_id": "c1"}\n'),
    ],
)
def test_a_file_of_another_kind_is_refused_with_what_the_import_reads(
    tab: Tab, tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    page = tab.open("data")
    status = _import(page, tmp_path / name)
    sync_api.expect(status).to_contain_text("Import failed — line 1")
    assert "engram add" in status.inner_text() and "engram ingest" in status.inner_text()


def test_a_document_is_listed_under_its_title(tab: Tab, server: Server, tmp_path: Path) -> None:
    app: Any = server.server.config.app
    memory = app.state.tenants.memory(LOCAL)
    (tmp_path / "lisbon.md").write_text(TRIP, encoding="utf-8")
    added = memory.add_file(tmp_path / "lisbon.md")
    page = tab.open()
    item = page.locator(f"#browse-list [data-id='{added['id']}'] .clamp")
    sync_api.expect(item).to_contain_text("Trip to Lisbon — Flights booked with TAP, leaving 14 May. Hotel")
    item.click()
    # the dialog: its title alone
    sync_api.expect(page.locator("#detail-title")).to_have_text("Trip to Lisbon")
    assert tab.errors == []
