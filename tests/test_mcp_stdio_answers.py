"""`engram mcp` over stdio knows which request each message it writes answers, read from the message's start (the
SDK's answers and its own refusals start alike), so the requests read and not yet answered are known: the server
ends only once every one of them is answered."""

from __future__ import annotations

import io
import json
from typing import Any

import anyio
import pytest
from mcp_types import ErrorData, JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse
from pydantic import BaseModel

from engram.interfaces.mcp import stdio
from engram.interfaces.mcp.stdio import answered, checked

IDS: list[Any] = [7, -5, 0, 2**62, "abc", "x/y", "", "é日", 'a"b', "\\", "\u2028", "\x7f", "\x01"]


def _sent(message: BaseModel) -> str:
    """`message` as the SDK's stdio transport writes it."""
    return message.model_dump_json(by_alias=True, exclude_unset=True)


@pytest.mark.parametrize("request_id", IDS, ids=repr)
def test_an_answer_is_known_by_the_id_its_request_was_read_with(request_id: Any) -> None:
    line = checked(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode())
    result = _sent(JSONRPCResponse(jsonrpc="2.0", id=request_id, result={"tools": [{"id": 1}]}))
    error = _sent(JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=-32601, message="no")))
    assert line.awaited is not None
    assert answered(result) == line.awaited
    assert answered(error) == line.awaited


def test_a_message_that_answers_no_request_answers_none() -> None:
    asked = _sent(JSONRPCRequest(jsonrpc="2.0", id=7, method="ping"))  # the server asking the client
    told = _sent(JSONRPCNotification(jsonrpc="2.0", method="notifications/message", params={"id": 7}))
    nobody = _sent(JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=-32700, message="Parse error")))
    assert answered(asked) is None and answered(told) is None
    assert answered(nobody) == "null"  # no request is read with a null id: nothing waits for it


def test_an_answer_written_otherwise_is_read_whole() -> None:
    assert answered('{"id": "é", "jsonrpc": "2.0", "result": {}}') == json.dumps("é")
    assert answered('{"result": {}, "jsonrpc": "2.0", "id": 7}') == "7"
    assert answered('{"method": "ping", "id": 7, "jsonrpc": "2.0"}') is None
    assert answered("no JSON") is None


def test_requests_answered_refused_or_cancelled_leave_none_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stdio, "DRAIN_SECONDS", 5)  # what is left waiting is waited for this long, then seen
    lines = [
        {"jsonrpc": "2.0", "id": "é", "method": "ping"},
        {"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"a": "\ud800"}},  # refused, with its id
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
    ]
    written = io.BytesIO()
    out = stdio._Out(written)
    handed: list[Any] = []

    async def serve() -> None:
        async for text in stdio._Lines(io.BytesIO(b"".join(_raw(m) for m in lines)), out):
            message = json.loads(text)
            handed.append(message.get("id"))
            if message.get("id") in (
                "é",
                4,
            ):  # answered as the SDK answers; 3 was cancelled before its answer
                answer = JSONRPCResponse(jsonrpc="2.0", id=message["id"], result={})
                await out.write(_sent(answer) + "\n")

    anyio.run(serve)
    assert handed == ["é", 3, None, 4]
    assert out.unanswered == set()
    refusal = [line for line in written.getvalue().splitlines() if b'"error"' in line]
    assert len(refusal) == 1 and refusal[0].startswith(b'{"jsonrpc":"2.0","id":9,"error":')


def _raw(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"
