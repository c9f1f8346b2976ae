"""Vectors as a documented format: unit-length float32 embeddings, stored as little-endian float32 blobs
(`encode_vector` / `decode_vector`), and the content hash that keys them (identical text is never embedded
twice)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]


def encode_vector(vector: Vector) -> bytes:
    """The storage format: little-endian float32."""
    return np.asarray(vector, dtype="<f4").tobytes()


def decode_vector(blob: bytes) -> Vector:
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def decode_vectors(blobs: Sequence[bytes | None]) -> list[Vector | None]:
    """Stored vectors decoded in one array (rows of it), not one by one: recall reads a few hundred at once."""
    present = [b for b in blobs if b is not None]
    if not present or len({len(b) for b in present}) > 1:
        return [None if b is None else decode_vector(b) for b in blobs]
    matrix = np.frombuffer(b"".join(present), dtype="<f4").astype(np.float32).reshape(len(present), -1)
    rows = iter(matrix)
    return [None if b is None else next(rows) for b in blobs]


def content_hash(text: str) -> str:
    """SHA-256 of the stripped text: the dedup and cache key."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()
