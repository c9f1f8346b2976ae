"""The ids a caller may give a memory (an import keeping another store's ids, a write naming its own): ones every
route can address (a URL path segment, a CLI argument, a web page's link). An id holding '/', a control character
or thousands of characters was stored, and no route could then show or forget that memory by it."""

from __future__ import annotations

import re

from engram.errors import InvalidInput

MAX_ID = 128
_ID = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._:-]{{0,{MAX_ID - 1}}}")


def id_problem(value: str) -> str | None:
    """What makes `value` no id every route can address; None when it is one."""
    if _ID.fullmatch(value):
        return None
    shown = value if len(value) <= 40 else f"{value[:40]}..."
    return (
        f"must be 1 to {MAX_ID} letters, digits, '.', '_', ':' or '-', starting with a letter or digit "
        f"(an id every route can address), not {shown!r}"
    )


def addressable(value: str, field: str) -> str:
    """`value` when it is an id every route can address; else refused, naming `field`."""
    if problem := id_problem(value):
        raise InvalidInput(field, problem)
    return value
