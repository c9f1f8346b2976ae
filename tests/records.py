"""SHODH records as an import reads them, for tests that import hostile or unusual ones."""

from __future__ import annotations

from typing import Any

from engram.model.vectors import content_hash


def shodh_record(content: str, **extra: Any) -> dict[str, Any]:
    """A minimal valid record of `content` (id and hash from the text), with `extra` fields over it."""
    return {
        "id": f"rec-{content_hash(content)[:12]}",
        "content": content,
        "content_hash": content_hash(content),
        "created_at": "2024-12-30T10:00:00Z",
    } | extra
