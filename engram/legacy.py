"""The old TinyDB store (seed 002 "Migration Strategy"), read with the tinydb package and never modified.

Layout: tinydb_memories.json (table "memories"), tinydb_tags.json ("tags"), tinydb_categories.json
("categories"); a file that kept its documents in TinyDB's "_default" table is read the same way.

Old categories map onto the seven; the old name is kept as a tag:
    user_context, preferences, personal, profile  -> contexts
    projects, goals, work                         -> projects
    learnings, corrections, best_practices, til   -> learnings   (corrections are lessons about being wrong)
    facts, notes, docs, procedures, links         -> references
    reminders, tasks, todo, deadlines             -> reminders
    meetings, conversations, people, contacts     -> interactions
    workflows, assistant, claude, prompts, config -> system
Any other name is matched by the keywords above inside it; a name matching none is left to the classifier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import JSONStorage

from engram.errors import InvalidInput
from engram.record import Category, as_utc

_KEYWORDS: tuple[tuple[Category, tuple[str, ...]], ...] = (
    (Category.REMINDERS, ("remind", "task", "todo", "deadline", "due", "follow")),
    (
        Category.INTERACTIONS,
        ("meeting", "conversation", "people", "person", "contact", "social", "relationship"),
    ),
    (
        Category.SYSTEM,
        ("workflow", "assistant", "claude", "prompt", "config", "system", "meta", "instruction"),
    ),
    (Category.PROJECTS, ("project", "goal", "work", "initiative", "plan")),
    (
        Category.LEARNINGS,
        ("learning", "lesson", "correction", "best", "practice", "skill", "til", "knowledge", "insight"),
    ),
    (Category.REFERENCES, ("fact", "reference", "note", "doc", "link", "procedure", "howto", "recipe")),
    (Category.CONTEXTS, ("user", "context", "preference", "personal", "profile", "health", "family", "bio")),
)


@dataclass(frozen=True, slots=True)
class LegacyMemory:
    id: str
    content: str
    created_at: datetime | None
    updated_at: datetime | None
    tags: tuple[str, ...]
    category: str | None
    importance: int | None
    expires_at: datetime | None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LegacyTag:
    tag: str
    usage_count: int
    created_at: datetime
    last_used_at: datetime


@dataclass(frozen=True, slots=True)
class LegacyStore:
    memories: tuple[LegacyMemory, ...]
    tags: tuple[LegacyTag, ...]
    categories: tuple[str, ...]


def map_category(old: str | None) -> Category | None:
    if not old:
        return None
    name = old.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Category(name)
    except ValueError:
        pass
    tokens = [t for t in name.split("_") if t]
    for category, words in _KEYWORDS:  # whole words: "preferences" is not a "reference"
        if any(t.startswith(w) for t in tokens for w in words) or name in words:
            return category
    return None


def _documents(path: Path, table: str) -> list[tuple[int, dict[str, Any]]]:
    db = TinyDB(path, storage=JSONStorage, access_mode="r")
    try:
        name = table if table in db.tables() else "_default"
        return [(doc.doc_id, dict(doc)) for doc in db.table(name).all()]
    except ValueError as exc:  # the JSON itself is broken
        raise InvalidInput(path.name, f"not a TinyDB file: {exc}") from None
    finally:
        db.close()


def _time(value: Any, where: str, required: bool = False) -> datetime | None:
    if value in (None, ""):
        if required:
            raise InvalidInput(where, "is missing")
        return None
    try:
        return as_utc(datetime.fromisoformat(str(value).replace("Z", "+00:00")))
    except ValueError:
        raise InvalidInput(where, f"is not an ISO date: {value!r}") from None


def read_tinydb(directory: Path) -> LegacyStore:
    memories_file = directory / "tinydb_memories.json"
    if not memories_file.exists():
        raise InvalidInput("directory", f"{directory} has no tinydb_memories.json")
    memories = []
    known = {
        "id",
        "content",
        "created_at",
        "last_modified",
        "tags",
        "category",
        "importance",
        "expires_at",
        "metadata",
    }
    for doc_id, doc in _documents(memories_file, "memories"):
        where = f"tinydb_memories.json[{doc_id}]"
        content = doc.get("content")
        if not isinstance(content, str) or not content.strip():
            raise InvalidInput(f"{where}.content", "is missing or empty")
        importance = doc.get("importance")
        if importance is not None and (not isinstance(importance, int) or not 1 <= importance <= 5):
            raise InvalidInput(f"{where}.importance", f"must be an integer 1-5, not {importance!r}")
        tags = doc.get("tags") or []
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise InvalidInput(f"{where}.tags", "must be a list of strings")
        metadata = doc.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise InvalidInput(f"{where}.metadata", "must be an object")
        extra = {k: v for k, v in doc.items() if k not in known}
        memories.append(
            LegacyMemory(
                id=str(doc.get("id") or doc_id),
                content=content,
                created_at=_time(doc.get("created_at"), f"{where}.created_at"),
                updated_at=_time(doc.get("last_modified"), f"{where}.last_modified"),
                tags=tuple(tags),
                category=doc.get("category"),
                importance=importance,
                expires_at=_time(doc.get("expires_at"), f"{where}.expires_at"),
                metadata=metadata | ({"legacy_fields": extra} if extra else {}),
            )
        )
    tags = []
    tags_file = directory / "tinydb_tags.json"
    if tags_file.exists():
        for doc_id, doc in _documents(tags_file, "tags"):
            where = f"tinydb_tags.json[{doc_id}]"
            if not isinstance(doc.get("tag"), str) or not doc["tag"].strip():
                raise InvalidInput(f"{where}.tag", "is missing")
            created = _time(doc.get("created_at"), f"{where}.created_at", required=True)
            assert created is not None
            last = _time(doc.get("last_used_at"), f"{where}.last_used_at") or created
            tags.append(LegacyTag(doc["tag"], int(doc.get("usage_count") or 0), created, last))
    categories: list[str] = []
    categories_file = directory / "tinydb_categories.json"
    if categories_file.exists():
        for _doc_id, doc in _documents(categories_file, "categories"):
            name = doc.get("name") or doc.get("category")
            if isinstance(name, str):
                categories.append(name)
    return LegacyStore(tuple(memories), tuple(tags), tuple(categories))


def to_new_memory(m: LegacyMemory) -> dict[str, Any]:
    """The fields for the store_memory pipeline: the old category becomes a tag and, where it maps, the
    category; the old importance 1-5 is kept; the old id, category and dates are kept in metadata."""
    old_category = (m.category or "").strip()
    tags = [*m.tags, *([old_category] if old_category else [])]
    legacy = {"id": m.id, "category": m.category, "importance": m.importance,
              "updated_at": None if m.updated_at is None else m.updated_at.isoformat()}  # fmt: skip
    return {
        "content": m.content,
        "created_at": m.created_at,
        "expires_at": m.expires_at,
        "tags": tags,
        "importance": None if m.importance is None else (m.importance - 1) / 4,
        "category": map_category(m.category),
        "metadata": m.metadata | {"legacy": legacy},
    }
