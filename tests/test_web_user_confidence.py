"""A search result says how surely it answers the question, in the words search_memory grades it with (high,
medium or low), not as a bare score; the score stays behind "why". In Debian's Chromium, against one server (the
fake embedder).

Each test here fails without the change it covers."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab
from webpage import ask, serving

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

NOTES = [
    "The nightly reconciliation job runs at 02:30 UTC and mails ops on failure.",
    "We decided to use JWT tokens with 24h expiry for the mobile app.",
    "Dad's birthday is on 2 June; he likes woodworking and old jazz records.",
    "Prefer tea in the evening, coffee only before noon.",
    "The billing system moves from MySQL to PostgreSQL 16 in the first quarter.",
]
QUERY = "when does the nightly reconciliation job run"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory, "web-confidence", notes=NOTES) as running:
        yield running


def test_the_rest_recall_grades_each_hit_as_search_does(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        hits = c.post("/v1/recall", json={"query": QUERY, "limit": 5, "touch": False}).json()["results"]
        found = c.post("/v1/search", json={"query": QUERY, "options": {"min_relevance": 0}}).json()["results"]
    graded = {h["memory"]["id"]: h["confidence"] for h in hits}
    assert set(graded.values()) <= {"high", "medium", "low"}
    assert hits[0]["memory"]["content"] == NOTES[0]
    # The memory search_memory answers with carries the same grade in recall's answer.
    assert found and graded[found[0]["id"]] == found[0]["confidence"]


def test_a_result_shows_its_confidence_band_and_keeps_the_score_behind_why(tab: Tab) -> None:
    page = tab.open()
    with page.expect_response("**/v1/recall") as answer:
        ask(page, QUERY)
    grades = [h["confidence"] for h in answer.value.json()["results"]]
    sync_api.expect(page.locator("#search-status")).to_contain_text(QUERY)
    first = page.locator("#results .result").first
    band = first.locator(".band")
    sync_api.expect(band).to_have_text(grades[0])
    assert grades[0] in {"high", "medium"}
    assert "confidence" in (band.get_attribute("title") or "")
    assert first.locator(".score-value").count() == 0  # no bare number on the card
    first.get_by_role("button", name="why").click()
    lead = first.locator(".why-lead")
    sync_api.expect(lead).to_contain_text(f"{grades[0]} confidence")
    assert first.locator(".why-lead .score-value").inner_text().startswith("0.")
    # Every card, the weaker ones too, names its band.
    if page.locator("#results-more").is_visible():
        page.locator("#results-more").click()
    cards = page.locator("#results .result")
    assert [c.locator(".band").inner_text() for c in cards.all()] == grades[: cards.count()]
    tab.shot("user-confidence-1280", full_page=False)
    assert tab.errors == []
