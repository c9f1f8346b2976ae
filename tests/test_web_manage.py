"""The web UI's compact search, review reasons and bulk decisions, tag management, export/import with the
operations history, rendered documents, and every page at 1440 and 390 px, in Debian's Chromium.

Each test here fails without the change it covers. One server per module (the fake embedder) with the seed of
tests/test_web.py, plus memories a conversation ingest queued for review."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web import CHROMIUM, SEED, Server, Tab, until
from webpage import graded

from engram import Memory
from engram.embed.embedder import Embedder
from engram.interfaces.http.manage import render_markdown
from engram.interfaces.tenants import LOCAL

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

XSS_DOC = (
    "# Restore runbook\n\n"
    "1. Stop the server.\n2. Run `engram backup restore`.\n\n"
    "| step | minutes |\n|:--|--:|\n| stop | 1 |\n| restore | 5 |\n\n"
    '<img src=x onerror="window.pwned=1">\n\n'
    "[click me](javascript:window.pwned=2) and [the docs](https://example.com/docs)\n"
)
CHAT = [
    {
        "role": "user",
        "content": "My email is sam.jones@example.com and my phone is +44 20 7946 0958.",
        "conversation_id": "c1",
    },
    {
        "role": "user",
        "content": "I think we might switch the queue to Redis streams at some point.",
        "conversation_id": "c1",
    },
]


def _memory(server: Server) -> Memory:
    app: Any = server.server.config.app
    mem: Memory = app.state.tenants.memory(LOCAL)
    return mem


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-manage"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        for text in SEED:
            c.post("/v1/store", json={"content": text}).raise_for_status()
        yield c


@pytest.fixture
def tab(browser: Any, server: Server, client: httpx.Client) -> Iterator[Tab]:
    t = Tab(browser, server.url)
    yield t
    t.context.close()


def _id(client: httpx.Client, needle: str, status: str | None = None) -> str:
    params: dict[str, Any] = {"limit": 100} | ({"status": status} if status else {})
    rows = client.get("/v1/memories", params=params).json()["memories"]
    return str(next(r["id"] for r in rows if needle in r["content"]))


def _search(page: Any, query: str) -> None:
    page.locator("#q").fill(query)
    page.locator("#q").press("Enter")
    sync_api.expect(page.locator("#search-status")).to_contain_text(query)


# ---- search ---------------------------------------------------------------------------------------------------
def test_results_are_one_line_each_with_the_breakdown_behind_why(tab: Tab) -> None:
    page = tab.open()
    _search(page, "deploy script staging credentials")
    first = page.locator("#results .result:visible").first
    assert first.locator(".comp").count() == 0  # no score bars until asked
    box = first.bounding_box()
    assert box is not None and box["height"] < 100, box  # a line of content and a line of facts
    content = first.locator(".linklike .clamp")
    assert content.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
    why = first.get_by_role("button", name="why")
    assert why.get_attribute("aria-expanded") == "false"
    why.click()
    assert why.get_attribute("aria-expanded") == "true"
    components = [c.get_attribute("data-component") for c in first.locator(".comp").all()]
    assert components == ["vector", "lexical", "importance", "recency", "usage", "context", "episode", "time"]
    lexical = first.locator(".comp[data-component='lexical'] .comp-fill")
    assert float(lexical.evaluate("e => parseFloat(e.style.width)")) > 0
    assert "cosine" in first.locator(".raw").inner_text()
    why.click()
    assert first.locator(".why-panel").is_hidden()
    assert tab.errors == []


def test_results_far_below_the_best_wait_behind_a_control(tab: Tab) -> None:
    page = tab.open()

    def ungraded(route: Any) -> None:  # a server that grades no hit: the page falls back on the scores
        response = route.fetch()
        data = response.json()
        for hit in data["results"]:
            hit.pop("confidence", None)
        route.fulfill(response=response, json=data)

    page.route("**/v1/recall", ungraded)
    with page.expect_response("**/v1/recall") as answer:
        _search(page, "deploy script staging credentials")
    scores = [h["score"] for h in answer.value.json()["results"]]
    best = max(scores)
    visible = page.locator("#results .result:visible")
    hidden = page.locator("#results .result:not(:visible)")
    shown = visible.count()
    assert 0 < shown < 10 and hidden.count() > 0
    for card in visible.all():
        assert float(card.locator(".score-value").inner_text()) >= best * 0.5
    for card in hidden.all():
        assert float(card.locator(".score-value").inner_text()) < best * 0.5
    more = page.locator("#results-more")
    weaker = hidden.count()
    sync_api.expect(more).to_have_text(f"Show {weaker} weaker match{'es' if weaker > 1 else ''}")
    assert page.locator("#search-status").inner_text().startswith(f"{shown} result")
    more.click()
    sync_api.expect(more).to_be_hidden()
    assert page.locator("#results .result:visible").count() == shown + weaker
    assert page.locator("#results .result:visible .pill.weak").count() == weaker
    assert tab.errors == []


def test_low_confidence_results_are_hidden_when_the_server_grades_them(tab: Tab) -> None:
    page = tab.open()
    # the third hit is shown although the second, scored higher, is not
    page.route("**/v1/recall", graded(["high", "low", "medium"]))
    _search(page, "python ruff mypy")
    visible = page.locator("#results .result:visible")
    sync_api.expect(visible).to_have_count(2)
    assert [c.get_attribute("data-rank") for c in visible.all()] == ["1", "3"]
    total = page.locator("#results .result").count()
    page.locator("#results-more").click()
    sync_api.expect(page.locator("#results .result:visible")).to_have_count(total)
    second = page.locator("#results .result[data-rank='2']")
    assert second.locator(".pill.weak").is_visible()
    second.get_by_role("button", name="why").click()
    assert "low confidence" in second.locator(".why-lead").inner_text()
    assert tab.errors == []


# ---- defects ---------------------------------------------------------------------------------------------------
def test_adding_a_memory_shows_no_null(tab: Tab, client: httpx.Client) -> None:
    page = tab.open()
    page.locator("#add-open").click()
    page.locator("#a-content").fill("The bike lock code is kept in the blue notebook")
    page.locator("#a-save").click()
    result = page.locator("#add-result")
    sync_api.expect(result).to_contain_text("Remembered")
    assert "null" not in result.inner_text()
    assert "null" not in result.evaluate("e => e.innerHTML")
    assert result.locator("[style]").count() == 0  # no inline style attribute: a strict CSP holds
    assert tab.errors == []


def test_personal_data_found_by_ingest_is_flagged(tab: Tab, server: Server, client: httpx.Client) -> None:
    _memory(server).ingest(CHAT)
    page = tab.open()
    item = page.locator("#browse-list .mem-item", has_text="sam.jones@example.com")
    chip = item.locator(".chip.pii")
    sync_api.expect(chip).to_have_text("personal data")
    assert chip.get_attribute("title") == "Holds personal data: email, phone"
    assert tab.errors == []


def test_timeline_labels_carry_the_full_year(tab: Tab) -> None:
    page = tab.open("timeline")
    page.wait_for_selector("#timeline-chart[data-ready='1']")
    labels = page.evaluate("engramUI.chart.data.labels")
    periods = page.locator("#periods .period-name").all_inner_texts()
    for label in [*labels, *periods]:
        assert re.search(r"\b\d{4}\b", label), label
        assert not re.search(r", \d{2}$", label), label
    page.get_by_role("button", name="Month").click()
    # The chart is redrawn for months: wait for a month's label, not merely any label with letters (a day's).
    until(page, "engramUI.chart && /^[A-Za-z]{3,} \\d{4}$/.test(engramUI.chart.data.labels[0])")
    assert all(re.fullmatch(r"[A-Za-z]{3,} \d{4}", x) for x in page.evaluate("engramUI.chart.data.labels"))
    assert tab.errors == []


# ---- review ----------------------------------------------------------------------------------------------------
def test_review_says_why_each_memory_waits(tab: Tab, server: Server, client: httpx.Client) -> None:
    mem = _memory(server)
    if not mem.list(status="pending", limit=5):
        mem.ingest(CHAT)
    page = tab.open("review")
    pii = page.locator("#review-list .review-item", has_text="sam.jones@example.com")
    sync_api.expect(pii.locator(".reason")).to_contain_text("personal data")
    assert "email" in pii.locator(".reason").inner_text()
    unsure = page.locator("#review-list .review-item", has_text="Redis streams")
    sync_api.expect(unsure.locator(".reason")).to_contain_text("confidence 0.50")
    # A memory the record says nothing about: what it needs, said plainly; the reason a writer gave, verbatim.
    plain = _id(client, "Use ruff for linting")
    given = _id(client, "asyncio tasks")
    client.patch(f"/v1/memories/{plain}", json={"status": "pending"}).raise_for_status()
    client.patch(
        f"/v1/memories/{given}",
        json={"status": "pending", "metadata": {"review_reason": "asked by the agent"}},
    ).raise_for_status()
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    sync_api.expect(page.locator(f"#review-list [data-id='{given}'] .reason")).to_have_text(
        "Waiting: asked by the agent"
    )
    sync_api.expect(page.locator(f"#review-list [data-id='{plain}'] .reason")).to_contain_text("approved")
    client.patch(f"/v1/memories/{plain}", json={"status": "approved"}).raise_for_status()
    client.patch(f"/v1/memories/{given}", json={"status": "approved"}).raise_for_status()
    assert tab.errors == []


def test_review_decides_on_many_at_once(tab: Tab, client: httpx.Client) -> None:
    ids = [_id(client, t) for t in ("dark mode", "Meeting with Sarah", "renew the TLS")]
    for memory_id in ids:
        client.patch(f"/v1/memories/{memory_id}", json={"status": "pending"}).raise_for_status()
    waiting = {r["id"] for r in client.get("/v1/memories", params={"status": "pending"}).json()["memories"]}
    page = tab.open("review")
    sync_api.expect(page.locator("#review-list .review-item")).to_have_count(len(waiting))
    approve = page.locator("#review-approve")
    assert approve.is_disabled()
    for memory_id in ids[:2]:
        page.locator(f"#review-list [data-id='{memory_id}'] .review-pick").check()
    sync_api.expect(approve).to_have_text("Approve 2")
    assert page.locator("#review-all").evaluate("e => e.indeterminate")
    tab.shot("21-review-bulk")
    with page.expect_response("**/v1/review") as answer:
        approve.click()
    assert answer.value.json()["reviewed"] == 2
    sync_api.expect(page.locator("#review-list .review-item")).to_have_count(len(waiting) - 2)
    assert [client.get(f"/v1/memories/{i}").json()["status"] for i in ids] == [
        "approved",
        "approved",
        "pending",
    ]
    # Undo puts both back in the queue.
    page.locator(".toast", has_text="Approved 2 memories").get_by_role("button", name="Undo").click()
    sync_api.expect(page.locator("#review-list .review-item")).to_have_count(len(waiting))
    # Select all, reject: the queue empties.
    page.locator("#review-all").check()
    sync_api.expect(page.locator("#review-reject")).to_have_text(f"Reject {len(waiting)}")
    page.locator("#review-reject").click()
    sync_api.expect(page.locator("#review-list .empty")).to_be_visible()
    assert {client.get(f"/v1/memories/{i}").json()["status"] for i in waiting} == {"rejected"}
    for memory_id in waiting:
        client.patch(f"/v1/memories/{memory_id}", json={"status": "approved"}).raise_for_status()
    assert tab.errors == []


# ---- tags ------------------------------------------------------------------------------------------------------
def test_tags_are_listed_with_counts_and_renamed(tab: Tab, client: httpx.Client) -> None:
    first = _id(client, "dark mode")
    second = _id(client, "Meeting with Sarah")
    client.patch(f"/v1/memories/{first}", json={"tags": ["ui-prefs", "editors"]}).raise_for_status()
    client.patch(f"/v1/memories/{second}", json={"tags": ["ui-preferences", "roadmap"]}).raise_for_status()
    counts = {t["name"]: t["count"] for t in client.get("/v1/tags").json()["tags"]}
    page = tab.open("tags")
    row = page.locator("#tag-list .tag-row[data-tag='ui-prefs']")
    sync_api.expect(row.locator(".n")).to_have_text(str(counts["ui-prefs"]))
    assert page.locator("#tag-list .tag-row").count() == len(counts)
    # Rename to a new name.
    row.get_by_role("button", name="Rename or merge ui-prefs").click()
    page.locator("#rename-ui-prefs").fill("interface-prefs")
    page.locator("#tag-list form").get_by_role("button", name="Rename").click()
    sync_api.expect(page.locator("#tag-list .tag-row[data-tag='interface-prefs']")).to_be_visible()
    assert client.get(f"/v1/memories/{first}").json()["tags"][0] == "interface-prefs"
    # Renaming to a tag that exists merges the two, and says so before.
    row = page.locator("#tag-list .tag-row[data-tag='interface-prefs']")
    row.get_by_role("button", name="Rename or merge interface-prefs").click()
    page.locator("#rename-interface-prefs").fill("ui-preferences")
    sync_api.expect(page.locator("#tag-list .rename-note")).to_contain_text("Merges into “ui-preferences”")
    tab.shot("22-tags-merge", full_page=False)
    page.locator("#tag-list form").get_by_role("button", name="Merge").click()
    merged = page.locator("#tag-list .tag-row[data-tag='ui-preferences'] .n")
    sync_api.expect(merged).to_have_text("2")
    sync_api.expect(page.locator("#tag-list .tag-row[data-tag='interface-prefs']")).to_have_count(0)
    assert "ui-preferences" in client.get(f"/v1/memories/{first}").json()["tags"]
    # One click undoes the merge.
    note = page.locator(".toast", has_text="merged into “ui-preferences” on 1 memory")
    note.get_by_role("button", name="Undo").click()
    sync_api.expect(page.locator("#tag-list .tag-row[data-tag='interface-prefs']")).to_be_visible()
    assert "interface-prefs" in client.get(f"/v1/memories/{first}").json()["tags"]
    assert tab.errors == []


def test_merge_preview_then_apply_and_undo_from_history(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, model: Embedder
) -> None:
    # The real model: which tags mean the same thing rests on their embeddings.
    real = Server(tmp_path_factory.mktemp("tag-merges"), seed=False, embedder=model)
    tab = Tab(browser, real.url)
    try:
        with httpx.Client(base_url=real.url, timeout=120) as api:  # the first store loads the model
            for text, tags in [
                ("Refactored the checkout form", ["js"]),
                ("Closures capture variables by reference", ["javascript"]),
                ("Cluster upgrades need a drain first", ["k8s", "kubernetes"]),
            ]:
                api.post("/v1/store", json={"content": text, "context": {"additional_tags": tags}})
            plan = api.post("/v1/tools/optimize_tags", json={"arguments": {"dry_run": True}}).json()
            assert ("js", "javascript") in {(m["tag"], m["into"]) for m in plan["merges"]}
            before = {t["name"] for t in api.get("/v1/tags").json()["tags"]}
            page = tab.open("tags")
            merges = page.locator("#merge-list .merge:has(.arrow)")
            sync_api.expect(merges).to_have_count(len(plan["merges"]))
            shown = {tuple(m.locator(".chip.tag").all_inner_texts()) for m in merges.all()}
            assert shown == {(m["tag"], m["into"]) for m in plan["merges"]}
            assert {
                t["name"] for t in api.get("/v1/tags").json()["tags"]
            } == before  # a preview changes nothing
            tab.shot("22-tags-preview", full_page=False)
            page.locator("#merge-apply").click()
            sync_api.expect(page.locator(".toast", has_text="Tags tidied")).to_be_visible()
            after = {t["name"] for t in api.get("/v1/tags").json()["tags"]}
            assert "js" not in after and "javascript" in after
            sync_api.expect(page.locator("#tag-list .tag-row[data-tag='js']")).to_have_count(0)
            # The operation is in the history, and undone from there.
            page.locator("#tab-data").click()
            op = page.locator("#history-list .op", has_text="Tags tidied").first
            sync_api.expect(op.locator(".op-status")).to_have_text("done")
            op.get_by_role("button", name=re.compile("^Undo")).click()
            sync_api.expect(op.locator(".op-status")).to_have_text("rolled back")
            assert {t["name"] for t in api.get("/v1/tags").json()["tags"]} == before
        assert tab.errors == []
    finally:
        tab.context.close()
        real.stop()


# ---- export, import ---------------------------------------------------------------------------------------------
def test_export_downloads_and_import_uploads_with_undo(
    tab: Tab, browser: Any, client: httpx.Client, tmp_path_factory: pytest.TempPathFactory
) -> None:
    stored = client.get("/v1/stats").json()["memories"]
    page = tab.open("data")
    with page.expect_download() as download:
        page.locator("#export-btn").click()
    path = Path(download.value.path())
    assert download.value.suggested_filename.startswith("engram-export-")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "shodh-memory+jsonl"
    assert len(lines) - 1 >= stored
    sync_api.expect(page.locator("#export-status")).to_contain_text(f"{len(lines) - 1} records")

    empty = Server(tmp_path_factory.mktemp("import-target"), seed=False)
    other = Tab(browser, empty.url)
    try:
        target = other.open("data")
        target.locator("#import-file").set_input_files(str(path))
        target.locator("#import-btn").click()
        status = target.locator("#import-status")
        sync_api.expect(status).to_contain_text("Imported")
        with httpx.Client(base_url=empty.url, timeout=20) as api:
            assert api.get("/v1/stats").json()["memories"] == stored
            op = target.locator("#history-list .op").first
            sync_api.expect(op).to_contain_text("Import")
            other.shot("23-data-imported")
            status.get_by_role("button", name="Undo import").click()
            sync_api.expect(status).to_have_text("Import undone.")
            assert api.get("/v1/stats").json()["memories"] == 0
        # A file that is not an export is refused, naming the line, and nothing is stored.
        bad = tmp_path_factory.mktemp("bad") / "notes.jsonl"
        bad.write_text('{"format": "shodh-memory+jsonl"}\nnot json\n', encoding="utf-8")
        target.locator("#import-file").set_input_files(str(bad))
        target.locator("#import-btn").click()
        sync_api.expect(status).to_contain_text("line 2")
        assert all("400" in e for e in other.errors), other.errors
    finally:
        other.context.close()
        empty.stop()
    assert tab.errors == []


# ---- documents --------------------------------------------------------------------------------------------------
def test_markdown_is_escaped_of_html_and_script_links() -> None:
    html = render_markdown(XSS_DOC)
    assert "<img" not in html and "&lt;img src=x onerror=" in html
    assert "javascript:" not in html.split("<a ")[-1].split(">")[0]
    assert 'href="javascript' not in html
    assert '<a href="https://example.com/docs">' in html
    assert "<table>" in html and 'class="align-right"' in html and "style=" not in html
    assert "<img" not in render_markdown("![tracker](https://example.com/pixel.png)")


def test_a_document_opens_rendered_and_safe(tab: Tab, client: httpx.Client) -> None:
    doc = client.post("/v1/store", json={"content": XSS_DOC}).json()["memory_id"]
    dialogs: list[str] = []
    page = tab.open()

    def refuse(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    page.locator(f"#browse-list [data-id='{doc}'] button.linklike").click()
    page.wait_for_selector("#detail[open]")
    rendered = page.locator("#d-rendered")
    sync_api.expect(rendered.locator("h1")).to_have_text("Restore runbook")
    assert rendered.locator("ol li").count() == 2 and rendered.locator("table td").count() == 4
    assert rendered.locator("img").count() == 0
    assert "<img src=x onerror" in rendered.inner_text()  # shown as the text it is
    assert rendered.locator("a[href^='javascript']").count() == 0
    link = rendered.get_by_role("link", name="the docs")
    assert (
        link.get_attribute("href") == "https://example.com/docs"
        and link.get_attribute("rel") == "noopener noreferrer"
    )
    assert page.evaluate("window.pwned") is None and dialogs == []
    width = page.locator("#detail").bounding_box()
    assert width is not None and width["width"] > 700  # a reading width, not the form's
    assert page.locator("#d-content").is_hidden()
    tab.shot("24-document", full_page=False)
    page.get_by_role("button", name="Edit text").click()
    assert page.locator("#d-content").is_visible() and page.locator("#d-content").input_value() == XSS_DOC
    assert page.locator("#d-content").evaluate("e => e.rows") >= 12
    assert tab.errors == []


# ---- every page, wide and narrow --------------------------------------------------------------------------------
# The shots of every page (tests/screenshots/page-*.png) are kept in the repository: rewritten only when asked,
# with ENGRAM_SHOTS=1, so that a test run leaves the working tree as it was.
KEEP_SHOTS = os.environ.get("ENGRAM_SHOTS") == "1"
PAGES = ["search", "review", "timeline", "concepts", "tags", "data", "stats"]
READY = {
    "search": "#results .result",
    "review": "#review-list li",
    "timeline": "#timeline-chart[data-ready='1']",
    "concepts": "#graph[data-ready='1'] canvas",
    "tags": "#tag-list .tag-row",
    "data": "#history-list li",
    "stats": "#kpis .kpi",
}


GUIDE = (
    "# Home network\n\nThe router is in the hall cupboard; the **admin page** is at `192.168.1.1`.\n\n"
    "## When the internet drops\n\n1. Restart the router.\n2. Check the fibre light.\n3. Call the provider.\n\n"
    "| device | address |\n|---|---|\n| printer | .20 |\n| NAS | .30 |\n"
)


@pytest.mark.parametrize("width", [1440, 390])
def test_every_page_fits_and_is_shot(browser: Any, server: Server, client: httpx.Client, width: int) -> None:
    waiting = [_id(client, t) for t in ("Meeting with Sarah", "renew the TLS")]
    for memory_id in waiting:
        client.patch(f"/v1/memories/{memory_id}", json={"status": "pending"}).raise_for_status()
    guide = client.post("/v1/store", json={"content": GUIDE}).json()["memory_id"]
    tab = Tab(browser, server.url, width=width, height=900)
    try:
        page = tab.open()
        for name in PAGES:
            page.locator(f"#tab-{name}").click()
            if name == "search":
                _search(page, "deploy python ruff")
            page.wait_for_selector(READY[name])
            page.wait_for_timeout(150)  # the chart's and the graph's first frame
            # Usable: nothing wider than the window, every tab on screen with its name.
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
            for t in page.locator("#tabs [role=tab]").all():
                box = t.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
                label = t.locator("span").first
                assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), label.inner_text()
            if KEEP_SHOTS:
                tab.shot(f"page-{name}-{width}")
        page.locator("#tab-search").click()
        page.locator("#results .result:visible button.linklike").first.click()
        page.wait_for_selector("#detail[open]")
        if KEEP_SHOTS:
            tab.shot(f"page-detail-{width}", full_page=False)
        page.keyboard.press("Escape")
        page.evaluate("id => engramUI.open(id)", guide)
        page.wait_for_selector("#d-rendered h1")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if KEEP_SHOTS:
            tab.shot(f"page-document-{width}", full_page=False)
        assert tab.errors == []
    finally:
        tab.context.close()
        for memory_id in waiting:
            client.patch(f"/v1/memories/{memory_id}", json={"status": "approved"}).raise_for_status()
