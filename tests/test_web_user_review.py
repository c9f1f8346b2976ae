"""The review queue lists its first 100 pending memories: approving all of them at once shows the ones that waited
behind, with their count, instead of saying the queue is empty. In Debian's Chromium, against one server (the
fake embedder).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import PHONE, local_memory, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

PENDING = 103  # more than the queue lists at once
WINDOW = PHONE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-review") as running:
        local_memory(running).remember_many(
            [
                {"content": f"Extracted fact number {i}: the standup moved to room {i}.", "status": "pending"}
                for i in range(PENDING)
            ]
        )
        yield running


def test_approving_the_whole_page_shows_those_still_waiting(tab: Tab) -> None:
    page = tab.open("review")
    status = page.locator("#review-status")
    sync_api.expect(status).to_have_text(f"{PENDING} pending memories.")
    sync_api.expect(page.locator("#review-list .review-item")).to_have_count(100)
    page.locator("#review-all").check()
    sync_api.expect(page.locator("#review-approve")).to_have_text("Approve 100")
    page.locator("#review-approve").click()
    left = PENDING - 100
    sync_api.expect(page.locator("#review-list .review-item")).to_have_count(left)
    sync_api.expect(status).to_have_text(f"{left} pending memories.")
    sync_api.expect(page.locator("#review-badge")).to_have_text(str(left))
    assert not page.locator("#review-all").is_checked()
    assert tab.errors == []
