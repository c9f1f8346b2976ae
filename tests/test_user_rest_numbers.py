"""A body holding an integer of thousands of digits (a fuzzer's, or a client's bug) was answered "There was an
error parsing the body", naming no field and no problem, on every JSON route; MCP names it. It is refused as too
long a number, as problem+json like every refusal, and nothing is stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.clients import api  # noqa: F401 (a fixture)

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("method", "route", "body"),
    [
        ("POST", "/v1/search", '{"query": "x", "options": {"limit": %s}}'),
        ("POST", "/v1/store", '{"content": "a note", "context": {"force_importance": %s}}'),
        ("PATCH", "/v1/memories/abc", '{"importance": %s}'),
        ("POST", "/api/remember", '{"content": "a note", "importance": %s}'),
    ],
)
def test_a_number_of_thousands_of_digits_is_named_as_such(
    api: TestClient,  # noqa: F811
    method: str,
    route: str,
    body: str,
) -> None:
    answer = api.request(method, route, content=body % HUGE, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["field"] == "body" and problem["code"] == "invalid_input", problem
    assert "digits" in problem["detail"], problem
    assert api.get("/v1/stats").json()["memories"] == 0
