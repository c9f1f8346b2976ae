"""The web UI's own policy, enforced by Debian's Chromium rather than read from its headers: a script and an inline
handler put into the page (as a payload would, had any markup got in) do not run and are reported as refused; a
page that frames the UI (clickjacking) gets no UI in its frame; and a document whose Markdown holds
raw HTML and every spelling of a script link renders (the UI's only HTML sink) with no element, attribute or link
that could run anything."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web import CHROMIUM, INJECT, Server, Tab, until

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")


DOC = "\n".join(
    [
        "# Notes <svg onload=window.pwned=1>",
        "",
        "<script>window.pwned=2</script>",
        "",
        '<div onmouseover="window.pwned=3">raw block</div>',
        "",
        "inline <b onclick=window.pwned=4>bold</b> and <iframe src=javascript:window.pwned=5></iframe>",
        "",
        "[a](javascript:window.pwned=6) [b](JaVaScRiPt:window.pwned=7) [c](java&#115;cript:window.pwned=8)",
        "[d](&#x6A;avascript:window.pwned=9) [e](vbscript:msgbox) [f](data:text/html,<script>x</script>)",
        '[g](https://example.com/ "t\\" onmouseover=\\"window.pwned=10") <javascript:window.pwned=11>',
        '[h][r] and ![i](x" onerror="window.pwned=12) and [j](file:///etc/passwd)',
        "",
        "[r]: javascript:window.pwned=13",
        "",
        "| <img src=x onerror=window.pwned=14> | `<script>` |",
        "|:--|--:|",
        "| cell | [k](javascript:window.pwned=15) |",
    ]
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-frames"), seed=False)
    yield running
    running.stop()


def test_a_script_put_into_the_page_is_refused_and_reported(browser: Any, server: Server) -> None:
    tab = Tab(browser, server.url)
    try:
        tab.open("search")
        outcome = tab.page.evaluate(INJECT)
        assert outcome["ran"] is None
        assert {"script-src-elem", "script-src-attr"} <= set(outcome["refused"])
    finally:
        tab.context.close()


def test_a_page_framing_the_ui_gets_none_of_it(browser: Any, server: Server) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        # Served as if from the server itself (this Chromium refuses another local origin's subresources from
        # loopback before any header is read): the UI's headers alone refuse the frame, even to its own origin.
        site = f"{server.url}/framing.html"
        framing = f'<html><body><iframe id=f src="{server.url}/#search" width=800 height=600></iframe></body></html>'
        page.route(site, lambda route: route.fulfill(status=200, content_type="text/html", body=framing))
        answers: list[int] = []
        page.on("response", lambda r: answers.append(r.status) if r.url.rstrip("/") == server.url else None)
        page.goto(site)
        page.wait_for_timeout(1500)
        assert answers == [200], "the frame asked the server"
        inner = [f for f in page.frames if f is not page.main_frame]
        assert len(inner) == 1
        # Chromium shows its own error page in place of a frame its headers refuse: none of the UI is there.
        assert not inner[0].url.startswith(server.url)
        assert inner[0].locator("#q").count() == 0
    finally:
        context.close()


def test_a_hostile_document_renders_with_nothing_that_runs(browser: Any, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=900) as c:  # the first write loads the classifiers
        stored = c.post("/v1/store", json={"content": DOC})
        assert stored.status_code == 200, stored.text
        doc = stored.json()["memory_id"]
    tab = Tab(browser, server.url)
    tab.context.add_init_script(
        "window.__violations = [];"
        'document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));'
    )
    dialogs: list[str] = []
    try:
        page = tab.open("search")
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.locator(f"#browse-list [data-id='{doc}'] button.linklike").click()
        page.wait_for_selector("#detail[open]")
        until(page, "document.querySelector('#d-rendered h1') !== null")
        rendered = page.locator("#d-rendered")
        for link in rendered.locator("a").all():  # hovering and clicking every link it made
            link.hover()
        page.wait_for_timeout(300)
        found = page.evaluate(
            """() => {
              const root = document.querySelector('#d-rendered');
              const all = Array.from(root.querySelectorAll('*'));
              return {
                tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))],
                handlers: all.flatMap((e) => Array.from(e.attributes).map((a) => a.name))
                  .filter((n) => n.startsWith('on') || n === 'style' || n === 'src' || n === 'srcdoc'),
                hrefs: Array.from(root.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')),
              };
            }"""
        )
        assert not {"script", "svg", "iframe", "img", "object", "embed", "style", "form", "div", "b"} & set(
            found["tags"]
        ), found["tags"]
        assert found["handlers"] == []
        assert found["hrefs"] and all(h.startswith(("https://", "http://", "#")) for h in found["hrefs"]), (
            found
        )
        assert "window.pwned=2" in rendered.inner_text()  # raw HTML shown as the text it is
        assert page.evaluate("window.pwned") is None and dialogs == []
        assert page.evaluate("window.__violations") == []
        assert tab.errors == []
    finally:
        tab.context.close()
