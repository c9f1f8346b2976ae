"""JSON objects that give a key twice. Python's parser keeps the last copy and other readers (a proxy, a gateway
checking tool calls, a viewer) may keep the first, so a request checked by one would do what the other did not
read. The REST API and MCP (HTTP and stdio) refuse such a message naming the key, and an import such a line."""

from __future__ import annotations

import json
from typing import Any


class _Twice:
    """The value of a key an object gives twice (see `twice`)."""


_TWICE = _Twice()


def _marking(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        out[key] = _TWICE if key in out else value
    return out


def parse_marking(text: str | bytes) -> Any:
    """`json.loads(text)`, with the value of a key given twice in one object replaced by a mark `twice` finds."""
    return json.loads(text, object_pairs_hook=_marking)


def twice(value: Any) -> str | None:
    """The dotted path of the first key `parse_marking` found given twice in one object, if any."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, at = stack.pop()
        children = (
            item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        )
        for key, child in children:
            where = f"{at}[{key}]" if isinstance(key, int) else f"{at}.{key}" if at else key
            if child is _TWICE:
                return where
            stack.append((child, where))
    return None


__all__ = ["parse_marking", "twice"]
