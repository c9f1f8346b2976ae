"""/docs (Swagger UI) had frame and sniff headers but no Content-Security-Policy, as FastAPI's page starts the UI
from an inline script: a script injected into the page (through a description the UI renders, an extension)
would run with the page's origin, next to the API it can call. The page is now ours, with every script loaded
from a file, and runs under the web UI's policy. In Debian's Chromium: the UI renders every route, and a script
injected into it is refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web import CHROMIUM, INJECT, Server, Tab

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("docs"), seed=False)
    yield running
    running.stop()


def test_docs_page_is_served_under_a_policy_without_inline_scripts(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        page = c.get("/docs")
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert page.headers["x-frame-options"] == "DENY"
        assert "<script>" not in page.text  # each script is a file the policy allows
        start = c.get("/docs/start.js")
        assert start.status_code == 200 and start.headers["content-type"].startswith("text/javascript")


def test_swagger_ui_renders_and_an_injected_script_is_refused(browser: Any, server: Server) -> None:
    tab = Tab(browser, server.url)
    try:
        page = tab.page
        page.goto(f"{server.url}/docs")
        page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
        assert "Engram" in page.inner_text(".swagger-ui .info .title")
        assert page.locator(".swagger-ui .opblock").count() > 20  # every route listed
        page.locator(".swagger-ui .opblock-summary").first.click()  # an operation opens, as a reader does
        page.wait_for_selector(".swagger-ui .opblock-body")
        assert not [e for e in tab.errors if "Content Security Policy" in e or "uncaught" in e], tab.errors
        outcome = page.evaluate(INJECT)
        assert outcome["ran"] is None, outcome
        assert "script-src-elem" in outcome["refused"] or "script-src" in outcome["refused"], outcome
        assert "script-src-attr" in outcome["refused"] or "script-src" in outcome["refused"], outcome
    finally:
        tab.context.close()


def test_the_page_escapes_where_it_reads_the_api_from() -> None:
    from engram.interfaces.http.docs import swagger_page

    page = swagger_page('E"><script>alert(1)</script>', '/x"><script>alert(2)</script>', '/r"><b')
    assert "<script>alert" not in page and "<b" not in page.replace("<body", "")
    assert 'data-spec="/x&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"' in page


def test_redoc_renders_under_its_policy_and_an_injected_script_is_refused(
    browser: Any, server: Server
) -> None:
    """ReDoc had no policy either. Its scripts are files; it writes its styles into the page and searches in a
    worker started from a blob, which its policy allows, and nothing else."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        csp = c.get("/redoc").headers["content-security-policy"]
    assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
    tab = Tab(browser, server.url)
    try:
        page = tab.page
        page.goto(f"{server.url}/redoc")
        page.wait_for_selector("h1", timeout=30_000)
        assert "Engram" in page.inner_text("h1")
        assert page.locator("[data-section-id^='operation/']").count() > 20  # every route listed
        # ReDoc's footer asks its CDN for a logo: refused (the pages use no network), and all that is refused
        refused = [e for e in tab.errors if "Content Security Policy" in e or "uncaught" in e]
        assert all("Loading the image 'https://cdn.redoc.ly/" in e for e in refused), refused
        outcome = page.evaluate(INJECT)
        assert outcome["ran"] is None, outcome
        assert outcome["refused"], outcome
    finally:
        tab.context.close()
