"""Setting one member in JSON with comments (engram.interfaces.cli.jsonc): the change lands where the member
belongs, in the file's own indentation, and every other byte of the file stays as it was."""

from __future__ import annotations

from typing import Any

import json5
import pytest

from engram.interfaces.cli.jsonc import NotAnObject, set_member

ENTRY = {"type": "stdio", "command": "/opt/engram", "args": ["--db", "/m.db", "mcp"]}


def _set(text: str, *path: str, value: Any = ENTRY) -> str:
    out = set_member(text, list(path), value)
    assert json5.loads(out) == _expected(json5.loads(text) if text.strip() else {}, list(path), value)
    return out


def _expected(data: Any, path: list[str], value: Any) -> Any:
    node = data
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    return data


def test_an_old_entry_is_replaced_in_place_and_the_comment_after_it_stays() -> None:
    text = '{\n  "servers": {\n    "engram": {"command": "old"}, // ours\n    "other": {"command": "x"}\n  }\n}\n'
    out = _set(text, "servers", "engram")
    assert "// ours" in out and out.index('"engram"') < out.index('"other"')
    assert out.endswith('    "other": {"command": "x"}\n  }\n}\n')
    assert _set(out, "servers", "engram") == out  # the same entry again: not a byte changes


def test_the_files_indentation_is_followed() -> None:
    out = _set('{\n\t"editor.tabSize": 4\n}\n', "mcp", "servers", "engram")
    assert '\n\t"mcp": {\n\t\t"servers": {\n\t\t\t"engram": {\n\t\t\t\t"type": "stdio",' in out
    out = _set('{\n    "a": 1\n}\n', "servers", "engram")
    assert '\n    "servers": {\n        "engram": {' in out


def test_an_object_on_one_line_stays_on_one_line() -> None:
    out = _set('{"servers": {"x": {}}}', "servers", "engram")
    assert "\n" not in out


def test_a_key_written_twice_is_read_as_its_last() -> None:
    text = '{\n  "servers": [],\n  "servers": {"x": {}}\n}\n'
    out = _set(text, "servers", "engram")
    assert out.startswith('{\n  "servers": [],\n')


def test_a_byte_order_mark_and_json5_keys_are_kept() -> None:
    out = _set("\ufeff{\n  // note\n  servers: {},\n}\n", "servers", "engram")
    assert out.startswith("\ufeff{\n  // note\n  servers: {")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{\n  "a": 1,\n  "b": \n}\n', "^Was expecting value at line 4, column 1$"),  # at the brace
        ('{\n  "a": 1\n', "^Expecting value. Unexpected EOF at line 3, column 1"),
        ("[1, 2]", "the file is a list"),
        ('{"servers": "none"}', "servers is a string"),
    ],
)
def test_what_it_cannot_change_is_said(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        set_member(text, ["servers", "engram"], ENTRY)
    if "is a" in says:
        with pytest.raises(NotAnObject):
            set_member(text, ["servers", "engram"], ENTRY)
