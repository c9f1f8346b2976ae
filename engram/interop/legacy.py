"""The old TinyDB store, migrated from: read with the tinydb package and never modified.

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
from engram.model.ids import addressable
from engram.model.record import Category, ahead_problem, as_utc

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
    """The table's documents. TinyDB's layout is checked first ({"table": {"1": {...}}}): TinyDB itself reads
    any other shape with an AttributeError or a TypeError, not a word on what is wrong."""
    db = TinyDB(path, storage=JSONStorage, access_mode="r")
    try:
        raw = db.storage.read() or {}
        if not isinstance(raw, dict):
            raise InvalidInput(path.name, f"must be TinyDB's object of tables, not a {_kind(raw)}")
        name = table if table in raw else "_default"
        documents = raw.get(name, {})
        if not isinstance(documents, dict):
            problem = f"must be TinyDB's object of documents by id, not a {_kind(documents)}"
            raise InvalidInput(f"{path.name}.{name}", problem)
        for key, doc in documents.items():
            if not key.isdigit():
                raise InvalidInput(f"{path.name}[{key}]", "is not a document id (TinyDB's are whole numbers)")
            if not isinstance(doc, dict):
                raise InvalidInput(f"{path.name}[{key}]", f"must be an object, not a {_kind(doc)}")
        return [(doc.doc_id, dict(doc)) for doc in db.table(name).all()]
    except InvalidInput:
        raise
    except ValueError as exc:  # the JSON itself is broken
        raise InvalidInput(path.name, f"not a TinyDB file: {exc}") from None
    finally:
        db.close()


_KINDS = {list: "list", str: "string", bool: "boolean", int: "number", float: "number", type(None): "null"}


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), "value")


def _whole(value: Any, where: str, low: int, high: int | None = None) -> int:
    """A whole number in range; JSON's true is not one (Python would take it as 1)."""
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    if number is None or number < low or (high is not None and number > high):
        limits = f"{low}-{high}" if high is not None else f"{low} or more"
        raise InvalidInput(where, f"must be a whole number {limits}, not {value!r}")
    return number


def _time(value: Any, where: str, required: bool = False) -> datetime | None:
    if value in (None, ""):
        if required:
            raise InvalidInput(where, "is missing")
        return None
    try:
        when = as_utc(datetime.fromisoformat(str(value).replace("Z", "+00:00")))
    except ValueError:
        raise InvalidInput(where, f"is not an ISO date: {value!r}") from None
    # dated ahead, a memory stayed recent and was never archived
    if problem := ahead_problem(when, "an old store's times are past ones"):
        raise InvalidInput(where, problem)
    return when


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
        if importance is not None:
            importance = _whole(importance, f"{where}.importance", 1, 5)
        old_id = doc.get("id")
        if old_id is not None and (isinstance(old_id, bool) or not isinstance(old_id, str | int)):
            raise InvalidInput(f"{where}.id", f"must be a string or a number, not a {_kind(old_id)}")
        category = doc.get("category")
        if category is not None and not isinstance(category, str):
            raise InvalidInput(f"{where}.category", f"must be a name (a string), not {category!r}")
        tags = doc.get("tags") or []
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise InvalidInput(f"{where}.tags", "must be a list of strings")
        metadata = doc.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise InvalidInput(f"{where}.metadata", "must be an object")
        extra = {k: v for k, v in doc.items() if k not in known}
        memories.append(
            LegacyMemory(
                id=addressable(str(old_id or doc_id), f"{where}.id"),
                content=content,
                created_at=_time(doc.get("created_at"), f"{where}.created_at"),
                updated_at=_time(doc.get("last_modified"), f"{where}.last_modified"),
                tags=tuple(tags),
                category=category,
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
            # At most what a database integer column holds: past it the write failed with the driver's error.
            usage = _whole(doc.get("usage_count", 0), f"{where}.usage_count", 0, 2**31 - 1)
            tags.append(LegacyTag(doc["tag"], usage, created, last))
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
    legacy = {
        "id": m.id,
        "category": m.category,
        "importance": m.importance,
        "updated_at": None if m.updated_at is None else m.updated_at.isoformat(),
    }
    return {
        "content": m.content,
        "created_at": m.created_at,
        "expires_at": m.expires_at,
        "tags": tags,
        "importance": None if m.importance is None else (m.importance - 1) / 4,
        "category": map_category(m.category),
        "metadata": m.metadata | {"legacy": legacy},
    }
