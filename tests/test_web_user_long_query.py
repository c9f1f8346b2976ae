"""A long question pasted into the search box (a paragraph, a log line, a token with no spaces) leaves the page as
wide as its window: the status line quotes the question's start and wraps what it cannot break. In Debian's
Chromium, against one server (the fake embedder).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_web import CHROMIUM, Server, Tab, until
from webpage import PHONE, ask, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

TOKEN = "eyJhbGciOiJIUzI1NiJ9" * 120  # a pasted token: 2,400 letters and no space
WINDOW = PHONE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-long-query", seed=True) as running:
        yield running


WIDE = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_a_long_unbroken_question_does_not_widen_the_page(tab: Tab) -> None:
    page = tab.open()
    ask(page, TOKEN)
    status = page.locator("#search-status")
    sync_api.expect(status).to_contain_text(TOKEN[:40])
    until(page, "!/Searching/.test(document.querySelector('#search-status').textContent)", timeout_s=30)
    assert page.evaluate(WIDE) <= 0
    assert len(status.inner_text()) < 200  # the question's start, not all of it again
    assert "…" in status.inner_text()
    tab.shot("user-long-query-390", full_page=False)
    assert tab.errors == []
