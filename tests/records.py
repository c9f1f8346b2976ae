"""SHODH records and legacy TinyDB folders as an import reads them, for tests that import hostile or unusual ones."""

from __future__ import annotations

import json
from pathlib import Path
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


def tinydb_folder(directory: Path, memories: Any, tags: Any = None) -> Path:
    """`directory` holding a legacy TinyDB store's files: its memories table, and its tags table when given."""
    directory.mkdir(exist_ok=True)
    (directory / "tinydb_memories.json").write_text(json.dumps({"memories": memories}), encoding="utf-8")
    if tags is not None:
        (directory / "tinydb_tags.json").write_text(json.dumps({"tags": tags}), encoding="utf-8")
    return directory
