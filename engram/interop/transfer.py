"""Moving memories in and out: the unified SHODH record as JSON Lines, and the legacy TinyDB store.

Export writes every record (top-level memories and the chunks of long ones, every status) with its embedding,
so an import into an empty database gives the same records back. Import checks the whole file first (one bad
record refuses it), runs as one operation (it can be rolled back), keeps ids, skips ids already present and
content already stored (same hash, scope and owner: the write path's duplicate rule), computes each content
hash itself, and embeds again with this database's model unless the file's model is the same. With PII
redaction on, a record holding raw personal data is redacted and embedded again. TinyDB memories go through
store_memory's pipeline (tags, importance, category when the old one does not map), keeping their ids (a new
one when the old is taken), dates and old category as a tag.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.agent import search as tools
from engram.errors import InvalidInput
from engram.interop.legacy import read_tinydb, to_new_memory
from engram.interop.shodh import from_shodh, to_shodh
from engram.lang import pii
from engram.model.record import MemoryRecord, Status
from engram.model.vectors import Vector, content_hash
from engram.store.values import Filter, TagRow
from engram.write import writer as write
from engram.write.operations import operation

if TYPE_CHECKING:
    from engram.memory import Memory

_EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


def file_at(path: str | Path, root: Path | None, *, new: bool) -> Path:
    """The file a tool writes (`new`) or reads. With a `root` (the memory of a tenant an API key reaches) a
    relative path is taken inside it and no path may leave it: the server's other files, other tenants' databases
    among them, are not the caller's to read or overwrite."""
    target = Path(path)
    if not str(path).strip():
        raise InvalidInput("path", "must not be empty")
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
        target = (root / target).resolve()
        if not target.is_relative_to(root.resolve()):
            raise InvalidInput("path", "must be a file name inside this tenant's files directory")
    try:
        if new:
            if target.exists():
                raise InvalidInput("path", f"{target} exists; choose a new file")
            if not target.parent.is_dir():
                raise InvalidInput("path", f"{target.parent} is not a directory")
            target.touch(exist_ok=False)  # can it be written (/proc, a read-only disk)? Found before any work
            target.unlink()
        elif not target.is_file():
            raise InvalidInput("path", f"{target} {'is not a file' if target.exists() else 'does not exist'}")
    except OSError as exc:  # a name too long, no permission
        raise InvalidInput("path", f"{target} cannot be {'written' if new else 'read'} ({exc.strerror})") from None
    return target


