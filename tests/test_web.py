"""The web UI (engram/web) in a real headless Chromium, against a real server on a loopback port.

One server and one browser per module; each test gets a fresh page and fails on any console error it did not
expect. Screenshots of every step land in tests/screenshots/ (rewritten on each run). Needs Debian's chromium
at /usr/bin/chromium and the `playwright` package (no browser download: it drives the system Chromium)."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from engram import FakeEmbedder, Settings
from engram.embed.embedder import Embedder
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import LOCAL, Keys

CHROMIUM = Path("/usr/bin/chromium")
# Injected into a page: whether an added script or inline handler runs, and what the policy refused.
INJECT = """() => new Promise((done) => {
  const refused = [];
  document.addEventListener("securitypolicyviolation", (e) => refused.push(e.violatedDirective));
  const script = document.createElement("script");
  script.textContent = "window.injected = 'script';";
  document.body.appendChild(script);
  const holder = document.createElement("div");
  holder.innerHTML = '<img src="data:," onerror="window.injected = \\'handler\\'">';
  document.body.appendChild(holder);
  setTimeout(() => done({ran: window.injected || null, refused}), 500);
})"""
SHOTS = Path(__file__).resolve().parent / "screenshots"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"
)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="needs the playwright package (pip install -e '.[dev]')"
)

SEED = [
    "I prefer dark mode in all my editors and terminals",
    "The deploy script lives in ops/deploy.sh and needs the staging AWS credentials",
    "Meeting with Sarah on Friday about the search roadmap",
    "Python asyncio tasks must be awaited or kept referenced, otherwise they get garbage collected",
    "Remember to renew the TLS certificate before March 15",
    "Use ruff for linting and mypy for type checks in every Python project",
    "The deploy pipeline for Python services runs ruff before the tests",
]
OLDER = [  # created in the past, so the timeline spans several days
    ("Kicked off the Engram project: local-first memory for agents", 9),
    ("Chose SQLite with a usearch index as the default store", 6),
    ("Benchmarked recall on the LongMemEval sample", 6),
    ("Added the REST API and the MCP server", 3),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`engram serve` in a thread: REST, MCP and the web UI in one app, the fake embedder (or `embedder`), a
    few old memories in the local tenant (none without `seed`); with `require_key`, an empty store behind API
    keys."""

    def __init__(
        self, home: Path, *, require_key: bool = False, seed: bool = True, embedder: Embedder | None = None
    ) -> None:
        app = build_app(
            Settings(home=home),
            db=home / "ui.db",
            embedder=embedder or FakeEmbedder(),
            require_key=require_key,
        )
        if seed and not require_key:
            mem = app.state.tenants.memory(LOCAL)
            now = datetime.now(UTC)
            for content, days in OLDER:
                mem.remember(content, created_at=now - timedelta(days=days))
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        for text in SEED:
            c.post("/v1/store", json={"content": text}).raise_for_status()
        yield c


class Tab:
    """A fresh page on the UI that records console errors and uncaught exceptions."""

    def __init__(self, browser: Any, url: str, width: int = 1280, height: int = 860) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce"
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        self.url = url

    def open(self, view: str = "search") -> Any:
        self.page.goto(f"{self.url}/#{view}")
        self.page.wait_for_selector("body[data-ready='1']")
        return self.page

    def shot(self, name: str, full_page: bool = True) -> None:
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


@pytest.fixture
def tab(browser: Any, server: Server, client: httpx.Client) -> Iterator[Tab]:
    t = Tab(browser, server.url)
    yield t
    t.context.close()


