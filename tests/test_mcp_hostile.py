"""`engram mcp` over stdio given a request whose id no JSON-RPC request may carry (a fraction, null, a boolean, an
object, a list). The SDK read such a line as a notification, which is never answered: the agent waited for its
own timeout. A message with a method and an id is a request, and a bad id is answered with an error whose id is
null, as JSON-RPC says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engram.interfaces.mcp.stdio import INVALID_REQUEST, Refused, checked
from tests.test_mcp_stdio_robust import Server

BAD_IDS: dict[str, Any] = {"fraction": 1.5, "null": None, "boolean": True, "object": {"a": 1}, "list": [1]}


def _line(request_id: Any, method: str = "tools/list") -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method}).encode()


@pytest.mark.parametrize("request_id", list(BAD_IDS.values()), ids=list(BAD_IDS))
def test_a_request_with_an_id_no_request_carries_is_refused(request_id: Any) -> None:
    with pytest.raises(Refused) as caught:
        checked(_line(request_id))
    assert caught.value.code == INVALID_REQUEST and caught.value.request_id is None
    assert "id" in str(caught.value)


def test_a_response_from_the_client_is_not_answered_whatever_its_id() -> None:
    """A client answers the server's own requests; an error it could not tie to one carries a null id."""
    raw = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
    passed = checked(raw.encode())
    assert json.loads(passed.text)["error"]["code"] == -32700 and passed.awaited is None


def test_each_is_answered_over_stdio_and_the_server_goes_on(tmp_path: Path) -> None:
    server = Server(tmp_path / "stdio.db", tmp_path / "home")
    try:
        server.initialize()
        for name, request_id in BAD_IDS.items():
            answer = server.send(_line(request_id))
            assert answer["id"] is None and answer["error"]["code"] == INVALID_REQUEST, (name, answer)
        assert server.send(_line(2, "ping"))["result"] == {}
    finally:
        server.close()
