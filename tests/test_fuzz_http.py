"""Hostile requests over every REST route, generated: never a server error, every error problem+json.

Bodies are built as an attacker builds them (deep nesting, lone surrogates, NUL, 5,000-digit numbers, NaN, a
boolean where a number goes, huge strings, raw bytes that are no JSON), on the routes' own fields, on a local-mode
server (no keys, loopback names only) and in-process. A few hundred cases; bench/fuzz.py runs the long version."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fuzz import route_fields
from engram import FakeEmbedder, Settings
from engram.interfaces.http.serve import build_app

FIELDS = [
    "content", "query", "context", "options", "arguments", "metadata", "tags", "limit", "mode", "scope",
    "scope_id", "user_id", "workspace_id", "touch", "helpful", "type", "memory_type", "auto_ingest",
    "quality_weight", "quality_boost", "max_results", "time_horizon", "path", "action", "ids", "importance",
    "user_marked_important", "kind", "status", "credibility", "sequence_number", "memory_types", "profile",
]  # fmt: skip
hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        ["\ud800", "a\udfffb", "\x00", "../../etc/passwd", "/etc/passwd", "é" * 3, "'; DROP TABLE x;--"]
    ),
    st.sampled_from(["<script>alert(1)</script>", "x" * 5000, "\u202e", "NaN", "true", "0", "-1", "1e999"]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
    st.sampled_from([10**400, -(10**400)]),
)


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value] if levels % 2 else {"k": value}
    return value


values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | hostile_text, inner, max_size=4)
    ),
    max_leaves=12,
) | st.integers(min_value=30, max_value=2000).map(_deep)
bodies = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), values, max_size=6),
    st.fixed_dictionaries({"arguments": st.dictionaries(st.sampled_from(FIELDS), values, max_size=5)}),
    values,
)


def _encoded(body: Any) -> bytes:
    try:
        return json.dumps(body).encode()  # ensure_ascii: a lone surrogate travels as \\ud800; NaN as NaN
    except (ValueError, RecursionError):
        return b"[" * 3000


raw_bodies = st.one_of(
    bodies.map(_encoded),
    st.binary(max_size=200),
    st.sampled_from([b"", b"{", b'{"content": "\xff\xfe"}', b"[" * 100_000, b'{"a":' * 50_000, b"\x00" * 10]),
    st.sampled_from([b'{"limit": ' + b"9" * 5000 + b"}", b'{"arguments": {"limit": -' + b"9" * 5000 + b"}}"]),
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    home: Path = tmp_path_factory.mktemp("fuzz")
    app = build_app(
        Settings(home=home, maintain_every_minutes=0),
        db=home / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False) as c:
        assert (
            c.post("/v1/store", json={"content": "a first memory, so ids exist"}).status_code == 200
        )  # warm
        yield c


def _routes(client: TestClient) -> list[tuple[str, str]]:
    """Every (method, path) the OpenAPI document lists."""
    app: Any = client.app
    return sorted((m.upper(), path) for path, item in app.openapi()["paths"].items() for m in item)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_server_error_over_rest(client: TestClient, data: st.DataObject) -> None:
    method, template = data.draw(st.sampled_from(_routes(client)), label="route")
    path = template
    for name in ("memory_id", "name"):
        part = data.draw(
            st.sampled_from(["x", "%00", "..%2f..", "a" * 300, "%ED%A0%80", "remember"]), label=name
        )
        path = path.replace("{" + name + "}", part)
    query = data.draw(
        st.dictionaries(st.sampled_from([*FIELDS, "cursor", "offset", "tag"]), hostile_text, max_size=3)
    )
    own = route_fields(client.app).get((method, template), [])
    if method not in ("POST", "PATCH", "PUT"):
        body = b""
    elif own and data.draw(st.booleans(), label="its own fields"):  # past the field check, into the engine
        fields = data.draw(
            st.dictionaries(st.sampled_from(own), values, min_size=1, max_size=4), label="fields"
        )
        body = _encoded({"arguments": fields} if template.startswith("/v1/tools/") else fields)
    else:
        body = data.draw(raw_bodies, label="body")
    r = client.request(
        method, path, params=_plain(query), content=body, headers={"content-type": "application/json"}
    )
    assert r.status_code < 500, (method, path, body[:300], r.text[:300])
    if r.status_code >= 400:
        assert r.headers["content-type"].startswith("application/problem+json"), (method, path, r.text[:200])


def _plain(query: dict[str, str]) -> dict[str, str]:
    """A query string carries text; one that is no valid Unicode cannot even be sent."""
    return {k: v.encode("utf-8", "replace").decode() for k, v in query.items()}


HOSTILE = [
    "a\ud800b",
    _deep(300),
    10**400,
]  # the values that once answered 500: a lone surrogate, depth, size


def _required(client: TestClient) -> dict[tuple[str, str], dict[str, Any]]:
    """A minimal body each route accepts the shape of: its required fields, given as text."""
    from engram.agent.registry import TOOLS

    app: Any = client.app
    doc = app.openapi()
    schemas = doc["components"]["schemas"]
    tools = {t.name: [n for n, f in t.arguments.model_fields.items() if f.is_required()] for t in TOOLS}
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            refs = re.findall(r"#/components/schemas/(\w+)", json.dumps(op.get("requestBody") or {}))
            names = [n for ref in refs for n in schemas[ref].get("required", [])]
            tool = path.rsplit("/", 1)[1]
            if path.startswith("/v1/tools/") and tool in tools:
                out[(method.upper(), path)] = {"arguments": {n: "x" for n in tools[tool]}}
            else:
                out[(method.upper(), path)] = {n: "x" for n in names}
    return out


def test_every_field_of_every_route_takes_hostile_values(client: TestClient) -> None:
    """Each body field of each route, in turn, given each value that once broke a route: never a 5xx."""
    minimal = _required(client)
    for (method, template), own in sorted(route_fields(client.app).items()):
        path = template.replace("{memory_id}", "x").replace("{name}", "remember")
        for name in own:
            for value in HOSTILE:
                base = minimal[(method, template)]
                body = (
                    {"arguments": base["arguments"] | {name: value}}
                    if "arguments" in base
                    else base | {name: value}
                )
                r = client.request(
                    method, path, content=_encoded(body), headers={"content-type": "application/json"}
                )
                assert r.status_code < 500, (method, path, name, str(value)[:40], r.text[:300])
