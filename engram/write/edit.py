"""Changing what is stored: update a memory (new content re-embedded and decided again; the tag registry's
counts kept those of the memories), supersede, invalidate, forget, and re-embed everything with another model."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from pydantic import ValidationError

from engram.classify.service import Classifiers
from engram.classify.taxonomy import split_prefix
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput, NotFound
from engram.lang import pii
from engram.model.limits import bounded_fields
from engram.model.record import Kind, MemoryRecord, NewMemory, Status, invalid_from, parse, utcnow
from engram.model.results import RememberResult
from engram.model.vectors import Vector, content_hash
from engram.store.roles import AuditLog, Meta, Rows, Transactions, Upkeep
from engram.store.values import Filter
from engram.tags.service import TagService
from engram.tags.tagger import Tagger
from engram.write.links import personal, unlink_forgotten
from engram.write.rules import LIVE, mean, redacted
from engram.write.writer import Writer


class EditStore(Transactions, Meta, Rows, AuditLog, Upkeep, Protocol):
    """What edits read and write."""


# A memory's identity and history are not edited: a new id would write over another memory.
_FIXED = frozenset({"id", "created_at"})
# How a kind or category was set when the classifiers decided it (not by hand, a prefix or an import): new
# content decides it again.
_DECIDED = frozenset({"auto", "fallback"})
_DECIDED_FIELDS = ("kind", "category")
# What store_memory's analysis keeps in a memory's metadata (enrich.Tagging.metadata).
_ANALYSIS = frozenset({"concepts", "entities", "importance_indicators", "auto_tags"})
# What Engram keeps in a memory's metadata to decide things about other memories or its personal data, each
# with what sets it: search orders by the links, and a guess is never a memory noted as holding personal data.
# An edit may send them back unchanged (a client round-tripping metadata) but not set, change or remove them.
_KEPT = {
    "updated_by": "store_memory, when a newer memory says this one changed",
    "updates": "store_memory, when this memory says an older one changed",
    "superseded_by": "supersede_memory",
    "supersedes_id": "supersede_memory",
    "merged_into": "merge_memories",
    "pii_found": "store_memory's personal-data scan, read again when the content is edited",
    "pii_redacted": "store_memory's redaction, read again when the content is edited",
    "pii": "ingest_conversation's personal-data scan, read again when the content is edited",
}
_LINKS = ("updated_by", "updates", "superseded_by", "supersedes_id", "merged_into")
# In `metadata.overridden`: the tags were set by hand, and the text's own tags no longer replace them.
_SET_TAGS = "auto_tags"
# The fields where an edit can bring personal data (redaction reads them).
_FREE_TEXT = frozenset({"content", "tags", "metadata", "emotion"})


def fetch(store: Rows, memory_id: str) -> MemoryRecord:
    """The memory with this id; NotFound if there is none."""
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise InvalidInput("id", "must be a memory's id, not empty")
    record = store.get(memory_id)
    if record is None:
        raise NotFound(memory_id)
    return record


def whole(store: Rows, memory_id: str, action: str) -> MemoryRecord:
    """The memory to act on, refused if it is a chunk: a chunk is part of a memory, not one of its own."""
    record = fetch(store, memory_id)
    if record.parent_id is not None:
        raise InvalidInput(
            "id", f"is chunk {record.chunk_index} of memory {record.parent_id}; {action} that memory instead"
        )
    return record


class Editor:
    """Edits, supersessions, forgetting and re-embedding. New content is prepared as the write path prepares a
    new memory's (the writer's passages, chunks and classification), and its automatic tags are read again by
    the tagger."""

    def __init__(
        self,
        settings: Settings,
        store: EditStore,
        embedder: Embedder,
        classifiers: Classifiers,
        tags: TagService,
        tagger: Tagger,
        writer: Writer,
    ) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._classifiers = classifiers
        self._tags = tags
        self._tagger = tagger
        self._writer = writer

    def update(self, memory_id: str, fields: dict[str, Any]) -> MemoryRecord:
        """Change fields of a memory (not of a chunk: its fields are its memory's, which its chunks follow); new
        content is embedded again, and a long memory's chunks are cut from it again. The metadata Engram keeps
        (links to other memories, personal-data notes) stays as it is."""
        return self._update(memory_id, fields, engine=False)

    def _update(self, memory_id: str, fields: dict[str, Any], *, engine: bool) -> MemoryRecord:
        """An edit; `engine` when Engram itself sets the metadata it keeps (supersede)."""
        bounded_fields(fields)
        if isinstance(fields.get("content"), str):
            # Refused by its length before any reading: a 900,000-character edit was scanned for personal data
            # (seconds) before the length check after it.
            self._writer.check_length(fields["content"])
        old = whole(self._store, memory_id, "update")  # a chunk's fields are its memory's
        named_kind = False
        allowed = set(NewMemory.model_fields) - _FIXED
        if fixed := set(fields) & _FIXED:
            raise InvalidInput(sorted(fixed)[0], "cannot be changed")
        if unknown := set(fields) - allowed:
            raise InvalidInput(sorted(unknown)[0], "is not a field that can be updated")
        if nulls := [
            name for name in ("kind", "importance", "content") if name in fields and fields[name] is None
        ]:
            raise InvalidInput(nulls[0], "must not be null")
        if old.status is Status.SUPERSEDED and str(fields.get("status", "")) in {s.value for s in LIVE}:
            # Live again, it would stand beside the memory that replaced it (as review refuses).
            newer = old.metadata.get("superseded_by") or old.metadata.get("merged_into") or "a newer memory"
            raise InvalidInput(
                "status", f"memory {old.id} is superseded by {newer}; roll back or supersede that one"
            )
        if str(fields.get("status", "")) == Status.SUPERSEDED.value and old.status is not Status.SUPERSEDED:
            given = fields.get("metadata")
            successor: dict[str, Any] = given if isinstance(given, dict) else {}
            if not (successor.get("superseded_by") or successor.get("merged_into")):
                # Superseded by nothing, the memory would be stranded: no edit nor review makes it live again.
                raise InvalidInput(
                    "status",
                    "superseded is set by supersede or a merge, which name the memory that replaces it; "
                    "archive, reject or forget this one instead",
                )
        if not engine and isinstance(fields.get("metadata"), dict):
            _kept_as_is(old.metadata, fields["metadata"])
        if isinstance(fields.get("content"), str) and "kind" not in fields:
            # "task: ..." names its kind, as when it was first written; the prefix is not part of the text.
            prefixed, text = split_prefix(fields["content"], [k.value for k in Kind])
            if prefixed is not None:
                fields = fields | {"content": text, "kind": prefixed}
                named_kind = True
        if isinstance(fields.get("metadata"), dict):
            # What the engine keeps (store_memory's analysis, links, personal-data notes) is not the caller's to
            # drop by leaving it out.
            keep = _ANALYSIS | _KEPT.keys()
            fields = fields | {
                "metadata": {k: v for k, v in old.metadata.items() if k in keep} | fields["metadata"]
            }
        merged = parse(NewMemory, old.model_dump(include=allowed) | {"kind": old.kind} | fields)
        if (
            self._settings.redact_pii and fields.keys() & _FREE_TEXT
        ):  # a status or importance edit brings no text
            merged = redacted(merged)
        # New text, given or made by redaction (an edit of the tags redacts an old text stored before redaction was on).
        rewritten = merged.content != old.content
        if rewritten:
            merged = _pii_noted(merged)
        change: dict[str, Any] = merged.model_dump(exclude=set(_FIXED)) | {"updated_at": utcnow()}
        for name in ("kind", "category"):
            if name in fields:
                change |= {f"{name}_method": "explicit", f"{name}_confidence": 1.0}
        if named_kind:
            change["kind_method"] = "prefix"
        change |= self._auto_tags(merged, fields, rewritten, old.tags)
        texts: list[str] = []
        vectors: list[Vector] = []
        if rewritten:
            self._writer.check_length(merged.content)
            change["content_hash"] = content_hash(merged.content)
            self._not_another(old.id, merged, change["content_hash"])
            change["token_count"] = len(self._embedder.token_offsets(merged.content))
            texts = self._writer.passages(merged.content)
            opening = self._classifiers.opening(merged.content)
            batch = self._embedder.embed_batch([*texts, *([opening] if opening else [])])
            vectors = list(batch[: len(texts)])
            # What the classifiers decided of the old text is decided again, unless it was said by hand.
            again = {n: n not in fields and getattr(old, f"{n}_method") in _DECIDED for n in _DECIDED_FIELDS}
            change |= self._writer.decided_again(
                old, mean(vectors), batch[len(texts)] if opening else None, **again, text=merged.content
            )
        try:
            record = MemoryRecord.model_validate(old.model_dump() | change)
        except ValidationError as exc:
            raise invalid_from(exc) from None
        with self._store.atomic():
            # Read again under the write lock: another process may have forgotten or changed it since (the
            # edit would write a forgotten memory back, or drop the other change unseen).
            if (now := self._store.get(old.id)) is None:
                raise NotFound(memory_id)
            if now.updated_at != old.updated_at:
                raise InvalidInput("id", f"{memory_id} was changed while this edit was made; edit it again")
            if len(texts) > 1 or (texts and self._store.children(old.id)):
                # Chunked before or after: the memory's rows are written again, with its new passages.
                self._store.delete(old.id)
                self._store.insert(*self._writer.with_chunks(record, texts, vectors, mean(vectors)))
            else:
                self._store.update(record, vectors[0] if vectors else None)
            if record.parent_id is None and record.tags != old.tags:
                self._tags.retag(old.tags, record.tags)
            # The wording it replaced, as a merge keeps it: a forget erases it wherever it was copied (the
            # message it was drawn from stays in the sources until then).
            replaced = {"old_content": old.content} if rewritten else {}
            self._store.audit(
                "update", memory_id, {"fields": sorted(fields)} | replaced | _decided(old, record)
            )
        return record

    def invalidate(self, memory_id: str, *, negative: bool = False) -> MemoryRecord:
        """Mark a memory as no longer valid (validity 0), or as a negative statement (penalised in recall)."""
        change: dict[str, Any] = {"is_negative": True} if negative else {"validity_score": 0.0}
        return self.update(memory_id, change)

    def supersede(self, memory_id: str, content: str, fields: dict[str, Any]) -> RememberResult:
        """A newer memory replaces an older one: the old one is kept as superseded, the new one names it."""
        old = whole(self._store, memory_id, "supersede")
        if old.status is Status.SUPERSEDED:  # else two memories would both be the current version
            newer = old.metadata.get("superseded_by", "a newer memory")
            raise InvalidInput("id", f"is already superseded by {newer}; supersede that one instead")
        fields = dict(fields)
        given = fields.pop("metadata", {}) or {}
        if isinstance(given, dict):
            unlinked(given)
        metadata = dict(given) | {"supersedes_id": old.id}
        base = {"scope": old.scope, "scope_id": old.scope_id, "kind": old.kind, "tags": old.tags}
        item = {"content": content, **(base | fields | {"metadata": metadata})}
        result = self._writer.remember_many([item])[0]
        if result.id != old.id:
            self._update(
                old.id,
                {"status": Status.SUPERSEDED, "metadata": old.metadata | {"superseded_by": result.id}},
                engine=True,
            )
            self._store.audit("supersede", old.id, {"by": result.id})
        return result

    def forget(self, memory_id: str) -> list[str]:
        """Delete a memory and its chunks, and erase every copy of their text (audit entries, before-images,
        sources, learned prototypes) and the tags only it carried. Explicit only: nothing automatic deletes. The
        audit log keeps that it was forgotten (id, time, kind), without its text or a hash that could confirm it.
        Returns the ids of the memories it had replaced, archived now (links.unlink_forgotten)."""
        record = whole(self._store, memory_id, "forget")
        chunks = self._store.children(record.id)
        with self._store.atomic():
            self._classifiers.save_learned()  # so that the prototypes it taught are rows the erase removes
            self._store.delete(record.id)
            archived = unlink_forgotten(
                self._store, record
            )  # no memory names it; those it replaced set aside
            self._tags.drop_uses(record.tags)
            every = Filter(statuses=tuple(Status), include_expired=True)
            alone = [t for t in record.tags if not self._store.count(replace(every, tags=(t,)))]
            # A tag's old names (renamed or folded into it) spell the same text: gone with it unless carried.
            alone += [
                t for t in self._store.renamed_into(alone) if not self._store.count(replace(every, tags=(t,)))
            ]
            texts = [record.content, *(c.content for c in chunks)]
            self._store.erase([record.id, *(c.id for c in chunks)], texts, alone, personal(record.content))
            self._store.audit("forget", record.id, {"kind": record.kind.value})
        self._store.settle()
        self._tags.reload()
        self._classifiers.forget_cache()
        return archived

    def reembed(self, progress: Callable[[int, int], None] | None, batch: int) -> int:
        """Re-embed every stored text with this embedder and record the model; returns the count."""
        store = self._store
        todo = store.stats().embedded
        done = 0
        store.set_model(self._embedder.name, self._embedder.dim)
        for records in store.iter_all(batch):
            have = store.vectors([r.id for r in records])
            embedded = [r for r in records if r.id in have]
            if embedded:
                vectors = self._embedder.embed_batch([r.content for r in embedded])
                store.set_vectors([r.id for r in embedded], vectors)
            done += len(embedded)
            if progress:
                progress(done, todo)
        self._classifiers.forget_learned()  # learned in the old vector space
        store.rebuild_index()
        store.audit("reembed", None, {"model": self._embedder.name, "count": done})
        return done

    def _auto_tags(
        self, item: NewMemory, fields: dict[str, Any], rewritten: bool, before: tuple[str, ...]
    ) -> dict[str, Any]:
        """The tags store_memory gave a memory (its metadata's `auto_tags`) follow its content: new content gets
        them from its own analysis, and the tags the caller gave or added since stay. Tags set by hand (other
        than the `before` ones) are the memory's tags from then on, recorded as overridden: a later content edit
        keeps them as set. So does the importance it scored, unless it was forced or set by hand."""
        automatic = item.metadata.get("auto_tags")
        if not isinstance(automatic, list):
            return {}  # not tagged by store_memory, or before it kept which tags were its own
        overridden = list(item.metadata.get("overridden") or [])
        if "importance" in fields and "importance" not in overridden:
            overridden.append("importance")
        # Noted as "auto_tags" ("tags" says store_memory was given some); tags sent back as they were (a form
        # round-tripping every field) set nothing.
        if "tags" in fields and set(item.tags) != set(before) and _SET_TAGS not in overridden:
            overridden.append(_SET_TAGS)
        meta = item.metadata | ({"overridden": overridden} if overridden else {})
        change: dict[str, Any] = {}
        if "tags" in fields or (rewritten and _SET_TAGS in overridden):
            # The tags are the caller's; new text still brings its own concepts and entities.
            tagging = self._tagger.tagged(item.content, item.tags) if rewritten else None
            found = {} if tagging is None else tagging.metadata
            change["metadata"] = meta | found | {"auto_tags": [t for t in automatic if t in item.tags]}
        elif rewritten:
            tagging = self._tagger.tagged(item.content, [t for t in item.tags if t not in automatic])
            change = {"tags": tagging.plan.tags, "metadata": meta | tagging.metadata}
        else:
            return {"metadata": meta} if meta != item.metadata else {}
        if tagging is not None and "importance" not in overridden:
            change["importance"] = (tagging.found.importance - 1) / 4  # store_memory's 1-5, stored as 0..1
        return change

    def _not_another(self, memory_id: str, item: NewMemory, new_hash: str) -> None:
        """An edit may not make a memory word for word another live one: remembered, that text is the one memory."""
        other = self._store.find_hash(new_hash, item.scope, item.scope_id, item.user_id, item.workspace_id)
        if other is not None and other.id != memory_id and other.status in LIVE:
            raise InvalidInput("content", f"is already memory {other.id}; edit or forget that one instead")


def unlinked(metadata: dict[str, Any]) -> None:
    """Refuse a new memory's metadata that names its links to other memories: only the tools that link memories
    (store_memory, supersede, merge) set them."""
    for key in _LINKS:
        if key in metadata:
            raise InvalidInput(f"metadata.{key}", f"is kept by Engram (set by {_KEPT[key]}); leave it out")


def _kept_as_is(old: dict[str, Any], given: dict[str, Any]) -> None:
    """Refuse an edit's metadata that sets, changes or removes (null) what Engram keeps; sent back as stored, or
    left out, it stays."""
    for key, setter in _KEPT.items():
        if key in given and (key not in old or _plain(given[key]) != _plain(old[key])):
            raise InvalidInput(
                f"metadata.{key}",
                f"is kept by Engram (set by {setter}); an edit may send it back unchanged, "
                "not set, change or remove it",
            )


def _plain(value: Any) -> str:
    """A metadata value as stored (JSON): a tuple sent back equals the list it was."""
    return json.dumps(value, sort_keys=True, default=str)


def _decided(old: MemoryRecord, new: MemoryRecord) -> dict[str, Any]:
    """What an edit of the content decided again, as the audit log keeps it."""
    out: dict[str, Any] = {}
    for name in _DECIDED_FIELDS:
        if getattr(old, f"{name}_method") in _DECIDED and getattr(new, name) != getattr(old, name):
            value = getattr(new, name)
            out[name] = {
                "from": getattr(getattr(old, name), "value", None),
                "to": getattr(value, "value", None),
                "confidence": getattr(new, f"{name}_confidence"),
            }
    if added := [t for t in new.tags if t not in old.tags]:
        out["tags_added"] = added
    if dropped := [t for t in old.tags if t not in new.tags]:
        out["tags_dropped"] = dropped
    return out


def _pii_noted(item: NewMemory) -> NewMemory:
    """New content gets its personal data looked at again: what the metadata says of the old content (ingest's
    `pii`, store_memory's `pii_found`) would be wrong once an edit took an email out."""
    meta = dict(item.metadata)
    report = pii.scan(item.content)
    if "pii" in meta:
        meta["pii"] = {**meta["pii"], "risk": report.risk, "kinds": report.names}
    meta.pop("pii_found", None)
    if report.risk == 2:
        meta["pii_found"] = report.names
    if isinstance(still := meta.get("pii_redacted"), list):
        # The kinds still redacted somewhere in the memory: an edit can take a marker out with the sentence.
        rest = json.dumps(
            [item.content, {k: v for k, v in meta.items() if k != "pii_redacted"}, item.emotion]
        )
        left = [k for k in still if f"[REDACTED_{str(k).upper()}]" in rest]
        meta.pop("pii_redacted")
        if left:
            meta["pii_redacted"] = left
    return item if meta == item.metadata else item.model_copy(update={"metadata": meta})
