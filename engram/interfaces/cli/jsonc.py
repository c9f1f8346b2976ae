"""One member set in a JSON file that may hold comments and trailing commas (JSONC: the settings of Zed and VS
Code), the rest of its text kept byte for byte.

json-five parses the text (JSON5, of which JSONC is a part) into a model whose nodes know where they are in the
text; the change is then spliced into the text at that place, so the user's comments, order, indentation and
other members stay exactly as they were. Only the value being set is written by us.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import json5
from json5.loader import ModelLoader
from json5.loader import loads as model_loads
from json5.model import Identifier, JSONObject, Key, Node, String, Value


class NotAnObject(ValueError):
    """What the path goes through is not an object: `where` names it ("" for the whole file)."""

    def __init__(self, where: str, kind: str) -> None:
        super().__init__(f"{where or 'the file'} is a {kind}, not an object")
        self.where = where
        self.kind = kind


def parse(text: str) -> Any:
    """The file's data; a ValueError naming the line and column when it is not JSON with comments."""
    try:
        return json5.loads(text)
    except ValueError as exc:  # JSON5DecodeError is a JSONDecodeError, so a ValueError
        # json-five's message may hold every error it met: the first is the one the reader needs
        said = str(exc).split("The primary error was:", 1)[-1].strip().splitlines()[0]
        where = re.search(r"line (\d+) column (\d+)", said)
        what = re.split(r" in or near token | at: ", said)[0].removeprefix("Syntax Error. ").strip(" .")
        raise ValueError(f"{what} at line {where[1]}, column {where[2]}" if where else what) from None


def set_member(text: str, path: Sequence[str], value: Any) -> str:
    """`text` with data[path[0]]...[path[-1]] = value, objects made on the way when missing. Unchanged when the
    member already holds that value."""
    if text.startswith("\ufeff"):  # a byte-order mark, as some Windows editors write: kept, not parsed
        return "\ufeff" + set_member(text[1:], path, value)
    if not text.strip():
        return _render(_nest(path, value), "  ", "") + "\n"
    data = parse(text)
    node = model_loads(text, loader=ModelLoader()).value
    unit = _indent_unit(text)
    if not isinstance(data, dict) or not isinstance(node, JSONObject):
        raise NotAnObject("", _kind(data))
    for depth, key in enumerate(path):
        found = _member(node, key)
        if found is None:
            return _insert(text, node, key, _nest(path[depth + 1 :], value), unit)
        key_node, value_node = found
        data = data[key]
        if depth == len(path) - 1:
            if data == value:
                return text
            start, end = _span(value_node)
            indent = _line_indent(text, _span(key_node)[0])
            rendered = _render(value, unit, indent) if indent is not None else json.dumps(value)
            return text[:start] + rendered + text[end:]
        if not isinstance(data, dict) or not isinstance(value_node, JSONObject):
            raise NotAnObject(key, _kind(data))
        node = value_node
    return text


def _insert(text: str, obj: JSONObject, key: str, value: Any, unit: str) -> str:
    """A new last member of `obj`: on a line of its own at the indentation of the members before it."""
    open_at, close_at = _span(obj)[0], _span(obj)[1] - 1
    if not obj.values:
        outer = _leading(text, open_at)
        indent = outer + unit
        member = f"{json.dumps(key)}: {_render(value, unit, indent)}"
        inside = text[open_at + 1 : close_at]
        if not inside.strip():  # {} or { }: the member between the braces, the closing one on its own line
            return text[: open_at + 1] + f"\n{indent}{member}\n{outer}" + text[close_at:]
        return text[: open_at + 1] + f"\n{indent}{member}" + text[open_at + 1 :]  # comments inside follow it
    last_key, last_value = obj.keys[-1], obj.values[-1]
    found = _line_indent(text, _span(last_key)[0])
    after = _span(last_value)[1]
    if found is None or _line_indent(text, close_at) is None:  # written on one line: stay on it
        return text[:after] + f", {json.dumps(key)}: {json.dumps(value)}" + text[after:]
    indent = found
    member = f"{indent}{json.dumps(key)}: {_render(value, unit, indent)}"
    comma = "," if obj.trailing_comma is not None else ""  # the user's style: a comma after the last member
    line_start = text.rfind("\n", 0, close_at) + 1
    text = text[:line_start] + f"{member}{comma}\n" + text[line_start:]
    return text if obj.trailing_comma is not None else text[:after] + "," + text[after:]


def _member(obj: JSONObject, key: str) -> tuple[Key, Value] | None:
    """The member named `key` (the last one, as JSON readers keep the last of a repeated key)."""
    found = None
    for k, v in zip(obj.keys, obj.values, strict=True):
        name = k.characters if isinstance(k, String) else k.name if isinstance(k, Identifier) else None
        if name == key:
            found = (k, v)
    return found


def _span(node: Node) -> tuple[int, int]:
    start, end = node._tok, node._end_tok or node._tok  # json-five keeps positions here
    assert start is not None and end is not None
    return start.index, end.end


def _line_indent(text: str, at: int) -> str | None:
    """The whitespace before `at` on its line; None when something else comes before it on that line."""
    before = text[text.rfind("\n", 0, at) + 1 : at]
    return before if not before.strip() else None


def _leading(text: str, at: int) -> str:
    """The whitespace a line starts with, for the line holding `at`."""
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _indent_unit(text: str) -> str:
    """One level of the file's indentation: a tab, or the fewest spaces any line starts with (2 if none)."""
    widths = []
    for line in text.splitlines():
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            if line.startswith("\t"):
                return "\t"
            widths.append(len(line) - len(stripped))
    return " " * min(widths) if widths else "  "


def _render(value: Any, unit: str, indent: str) -> str:
    """`value` as the clients' documentation writes it: an object a member a line, a list of plain values on
    one line; every line after the first indented to `indent`."""
    if isinstance(value, dict) and value:
        inner = indent + unit
        members = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_render(v, unit, inner)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(members) + f"\n{indent}}}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + indent)
    return json.dumps(value, ensure_ascii=False)


def _nest(path: Sequence[str], value: Any) -> Any:
    for key in reversed(path):
        value = {key: value}
    return value


def _kind(data: Any) -> str:
    return {list: "list", str: "string", bool: "boolean", type(None): "null"}.get(type(data), "number")


__all__ = ["NotAnObject", "parse", "set_member"]
