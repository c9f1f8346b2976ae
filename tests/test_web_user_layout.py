"""A long unbroken tag or word stays inside its card on a phone-wide window: the lists of the search and review
views do not widen the page. In Debian's Chromium, against one server (the fake embedder).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_web import CHROMIUM, Server, Tab, until
from webpage import PHONE, local_memory, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

LONG_TAG = "x" * 64  # the longest tag a memory may carry
LONG_WORD = "averyverylongwordwithoutanyspaces" * 8
WINDOW = PHONE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-layout") as running:
        mem = local_memory(running)
        mem.remember(LONG_WORD, tags=[LONG_TAG, "billing"])
        mem.remember("Ask Dana about the billing migration plan.", status="pending", tags=[LONG_TAG])
        yield running


WIDE = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize(
    ("view", "item"), [("search", "#browse-list .chip.tag"), ("review", "#review-list .chip.tag")]
)
def test_a_long_tag_does_not_widen_a_phone_page(tab: Tab, view: str, item: str) -> None:
    page = tab.open(view)
    page.locator(item, has_text=LONG_TAG[:20]).first.wait_for()
    until(page, f"{WIDE} <= 0", timeout_s=30)
    width = page.evaluate("document.documentElement.clientWidth")
    chip = page.locator(item, has_text=LONG_TAG[:20]).first.bounding_box()
    assert chip is not None and chip["x"] + chip["width"] <= width
    tab.shot(f"user-layout-{view}-390", full_page=False)
    assert tab.errors == []


def test_a_tag_cut_short_is_named_whole_on_hover(tab: Tab) -> None:
    page = tab.open("search")
    chip = page.locator("#browse-list .chip.tag", has_text=LONG_TAG[:20]).first
    chip.wait_for()
    clipped = chip.evaluate("e => e.scrollWidth > e.clientWidth")
    assert clipped, "the long tag should be cut short on a phone-wide page"
    assert chip.get_attribute("title") == LONG_TAG
    assert tab.errors == []
