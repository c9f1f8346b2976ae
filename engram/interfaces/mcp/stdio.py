"""MCP over stdio with every line checked before the SDK reads it: a line that is not a JSON-RPC message Engram
can serve is answered at once with a JSON-RPC error, and the server goes on with the next line.

The SDK's own transport decodes stdin with U+FFFD for invalid UTF-8 (so such text was stored as U+FFFD) and, on a
line it cannot read (malformed JSON, nesting deeper than its validator goes, a lone surrogate, an integer of
thousands of digits), logs the error and answers nothing, so the agent waited for its own timeout. Here each line
is decoded strictly, parsed once with bounds (`checked`), and only a message that passed is handed on; the SDK's
transport still runs the session, given these lines and a stdout shared with the error replies.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import AsyncIterator
from typing import Any, BinaryIO, NamedTuple

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp_types.methods import MONOLITH_REQUESTS
from pydantic import ValidationError

from engram.agent import refusal
from engram.interfaces.mcp.linescan import shape
from engram.model.jsonkeys import parse_marking, twice

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
MAX_LINE = 16 * 1024 * 1024  # bytes of one message
MAX_DEPTH = (
    64  # objects and arrays inside one message: a tool's arguments are bounded more tightly by the tool
)
# Values in one message: twice what the largest argument takes (metadata: 1,000,000 characters, 8 a value at the
# least), so only a line no tool could serve is refused, before parsing it and each walk over it cost seconds.
MAX_VALUES = 250_000
MAX_ID = 256  # characters of a string id: each answer repeats it
MAX_METHOD = 128  # characters of a method name: the SDK's "Method not found" quotes it whole
MAX_INTEGER = 2**63  # no argument or id needs more; a 5,000-digit one is refused before anything reads it
PARENT_CHECK_SECONDS = 0.5  # how often the client that started the server is looked for
DRAIN_SECONDS = 600  # how long requests still running are awaited once the client closed its input


class Refused(ValueError):
    def __init__(self, code: int, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code, self.request_id = code, request_id


class Checked(NamedTuple):
    """A line that passed: its text, the id (as JSON) of the request it makes that awaits an answer, and of the
    one it cancels (a cancelled request gets none)."""

    text: str
    awaited: str | None
    cancelled: str | None


def checked(raw: bytes) -> Checked:
    """The line, or Refused: invalid UTF-8, not JSON, nested too deep, a lone surrogate, a huge number, a key
    given twice in one object, or not a JSON-RPC message."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(PARSE_ERROR, f"Parse error: not UTF-8 (byte {exc.start})") from None
    built = shape(raw, MAX_DEPTH)  # before the parser: it would recurse as deep as the line nests
    if not built.paired:
        raise Refused(PARSE_ERROR, "Parse error: its brackets do not pair up (an object or array left open)")
    if built.depth > MAX_DEPTH:
        raise Refused(INVALID_REQUEST, f"Invalid request: nested deeper than {MAX_DEPTH} levels")
    if built.values > MAX_VALUES:
        raise Refused(INVALID_REQUEST, f"Invalid request: holds more than {MAX_VALUES:,} values")
    try:
        value = parse_marking(text)
    except (ValueError, RecursionError) as exc:  # a 5,000-digit integer is a ValueError too
        raise Refused(PARSE_ERROR, f"Parse error: {str(exc)[:120]}") from None
    repeated = twice(value)
    request_id = oversized(value) if repeated != "id" else None
    if problem := _unservable(value):
        raise Refused(INVALID_REQUEST, f"Invalid request: {problem}", request_id)
    if repeated is not None:  # the SDK reads the last copy; what checked the line may have read the first
        raise Refused(
            INVALID_REQUEST, f"Invalid request: {repeated} is given twice: send it once", request_id
        )
    one_message(text, value, request_id)
    awaited = json.dumps(request_id) if request_id is not None and "method" in value else None
    cancelled = None
    if value.get("method") == "notifications/cancelled" and isinstance(value.get("params"), dict):
        cancelled = json.dumps(value["params"].get("requestId"))
    return Checked(text, awaited, cancelled)


