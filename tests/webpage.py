"""What the web UI's browser tests share: a server of their own on an empty store filled the way the test needs,
and the steps a person takes on the page again and again (asking in the search box, deleting the memory open in
the drawer)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from test_web import Server

from engram import Memory
from engram.interfaces.tenants import LOCAL

PHONE = (390, 844)  # a phone-wide window, for a module's WINDOW


@contextmanager
def serving(
    tmp_path_factory: pytest.TempPathFactory, name: str, *, notes: Sequence[str] = (), seed: bool = False
) -> Iterator[Server]:
    """A server of the test module's own (the few old memories only with `seed`), holding `notes` stored through
    the REST API in order, stopped afterwards."""
    running = Server(tmp_path_factory.mktemp(name), seed=seed)
    try:
        if notes:
            with httpx.Client(base_url=running.url, timeout=60) as c:
                for text in notes:
                    c.post("/v1/store", json={"content": text}).raise_for_status()
        yield running
    finally:
        running.stop()


def local_memory(server: Server) -> Memory:
    """The store behind the server's local tenant, to fill with what the REST API does not take in one call."""
    app: Any = server.server.config.app
    mem: Memory = app.state.tenants.memory(LOCAL)
    return mem


def graded(grades: Sequence[str]) -> Callable[[Any], None]:
    """A route handler for the search's recall that passes on the server's hits graded `grades` in order, the
    rest low, so that a test decides which hits wait behind "show weaker"."""

    def handle(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        for i, hit in enumerate(data["results"]):
            hit["confidence"] = grades[i] if i < len(grades) else "low"
        route.fulfill(response=response, json=data)

    return handle


def ask(page: Any, query: str) -> None:
    """Types the question into the search box and sends it."""
    page.locator("#q").fill(query)
    page.locator("#q").press("Enter")


def delete_open_memory(page: Any) -> None:
    """Deletes the memory open in the drawer, confirming with the second click, and waits for the drawer to close."""
    from playwright.sync_api import expect

    page.locator("#detail[open]").wait_for()
    page.locator("#d-delete").click()
    expect(page.locator("#d-delete")).to_have_text("Click again to delete")
    page.locator("#d-delete").click()
    page.locator("#detail").wait_for(state="hidden")
