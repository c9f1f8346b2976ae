"""What reaches the server before any route reads it: bytes that are no UTF-8 (refused as "a number of more than
4300 digits"), an object giving a key twice (Python keeps the last copy, a proxy or a gateway may have checked
the first), a body sent compressed or as a form (the parser's words on raw bytes came back), a query parameter
given twice (the last copy won, silently), and a path whose `%0a` wrote a line of the caller's choosing into the
server's log. Each is refused naming what is wrong, or written harmlessly, and nothing is stored."""

from __future__ import annotations

import gzip
import json
import logging

import pytest
from fastapi.testclient import TestClient

from engram.interfaces.http.access import RequestLog
from engram.interfaces.mcp.stdio import INVALID_REQUEST, Refused, checked
from tests.clients import api  # noqa: F401 (a fixture)

JSON = {"content-type": "application/json"}


def _stored(api: TestClient) -> int:  # noqa: F811
    return len(api.get("/v1/memories").json()["memories"])


def test_bytes_that_are_no_utf8_are_refused_as_such(api: TestClient) -> None:  # noqa: F811
    answer = api.post("/v1/store", content=b'{"content": "caf\xe9 on Fridays"}', headers=JSON)
    assert answer.status_code == 400
    assert answer.json()["field"] == "body" and "not UTF-8" in answer.json()["detail"]
    assert "digits" not in answer.json()["detail"]
    assert _stored(api) == 0


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        (
            "/v1/store",
            '{"content": "the deploy runs on Fridays", "content": "rm -rf the backups"}',
            "content",
        ),
        (
            "/v1/tools/forget_by_tag",
            '{"arguments": {"tag": "scratch", "tag": "work", "confirm": true}}',
            "arguments.tag",
        ),
        (
            "/api/remember",
            '{"content": "a note", "metadata": {"owner": "a", "owner": "b"}}',
            "metadata.owner",
        ),
    ],
)
def test_a_key_given_twice_is_refused_naming_it(api: TestClient, route: str, body: str, field: str) -> None:  # noqa: F811
    api.post("/v1/store", json={"content": "Work laptop is the grey ThinkPad"})
    answer = api.post(route, content=body.encode(), headers=JSON)
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == field and "twice" in answer.json()["detail"]
    assert [m["content"] for m in api.get("/v1/memories").json()["memories"]] == [
        "Work laptop is the grey ThinkPad"
    ]


def test_a_key_given_twice_over_mcp_http_is_a_jsonrpc_error(api: TestClient) -> None:  # noqa: F811
    line = '{"jsonrpc": "2.0", "id": 1, "method": "ping", "method": "tools/list"}'
    answer = api.post("/mcp", content=line.encode(), headers=JSON | {"accept": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == -32600 and "method" in answer.json()["error"]["message"]


def test_a_key_given_twice_over_stdio_is_refused_with_the_request_id() -> None:
    line = (
        '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "store_memory",'
        ' "arguments": {"content": "first", "content": "second"}}}'
    )
    with pytest.raises(Refused) as refused:
        checked(line.encode())
    assert refused.value.code == INVALID_REQUEST and refused.value.request_id == 7
    assert "params.arguments.content is given twice" in str(refused.value)
    with pytest.raises(Refused) as no_id:
        checked(b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "ping"}')
    assert no_id.value.request_id is None and "id is given twice" in str(no_id.value)
    passed = checked(b'{"jsonrpc": "2.0", "id": 3, "method": "ping"}')
    assert json.loads(passed.text)["id"] == 3 and passed.awaited == "3"


@pytest.mark.parametrize(
    ("headers", "field"),
    [
        ({"content-type": "text/plain"}, "content-type"),
        ({"content-type": "application/x-www-form-urlencoded"}, "content-type"),
        ({"content-type": "application/json", "content-encoding": "gzip"}, "content-encoding"),
        ({"content-type": "application/json", "content-encoding": "br"}, "content-encoding"),
    ],
)
def test_a_body_that_is_not_plain_json_is_refused_naming_the_header(
    api: TestClient,  # noqa: F811
    headers: dict[str, str],
    field: str,
) -> None:
    body = json.dumps({"content": "the standup moved to 10am"}).encode()
    if headers.get("content-encoding") == "gzip":
        body = gzip.compress(body)
    answer = api.post("/v1/store", content=body, headers=headers)
    assert answer.status_code == 415, answer.text
    assert answer.json()["field"] == field and "b'" not in answer.json()["detail"]
    assert _stored(api) == 0


@pytest.mark.parametrize(
    "media", ["application/json", "application/json; charset=utf-8", "application/x+json"]
)
def test_json_bodies_are_still_read(api: TestClient, media: str) -> None:  # noqa: F811
    body = json.dumps({"content": f"note sent as {media}"}).encode()
    assert api.post("/v1/store", content=body, headers={"content-type": media}).status_code == 200


@pytest.mark.parametrize(
    "query", ["limit=5&limit=7", "with_embeddings=true&with_embeddings=false", "kind=note&kind=task"]
)
def test_a_query_parameter_given_twice_is_refused_naming_it(api: TestClient, query: str) -> None:  # noqa: F811
    route = "/v1/export" if "embeddings" in query else "/v1/memories"
    answer = api.get(f"{route}?{query}")
    assert answer.status_code == 400
    assert answer.json()["field"] == query.split("=")[0] and "twice" in answer.json()["detail"]
    assert api.get(f"{route}?{query.split('&')[0]}").status_code == 200


def test_a_line_break_in_a_path_cannot_forge_a_log_line(
    api: TestClient,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="engram.requests")
    logged = TestClient(RequestLog(api.app), base_url="http://127.0.0.1:8765")  # as `engram serve` runs it
    logged.get("/v1/memories/abc%0d%0a2026-01-01 00:00:00 INFO DELETE /v1/memories/all 200 1 ms")
    lines = [r.getMessage() for r in caplog.records if r.name == "engram.requests"]
    assert len(lines) == 1 and "\n" not in lines[0] and "\r" not in lines[0]
    assert "abc\\r\\n2026-01-01" in lines[0]


def test_an_argument_under_another_name_is_named_before_the_one_missing(api: TestClient) -> None:  # noqa: F811
    kept = api.post("/v1/store", json={"content": "Work laptop is the grey ThinkPad"}).json()["memory_id"]
    answer = api.post("/v1/tools/update_memory", json={"arguments": {"memory_id": kept, "tags": ["laptop"]}})
    assert answer.status_code == 400
    assert answer.json()["field"] == "memory_id", answer.json()


def test_a_body_with_two_lengths_is_refused_and_the_connection_closed(api: TestClient) -> None:  # noqa: F811
    body = json.dumps({"content": "the deploy runs on Fridays"}).encode()
    headers = JSON | {"content-length": str(len(body)), "transfer-encoding": "chunked"}
    answer = api.post("/v1/store", content=body, headers=headers)
    assert answer.status_code == 400 and answer.json()["field"] == "transfer-encoding"
    assert answer.headers["connection"] == "close"
    assert _stored(api) == 0