def one_message(text: str | bytes, value: Any, request_id: Any = None) -> None:
    """Refused unless the SDK reads `text` (parsed: `value`) as one JSON-RPC message. A batch is named as one:
    MCP has none since 2025-06-18, and the SDK's refusal (over HTTP with the code of bad params) quoted pydantic's
    four-model dump and pieces of every message in the array."""
    if isinstance(value, list):
        raise Refused(
            INVALID_REQUEST,
            "Invalid request: a batch (an array of messages) is not served: send each message on its own",
        )
    # No request was read from a message of the wrong shape, so, as JSON-RPC says, no id is answered: the "id"
    # of an object that is no request may be anything, and a client would take the error for that call's.
    if problem := _misshapen(value):
        raise Refused(INVALID_REQUEST, f"Invalid request: {problem}")
    if problem := _bad_params(value):
        raise Refused(INVALID_PARAMS, problem, request_id)
    try:
        types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except Exception as exc:  # the SDK's own validation: what it could not read it would not answer
        first = str(exc).splitlines()
        raise Refused(INVALID_REQUEST, f"Invalid request: {first[0] if first else 'not JSON-RPC'}") from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def oversized(value: Any) -> str | int | None:
    """The message's id (None when it has none usable), or Refused: a string id past MAX_ID characters (each
    answer repeats it) or a method name past MAX_METHOD (the SDK's "Method not found" quotes it whole)."""
    request_id = value.get("id") if isinstance(value, dict) else None
    if not isinstance(request_id, str | int) or isinstance(request_id, bool):
        if isinstance(value, dict) and "id" in value and "method" in value:
            # A request all the same: the SDK read it as a notification, which is never answered.
            given = "null" if request_id is None else _json_type(request_id)
            raise Refused(INVALID_REQUEST, f"Invalid request: id must be a string or an integer, not {given}")
        request_id = None
    if isinstance(request_id, str) and len(request_id) > MAX_ID:
        raise Refused(
            INVALID_REQUEST, f"Invalid request: an id of {len(request_id):,} characters (at most {MAX_ID})"
        )
    method = value.get("method") if isinstance(value, dict) else None
    if isinstance(method, str) and len(method) > MAX_METHOD:
        raise Refused(
            INVALID_REQUEST,
            f"Invalid request: no method has a name of {len(method):,} characters",
            request_id,
        )
    params = value.get("params") if isinstance(value, dict) else None
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if method == "tools/call" and arguments is not None and not isinstance(arguments, dict):
        # The SDK answered "Invalid request parameters" with nothing said about which.
        given = "a list" if isinstance(arguments, list) else type(arguments).__name__.replace("str", "text")
        raise Refused(INVALID_PARAMS, f"params.arguments: must be an object, got {given}", request_id)
    return request_id


def _misshapen(value: Any) -> str | None:
    """What makes `value` no JSON-RPC message, named by field (the SDK's refusal only counted its errors)."""
    if not isinstance(value, dict):
        return f"a message is a JSON object, not {_json_type(value)}"
    if value.get("jsonrpc") != "2.0":
        return 'jsonrpc: must be "2.0"'
    if "method" not in value:
        return None if "result" in value or "error" in value else "method: is missing"
    if not isinstance(value["method"], str):
        return f"method: must be text, not {_json_type(value['method'])}"
    params = value.get("params")
    if params is not None and not isinstance(params, dict):
        return f"params: must be an object, not {_json_type(params)}"
    return None


# The name pydantic gives a member of a union in an error's location ("str", "int"): no field's.
UNION_MEMBER = re.compile(r"(str|int|float|bool|bytes|[a-z-]+\[.*\])", re.DOTALL)


def _bad_params(value: dict[str, Any]) -> str | None:
    """The first field of a request's params that MCP's model of its method refuses, named: the SDK answered
    "Invalid request parameters" alone (a log level, a resource's uri, a cursor, a progress token of the wrong
    type), so an agent could not tell what to send instead. A notification is never answered; a method MCP
    does not have is the SDK's to answer."""
    model = MONOLITH_REQUESTS.get(value.get("method", ""))
    if model is None or "id" not in value:
        return None
    body = {"method": value["method"]} | (
        {"params": value["params"]} if value.get("params") is not None else {}
    )
    try:
        model.model_validate(body, by_name=False)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and UNION_MEMBER.fullmatch(p)))
        where = refusal.path(loc) or "params"
        return f"{where}: {refusal.problem({**error, 'loc': loc}, refusal.path(loc[:-1]), 'a field')}"
    return None


def _json_type(value: Any) -> str:
    names = {
        bool: "a boolean",
        float: "a fraction",
        dict: "an object",
        list: "a list",
        str: "text",
        int: "a number",
    }
    found = (name for kind, name in names.items() if isinstance(value, kind))
    return next(found, "null" if value is None else type(value).__name__)


