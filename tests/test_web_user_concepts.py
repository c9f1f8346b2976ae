"""The concept network reads as a map: no two concepts' labels lie over each other, the labels open at a size
that can be read, a long tag ends in an ellipsis instead of running across its neighbours, and the same
concepts are laid out the same way on every visit. A concept's list and count follow an edit or a delete of its
memories. In Debian's Chromium, against one server (the fake embedder).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import delete_open_memory, local_memory, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

# Tags as people's memories get them: long compound names, several on one memory, shared between memories.
GROUPS = [
    ["quarterly-tax-return", "deadline", "accountant-karl-meier", "receipts"],
    ["billing-migration-plan", "postgresql-16", "dual-writes", "reconciliation-job-runs"],
    ["car-insurance-renewal", "deadline", "policy-number", "insurance"],
    ["office-wifi-password", "reception", "lena", "monthly-rotation"],
    ["mobile-app-authentication", "jwt-tokens", "24h-expiry", "decision"],
    ["birthday", "dad", "woodworking-and-jazz-records", "gift-ideas"],
    ["birthday", "sister-anna", "hamburg", "14-march"],
    ["search-roadmap", "dana", "thursday-meeting", "decision"],
    ["board-meeting-slides", "deadline", "next-monday"],
    ["passport-renewal", "trip-to-japan", "deadline"],
]
SINGLES = [
    f"{word}-{i}"
    for i, word in enumerate(
        [
            "api-gateway-timeout",
            "gym-membership",
            "vitamin-d-in-winter",
            "penicillin-allergy",
            "dry-cleaning",
            "green-tea",
        ]
        * 3
    )
]
LONG = "a-very-long-tag-name-that-goes-on-and-on-for-sixty-four-letters"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-concepts") as running:
        mem = local_memory(running)
        for i, tags in enumerate(GROUPS):
            mem.remember(f"Memory {i} about {tags[0].replace('-', ' ')}", tags=tags)
        for tag in SINGLES:
            mem.remember(f"A note about {tag.replace('-', ' ')}", tags=[tag])
        mem.remember("A note with the longest tag", tags=[LONG, "deadline"])
        yield running


# The pairs of concepts whose boxes, labels included, overlap (in the graph's own coordinates).
OVERLAPS = """() => {
  const nodes = engramUI.cy.nodes().toArray();
  const boxes = nodes.map((n) => n.boundingBox({ includeLabels: true, includeEdges: false }));
  const found = [];
  for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) found.push(`${nodes[i].id()} / ${nodes[j].id()}`);
  }
  return found;
}"""


def _open(tab: Tab) -> Any:
    page = tab.open("concepts")
    page.wait_for_selector("#graph[data-ready='1']")
    return page


def test_no_two_labels_overlap_and_they_open_legible(tab: Tab) -> None:
    page = _open(tab)
    assert page.evaluate("engramUI.cy.nodes().length") > 40
    assert page.evaluate(OVERLAPS) == []
    # The labels are drawn at a size a person reads (the graph is not shrunk until they vanish).
    font = page.evaluate("parseFloat(engramUI.cy.nodes()[0].style('font-size')) * engramUI.cy.zoom()")
    assert font >= 8
    tab.shot("user-concepts-1280", full_page=False)
    assert tab.errors == []


def test_a_long_tag_is_cut_short_in_the_graph(tab: Tab) -> None:
    page = _open(tab)
    label = page.evaluate(
        f"(() => {{ const n = engramUI.cy.getElementById('{LONG}'); "
        "return [n.boundingBox({includeLabels: true, includeNodes: false, includeEdges: false}).w, "
        "n.boundingBox({includeLabels: false}).w]; })()"
    )
    # A 64-letter label would be some 450 px wide at the graph's font: cut, it is a few times its node.
    assert label[0] <= 160
    assert tab.errors == []


def test_the_same_concepts_are_laid_out_the_same_way_each_visit(tab: Tab) -> None:
    where = (
        "engramUI.cy.nodes().map((n) => [n.id(), Math.round(n.position('x')), Math.round(n.position('y'))])"
    )
    page = _open(tab)
    first = page.evaluate(where)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#graph[data-ready='1']")
    assert page.evaluate(where) == first
    assert tab.errors == []


def test_a_concepts_list_and_count_follow_an_edit_and_a_delete(tab: Tab) -> None:
    page = _open(tab)
    page.locator("#concept-list button[data-concept='deadline']").click()
    items = page.locator("#concept-memories li[data-id]")
    meta = page.locator("#concept-meta")
    sync_api.expect(meta).to_contain_text("5 memories")
    sync_api.expect(items).to_have_count(5)
    # The tag taken off one memory: it leaves the concept's list and count.
    items.first.locator(".linklike").click()
    page.locator("#detail[open]").wait_for()
    tags = page.locator("#d-tags")
    tags.fill(", ".join(t for t in tags.input_value().split(", ") if t != "deadline"))
    page.locator("#d-save").click()
    page.locator("#detail-form[data-saved]").wait_for()
    page.keyboard.press("Escape")
    page.locator("#detail").wait_for(state="hidden")
    sync_api.expect(items).to_have_count(4)
    sync_api.expect(meta).to_contain_text("4 memories")
    sync_api.expect(page.locator("#concept-list button[data-concept='deadline'] .n")).to_have_text("4")
    # One deleted: the same.
    items.first.locator(".linklike").click()
    delete_open_memory(page)
    sync_api.expect(items).to_have_count(3)
    sync_api.expect(meta).to_contain_text("3 memories")
    assert tab.errors == []
