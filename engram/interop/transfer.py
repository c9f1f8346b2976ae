"""Moving memories in and out as the unified SHODH record (JSON Lines with a header line).

Export writes every record (top-level memories and the chunks of long ones, every status) with its embedding,
so an import into an empty database gives the same records back. Import checks the whole file first (one bad
record refuses it), runs as one operation (it can be rolled back), keeps ids, skips ids already present and
content already stored (same hash, scope and owner: the write path's duplicate rule), computes each content
hash itself, and embeds again with this database's model unless the file's model is the same. With PII
redaction on, a record holding raw personal data is redacted and embedded again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from engram.classify.service import Classifiers
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput
from engram.interop.files import (
    file_at,
    finished,
    held_file,
    json_lines,
    json_record,
    not_empty,
    private_file,
    utf8_text,
)
from engram.interop.shodh import from_shodh, to_shodh
from engram.lang import pii
from engram.model.answers import ExportAnswer, ImportAnswer
from engram.model.limits import bounded
from engram.model.record import MemoryRecord, Status
from engram.model.vectors import Vector, content_hash
from engram.store.roles import AuditLog, Meta, Rows, TagRegistry, Transactions
from engram.store.values import Filter
from engram.tags.service import TagService
from engram.write.operations import Operation, Operations
from engram.write.rules import mean
from engram.write.writer import Writer


class TransferStore(Transactions, Meta, Rows, TagRegistry, AuditLog, Protocol):
    """What export reads and import writes."""


FORMAT = "shodh-memory+jsonl"  # the header line's format: the one this module writes and reads
# Records a server imports from one file. Each is held checked in memory before any is stored (about 2.4 KB a
# small record, 25 times its line): a 256 MiB upload of tiny records took 6 GB. An export of that many memories
# with their embeddings is about 1 GB.
MAX_SERVER_RECORDS = 250_000
_EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


def _redacted(record: MemoryRecord, vector: list[float] | None) -> tuple[MemoryRecord, list[float] | None]:
    """With redaction on, an imported record keeps no raw PII either; its vector, made from the raw text, is
    dropped so that the redacted text is embedded again."""
    update = pii.redaction(record.content, record.metadata, record.tags, record.emotion)
    if update is None:
        return record, vector
    if update["content"] == record.content:
        return record.model_copy(update=update), vector
    return record.model_copy(update=update | {"content_hash": content_hash(update["content"])}), None


def _read_records(path: Path) -> tuple[dict[str, Any], list[tuple[int, MemoryRecord, list[float] | None]]]:
    """The header line (format, model, dim) if there is one, and every record with its line number."""
    header: dict[str, Any] = {}
    records: list[tuple[int, MemoryRecord, list[float] | None]] = []
    for number, line in enumerate(json_lines(utf8_text(path.read_bytes())), 1):
        if not line.strip():
            continue
        try:
            data = json_record(line)
        except InvalidInput as exc:
            raise InvalidInput(f"line {number}.{exc.field}", exc.problem) from None
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"line {number}", f"not JSON: {exc.msg}") from None
        except RecursionError:
            raise InvalidInput(f"line {number}", "is nested too deeply to read") from None
        except ValueError:  # a number longer than Python converts (4,300 digits)
            raise InvalidInput(f"line {number}", "holds a number too long to read") from None
        bounded(f"line {number}.metadata", data.get("metadata") if isinstance(data, dict) else None)
        if number == 1 and isinstance(data, dict) and "format" in data:
            header = data
            if header["format"] != FORMAT:
                shown = str(header["format"])[:40]
                raise InvalidInput("line 1.format", f"must be {FORMAT!r} (what export writes), not {shown!r}")
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


def _few_enough(path: Path) -> None:
    """Refuse a file of more records than a server imports at once, counted before any is read."""
    count = 0
    with path.open("rb") as file:
        for line in file:
            count += bool(line.strip())
            if count > MAX_SERVER_RECORDS + 1:  # the header line is not a record
                raise InvalidInput(
                    "file",
                    f"holds more than {MAX_SERVER_RECORDS:,} records, more than a server imports at once: "
                    "split it, or import it with `engram import` where the database is",
                )


def _check_vector(vector: list[float], where: str, header: dict[str, Any], *, stored: bool) -> None:
    """A vector is as long as its model's (the header's); one that will be stored as this model's must also be
    of unit length, as the model's are. A wrong one in the store broke every search until `engram reembed`."""
    model, dim = header.get("model"), header.get("dim")
    if dim is not None and len(vector) != dim:
        raise InvalidInput(where, f"has {len(vector)} values; {model}'s vectors have {dim}")
    if stored and abs(float(np.linalg.norm(vector)) - 1.0) > 1e-3:
        raise InvalidInput(where, f"is not a unit vector (its length is {float(np.linalg.norm(vector)):.4g})")


