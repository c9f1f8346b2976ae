"""A raw MCP line's shape (nesting, values, paired brackets) is read from its bytes before any parser runs: a line
nested 100,000 deep, left open, or holding a million values is refused without the parser or any walk over a
parsed value, and for every JSON text the shape read agrees with the value's own."""

from __future__ import annotations

import json
import random
from typing import Any

import mcp_types
import pytest

from engram.interfaces.mcp import stdio
from engram.interfaces.mcp.linescan import shape
from engram.interfaces.mcp.stdio import MAX_DEPTH, MAX_VALUES, PARSE_ERROR, Refused, checked

# Text that moves a naive scan in or out of a string: brackets, commas, quotes and backslashes inside strings.
TRICKY = ["", "[", "]", "{", "}", ",", '"', "\\", '\\"', '"]', "\\\\", "a[b{c", "\\u005b", "日本[", "\\]"]


def _random_value(rng: random.Random, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.3:
        return rng.choice([1, 2.5, None, True, rng.choice(TRICKY), "".join(rng.choices(TRICKY, k=3))])
    if rng.random() < 0.5:
        return [_random_value(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(TRICKY) + str(i): _random_value(rng, depth - 1) for i in range(rng.randint(0, 3))}


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


def _nested(levels: int) -> str:
    """JSON text of a value nested `levels` deep, objects and arrays in turn (written out: json.dumps recurses)."""
    opening = "".join('{"k]": ' if i % 2 else "[" for i in range(levels))
    return opening + '"x"' + "".join("}" if i % 2 else "]" for i in reversed(range(levels)))


def test_the_shape_read_from_the_bytes_is_the_values_own() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        value = _random_value(rng, rng.randint(0, 6))
        for raw in (json.dumps(value).encode(), json.dumps(value, ensure_ascii=False).encode()):
            found = shape(raw, MAX_DEPTH)
            assert found.paired and found.depth == _depth(value), raw


@pytest.mark.parametrize("levels", [1, 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2, 5000])
def test_nesting_is_counted_up_to_one_past_the_bound(levels: int) -> None:
    found = shape(_nested(levels).encode(), MAX_DEPTH)
    assert found.paired and found.depth == min(levels, MAX_DEPTH + 1)


def test_a_deep_line_whose_runs_are_short_is_counted_too() -> None:
    """No run of opening brackets as long as the bound: each level opens after an empty array."""
    raw = b"[[]," * 100 + b"1" + b"]" * 100
    assert shape(raw, MAX_DEPTH).depth == MAX_DEPTH + 1
    assert shape(b"[[]," * 10 + b"1" + b"]" * 10, MAX_DEPTH).depth == 11  # the last empty array is the 11th


@pytest.mark.parametrize(
    "raw",
    [b"[" * 200_000, b'{"a":' * 100_000, b"[1]]", b"][", b'["a"', b'{"a": "]"', b"[" * 30 + b'"' + b"]" * 30],
)
def test_brackets_that_do_not_pair_up_are_seen(raw: bytes) -> None:
    assert not shape(raw, MAX_DEPTH).paired


def test_values_are_counted() -> None:
    assert shape(json.dumps([1] * 1000).encode(), MAX_DEPTH).values == 1001
    assert shape(json.dumps({"a,": ["[,]"] * 10}).encode(), MAX_DEPTH).values == 12


def _request(arguments: Any, deep: int = 0) -> bytes:
    """A call whose arguments are `arguments`, with metadata nested `deep` levels when given."""
    params = {"name": "remember", "arguments": arguments}
    text = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": params})
    return text.replace('"DEEP"', _nested(deep)).encode() if deep else text.encode()


BAD_SHAPES = {
    "an object 100,000 deep left open": (b'{"a":' * 100_000, PARSE_ERROR),
    "an array 200,000 deep left open": (b"[" * 200_000, PARSE_ERROR),
    "an object 100,000 deep, closed": (_request({"metadata": "DEEP"}, 100_000), stdio.INVALID_REQUEST),
    "a request of a million values": (_request({"metadata": {"v": [1] * 1_000_000}}), stdio.INVALID_REQUEST),
    "malformed JSON": (b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"', PARSE_ERROR),
}


@pytest.mark.parametrize("raw, code", list(BAD_SHAPES.values()), ids=list(BAD_SHAPES))
def test_a_line_of_bad_shape_is_refused_before_any_parser_reads_it(
    raw: bytes, code: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: Any, **__: Any) -> Any:
        raise AssertionError("the line was parsed")

    monkeypatch.setattr(stdio, "parse_marking", never)
    monkeypatch.setattr(mcp_types.jsonrpc_message_adapter, "validate_json", never)
    with pytest.raises(Refused) as refused:
        checked(raw)
    assert refused.value.code == code


def test_a_line_just_within_the_bounds_is_parsed_and_passed() -> None:
    raw = _request(
        {"content": "a note", "metadata": {"v": [1] * (MAX_VALUES // 2), "deep": "DEEP"}}, MAX_DEPTH - 6
    )
    passed = checked(raw)
    assert passed.text == raw.decode() and passed.awaited == "5"