def utf8_text(raw: bytes) -> str:
    """A file's bytes as text; a file that is not UTF-8 text is named as such, at the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput("file", f"is not UTF-8 text (byte {exc.start})") from None


def export_memories(mem: Memory, path: Path, *, with_embeddings: bool = True) -> dict[str, Any]:
    """Write to `path`, a new file (`file_at` checked it)."""
    model = mem.store.model()
    count = chunks = 0
    with path.open("w", encoding="utf-8") as out:
        header = {"format": "shodh-memory+jsonl", "model": model and model[0], "dim": model and model[1]}
        if not with_embeddings:
            header = {"format": "shodh-memory+jsonl", "model": None, "dim": None}
        out.write(json.dumps(header) + "\n")
        for batch in mem.store.iter_all():
            vectors = mem.store.vectors([r.id for r in batch]) if with_embeddings else {}
            for record in batch:
                vector = vectors.get(record.id)
                data = to_shodh(record, None if vector is None else vector.tolist())
                out.write(json.dumps(data, ensure_ascii=False) + "\n")
                count += 1
                chunks += record.parent_id is not None
    # Records written, and of them the memories and the chunks of long ones (stats counts memories alone).
    counts = {"exported": count, "memories": count - chunks, "chunks": chunks}
    mem.store.audit("export", None, {"path": str(path), **counts})
    return {"path": str(path), **counts}


def _redacted(record: MemoryRecord, vector: list[float] | None) -> tuple[MemoryRecord, list[float] | None]:
    """With redaction on, an imported record keeps no raw PII either; its vector, made from the raw text, is
    dropped so that the redacted text is embedded again."""
    update = pii.redaction(record.content, record.metadata, record.tags, record.emotion)
    if update is None:
        return record, vector
    if update["content"] == record.content:
        return record.model_copy(update=update), vector
    return record.model_copy(update=update | {"content_hash": content_hash(update["content"])}), None


def import_memories(mem: Memory, path: Path) -> dict[str, Any]:
    """Read `path`, an existing file (`file_at` checked it). The whole file is checked before anything is
    stored: one bad record refuses the import and the database stays as it was."""
    header, lines = _read_records(path)
    same_model = (header.get("model"), header.get("dim")) == (mem.embedder.name, mem.embedder.dim)
    first: dict[str, int] = {}
    for number, record, vector in lines:
        if record.id in first:
            raise InvalidInput(f"line {number}.id", f"repeats the id of line {first[record.id]}")
        first[record.id] = number
        if vector is not None:
            _check_vector(vector, f"line {number}.embedding", header, stored=same_model)
    stored = {r.id: r for r in mem.store.get_many(list(first))}
    present = set(stored)
    # An id taken by another text is not this record: said, so nothing is dropped unseen.
    conflicts = [{"line": number, "id": r.id, "reason": "the id is another memory's, with other content"}
                 for number, r, _ in lines if r.id in stored and stored[r.id].content_hash != r.content_hash]  # fmt: skip
    for number, record, _ in lines:
        parent = record.parent_id
        if parent is not None and parent not in first and parent not in present:
            raise InvalidInput(
                f"line {number}.parent_id", f"{parent} is a memory neither in the file nor stored"
            )
    parsed = [(r, v) for _, r, v in lines]
    fresh = [(r, v) for r, v in parsed if r.id not in present]
    if mem.settings.redact_pii:
        fresh = [_redacted(r, v) for r, v in fresh]
    fresh = _not_stored(mem, fresh)
    # Parents before their chunks; a parent with chunks is searched through them and has no vector.
    fresh.sort(key=lambda rv: (rv[0].parent_id is not None, rv[0].chunk_index or 0))
    chunked = {r.parent_id for r, _ in fresh if r.parent_id is not None}
    # A record from another system is written as Engram writes its own: counted in model tokens, cut into
    # chunks when long (one vector reads only its first 256 tokens), its personal data noted.
    foreign = {r.id: _as_written(mem, r) for r, _ in fresh if r.kind_method == "imported" and r.parent_id is None
               and r.id not in chunked}  # fmt: skip
    fresh = [(foreign[r.id][0] if r.id in foreign else r, v) for r, v in fresh]
    passages = {i: texts for i, (_, texts) in foreign.items() if len(texts) > 1}
    cut = [t for texts in passages.values() for t in texts]
    cut_vectors: Iterator[Vector] = iter(mem.embedder.embed_batch(cut) if cut else [])
    piece_vectors = {i: [next(cut_vectors) for _ in texts] for i, texts in passages.items()}
    embed = [r for r, v in fresh if r.id not in chunked and r.id not in passages and (v is None or not same_model)]
    new_vectors = (
        dict(zip([r.id for r in embed], mem.embedder.embed_batch([r.content for r in embed]), strict=True))
        if embed
        else {}
    )
    openings = _openings(mem, [r for r, _ in fresh if _uncategorised(r, chunked)])
    with operation(mem.store, "import_memories") as op:
        for record, vector in fresh:
            op.before_memory(record.id, None)
            if record.id in passages:
                whole = write.mean(piece_vectors[record.id])
                if _uncategorised(record, chunked):
                    record = _categorised(mem, op, record, whole, openings.get(record.id))
                rows, vectors = write.with_chunks(mem, record, passages[record.id], piece_vectors[record.id], whole)
                for row in rows[1:]:
                    op.before_memory(row.id, None)
                mem.store.insert(rows, vectors)
                continue
            if record.id in chunked:
                use = None
            elif record.id in new_vectors:
                use = new_vectors[record.id]
            else:
                use = np.asarray(vector, dtype=np.float32)
            if use is not None and _uncategorised(record, chunked):
                record = _categorised(mem, op, record, use, openings.get(record.id))
            mem.store.insert([record], [use])
        _register_tags(mem, op, [r for r, _ in fresh if r.parent_id is None])
        op.summary = {
            "imported": len(fresh),
            "skipped": len(parsed) - len(fresh),
            "reembedded": len(new_vectors),
        }
        op.audit("import_memories", None, {"path": str(path), **op.summary, "conflicts": len(conflicts)})
    mem.forget_vocabulary()
    return {"operation_id": op.id, **op.summary, "conflicts": conflicts}


def _read_records(path: Path) -> tuple[dict[str, Any], list[tuple[int, MemoryRecord, list[float] | None]]]:
    """The header line (format, model, dim) if there is one, and every record with its line number."""
    header: dict[str, Any] = {}
    records: list[tuple[int, MemoryRecord, list[float] | None]] = []
    for number, line in enumerate(utf8_text(path.read_bytes()).splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"line {number}", f"not JSON: {exc.msg}") from None
        if number == 1 and isinstance(data, dict) and "format" in data:
            header = data
            if not isinstance(header.get("model"), str | None):
                raise InvalidInput("line 1.model", "must be the embedding model's name, or null")
            dim = header.get("dim")
            if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim < 1):
                raise InvalidInput(
                    "line 1.dim", f"must be the model's dimension (a whole number), not {dim!r}"
                )
            continue
        try:
            record, vector = from_shodh(data)
        except InvalidInput as exc:
            raise InvalidInput(f"line {number}.{exc.field}", exc.problem) from None
        records.append((number, record, vector))
    return header, records


def _check_vector(vector: list[float], where: str, header: dict[str, Any], *, stored: bool) -> None:
    """A vector is as long as its model's (the header's); one that will be stored as this model's must also be
    of unit length, as the model's are. A wrong one in the store broke every search until `engram reembed`."""
    model, dim = header.get("model"), header.get("dim")
    if dim is not None and len(vector) != dim:
        raise InvalidInput(where, f"has {len(vector)} values; {model}'s vectors have {dim}")
    if stored and abs(float(np.linalg.norm(vector)) - 1.0) > 1e-3:
        raise InvalidInput(where, f"is not a unit vector (its length is {float(np.linalg.norm(vector)):.4g})")