def _unservable(value: Any) -> str | None:
    """A lone surrogate in a string or key (no UTF-8 can carry it: storing or answering it fails), or an integer
    past MAX_INTEGER."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return "a string holds a lone surrogate (\\ud800-\\udfff), which is not text"
        elif isinstance(item, bool | float) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) >= MAX_INTEGER:
                return f"an integer of {len(str(abs(item)))} digits is out of range"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


# How every message written here starts: the SDK dumps its models' fields in order, compactly, and `_refuse`
# writes the same way. Group 1 is the id, group 2 what follows it ("method" for a request or a notification).
_SENT = re.compile(r'\{"jsonrpc":"2\.0",(?:"id":(-?\d+|"(?:[^"\\]|\\.)*"|null),)?"(result|error|method)":')
_PLAIN = re.compile(r'-?\d+|"[ !#-\[\]-~]*"')  # an id written alike by the SDK and by json.dumps


def answered(text: str) -> str | None:
    """The id (as JSON, as `checked` gives it) of the request the message `text` answers; None if it answers
    none. Read from the message's start: a whole answer (a tool's result, the tool list) is not parsed again."""
    start = _SENT.match(text)
    if start is None:  # no message of the SDK's or ours
        try:
            sent = json.loads(text)
        except ValueError:
            return None
        return json.dumps(sent.get("id")) if isinstance(sent, dict) and "method" not in sent else None
    found = start[1]
    if start[2] == "method" or found is None:
        return None
    # json.dumps escapes all but printable ASCII; the SDK writes text as is
    return found if _PLAIN.fullmatch(found) else json.dumps(json.loads(found))


class _Out:
    """stdout for whole lines from two writers (the SDK's replies and these error replies), and the requests
    read and not yet answered (by their ids as JSON)."""

    def __init__(self, buffer: BinaryIO) -> None:
        self._buffer, self._lock = buffer, threading.Lock()
        self.unanswered: set[str] = set()

    async def write(self, text: str) -> None:
        if self.unanswered:
            self.unanswered.discard(answered(text) or "")
        await anyio.to_thread.run_sync(self._put, text.encode("utf-8"))

    async def flush(self) -> None:
        return None

    def _put(self, data: bytes) -> None:
        with self._lock:
            self._buffer.write(data)
            self._buffer.flush()


class _Lines:
    """stdin as the lines that passed `checked`; each refused one is answered on stdout and skipped."""

    def __init__(self, source: BinaryIO, out: _Out) -> None:
        self._source, self._out = source, out

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            raw = await anyio.to_thread.run_sync(self._source.readline, MAX_LINE + 1)
            if not raw:
                await self._answered()
                return
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                while (
                    rest := await anyio.to_thread.run_sync(self._source.readline, MAX_LINE)
                ) and not rest.endswith(b"\n"):
                    pass  # the rest of the oversized line
                await self._refuse(
                    Refused(INVALID_REQUEST, f"Invalid request: longer than {MAX_LINE:,} bytes")
                )
                continue
            if not raw.strip():
                continue
            try:
                line = checked(raw.strip())
            except Refused as refused:
                await self._refuse(refused)
                continue
            if line.awaited is not None:
                self._out.unanswered.add(line.awaited)
            self._out.unanswered.discard(line.cancelled or "")
            yield line.text

    async def _answered(self) -> None:
        """Wait until every request read is answered (at most DRAIN_SECONDS): the input ending closed the
        session at once, and a client that sent its requests and closed its end (a pipe, a script) got no answer
        to those still running, a first call loading the model among them."""
        deadline = anyio.current_time() + DRAIN_SECONDS
        while self._out.unanswered and anyio.current_time() < deadline:
            await anyio.sleep(0.02)

    async def _refuse(self, refused: Refused) -> None:
        error = {"code": refused.code, "message": str(refused)}
        answer = {"jsonrpc": "2.0", "id": refused.request_id, "error": error}
        await self._out.write(json.dumps(answer, separators=(",", ":")) + "\n")  # as the SDK writes


def serve(server: MCPServer, started_by: int | None = None) -> None:
    """Run `server` over this process's stdin and stdout until the client closes the pipe. Like the SDK's
    transport, it keeps the wire to itself: fd 0 reads the null device and fd 1 writes to stderr meanwhile, so
    stray output of anything it runs cannot corrupt a message. `started_by` is the client's pid when read before
    a slow start (a client may die meanwhile); by default this process's parent now."""
    client = os.getppid() if started_by is None else started_by
    watch = threading.Thread(target=_end_with, args=(client,), name="engram-parent", daemon=True)
    watch.start()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        source = os.fdopen(wire_in, "rb", closefd=False)
        out = _Out(os.fdopen(wire_out, "wb", closefd=False))
        anyio.run(_run, server, _Lines(source, out), out)
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


def _end_with(parent: int) -> None:
    """End this process once the client that started it is gone (another process adopts it). Its input stays
    open while anything else holds the pipe's other end (a wrapper's other child), so the server waited for the
    next line forever; and a call still running kept it alive until the call ended, nobody waiting for the
    answer. Ended here as a crash would end it: what a call wrote is committed or rolled back whole."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


async def _run(server: MCPServer, lines: _Lines, out: _Out) -> None:
    lowlevel = server._lowlevel_server
    async with stdio_server(stdin=lines, stdout=out) as (read_stream, write_stream):  # type: ignore[arg-type]
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
