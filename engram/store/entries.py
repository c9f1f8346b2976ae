"""How an audit entry's detail is kept: JSON, and for the entries written once per memory, the values alone.

Every memory the write path stores leaves a `create` entry naming the same nine fields; as a JSON object their names
were 120 of its 200 bytes, and the audit log the largest thing a memory adds beside its row and indexes
(docs/design/storage.md). A detail whose keys are exactly its action's `LAYOUTS` entry, in that order, is kept as the
JSON list of its values and read back as the same object; any other detail (another action, a field added or
missing, entries written before) stays a JSON object and reads as before. Both backends keep the same text, so rows
copy between them unchanged.
"""

from __future__ import annotations

import json
from typing import Any

# A stored list is read by its action's layout, so a layout never changes once written: a detail with other
# keys is kept as an object.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "create": (
        "kind",
        "kind_method",
        "confidence",
        "category",
        "category_confidence",
        "status",
        "scope",
        "chunks",
        "joined_prototypes",
    ),
}
_COMPACT = (",", ":")  # ASCII escapes kept: a forget finds a text in an entry by its JSON spelling


def encode(action: str, detail: dict[str, Any]) -> str:
    layout = LAYOUTS.get(action)
    if layout is not None and tuple(detail) == layout:
        return json.dumps([detail[k] for k in layout], default=str, separators=_COMPACT)
    return json.dumps(detail, default=str)


def decode(action: str, stored: str) -> dict[str, Any]:
    value = json.loads(stored)
    layout = LAYOUTS.get(action)
    if isinstance(value, list) and layout is not None and len(value) == len(layout):
        return dict(zip(layout, value, strict=True))
    if not isinstance(value, dict):
        raise ValueError(f"audit detail of {action!r} is neither an object nor its layout: {stored[:80]!r}")
    return value