def _not_stored(
    mem: Memory, records: list[tuple[MemoryRecord, list[float] | None]]
) -> list[tuple[MemoryRecord, list[float] | None]]:
    """Leave out what is stored already: a memory whose content the database (or an earlier line) holds in
    the same scope for the same owner, as the write path's duplicate check does, and the chunks of every memory
    left out."""
    kept: set[str] = set()
    seen: set[tuple[str, str, str | None, str | None, str | None]] = set()
    for record, _ in records:
        if record.parent_id is not None:
            continue
        key = (record.content_hash, record.scope.value, record.scope_id, record.user_id, record.workspace_id)
        stored = mem.store.find_hash(record.content_hash, record.scope, record.scope_id, record.user_id,
                                     record.workspace_id)  # fmt: skip
        if key not in seen and stored is None:
            kept.add(record.id)
        seen.add(key)
    return [(r, v) for r, v in records if (r.id if r.parent_id is None else r.parent_id) in kept]


def _as_written(mem: Memory, record: MemoryRecord) -> tuple[MemoryRecord, list[str]]:
    """A foreign record with its token count and personal data noted, and the passages it is stored in."""
    update: dict[str, Any] = {"token_count": len(mem.embedder.token_offsets(record.content))}
    found = pii.scan(record.content)
    if found.risk == 2 and "pii_found" not in record.metadata:
        update["metadata"] = record.metadata | {"pii_found": found.names}
    return record.model_copy(update=update), write.passages(mem, record.content)