def _uncategorised(record: MemoryRecord, chunked: set[str]) -> bool:
    """A record from another system (SHODH has no categories) that is searched by its own vector."""
    return (
        record.category_method == "imported"
        and record.category is None
        and record.parent_id is None
        and (record.id not in chunked)
    )


class Transfer:
    def __init__(
        self,
        settings: Settings,
        store: TransferStore,
        embedder: Embedder,
        writer: Writer,
        classifiers: Classifiers,
        tags: TagService,
        operations: Operations,
        files: Path | None,
    ) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._writer = writer
        self._classifiers = classifiers
        self._tags = tags
        self._operations = operations
        self.files = files  # the directory the files are confined to; None: anywhere

    def export_memories(self, path: str | Path, *, with_embeddings: bool = True) -> ExportAnswer:
        """Write every memory as unified SHODH records (JSON Lines with a header line) to `path`, a new file;
        with embeddings (and the model's name) unless `with_embeddings` is false."""
        path = file_at(path, self.files, new=True)
        count = chunks = 0
        # One moment of the store, read a batch at a time: read as it went, a forget or a merge between two
        # batches gave a file that was the store at no time (a memory missing, or beside its merged form).
        with finished(path, private_file(path)) as out, self._store.snapshot():
            model = self._store.model()
            header = {"format": FORMAT, "model": model and model[0], "dim": model and model[1]}
            if not with_embeddings:
                header = {"format": FORMAT, "model": None, "dim": None}
            out.write(json.dumps(header) + "\n")
            for batch in self._store.iter_all():
                vectors = self._store.vectors([r.id for r in batch]) if with_embeddings else {}
                for record in batch:
                    vector = vectors.get(record.id)
                    data = to_shodh(record, None if vector is None else vector.tolist())
                    out.write(json.dumps(data, ensure_ascii=False) + "\n")
                    count += 1
                    chunks += record.parent_id is not None
        # Records written, and of them the memories and the chunks of long ones (stats counts memories alone).
        counts = {"exported": count, "memories": count - chunks, "chunks": chunks}
        self._store.audit("export", None, {"path": str(path), **counts})
        return {"path": str(path), "exported": count, "memories": count - chunks, "chunks": chunks}

    def import_memories(self, path: str | Path) -> ImportAnswer:
        """Read SHODH records from `path`, as one operation that rollback undoes. The whole file is checked
        before anything is stored: one bad record refuses the import and the database stays as it was."""
        with held_file(file_at(path, self.files, new=False), self.files, path) as target:
            not_empty(target, path)
            if self.files is not None:  # a server's tenant: its memory is the server's
                _few_enough(target)
            header, lines = _read_records(target)
        same_model = (header.get("model"), header.get("dim")) == (self._embedder.name, self._embedder.dim)
        first: dict[str, int] = {}
        for number, record, vector in lines:
            if record.id in first:
                raise InvalidInput(f"line {number}.id", f"repeats the id of line {first[record.id]}")
            first[record.id] = number
            if vector is not None:
                _check_vector(vector, f"line {number}.embedding", header, stored=same_model)
        stored = {r.id: r for r in self._store.get_many(list(first))}
        present = set(stored)
        # An id taken by another text is not this record: said, so nothing is dropped unseen.
        conflicts = [
            {"line": number, "id": r.id, "reason": "the id is another memory's, with other content"}
            for number, r, _ in lines
            if r.id in stored and stored[r.id].content_hash != r.content_hash
        ]
        in_file = {r.id: r for _, r, _ in lines}
        for number, record, _ in lines:
            parent = record.parent_id
            if parent is not None and parent not in first and parent not in present:
                raise InvalidInput(
                    f"line {number}.parent_id", f"{parent} is a memory neither in the file nor stored"
                )
            # A chunk's parent is a memory, never another chunk: a chain or a loop of parents is no memory.
            above = in_file.get(parent or "")  # a parent not in the file was refused above
            if above is not None and above.parent_id is not None:
                raise InvalidInput(
                    f"line {number}.parent_id",
                    f"{parent} is itself a chunk (of {above.parent_id}), not a memory",
                )
        parsed = [(r, v) for _, r, v in lines]
        fresh = [(r, v) for r, v in parsed if r.id not in present]
        if self._settings.redact_pii:
            fresh = [_redacted(r, v) for r, v in fresh]
        fresh = self._not_stored(fresh)
        # Parents before their chunks; a parent with chunks is searched through them and has no vector.
        fresh.sort(key=lambda rv: (rv[0].parent_id is not None, rv[0].chunk_index or 0))
        chunked = {r.parent_id for r, _ in fresh if r.parent_id is not None}
        # A record from another system is written as Engram writes its own: counted in model tokens, cut into
        # chunks when long (one vector reads only its first 256 tokens), its personal data noted.
        foreign = {
            r.id: self._as_written(r)
            for r, _ in fresh
            if r.kind_method == "imported" and r.parent_id is None and r.id not in chunked
        }
        fresh = [(foreign[r.id][0] if r.id in foreign else r, v) for r, v in fresh]
        passages = {i: texts for i, (_, texts) in foreign.items() if len(texts) > 1}
        cut = [t for texts in passages.values() for t in texts]
        cut_vectors: Iterator[Vector] = iter(self._embedder.embed_batch(cut) if cut else [])
        piece_vectors = {i: [next(cut_vectors) for _ in texts] for i, texts in passages.items()}
        embed = [
            r
            for r, v in fresh
            if r.id not in chunked and r.id not in passages and (v is None or not same_model)
        ]
        new_vectors = (
            dict(
                zip(
                    [r.id for r in embed], self._embedder.embed_batch([r.content for r in embed]), strict=True
                )
            )
            if embed
            else {}
        )
        openings = self._openings([r for r, _ in fresh if _uncategorised(r, chunked)])
        with self._operations.run("import_memories") as op:
            # Checked again under the write lock: another process may have stored some of them since (the same
            # file imported twice at once failed on a taken id with SQLite's own error).
            fresh = self._still_new(fresh)
            for record, vector in fresh:
                op.before_memory(record.id, None)
                if record.id in passages:
                    whole = mean(piece_vectors[record.id])
                    if _uncategorised(record, chunked):
                        record = self._categorised(op, record, whole, openings.get(record.id))
                    rows, vectors = self._writer.with_chunks(
                        record, passages[record.id], piece_vectors[record.id], whole
                    )
                    for row in rows[1:]:
                        op.before_memory(row.id, None)
                    self._store.insert(rows, vectors)
                    continue
                if record.id in chunked:
                    use = None
                elif record.id in new_vectors:
                    use = new_vectors[record.id]
                else:
                    use = np.asarray(vector, dtype=np.float32)
                if use is not None and _uncategorised(record, chunked):
                    record = self._categorised(op, record, use, openings.get(record.id))
                self._store.insert([record], [use])
            self._register_tags(op, [r for r, _ in fresh if r.parent_id is None])
            op.summary = {
                "imported": len(fresh),
                "skipped": len(parsed) - len(fresh),
                "reembedded": len(new_vectors),
            }
            op.audit(
                "import_memories", None, {"path": str(target), **op.summary, "conflicts": len(conflicts)}
            )
        self._tags.reload()
        return cast(ImportAnswer, {"operation_id": op.id, **op.summary, "conflicts": conflicts})

    def _still_new(
        self, records: list[tuple[MemoryRecord, list[float] | None]]
    ) -> list[tuple[MemoryRecord, list[float] | None]]:
        """`records` less the memories (and their chunks) whose id or content is stored now."""
        tops = [r for r, _ in records if r.parent_id is None]
        taken = {r.id for r in self._store.get_many([r.id for r in tops])}
        taken |= {
            r.id
            for r in tops
            if self._store.find_hash(r.content_hash, r.scope, r.scope_id, r.user_id, r.workspace_id)
        }
        return [(r, v) for r, v in records if (r.parent_id or r.id) not in taken]

    def _not_stored(
        self, records: list[tuple[MemoryRecord, list[float] | None]]
    ) -> list[tuple[MemoryRecord, list[float] | None]]:
        """Leave out what is stored already: a memory whose content the database (or an earlier line) holds in
        the same scope for the same owner, as the write path's duplicate check does, and the chunks of every memory
        left out."""
        kept: set[str] = set()
        seen: set[tuple[str, str, str | None, str | None, str | None]] = set()
        for record, _ in records:
            if record.parent_id is not None:
                continue
            key = (
                record.content_hash,
                record.scope.value,
                record.scope_id,
                record.user_id,
                record.workspace_id,
            )
            stored = self._store.find_hash(
                record.content_hash, record.scope, record.scope_id, record.user_id, record.workspace_id
            )
            if key not in seen and stored is None:
                kept.add(record.id)
            seen.add(key)
        return [(r, v) for r, v in records if (r.id if r.parent_id is None else r.parent_id) in kept]

    def _as_written(self, record: MemoryRecord) -> tuple[MemoryRecord, list[str]]:
        """A foreign record with its token count and personal data noted, and the passages it is stored in."""
        update: dict[str, Any] = {"token_count": len(self._embedder.token_offsets(record.content))}
        found = pii.scan(record.content)
        if found.risk == 2 and "pii_found" not in record.metadata:
            update["metadata"] = record.metadata | {"pii_found": found.names}
        return record.model_copy(update=update), self._writer.passages(record.content)

    def _openings(self, records: list[MemoryRecord]) -> dict[str, Vector]:
        """The opening words the category classifier reads of each record, embedded in one batch."""
        said = {
            r.id: o for r in records if (o := self._classifiers.categories.opening(r.content)) is not None
        }
        if not said:
            return {}
        return dict(zip(said, self._embedder.embed_batch(list(said.values())), strict=True))

    def _categorised(
        self, op: Operation, record: MemoryRecord, vector: Vector, opening: Vector | None
    ) -> MemoryRecord:
        """A record without a category gets one as store_memory would give it, the decision in the audit log: a
        memory imported from another system is then found by the category questions (what is due, content_type)."""
        fields = self._writer.decided_again(record, vector, opening, kind=False, category=True)
        op.audit(
            "categorise",
            record.id,
            {
                "category": None if fields["category"] is None else fields["category"].value,
                "confidence": fields["category_confidence"],
                "method": fields["category_method"],
            },
        )
        return record.model_copy(update=fields)

    def _register_tags(self, op: Operation, records: list[MemoryRecord]) -> None:
        tags = sorted({t for r in records for t in r.tags})
        if not tags:
            return
        for tag in tags:
            op.before_tag(tag)
        known = {t.tag for t in self._store.tags(("active", "archived", "merged"))}
        new = [t for t in tags if t not in known]
        vectors = (
            dict(zip(new, self._embedder.embed_batch([t.replace("-", " ") for t in new]), strict=True))
            if new
            else {}
        )
        for record in records:
            self._store.use_tags(
                list(record.tags), record.created_at, {t: vectors[t] for t in record.tags if t in vectors}
            )
