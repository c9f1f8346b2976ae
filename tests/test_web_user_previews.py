"""A memory's one-line preview in the web UI keeps the characters the memory holds: only Markdown's own marks (a
table row's pipes, paired code and bold marks) are dropped, in the browse list and in search results alike.

Each test here fails without the change it covers. One server per module (the fake embedder), in Debian's
Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import ask, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

SHELL = "To fall back in the shell write make test || make clean; 2**10 is 1024 and a | b pipes a into b."
TABLE = "# Restore times\n\n| step | minutes |\n|:--|--:|\n| stop | 1 |\n| restore | 5 |\n\nRun `engram backup` **first**."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-previews", notes=[SHELL, TABLE]) as running:
        yield running


def _card_text(page: Any, within: str, needle: str) -> str:
    card = page.locator(f"{within} .clamp", has_text=needle).first
    card.wait_for()
    return str(card.inner_text())


def test_the_browse_list_keeps_pipes_and_stars_that_are_not_markdown(tab: Tab) -> None:
    page = tab.open()
    shell = _card_text(page, "#browse-list", "fall back")
    assert "make test || make clean" in shell
    assert "2**10 is 1024" in shell
    assert "a | b pipes" in shell
    # A document's table, code and bold marks are still Markdown and stay out of its one-line preview.
    table = _card_text(page, "#browse-list", "Restore times")
    assert "|" not in table and "`" not in table and "**" not in table
    assert "step minutes stop 1 restore 5" in table
    assert "Run engram backup first." in table
    assert tab.errors == []


def test_search_results_keep_the_same_characters(tab: Tab) -> None:
    page = tab.open()
    ask(page, "fall back in the shell")
    sync_api.expect(page.locator("#search-status")).to_contain_text("fall back in the shell", timeout=30_000)
    assert "make test || make clean" in _card_text(page, "#results", "fall back")
    assert tab.errors == []
