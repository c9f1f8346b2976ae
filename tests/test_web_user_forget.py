"""Deleting a memory from the web UI leaves no list out of date: the search's count counts what is still on screen, the timeline's count drops, and focus goes on to the next memory of the list
rather than to the top of the page (a keyboard user keeps their place). In Debian's Chromium, against one server
(the fake embedder).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import ask, delete_open_memory, graded, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

NOTES = [
    "Call the dentist on Tuesday to move the appointment.",
    "The dentist said to floss every evening.",
    "Dentist bill of 120 euros is paid.",
    "Water the plants every Sunday.",
    "Book flights to Lisbon for the conference in May.",
    "Karl from accounting can be reached at karl.meier@example.com.",
]
GRADES = ["high", "medium", "medium"]  # the rest low: three results, the others behind "show weaker"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-forget", notes=NOTES) as running:
        yield running


def test_deleting_a_result_updates_the_count_and_keeps_the_place(tab: Tab, server: Server) -> None:
    page = tab.open()
    page.route("**/v1/recall", graded(GRADES))
    ask(page, "dentist")
    status = page.locator("#search-status")
    sync_api.expect(status).to_contain_text("3 results for “dentist”")
    more = page.locator("#results-more")
    waiting = page.locator("#results .result[hidden]").count()
    assert waiting > 0
    sync_api.expect(more).to_have_text(f"Show {waiting} weaker match{'es' if waiting > 1 else ''}")
    visible = page.locator("#results .result:visible")
    second = visible.nth(1).get_attribute("data-id")
    visible.first.locator(".linklike").focus()
    page.keyboard.press("Enter")
    delete_open_memory(page)
    sync_api.expect(status).to_contain_text("2 results for “dentist”")
    sync_api.expect(page.locator("#results .result:visible")).to_have_count(2)
    # Focus is on the memory that followed the deleted one.
    assert page.evaluate("document.activeElement.closest('[data-id]')?.dataset.id") == second
    sync_api.expect(more).to_have_text(f"Show {waiting} weaker match{'es' if waiting > 1 else ''}")
    assert tab.errors == []


def test_deleting_from_the_timeline_updates_its_count(tab: Tab, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        total = c.get("/v1/stats").json()["memories"]
    page = tab.open("timeline")
    status = page.locator("#timeline-status")
    sync_api.expect(status).to_contain_text(f"{total} memories")
    item = page.locator("#periods details[open] li .linklike").first
    text = item.inner_text()
    item.click()
    delete_open_memory(page)
    sync_api.expect(status).to_contain_text(f"{total - 1} memories")
    sync_api.expect(page.locator("#periods li", has_text=text)).to_have_count(0)
    assert tab.errors == []
