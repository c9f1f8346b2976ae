"""A question for things to do that more are due for than the search shows at once ("10 results"): the web UI says
how many are due and keeps the rest behind "show more", where it listed the first ten as if they were all. In
Debian's Chromium, against one server (the fake embedder: the list does not depend on it).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import ask, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

CHORES = [
    "invoice",
    "slides",
    "tax form",
    "car insurance",
    "passport photos",
    "dentist form",
    "library books",
    "gym contract",
    "parking permit",
    "visa papers",
    "school form",
    "rent transfer",
    "train tickets",
    "gift card",
]
NOTES = [f"Send the {thing} by {day} December." for thing, day in zip(CHORES, range(10, 24), strict=True)]
QUERY = "what is due in December"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-due-many", notes=NOTES) as running:
        yield running


def test_a_long_list_of_things_to_do_is_not_cut_short(tab: Tab, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        found = c.post("/v1/search", json={"query": QUERY, "options": {"limit": 100}, "touch": False}).json()
    due = [r for r in found["results"] if r.get("due")]
    assert len(due) == len(NOTES)
    page = tab.open()
    ask(page, QUERY)
    sync_api.expect(page.locator("#search-status")).to_contain_text(f"{len(NOTES)} things to do")
    cards = page.locator("#results .result:visible")
    sync_api.expect(cards).to_have_count(10)  # the number chosen beside the search box
    more = page.locator("#results-more")
    sync_api.expect(more).to_be_visible()
    sync_api.expect(more).to_contain_text(str(len(NOTES) - 10))
    more.click()
    sync_api.expect(cards).to_have_count(len(NOTES))
    assert [c.get_attribute("data-id") for c in cards.all()] == [r["id"] for r in due]
    tab.shot("user-due-many-1280", full_page=False)
    assert tab.errors == []