def _uncategorised(record: MemoryRecord, chunked: set[str]) -> bool:
    """A record from another system (SHODH has no categories) that is searched by its own vector."""
    return record.category_method == "imported" and record.category is None and record.parent_id is None and (
        record.id not in chunked
    )


def _openings(mem: Memory, records: list[MemoryRecord]) -> dict[str, Vector]:
    """The opening words the category classifier reads of each record, embedded in one batch."""
    said = {r.id: o for r in records if (o := mem.categories.opening(r.content)) is not None}
    if not said:
        return {}
    return dict(zip(said, mem.embedder.embed_batch(list(said.values())), strict=True))


def _categorised(mem: Memory, op: Any, record: MemoryRecord, vector: Vector, opening: Vector | None) -> MemoryRecord:
    """A record without a category gets one as store_memory would give it, the decision in the audit log: a
    memory imported from another system is then found by the category questions (what is due, content_type)."""
    fields = write.decided_again(mem, record, vector, opening, kind=False, category=True)
    op.audit("categorise", record.id, {"category": None if fields["category"] is None else fields["category"].value,
                                       "confidence": fields["category_confidence"],
                                       "method": fields["category_method"]})  # fmt: skip
    return record.model_copy(update=fields)


def _register_tags(mem: Memory, op: Any, records: list[MemoryRecord]) -> None:
    tags = sorted({t for r in records for t in r.tags})
    if not tags:
        return
    for tag in tags:
        op.before_tag(tag)
    known = {t.tag for t in mem.store.tags(("active", "archived", "merged"))}
    new = [t for t in tags if t not in known]
    vectors = (
        dict(zip(new, mem.embedder.embed_batch([t.replace("-", " ") for t in new]), strict=True))
        if new
        else {}
    )
    for record in records:
        mem.store.use_tags(
            list(record.tags), record.created_at, {t: vectors[t] for t in record.tags if t in vectors}
        )


def import_tinydb(mem: Memory, directory: Path) -> dict[str, Any]:
    """The old TinyDB layout through the store_memory pipeline, as one operation."""
    old = read_tinydb(directory)
    outcomes: dict[str, int] = {}
    kept_ids: list[str] = []
    with operation(mem.store, "import_tinydb") as op:
        for item in old.memories:
            fields = to_new_memory(item)
            exists = mem.store.get(item.id) is not None
            context: dict[str, Any] = {}
            if fields.get("category") is not None:
                context["force_category"] = fields["category"]
            if item.expires_at is not None:
                context["expires_at"] = item.expires_at
            keep = {k: fields[k] for k in ("created_at", "tags", "metadata") if fields.get(k) is not None}
            if item.importance is not None:
                context["force_importance"] = item.importance
            if not exists:
                keep["id"] = item.id
            result = tools.store_memory(mem, fields["content"], context, fields=keep, op=op)
            outcomes[result["outcome"]] = outcomes.get(result["outcome"], 0) + 1
            kept_ids.append(result["memory_id"])
        for tag in old.tags:
            row = mem.store.tag(tag.tag)
            op.before_tag(tag.tag)
            if row is None:  # an old tag no memory carries: kept, archived
                mem.store.put_tag(TagRow(tag.tag, 0, tag.created_at, tag.last_used_at, "archived"))
            else:
                mem.store.put_tag(
                    TagRow(
                        row.tag,
                        row.usage_count,
                        min(row.first_used_at, tag.created_at),
                        max(row.last_used_at, tag.last_used_at),
                        row.status,
                        row.merged_into,
                        row.vector,
                    )
                )
        op.summary = {
            "memories": len(old.memories),
            "outcomes": outcomes,
            "old_tags": len(old.tags),
            "old_categories": list(old.categories),
        }
        op.audit("import_tinydb", None, {"directory": str(directory), **op.summary})
    mem.forget_vocabulary()
    return {"operation_id": op.id, **op.summary, "ids": kept_ids}