def until(page: Any, expression: str, timeout_s: float = 10) -> None:
    """Wait until `expression` is true in the page. Not page.wait_for_function: its polling evaluates a string,
    which the UI's Content-Security-Policy (no 'unsafe-eval') refuses."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s} s: {expression}")
        page.wait_for_timeout(50)


def _memory_id(client: httpx.Client, needle: str) -> str:
    rows = client.get("/v1/memories", params={"limit": 100}).json()["memories"]
    return str(next(r["id"] for r in rows if needle in r["content"]))


def test_page_loads_without_console_errors(tab: Tab) -> None:
    page = tab.open()
    page.wait_for_selector("#browse-list .mem-item")
    assert page.title() == "Engram"
    assert page.locator("#browse-list .mem-item").count() == len(SEED) + len(OLDER)
    assert page.locator("#tab-search").get_attribute("aria-selected") == "true"
    sync_api.expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    # "/" focuses the search box from anywhere on the page.
    page.locator("#tab-stats").focus()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    # Every control in the sidebar and search form is a real button or form field with a name.
    for button in page.locator("button:visible").all():
        name = button.get_attribute("aria-label") or button.inner_text().strip()
        assert name, button.evaluate("b => b.outerHTML")
    tab.shot("01-load")
    assert tab.errors == []


def test_search_shows_component_bars(tab: Tab) -> None:
    page = tab.open()
    page.keyboard.press("/")
    page.keyboard.type("deploy python ruff")
    page.keyboard.press("Enter")
    page.wait_for_selector("#results .result")
    results = page.locator("#results .result:visible")
    assert results.count() >= 1  # graded by the server: a low-confidence match waits behind "show weaker"
    first = results.first
    assert "deploy" in first.inner_text().lower() or "ruff" in first.inner_text().lower()
    first.get_by_role("button", name="why").click()
    components = [c.get_attribute("data-component") for c in first.locator(".comp").all()]
    assert components == ["vector", "lexical", "importance", "recency", "usage", "context", "episode", "time"]
    # The bars are drawn to their values: the lexical bar of the best hit is not empty.
    lexical = first.locator(".comp[data-component='lexical'] .comp-fill")
    assert float(lexical.evaluate("e => parseFloat(e.style.width)")) > 0
    assert re.fullmatch(r"\d\.\d{3}", first.locator(".score-value").inner_text())
    status = page.locator("#search-status").inner_text()
    assert status.startswith(f"{results.count()} result")
    tab.shot("02-search")
    assert tab.errors == []


def test_edit_memory_tags_and_importance(tab: Tab, client: httpx.Client) -> None:
    target = _memory_id(client, "renew the TLS certificate")
    page = tab.open()
    page.locator("#browse-list .mem-item button.linklike", has_text="renew the TLS certificate").click()
    page.wait_for_selector("#detail[open]")
    assert page.locator("#d-content").input_value().startswith("Remember to renew")
    tab.shot("03-detail", full_page=False)

    # An error from the API is shown with the field it names.
    page.locator("#d-tags").fill("certs, " + "x" * 70)
    page.locator("#d-save").click()
    page.wait_for_selector("#detail-error:not([hidden])")
    assert "tags" in page.locator("#detail-error").inner_text()
    assert page.locator("#d-tags").get_attribute("aria-invalid") == "true"
    assert page.locator("#err-tags").is_visible()
    tab.shot("04-detail-error", full_page=False)

    page.locator("#d-tags").fill("certs, Ops Reminders")
    page.locator("#d-importance").fill("0.75")
    page.locator("#d-important").check()
    page.locator("#d-kind").select_option("task")
    page.locator("#d-save").click()
    page.wait_for_selector("#detail-form[data-saved]")
    record = client.get(f"/v1/memories/{target}").json()
    assert record["tags"] == ["certs", "ops-reminders"]
    assert record["importance"] == 0.75
    assert record["user_marked_important"] is True
    assert record["kind"] == "task"
    assert page.locator("#detail-error").is_hidden()
    assert page.locator("#d-tags").input_value() == "certs, ops-reminders"

    # Invalidate sets validity_score to 0 at once.
    page.locator("#d-invalidate").click()
    sync_api.expect(page.locator("#d-invalidate")).to_have_text("Restore validity")
    assert client.get(f"/v1/memories/{target}").json()["validity_score"] == 0
    tab.shot("05-detail-saved", full_page=False)
    page.keyboard.press("Escape")
    page.wait_for_selector("#detail", state="hidden")
    # The list shows the edit without a reload.
    item = page.locator(f"#browse-list [data-id='{target}']")
    assert "ops-reminders" in item.inner_text() and "invalidated" in item.inner_text()
    # The only console errors are the browser's own report of the deliberate 400.
    assert all("400" in e for e in tab.errors), tab.errors


def test_review_queue_approve(tab: Tab, client: httpx.Client) -> None:
    pending = _memory_id(client, "Meeting with Sarah")
    other = _memory_id(client, "dark mode")
    for memory_id in (pending, other):
        client.patch(f"/v1/memories/{memory_id}", json={"status": "pending"}).raise_for_status()
    page = tab.open("review")
    page.wait_for_selector("#review-list .review-item")
    sync_api.expect(page.locator("#review-badge")).to_have_text("2")
    card = page.locator(f"#review-list [data-id='{pending}']")
    # Edit first, then approve.
    card.get_by_role("button", name="Edit").click()
    card.locator("textarea").fill("Meeting with Sarah on Friday about the search roadmap and the web UI")
    card.get_by_role("button", name="Save").click()
    sync_api.expect(card.locator(".content")).to_have_text(re.compile("web UI$"))
    tab.shot("06-review")
    card.get_by_role("button", name="Approve").click()
    page.wait_for_selector(f"#review-list [data-id='{pending}']", state="detached")
    record = client.get(f"/v1/memories/{pending}").json()
    assert record["status"] == "approved"
    assert record["content"].endswith("web UI")
    page.locator(f"#review-list [data-id='{other}']").get_by_role("button", name="Reject").click()
    page.wait_for_selector("#review-list .empty")
    assert client.get(f"/v1/memories/{other}").json()["status"] == "rejected"
    sync_api.expect(page.locator("#review-badge")).to_be_hidden()
    tab.shot("07-review-empty")
    client.patch(f"/v1/memories/{other}", json={"status": "approved"}).raise_for_status()
    assert tab.errors == []


def test_timeline_chart_renders(tab: Tab, client: httpx.Client) -> None:
    page = tab.open("timeline")
    page.wait_for_selector("#timeline-chart[data-ready='1']")
    timeline = client.post("/v1/tools/memory_timeline", json={"arguments": {"granularity": "day"}}).json()
    total = timeline["total"]
    drawn = page.evaluate("engramUI.chart.data.datasets[0].data")
    assert sum(drawn) == total
    assert len(drawn) == 10  # nine days ago to today, empty days filled in
    box = page.locator("#timeline-chart").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200
    assert page.locator("#periods details").count() == 4
    tab.shot("08-timeline")
    page.get_by_role("button", name="Month").click()
    until(page, "engramUI.chart && engramUI.chart.data.labels.length >= 1")
    assert page.locator("#granularity [aria-pressed='true']").inner_text() == "Month"
    assert tab.errors == []


def test_concept_network_renders_nodes(tab: Tab, client: httpx.Client) -> None:
    network = client.post("/v1/tools/concept_network", json={"arguments": {}}).json()
    page = tab.open("concepts")
    page.wait_for_selector("#graph[data-ready='1'] canvas")
    assert page.evaluate("engramUI.cy.nodes().length") == len(network["nodes"]) > 0
    assert page.evaluate("engramUI.cy.edges().length") > 0
    # Node size follows usage: the most used concept is drawn at least as big as the least used.
    sizes = page.evaluate("engramUI.cy.nodes().map(n => [n.data('usage'), n.width()])")
    assert max(sizes)[1] >= min(sizes)[1]
    # Zoom works from the toolbar; a concept picked from the list shows its memories.
    before = page.evaluate("engramUI.cy.zoom()")
    page.get_by_role("button", name="Zoom in").click()
    assert page.evaluate("engramUI.cy.zoom()") > before
    first = network["nodes"][0]["id"]
    page.locator(f"#concept-list button[data-concept='{first}']").click()
    page.wait_for_selector("#concept-memories .linklike")
    assert page.locator("#concept-name").inner_text() == first
    assert page.evaluate(f"engramUI.cy.getElementById('{first}').selected()")
    tab.shot("09-concepts", full_page=False)
    assert tab.errors == []


def test_stats_and_add_memory(tab: Tab, client: httpx.Client) -> None:
    before = client.get("/v1/stats").json()["memories"]
    page = tab.open("stats")
    page.wait_for_selector("#kpis .kpi")
    assert str(before) in page.locator("#kpis").inner_text()
    assert page.locator("#stat-grid .stat-card").count() >= 4
    tab.shot("10-stats")
    page.keyboard.press("n")
    page.wait_for_selector("#add[open]")
    page.locator("#a-content").fill("The web UI lives in engram/web and is served at /")
    page.locator("#a-tags").fill("web-ui")
    page.locator("#a-save").click()
    page.wait_for_selector("#add-result:not([hidden])")
    assert "Remembered" in page.locator("#add-result").inner_text()
    tab.shot("11-add", full_page=False)
    assert client.get("/v1/stats").json()["memories"] == before + 1
    assert client.get("/v1/memories", params={"tag": "web-ui"}).json()["memories"]
    assert tab.errors == []


def test_narrow_window_has_no_horizontal_scroll(browser: Any, server: Server, client: httpx.Client) -> None:
    tab = Tab(browser, server.url, width=375, height=812)
    try:
        page = tab.open()
        page.locator("#q").fill("python")
        page.locator("#q").press("Enter")
        page.wait_for_selector("#results .result")
        overflow = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        assert page.evaluate(overflow) <= 0
        tab.shot("12-narrow-search")
        for view, ready in [
            ("review", "#review-list li"),
            ("timeline", "#timeline-chart[data-ready='1']"),
            ("concepts", "#graph[data-ready='1']"),
            ("stats", "#kpis .kpi"),
        ]:
            page.locator(f"#tab-{view}").click()
            page.wait_for_selector(ready)
            assert page.evaluate(overflow) <= 0, view
            tab.shot(f"13-narrow-{view}")
        page.locator("#tab-search").click()
        page.locator("#results .result button.linklike").first.click()
        page.wait_for_selector("#detail[open]")
        assert page.evaluate(overflow) <= 0
        drawer = page.locator("#detail").bounding_box()
        assert drawer is not None and drawer["width"] <= 375
        tab.shot("14-narrow-detail", full_page=False)
        assert tab.errors == []
    finally:
        tab.context.close()


def test_asks_for_an_api_key_when_the_server_wants_one(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    home = tmp_path_factory.mktemp("keyed")
    guarded = Server(home, require_key=True)
    keys = Keys(home / "keys.db")
    try:
        secret = keys.create("alice", "web")[1]
    finally:
        keys.close()
    tab = Tab(browser, guarded.url)
    try:
        page = tab.open()
        page.wait_for_selector("#keydlg[open]")
        tab.shot("15-api-key", full_page=False)
        page.locator("#k-secret").fill(secret)
        page.locator("#k-secret").press("Enter")
        # Alice's store is empty: the welcome card offers examples, stored with her key.
        page.wait_for_selector("#welcome:not([hidden])")
        assert page.locator("#keydlg").is_hidden()
        sync_api.expect(page.locator("#conn-text")).to_contain_text("key set")
        page.get_by_role("button", name="Load examples").click()
        page.wait_for_selector("#browse-list .mem-item")
        assert page.locator("#welcome").is_hidden()
        with httpx.Client(base_url=guarded.url, headers={"Authorization": f"Bearer {secret}"}) as alice:
            stored = alice.get("/v1/stats").json()["memories"]
        assert stored == page.locator("#browse-list .mem-item").count() > 0
        assert all("401" in e for e in tab.errors), tab.errors
    finally:
        tab.context.close()
        guarded.stop()


def test_a_memory_holding_personal_data_says_so(tab: Tab, client: httpx.Client) -> None:
    client.post(
        "/v1/store", json={"content": "The gym card on file is 4111 1111 1111 1111"}
    ).raise_for_status()
    page = tab.open()
    item = page.locator("#browse-list .mem-item", has_text="gym card")
    chip = item.locator(".chip.pii")
    sync_api.expect(chip).to_have_text("personal data")
    assert chip.get_attribute("title") == "Holds personal data: card"
    assert page.locator("#browse-list .chip.pii").count() == 1  # the other memories hold none
    assert tab.errors == []


# ---- defects found by QA in a real browser --------------------------------------------------------------------
# A save held back in the page until the test lets it go: fetch is wrapped so /v1/store waits for release().
HOLD_STORE = """() => {
  const real = window.fetch;
  window.held = [];
  window.fetch = (url, opts) => String(url).includes("/v1/store")
    ? new Promise((done) => window.held.push(() => done(real(url, opts))))
    : real(url, opts);
  window.release = () => window.held.splice(0).forEach((go) => go());
}"""
LONG = " ".join(
    f"Greenhouse irrigation log {i}: the drip valves on bench {i} open at dawn and the sensors read soil moisture."
    for i in range(60)
)


def _search(page: Any, query: str) -> None:
    page.locator("#q").fill(query)
    page.locator("#q").press("Enter")
    sync_api.expect(page.locator("#search-status")).to_contain_text(query)


def test_a_late_save_keeps_what_was_typed_since(tab: Tab, client: httpx.Client) -> None:
    page = tab.open()
    page.evaluate(HOLD_STORE)
    page.locator("#add-open").click()
    page.locator("#a-content").fill("Race note A: the boiler is serviced every October")
    page.locator("#a-save").click()
    until(page, "window.held.length === 1")
    # The user closes the dialog while A is saving, opens it again and writes B.
    page.keyboard.press("Escape")
    page.wait_for_selector("#add", state="hidden")
    page.locator("#add-open").click()
    page.locator("#a-content").fill("Race note B: the chimney sweep comes in May")
    page.evaluate("release()")
    page.wait_for_selector("#a-save:not([disabled])")
    page.wait_for_selector("#add-result:not([hidden])")
    assert page.locator("#a-content").input_value() == "Race note B: the chimney sweep comes in May"
    page.locator("#a-save").click()
    until(page, "window.held.length === 1")
    page.evaluate("release()")
    sync_api.expect(page.locator("#a-content")).to_have_value("")
    _memory_id(client, "Race note A")
    _memory_id(client, "Race note B")
    assert tab.errors == []


def test_add_form_forgets_its_overrides_after_a_save(tab: Tab, client: httpx.Client) -> None:
    page = tab.open()
    page.locator("#add-open").click()
    page.locator("#a-content").fill("Override note: the fire alarm test is on the first Monday")
    page.locator("#a-importance").select_option("5")
    page.locator("#a-category").select_option("system")
    page.locator("#a-tags").fill("alarm")
    page.locator("#a-save").click()
    page.wait_for_selector("#add-result:not([hidden])")
    for field in ["#a-content", "#a-importance", "#a-category", "#a-tags"]:
        assert page.locator(field).input_value() == "", field
    page.locator("#a-content").fill("Plain note: the bakery on the corner opens at seven")
    page.locator("#a-save").click()
    sync_api.expect(page.locator("#a-content")).to_have_value("")
    plain = client.get(f"/v1/memories/{_memory_id(client, 'Plain note')}").json()
    assert "overridden" not in (plain["metadata"] or {})
    assert tab.errors == []


def test_search_shows_one_card_per_memory(tab: Tab, client: httpx.Client) -> None:
    stored = client.post("/v1/store", json={"content": LONG}).json()
    parent = stored["memory_id"]
    page = tab.open()
    _search(page, "greenhouse irrigation drip valves soil moisture")
    page.locator("#results-more").click()  # the weaker matches too: the test is about every card
    cards = page.locator("#results .result")
    assert cards.count() == 10  # the list still fills once asked: more than 10 memories are stored
    owners = [c.get_attribute("data-parent") or c.get_attribute("data-id") for c in cards.all()]
    assert len(set(owners)) == len(owners)
    assert parent in owners
    # The card of a chunk opens the whole memory, never the chunk.
    chunk_card = page.locator(f"#results .result[data-parent='{parent}']")
    assert "Part " in chunk_card.inner_text()
    chunk_card.locator("button.linklike").click()
    page.wait_for_selector("#detail[open]")
    assert page.locator("#d-content").input_value() == LONG
    page.locator("#detail .facts summary").click()
    assert parent in page.locator("#d-facts").inner_text()
    tab.shot("16-search-chunks")
    page.keyboard.press("Escape")
    page.wait_for_selector("#detail", state="hidden")
    client.delete(f"/v1/memories/{parent}").raise_for_status()
    assert tab.errors == []


def test_searching_does_not_count_as_use(tab: Tab, client: httpx.Client) -> None:
    target = _memory_id(client, "dark mode")
    before = client.get(f"/v1/memories/{target}").json()
    page = tab.open()
    _search(page, "dark mode editors terminals")
    sync_api.expect(page.locator(f"#results [data-id='{target}']")).to_have_count(1)
    after = client.get(f"/v1/memories/{target}").json()
    assert after["access_count"] == before["access_count"]
    assert after["last_accessed_at"] == before["last_accessed_at"]
    assert tab.errors == []


def test_a_query_nothing_matches_says_so(tab: Tab) -> None:
    page = tab.open()
    _search(page, "qwertyuiop asdfgh")
    status = page.locator("#search-status").inner_text()
    assert status.startswith("No strong match for “qwertyuiop asdfgh”"), status
    assert page.locator("#results .result:visible").count() == 0  # no padding with unrelated memories
    page.locator("#results-more").click()  # the closest memories are there on request
    assert page.locator("#results .result:visible").count() > 0
    assert page.locator("#results .result").first.locator(".pill.weak").inner_text() == "weak"
    tab.shot("17-search-weak")
    assert tab.errors == []


def test_drawer_asks_before_dropping_unsaved_edits(tab: Tab, client: httpx.Client) -> None:
    target = _memory_id(client, "deploy script lives")
    original = client.get(f"/v1/memories/{target}").json()["content"]
    asked: list[str] = []
    answers: list[bool] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if answers.pop(0):
            dialog.accept()
        else:
            dialog.dismiss()

    page = tab.open()
    page.on("dialog", answer)
    item = page.locator(f"#browse-list [data-id='{target}'] button.linklike")
    # Untouched, it closes at once.
    item.click()
    page.wait_for_selector("#detail[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#detail", state="hidden")
    assert asked == []
    item.click()
    page.wait_for_selector("#detail[open]")
    page.locator("#d-content").fill("An edit not saved yet")
    answers.extend([False, False, True])
    page.keyboard.press("Escape")
    page.locator("#detail .drawer-head [data-close]").click()
    assert len(asked) == 2
    assert page.locator("#detail").is_visible()
    assert page.locator("#d-content").input_value() == "An edit not saved yet"
    page.mouse.click(20, 400)  # the backdrop, left of the drawer
    page.wait_for_selector("#detail", state="hidden")
    assert len(asked) == 3 and "unsaved" in asked[0]
    assert client.get(f"/v1/memories/{target}").json()["content"] == original
    assert tab.errors == []


def test_back_and_refresh_keep_the_tab_and_query(tab: Tab) -> None:
    page = tab.open()
    _search(page, "deploy")
    assert page.url.endswith("#search?q=deploy")
    page.locator("#tab-stats").click()
    page.wait_for_selector("#kpis .kpi")
    assert page.url.endswith("#stats")
    page.go_back()
    sync_api.expect(page.locator("#tab-search")).to_have_attribute("aria-selected", "true")
    assert page.locator("#q").input_value() == "deploy"
    assert page.locator("#results .result").count() > 0
    page.go_forward()
    sync_api.expect(page.locator("#tab-stats")).to_have_attribute("aria-selected", "true")
    page.go_back()
    sync_api.expect(page.locator("#tab-search")).to_have_attribute("aria-selected", "true")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#q").input_value() == "deploy"
    sync_api.expect(page.locator("#search-status")).to_contain_text("for “deploy”")
    assert page.locator("#results .result").count() > 0
    assert tab.errors == []


def test_review_count_follows_each_decision(tab: Tab, client: httpx.Client) -> None:
    ids = [_memory_id(client, "asyncio tasks"), _memory_id(client, "Use ruff for linting")]
    for memory_id in ids:
        client.patch(f"/v1/memories/{memory_id}", json={"status": "pending"}).raise_for_status()
    page = tab.open("review")
    sync_api.expect(page.locator("#review-status")).to_have_text("2 pending memories.")
    page.locator(f"#review-list [data-id='{ids[0]}']").get_by_role("button", name="Approve").click()
    sync_api.expect(page.locator("#review-status")).to_have_text("1 pending memory.")
    sync_api.expect(page.locator("#review-badge")).to_have_text("1")
    client.patch(f"/v1/memories/{ids[1]}", json={"status": "approved"}).raise_for_status()
    assert tab.errors == []


def test_an_expired_memory_is_marked(tab: Tab, client: httpx.Client) -> None:
    target = _memory_id(client, "Benchmarked recall")
    client.patch(f"/v1/memories/{target}", json={"expires_at": "2000-01-01T00:00:00Z"}).raise_for_status()
    try:
        page = tab.open()
        item = page.locator(f"#browse-list [data-id='{target}']")
        sync_api.expect(item.locator(".chip.expired")).to_have_text("expired")
        assert page.locator("#browse-list .chip.expired").count() == 1
        item.locator("button.linklike").click()
        page.wait_for_selector("#detail[open]")
        expiry = page.locator("#d-expiry")
        sync_api.expect(expiry).to_be_visible()
        assert expiry.inner_text().startswith("Expired") and "2000" in expiry.inner_text()
        tab.shot("18-detail-expired", full_page=False)
        assert tab.errors == []
    finally:
        client.patch(f"/v1/memories/{target}", json={"expires_at": None}).raise_for_status()


def test_an_empty_store_says_it_is_empty(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    empty = Server(tmp_path_factory.mktemp("empty"), seed=False)
    tab = Tab(browser, empty.url)
    try:
        page = tab.open()
        sync_api.expect(page.locator("#browse-list .empty")).to_have_text(
            "No memories stored yet: add one with “Add memory”."
        )
        page.locator("#f-status").select_option("rejected")
        sync_api.expect(page.locator("#browse-list .empty")).to_have_text("No memories match these filters.")
        assert tab.errors == []
    finally:
        tab.context.close()
        empty.stop()


def test_add_memory_offers_to_replace_the_older_version_of_a_fact(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, model: Embedder
) -> None:
    # The real model: which older memory a new one updates rests on how close the two are in meaning.
    real = Server(tmp_path_factory.mktemp("updates"), seed=False, embedder=model)
    tab = Tab(browser, real.url)
    try:
        with httpx.Client(base_url=real.url, timeout=120) as api:  # the first store loads the model
            old = api.post("/v1/store", json={"content": "Dentist appointment on 3 May at 10am"})
            old_id = old.json()["memory_id"]
            page = tab.open()
            page.wait_for_selector(f"#browse-list [data-id='{old_id}']")
            suggestions = page.locator("#add-result .update")
            old_superseded = page.locator(f"#browse-list [data-id='{old_id}'] .chip.status-superseded")

            def status(memory_id: str) -> str:
                return str(api.get(f"/v1/memories/{memory_id}").json()["status"])

            # An unrelated memory updates nothing: no suggestion.
            page.locator("#add-open").click()
            page.locator("#a-content").fill("The library closes early on public holidays")
            with page.expect_response("**/v1/store") as stored:
                page.locator("#a-save").click()
            assert stored.value.json()["recommendations"]["suggested_updates"] == []
            sync_api.expect(page.locator("#add-result")).to_contain_text("Remembered")
            sync_api.expect(suggestions).to_have_count(0)

            # The same appointment moved: the older memory is offered for replacing, its text and date shown.
            page.locator("#a-content").fill("The dentist appointment moved to 5 May at 10am")
            with page.expect_response("**/v1/store") as stored:
                page.locator("#a-save").click()
            new_id = stored.value.json()["memory_id"]
            sync_api.expect(suggestions).to_have_count(1)
            suggestion = suggestions.first
            old_text = suggestion.locator(".update-old")
            sync_api.expect(suggestion.locator(".update-lead")).to_have_text(
                "This may update an older memory:"
            )
            sync_api.expect(old_text).to_have_text("Dentist appointment on 3 May at 10am")
            before = api.get(f"/v1/memories/{old_id}").json()
            assert suggestion.locator("time").get_attribute("datetime") == before["created_at"]
            assert before["status"] == "approved"  # nothing is replaced unasked
            replace = suggestion.get_by_role("button", name="Replace it")
            assert replace.get_attribute("aria-describedby") == old_text.get_attribute("id")
            tab.shot("19-add-suggests-update", full_page=False)

            replace.click()
            sync_api.expect(suggestion.locator(".update-done")).to_have_text(
                "Replaced: the older memory is now superseded."
            )
            sync_api.expect(suggestion.locator(".update-done")).to_be_focused()
            older = api.get(f"/v1/memories/{old_id}").json()
            assert older["status"] == "superseded" and older["metadata"]["merged_into"] == new_id
            assert status(new_id) == "approved"
            sync_api.expect(old_superseded).to_be_visible()  # the browse list under the dialog follows
            tab.shot("20-add-replaced", full_page=False)

            # Undo, from the toast, while the dialog is still open.
            note = page.locator(".toast", has_text="The older memory is now superseded.")
            note.get_by_role("button", name="Undo").click()
            sync_api.expect(page.locator(".toast", has_text="the older memory is back")).to_be_visible()
            sync_api.expect(replace).to_be_focused()
            assert status(old_id) == status(new_id) == "approved"
            sync_api.expect(old_superseded).to_have_count(0)
            assert page.locator("#add").is_visible()
        assert tab.errors == []
    finally:
        tab.context.close()
        real.stop()
