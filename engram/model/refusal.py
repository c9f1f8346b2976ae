"""A value the schema refused, as one sentence an agent or a person can act on: what the field must be and what
was given ("must be at most 100, got 500"), not the validator's report. Every layer words it alike: the library's
own checks (`record.invalid_from`), MCP and REST.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic_core import ErrorDetails

_BOUNDS = {
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "too_short": "must hold at least {min_length} item(s)",
    "too_long": "must hold at most {max_length} item(s)",
    "string_too_short": "must be at least {min_length} character(s) long",
    "string_too_long": "must be at most {max_length} characters long",
    "literal_error": "must be {expected}",
    "enum": "must be {expected}",
}
_TYPES = {
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "string": "text",
    "list": "a list",
    "dict": "an object",
    "model": "an object",
    "datetime": "an ISO date or date and time",
    "date": "an ISO date",
}


# Importance has two scales: a memory's own and store_memory's / search_memory's. A value refused on one names
# both, since the usual mistake is a value meant for the other.
_ONE = "0 (trivial) to 1 (critical); store_memory's force_importance and search_memory's importance_min take 1 to 5"
_FIVE = "a whole number from 1 (trivial) to 5 (critical); a memory's own importance (remember, update) takes 0 to 1"
_SCALES = {"importance": _ONE, "force_importance": _FIVE, "importance_min": _FIVE}


def path(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """messages[0].content, as the caller wrote it."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def problem(error: ErrorDetails, inside: str, top: str) -> str:
    """What is wrong with the value at the error's location; `inside` is the path of the object holding it
    ("" at the top, where an unknown name "is not `top`")."""
    kind, ctx = error["type"], error.get("ctx", {})
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not " + (f"a field of {inside}" if inside else top)
    if kind == "value_error":  # a check of Engram's own, which says what was wrong
        return str(error["msg"]).removeprefix("Value error, ")
    if kind in _BOUNDS:
        said = _BOUNDS[kind].format(**ctx)
    elif (base := kind.split("_")[0]) in _TYPES:
        said = f"must be {_TYPES[base]}"
    else:
        said = error["msg"][:1].lower() + error["msg"][1:]
    given = f"{said}, got {shown(error.get('input'))}"
    scale = _SCALES.get(str(error["loc"][-1])) if error.get("loc") else None
    return given if scale is None else f"{given}: importance here is {scale}"


def shown(value: Any) -> str:
    """A given value, cut short: an answer never echoes a long input."""
    try:
        text = json.dumps(value, default=str, ensure_ascii=False)
    except ValueError:  # an integer longer than Python writes as text (4,300 digits): said by its size
        text = f"a number of more than {sys.get_int_max_str_digits():,} digits"
    text = text if len(text) <= 60 else text[:57] + "..."
    return encodable(text)


def encodable(text: str) -> str:
    """`text` as UTF-8 can carry it: a lone surrogate (from a query string) written as its escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
