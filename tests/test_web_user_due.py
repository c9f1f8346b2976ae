"""Asked for things to do ("what do I need to do?"), the web UI lists them as search_memory does: the reminders and
dated tasks, due soonest first, each card naming its due day; the listing leaves usage untouched, as the ranked
search does. In Debian's Chromium, against one server (the fake embedder: the list does not depend on it).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import ask, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

NOTES = [
    "Submit the quarterly tax return by 31 January.",
    "Renew the car insurance before 15 December, the old policy ends then.",
    "Pick up the dry cleaning tomorrow after work.",
    "Finish the slides for the board meeting by next Monday.",
    "I prefer tea in the evening and coffee before noon.",
    "The team agreed to freeze features two weeks before each release.",
]
QUERY = "what do I need to do"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-due", notes=NOTES) as running:
        yield running


def _usage(c: httpx.Client) -> dict[str, int]:
    return {
        m["id"]: m["access_count"] for m in c.get("/v1/memories", params={"limit": 100}).json()["memories"]
    }


def test_things_to_do_are_listed_due_soonest_first_with_their_day(tab: Tab, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        listed = c.post("/v1/search", json={"query": QUERY, "touch": False}).json()["results"]
        before = _usage(c)
    assert len(listed) >= 3 and all(r.get("due") for r in listed)
    page = tab.open()
    ask(page, QUERY)
    sync_api.expect(page.locator("#search-status")).to_contain_text(f"{len(listed)} things to do")
    cards = page.locator("#results .result:visible")
    sync_api.expect(cards).to_have_count(len(listed))
    assert [c.get_attribute("data-id") for c in cards.all()] == [r["id"] for r in listed]
    for card, row in zip(cards.all(), listed, strict=True):
        chip = card.locator(".chip.due")
        day = date.fromisoformat(row["due"])
        # The chip names the day (its month's day at least) and says it in full on hover.
        assert str(day.day) in chip.inner_text()
        assert str(day.year) in (chip.get_attribute("title") or "")
    # Neither the list nor the search behind it counts as a use of what it shows.
    with httpx.Client(base_url=server.url, timeout=60) as c:
        assert _usage(c) == before
    tab.shot("user-due-1280", full_page=False)
    assert tab.errors == []


def test_the_rest_search_leaves_usage_untouched_when_asked(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        before = _usage(c)
        c.post("/v1/search", json={"query": QUERY, "touch": False}).raise_for_status()
        assert _usage(c) == before
        c.post("/v1/search", json={"query": QUERY}).raise_for_status()  # an agent's search counts as use
        assert _usage(c) != before
