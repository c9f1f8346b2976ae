"""The web UI's add form given a tag that looks like another (Cyrillic letters in "payment"): the error is shown
beside the form naming the tags field, in the page's own words, and nothing is stored. Run in Chromium."""

from __future__ import annotations

from typing import Any

import httpx

from tests.test_web import Server, Tab, client, server, tab  # noqa: F401 (fixtures)

SPOOFED = "\u0440\u0430yment"


def test_the_add_form_shows_a_look_alike_tag_refused(tab: Tab, client: httpx.Client) -> None:  # noqa: F811
    before = client.get("/v1/stats").json()["memories"]
    page: Any = tab.open("stats")
    page.wait_for_selector("#kpis .kpi")
    page.keyboard.press("n")
    page.wait_for_selector("#add[open]")
    page.locator("#a-content").fill("The refund for the invoice went out on Monday")
    page.locator("#a-tags").fill(f"billing, {SPOOFED}")
    page.locator("#a-save").click()
    page.wait_for_selector("#add-error:not([hidden])")
    shown = page.locator("#add-error").inner_text()
    assert "tags" in shown and "Cyrillic" in shown, shown
    assert page.locator("#add-result").is_hidden()
    assert client.get("/v1/stats").json()["memories"] == before
    assert all("400" in e for e in tab.errors), tab.errors
