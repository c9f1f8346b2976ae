"""How many rows the SQLite store's reads of hits ask for, for tests of which rows a search reads."""

from __future__ import annotations

import re
from typing import Any


def rows_read(store: Any) -> list[int]:
    """How many rows each read of hits' rows asks for, from here on (the reading thread's connection)."""
    counts: list[int] = []

    def seen(sql: str) -> None:
        if "FROM memories m NOT INDEXED WHERE m.rid IN" in sql:
            counts.append(len(re.findall(r"\bIN \(([^)]*)\)", sql)[0].split(",")))

    store._reader().set_trace_callback(seen)
    return counts
