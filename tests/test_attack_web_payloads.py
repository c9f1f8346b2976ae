"""Markup stored through every field the web UI shows, read back in Debian's Chromium: content, tags, metadata
(a document's title, a review reason, a note and a key), a search query echoed back, concept labels and the
history's operation summaries. No script of a payload may run (`window.__pwned` stays unset), no element of one
may appear, and the page's policy is never asked to block one (a blocked inline handler would mean the markup got
in). Every answer the browser loads carries the policy and frame headers, and a page of another site cannot make
the server change anything. One browser, one server, a handful of pages: bounded for a 2-core machine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web import CHROMIUM, Server, Tab, until

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")


def payload(n: int) -> str:
    return (
        f'<img src=x data-pwn onerror="window.__pwned={n}"><script>window.__pwned={n}</script>'
        f'"\'><svg data-pwn onload="window.__pwned={n}"></svg><a data-pwn href="javascript:window.__pwned={n}">x</a>'
    )


WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-payloads"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def hostile(server: Server) -> Iterator[dict[str, str]]:
    """Memories whose every shown field holds markup; the ids of the one a drawer opens and of the pending one."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        stored = c.post(
            "/v1/store",
            json={
                "content": f"Garden notes {payload(1)} about the roses and the greenhouse",
                "context": {"additional_tags": [payload(2)[:60], "roses"], "user_note": payload(4)},
            },
        )
        assert stored.status_code == 200, stored.text
        kept = stored.json()["memory_id"]
        titled = c.patch(
            f"/v1/memories/{kept}",
            json={"metadata": {"title": payload(3), "source_type": "file", payload(9)[:40]: payload(9)}},
        )
        assert titled.status_code == 200, titled.text
        waiting = c.post(
            "/v1/store", json={"content": f"Greenhouse heater {payload(5)} needs a check"}
        ).json()
        pending = waiting["memory_id"]
        c.patch(
            f"/v1/memories/{pending}",
            json={"status": "pending", "metadata": {"review_reason": payload(6)}},
        ).raise_for_status()
        tags = c.get("/v1/tags").json()
        odd = next(t["name"] for t in tags["tags"] if "img" in t["name"] or "pwn" in t["name"])
        renamed = c.post("/v1/tools/rename_tag", json={"old": odd, "new": payload(7)[:60]})
        assert renamed.status_code in (200, 400), renamed.text
        yield {"kept": kept, "pending": pending}


def _clean(tab: Tab, where: str) -> None:
    page = tab.page
    page.wait_for_timeout(300)  # an image's error or a frame's load fires after the view is drawn
    assert page.evaluate("window.__pwned") is None, where
    assert page.evaluate("document.querySelectorAll('[data-pwn], script:not([src])').length") == 0, where
    assert page.evaluate("window.__violations") == [], where


def test_no_payload_runs_or_appears_in_any_view(
    browser: Any, server: Server, hostile: dict[str, str]
) -> None:
    tab = Tab(browser, server.url)
    answers: list[Any] = []
    tab.context.add_init_script(WATCH)
    tab.page.on("response", lambda answer: answers.append(answer))
    try:
        for view in ("review", "timeline", "concepts", "tags", "data", "stats"):
            tab.open(view)
            tab.page.wait_for_load_state("networkidle")
            _clean(tab, view)
        page = tab.open("search?q=" + payload(8).replace("#", "%23"))
        page.wait_for_load_state("networkidle")
        _clean(tab, "echoed query")
        page = tab.open("search")
        page.locator(f"#browse-list [data-id='{hostile['kept']}'] button.linklike").click()
        page.wait_for_selector("#detail[open]")
        # The markup is shown as the text it is.
        until(page, "document.querySelector('#d-content').value.includes('window.__pwned=1')")
        _clean(tab, "drawer")
        assert tab.errors == []
        ours = [a for a in answers if a.url.startswith(server.url)]
        assert len(ours) > 10 and any(a.url.endswith(".js") for a in ours)
        for answer in ours:
            headers = answer.all_headers()
            assert headers.get("x-frame-options") == "DENY", answer.url
            assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), answer.url
            assert headers.get("x-content-type-options") == "nosniff", answer.url
    finally:
        tab.context.close()


def test_a_page_of_another_site_cannot_change_anything(browser: Any, server: Server) -> None:
    """A form with no fields posted from a page on another origin of this machine: a body-less POST, which no
    preflight stops and no media type check refuses (this Chromium keeps the page's fetches from the loopback
    address, but not a navigation)."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        before = c.get("/v1/audit", params={"limit": 100}).json()
    attack = (
        f'<html><body><form id=f method=POST action="{server.url}/v1/maintain"></form>'
        "<script>document.getElementById('f').submit();</script></body></html>"
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        site = f"http://localhost:{server.port + 1}/"
        page.route(site, lambda route: route.fulfill(status=200, content_type="text/html", body=attack))
        refused: list[int] = []
        page.on("response", lambda r: refused.append(r.status) if r.url.startswith(server.url) else None)
        page.goto(site)
        page.wait_for_url(f"{server.url}/**", timeout=15_000)
        page.wait_for_load_state("load")
    finally:
        context.close()
    with httpx.Client(base_url=server.url, timeout=30) as c:
        after = c.get("/v1/audit", params={"limit": 100}).json()
    assert after == before  # a maintenance pass is in the audit log
    assert refused == [403]
