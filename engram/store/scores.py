"""A memory's classifier scores (`kind_scores`) as the embedded store keeps them: a small blob instead of JSON.

The classifier writes a few dozen scores a memory, "part.label" -> a value rounded to 4 decimals: as JSON, a third
of a short memory's row (docs/design/storage.md). The blob names each part and label once (a byte for the usual
names, from `NAMES`) and gives each value as a 16-bit integer of ten-thousandths, a tenth of the JSON. Scores the blob cannot hold exactly (more decimals, a value
past +-3.2767, an integer, a key without a part) stay JSON; rows written before the blob stay JSON and read as
before. Either way the record read back is the one written.
"""

from __future__ import annotations

import json
import math
import struct
from functools import lru_cache
from typing import Any

FORMAT = 1
# Append only: a stored blob names these by their place in the tuple.
NAMES = (
    "opening",
    "probability",
    "prototype",
    "readout",
    "whole",
    "density",
    "identity",
    "task",
    "knowledge",
    "reference",
    "note",
    "unclassified",
    "contexts",
    "projects",
    "learnings",
    "reminders",
    "references",
    "interactions",
    "system",
)
_CODE = {name: i for i, name in enumerate(NAMES)}
_INLINE = 255  # then the name's length and its UTF-8 bytes
_SCALE = 10_000
_LARGEST = 32_767  # a 16-bit code's largest magnitude
_ABSENT = -32768  # a part and label pair the scores do not have


def encode(scores: dict[str, Any]) -> str | bytes:
    """The stored form: a blob when it holds `scores` exactly, else JSON text."""
    blob = _packed(scores) if scores else None
    return blob if blob is not None else json.dumps(scores, ensure_ascii=False, sort_keys=True)


def decode(stored: str | bytes) -> dict[str, Any]:
    """The scores from either stored form, keys sorted (as the JSON was written)."""
    if isinstance(stored, str):
        loaded: dict[str, Any] = json.loads(stored)
        return loaded
    if not stored or stored[0] != FORMAT:
        raise ValueError("kind_scores: not a blob of a known format")
    parts, at = _names(stored, 1)
    labels, at = _names(stored, at)
    shape, keyed = _grid(tuple(parts), tuple(labels))
    values = shape.unpack_from(stored, at)
    return {key: values[i] / _SCALE for i, key in keyed if values[i] != _ABSENT}


@lru_cache(maxsize=64)
def _grid(parts: tuple[str, ...], labels: tuple[str, ...]) -> tuple[struct.Struct, list[tuple[int, str]]]:
    """The values' layout for these parts and labels, and each value's place with its key, in key order. The
    classifier writes the same parts and labels for every memory: worked out once, not for each record read."""
    keys = [f"{p}.{label}" for p in parts for label in labels]
    return struct.Struct(f"<{len(keys)}h"), sorted(enumerate(keys), key=lambda pair: pair[1])


def _packed(scores: dict[str, Any]) -> bytes | None:
    grid: dict[tuple[str, str], int] = {}
    for key, value in scores.items():
        part, dot, label = key.partition(".")
        # past the blob's range before scaling: a huge value scaled is infinity, which no integer is
        if not dot or type(value) is not float or not math.isfinite(value) or abs(value) > _LARGEST / _SCALE:
            return None
        code = round(value * _SCALE)
        # equal floats are the same float, but for the sign of a zero
        if (
            not -_LARGEST <= code <= _LARGEST
            or code / _SCALE != value
            or (code == 0 and math.copysign(1, value) < 0)
        ):
            return None
        grid[(part, label)] = code
    parts = list(dict.fromkeys(p for p, _ in grid))
    labels = list(dict.fromkeys(label for _, label in grid))
    head = [_name_bytes(p) for p in parts] + [_name_bytes(label) for label in labels]
    if len(parts) > 255 or len(labels) > 255 or any(h is None for h in head):
        return None
    named = b"".join(h for h in head if h is not None)
    cut = sum(len(h) for h in head[: len(parts)] if h is not None)
    values = [grid.get((p, label), _ABSENT) for p in parts for label in labels]
    return (
        bytes([FORMAT, len(parts)])
        + named[:cut]
        + bytes([len(labels)])
        + named[cut:]
        + struct.pack(f"<{len(values)}h", *values)
    )


def _name_bytes(name: str) -> bytes | None:
    code = _CODE.get(name)
    if code is not None:
        return bytes([code])
    raw = name.encode()
    return bytes([_INLINE, len(raw)]) + raw if len(raw) <= 255 else None


def _names(blob: bytes, at: int) -> tuple[list[str], int]:
    count, at = blob[at], at + 1
    names: list[str] = []
    for _ in range(count):
        code, at = blob[at], at + 1
        if code == _INLINE:
            size = blob[at]
            names.append(blob[at + 1 : at + 1 + size].decode())
            at += 1 + size
        else:
            names.append(NAMES[code])
    return names, at
