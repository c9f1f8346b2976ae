"""A Host header is a name and, perhaps, a port of digits: "127.0.0.1:8765.evil.com" and "[::1].evil.com" were read
as the loopback names they start with and served in local mode."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from engram.interfaces.http.guard import host_name
from tests.clients import api  # noqa: F401 (a fixture)


@pytest.mark.parametrize(
    ("host", "name"),
    [
        ("127.0.0.1:8765", "127.0.0.1"),
        ("LOCALHOST", "localhost"),
        ("[::1]:8765", "::1"),
        ("127.0.0.1:8765.evil.com", "127.0.0.1:8765.evil.com"),
        ("[::1].evil.com", "[::1].evil.com"),
        ("[::1]:80x", "[::1]:80x"),
    ],
)
def test_a_host_is_a_name_and_a_port_of_digits(host: str, name: str) -> None:
    assert host_name(host) == name


@pytest.mark.parametrize("host", ["127.0.0.1:8765.evil.com", "[::1].evil.com", "localhost:1x"])
def test_a_host_that_only_starts_with_a_loopback_name_is_refused(api: TestClient, host: str) -> None:  # noqa: F811
    assert api.get("/v1/stats", headers={"host": host}).status_code == 421
    assert api.get("/v1/stats", headers={"host": "127.0.0.1:8765"}).status_code == 200
