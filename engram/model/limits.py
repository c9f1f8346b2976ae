"""Bounds on the JSON a caller hands in (metadata, tool arguments, request bodies): how deep it nests, how many
keys or items one object or array holds, how long one string is and how large the whole is; and that its text is
Unicode UTF-8 can carry (no lone surrogate).

Checked before anything is stored, by walking the value without recursion, so a hostile value is refused with
the field named instead of failing later (a memory nested hundreds deep broke every listing, recall and export
of its store). `readable` is the reader's side: what an older version let in is shown, never failed on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, TypeVar

from engram.errors import InvalidInput
from engram.model.names import IDENTIFIERS, visible

T = TypeVar("T")

NO_TEXT = frozenset({bool, int, float, datetime})  # values of a field that hold no text to check
MAX_DEPTH = 32  # levels of objects and arrays inside one field
MAX_ITEMS = 10_000  # keys of one object, items of one array
MAX_STRING = 100_000  # characters of one string or key
MAX_SIZE = 1_000_000  # characters of the whole, about its JSON length


def bounded(field: str, value: Any) -> None:
    """Refuse `value` when it nests deeper than MAX_DEPTH or is larger than the bounds, naming `field`."""
    size = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_STRING:
                raise InvalidInput(field, f"holds a string longer than {MAX_STRING:,} characters")
            _unicode(field, item)
            size += len(item) + 2
        elif isinstance(item, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                raise InvalidInput(field, f"nested deeper than {MAX_DEPTH} levels")
            if len(item) > MAX_ITEMS:
                raise InvalidInput(field, f"holds more than {MAX_ITEMS:,} keys or items in one place")
            size += 2 + len(item)
            if isinstance(item, Mapping):
                for key in item:
                    if isinstance(key, str) and len(key) > MAX_STRING:
                        raise InvalidInput(field, f"holds a key longer than {MAX_STRING:,} characters")
                    if isinstance(key, str):
                        _unicode(field, key)
                    size += len(key) + 3 if isinstance(key, str) else 8
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
        else:
            size += 8
        if size > MAX_SIZE:
            raise InvalidInput(field, f"is larger than {MAX_SIZE:,} characters")


def bounded_fields(fields: T) -> T:
    """`bounded` for each field of a mapping or a model (a tool's arguments, a memory's fields), by its name;
    the fields are returned as they came."""
    names = fields.keys() if isinstance(fields, Mapping) else getattr(type(fields), "model_fields", {})
    for name in names:
        value = fields[name] if isinstance(fields, Mapping) else getattr(fields, name, None)
        if value is None or type(value) in NO_TEXT:
            continue  # most fields of a memory: asked of Mapping (an abstract class), each took a microsecond
        if isinstance(value, Mapping | list | tuple):
            bounded(str(name), value)
        elif isinstance(value, str):  # its length is the field's own to bound (content: max_content_chars)
            _unicode(str(name), value)
            if name in IDENTIFIERS:  # a scope, owner or episode that shows as another is refused
                visible(str(name), value)
    return fields


def _unicode(field: str, text: str) -> None:
    """Refuse a lone surrogate (JSON's "\\ud800" escape decodes to one): no UTF-8 store, index or answer can
    carry it, so a search or listing given one failed deep in the store instead of naming the field."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInput(field, "is not valid Unicode text (it holds a lone surrogate)") from None


def readable(value: Any) -> Any:
    """`value` with every part nested deeper than MAX_DEPTH kept as its JSON text: a record an older version
    stored with deeper metadata is listed, recalled and exported whole instead of failing each reader."""
    if not isinstance(value, dict | list):
        return value
    deep = False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and not deep:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                deep = True
            else:
                stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return _flattened(value, 0) if deep else value


def _flattened(value: Any, depth: int) -> Any:
    if not isinstance(value, dict | list):
        return value
    if depth >= MAX_DEPTH - 1:
        return _text(value)
    if isinstance(value, dict):
        return {k: _flattened(v, depth + 1) for k, v in value.items()}
    return [_flattened(v, depth + 1) for v in value]


def _text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError, TypeError):
        return "(too deeply nested to show)"


__all__ = ["MAX_DEPTH", "MAX_ITEMS", "MAX_SIZE", "MAX_STRING", "bounded", "bounded_fields", "readable"]
