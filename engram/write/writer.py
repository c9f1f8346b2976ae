"""The write path: prepare, embed in batches, then per memory in one transaction: exact-duplicate check,
near-duplicate merge (or a persona slot merge), kind and category classification, insert with chunks, audit
entry and any learned prototype."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from engram.classify.prototypes import Decision
from engram.classify.service import Classifiers
from engram.classify.taxonomy import split_prefix
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput
from engram.lang.chunk import chunk
from engram.model.limits import bounded_fields
from engram.model.record import Category, Kind, MemoryRecord, NewMemory, new_id, parse, utcnow
from engram.model.results import RememberResult
from engram.model.vectors import Vector, content_hash
from engram.store.roles import AuditLog, BatchSearch, KnownHashes, Rows, SearchIndex, Transactions
from engram.store.values import Label
from engram.tags.service import TagService
from engram.write.duplicates import Duplicates
from engram.write.embedding import units
from engram.write.meanwhile import meanwhile
from engram.write.operations import Operation
from engram.write.pending import Pending, scope_filter, whole_vector
from engram.write.rules import LIVE, check_length, expired, flatten, redacted
from engram.write.slices import Held, scope_of

WRITE_SLICE = 64  # memories per write transaction in remember_many
EMBED_UNIT = 4 * WRITE_SLICE  # memories per model call in remember_many


class WriteStore(Transactions, Rows, SearchIndex, AuditLog, Protocol):
    """What the write path reads and writes."""


class Writer:
    """Stores memories. Every write of a bulk operation names that operation, so that a merge into an existing
    memory is recorded for its rollback."""

    def __init__(
        self,
        settings: Settings,
        store: WriteStore,
        embedder: Embedder,
        classifiers: Classifiers,
        tags: TagService,
    ) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._classifiers = classifiers
        self._tags = tags
        self._duplicates = Duplicates(settings, store)

    def remember_many(
        self,
        items: Iterable[NewMemory | dict[str, Any]],
        *,
        embedded: Mapping[str, Vector] | None = None,
        count_tags: bool = True,
        operation: Operation | None = None,
    ) -> list[RememberResult]:
        """Store many memories, embedding them in batches; each is validated before anything is written.
        `embedded` holds vectors the caller already has, by content hash (store_memory embeds a memory with its
        tag phrases in one model call). A new memory's tags are counted in the tag registry unless `count_tags`
        is false (store_memory counts its own, with the embeddings it made)."""
        parsed = [i if isinstance(i, NewMemory) else parse(NewMemory, i) for i in map(bounded_fields, items)]
        for i, item in enumerate(parsed):
            self.check_length(item.content, "content" if len(parsed) == 1 else f"items[{i}].content")
        prepared = [self._prepare(item) for item in parsed]
        results: list[RememberResult] = []
        # The next unit's model call runs while this one's slices are written (engram.write.embedding); what
        # needs no vector (the classifiers, the vector index, the marks of form) is done while the first runs.
        openings = self._classifiers.openings
        read = meanwhile(prepared, self._classifiers, self._store)
        for unit in units(prepared, EMBED_UNIT, self._embedder, openings, self._store, embedded or {}, read):
            # A slice of writes commits once: committing each memory alone wrote the same table, index and FTS
            # pages again for every one of them. Slices keep other writers from waiting long for the lock.
            for start in range(0, len(unit), WRITE_SLICE):
                part = unit[start : start + WRITE_SLICE]
                try:
                    with self._store.atomic():
                        written = self._write_slice(part, operation)
                        pairs = zip(part, written, strict=True)
                        created = (
                            [t for p, r in pairs if r.created for t in p.item.tags] if count_tags else []
                        )
                        self._tags.count_uses([*created, *(t for r in written for t in r.tags_added)])
                        results += written
                        self._classifiers.save_learned()
                except BaseException:
                    # The slice rolled back, prototypes it taught included: the classifiers reload theirs.
                    self._classifiers.forget_cache()
                    raise
        return results

    def check_length(self, content: str, where: str = "content") -> None:
        check_length(content, self._settings.max_content_chars, where)

    def passages(self, content: str) -> list[str]:
        """The passages a memory is stored in: itself whole, or its chunks when it is longer than one."""
        offsets = self._embedder.token_offsets(content)
        return [
            c.text for c in chunk(content, offsets, self._settings.chunk_tokens, self._settings.chunk_overlap)
        ]

    def with_chunks(
        self,
        parent: MemoryRecord,
        pieces: Sequence[str],
        vectors: Sequence[Vector],
        whole: Vector,
        counts: Sequence[int] | None = None,
    ) -> tuple[list[MemoryRecord], list[Vector | None]]:
        """The rows of a memory: itself, searched by `whole` when it is one piece; else unsearched, with a chunk
        per piece (its own text, searched by its own vector) sharing every other field. `counts`: the pieces'
        token counts, when already made."""
        if len(pieces) == 1:
            return [parent], [whole]
        if not counts:
            counts = self.token_counts(pieces)
        records: list[MemoryRecord] = [parent]
        for index, (text, tokens) in enumerate(zip(pieces, counts, strict=True)):
            update = {
                "id": new_id(),
                "parent_id": parent.id,
                "chunk_index": index,
                "content": text,
                "content_hash": content_hash(text),
                "token_count": tokens,
            }
            records.append(parent.model_copy(update=update))
        return records, [None, *vectors]

    def token_counts(self, pieces: Sequence[str]) -> list[int]:
        return [len(self._embedder.token_offsets(text)) for text in pieces]

    def decided_again(
        self,
        old: MemoryRecord,
        vector: Vector,
        opening: Vector | None,
        *,
        kind: bool,
        category: bool,
        text: str | None = None,
    ) -> dict[str, Any]:
        """The kind and category (each when asked) new content of `old` gets, as record fields: decided as a
        new memory's are, by prototypes and the votes of its nearest memories in its scope, leaving out its own
        rows."""
        own = {old.id, *(c.id for c in self._store.children(old.id))}
        where = scope_filter(old)
        k = self._settings.kind_neighbours
        hits = [h for h in self._store.labelled_search(vector, k + len(own), where) if h[0] not in own][:k]
        fields: dict[str, Any] = {}
        of_kind = Decision(old.kind.value, 1.0, "explicit")  # the kept kind, if it is not decided again
        if kind:
            votes = [(label.kind, s) for _, s, label in hits if label.method != "fallback"]
            of_kind = self._classifiers.decide_kind(vector, votes, opening, text)
            fields |= {
                "kind": Kind(of_kind.label),
                "kind_confidence": of_kind.confidence,
                "kind_method": of_kind.method,
                "kind_scores": flatten(of_kind.scores),
            }
        if category:
            votes = [(c, s) for _, s, label in hits if (c := label.category) is not None]
            decision = self._classifiers.decide_category(vector, votes, opening, of_kind, text)
            fields |= {
                "category": None if decision.method == "fallback" else Category(decision.label),
                "category_confidence": decision.confidence,
                "category_method": decision.method,
            }
        return fields

    # ---- the steps of remember_many ---------------------------------------------------------------------
    def _prepare(self, item: NewMemory) -> Pending:
        if self._settings.redact_pii:
            item = redacted(item)
        kind, content = item.kind, item.content
        method = "explicit" if kind is not None else "auto"
        if kind is None:
            prefixed, content = split_prefix(item.content, [k.value for k in Kind])
            if prefixed is not None:
                kind, method = Kind(prefixed), "prefix"
        offsets = self._embedder.token_offsets(content)
        pieces = chunk(content, offsets, self._settings.chunk_tokens, self._settings.chunk_overlap)
        # Both classifiers read the same opening; none is needed when both labels are given.
        decides = kind is None or item.category is None
        texts = [c.text for c in pieces]
        return Pending(
            item,
            content,
            content_hash(content),
            kind,
            method,
            len(offsets),
            texts,
            self._classifiers.opening(content) if decides else None,
            # counted now: while the write runs, the model embeds the next unit (engram.write.embedding)
            piece_tokens=self.token_counts(texts) if len(texts) > 1 else [],
        )

    def _write_slice(self, part: Sequence[Pending], operation: Operation | None) -> list[RememberResult]:
        """Decide a slice's memories in order, each seeing the ones before it as its own write would, and
        write their new rows at once. A memory that meets a held one word for word or by id, or is close
        enough to merge with something, or that no search would find (expired, set aside), first has what is
        held written and then takes the write of its own (`_write`)."""
        held, store, k = Held(), self._store, self._settings.kind_neighbours
        written: list[RememberResult] = []
        # The slice's searches of the store, made at once while the store is as the slice found it (the held
        # rows are searched apart); once something is written to it, each memory searches it alone.
        ahead: dict[int, list[tuple[str, float, Label]]] | None = None
        # The texts of the slice some stored row has: the others are no duplicate of a stored memory, until
        # something is written to the store.
        held_somewhere = self._known(part)
        for at, p in enumerate(part):
            item = p.item
            if held.holds(item, p.hash) or expired(item) or item.status not in LIVE:
                held.write(store)
                written.append(self._write(p, operation))
                ahead, held_somewhere = {}, None
                continue
            if item.id is not None and store.get(item.id) is not None:
                raise InvalidInput("id", f"a memory with id {item.id} already exists")
            existing = None
            if not self._duplicates.kept_apart(item, operation) and (
                held_somewhere is None or p.hash in held_somewhere
            ):
                existing = store.find_hash(p.hash, item.scope, item.scope_id, item.user_id, item.workspace_id)
            if existing is not None:
                held.write(store)
                written.append(self._duplicates.said_again(existing, item, operation))
                ahead, held_somewhere = {}, None
                continue
            vector = whole_vector(p)
            if ahead is None:
                ahead = self._searched_ahead(part, at)
            stored = ahead.pop(at, None)
            if stored is None:
                stored = store.labelled_search(vector, k, scope_filter(item))
            hits = stored + held.search(vector, k, scope_of(item))
            hits = sorted(hits, key=lambda hit: -hit[1])[:k]
            if len(p.pieces) == 1 and hits and hits[0][1] >= self._duplicates.threshold():
                held.write(store)
                written.append(self._write(p, operation))  # searches again, the held rows in the store
                ahead, held_somewhere = {}, None
                continue
            near = [(i, s) for i, s, _ in hits]
            voters = {i: label for i, _, label in hits}
            decision = self._decide(p, vector, near, voters)
            category = self._categorise(p, vector, near, voters, decision)
            records, vectors, audit, result = self._built(p, vector, decision, category, near)
            held.add(records, vectors, audit)
            written.append(result)
        held.write(store)
        return written

    def _known(self, part: Sequence[Pending]) -> set[str] | None:
        """Which of the slice's texts some stored row has, in one read (None: the store cannot say at once)."""
        if not isinstance(self._store, KnownHashes):
            return None
        return self._store.known_hashes([p.hash for p in part])

    def _searched_ahead(
        self, part: Sequence[Pending], start: int
    ) -> dict[int, list[tuple[str, float, Label]]]:
        """The store's neighbours of each memory of `part` from `start` on that may search it, by position, in
        one pass of its vector index (when the store offers one)."""
        if not isinstance(self._store, BatchSearch):
            return {}
        at = [i for i in range(start, len(part)) if part[i].item.status in LIVE and not expired(part[i].item)]
        found = self._store.labelled_search_many(
            [whole_vector(part[i]) for i in at],
            self._settings.kind_neighbours,
            [scope_filter(part[i].item) for i in at],
        )
        return dict(zip(at, found, strict=True))

    def _write(self, p: Pending, operation: Operation | None) -> RememberResult:
        """Write one prepared memory inside the caller's write transaction (`remember_many` commits a slice at
        once): nothing can slip the same memory in between the duplicate checks and the insert, the checks read
        from the writer's warm cache, and a failure undoes the whole slice."""
        item, store = p.item, self._store
        if item.id is not None and store.get(item.id) is not None:
            raise InvalidInput("id", f"a memory with id {item.id} already exists")
        existing = (
            None
            if self._duplicates.kept_apart(item, operation)
            else store.find_hash(p.hash, item.scope, item.scope_id, item.user_id, item.workspace_id)
        )
        if existing is not None:
            return self._duplicates.said_again(existing, item, operation)
        vector = whole_vector(p)
        hits = store.labelled_search(vector, self._settings.kind_neighbours, scope_filter(item))
        near = [(i, s) for i, s, _ in hits]
        voters = {i: label for i, _, label in hits}
        wording = (p.content, p.hash, p.tokens)
        merged = self._duplicates.folded(item, wording, len(p.pieces), vector, near, voters, operation)
        if merged is not None:
            return merged
        decision = self._decide(p, vector, near, voters)
        category = self._categorise(p, vector, near, voters, decision)
        records, vectors, audit, result = self._built(p, vector, decision, category, near)
        # The memory, its chunks, its audit entry and the prototypes it teaches commit together (in the caller's
        # transaction).
        self._store.insert(records, vectors)
        self._store.audit("create", result.id, audit)
        return result

    def _built(
        self,
        p: Pending,
        vector: Vector,
        decision: Decision,
        category: Decision,
        near: Sequence[tuple[str, float]],
    ) -> tuple[list[MemoryRecord], list[Vector | None], dict[str, Any], RememberResult]:
        """A new memory's rows with their vectors, its audit entry and its result; a confident decision joins
        its label's prototypes now (saved with the slice)."""
        item = p.item
        created = item.created_at or utcnow()
        fields = item.model_dump(exclude={"id", "content", "kind", "importance", "created_at", "category"})
        parent = MemoryRecord.model_validate(
            fields
            | {
                "id": item.id or new_id(),
                "content": p.content,
                "content_hash": p.hash,
                "kind": Kind(decision.label),
                "importance": 0.5 if item.importance is None else item.importance,
                "token_count": p.tokens,
                "created_at": created,
                "updated_at": created,
                "kind_confidence": decision.confidence,
                "kind_method": decision.method,
                "kind_scores": flatten(decision.scores),
                "category": None if category.method == "fallback" else Category(category.label),
                "category_confidence": category.confidence,
                "category_method": category.method,
            }
        )
        records, vectors = self.with_chunks(parent, p.pieces, p.vectors, vector, p.piece_tokens)
        learned = self._classifiers.learn(
            decision, category, vector, parent.content, parent.id, p.opening_vector
        )
        audit = {
            "kind": parent.kind.value,
            "kind_method": decision.method,
            "confidence": decision.confidence,
            "category": None if parent.category is None else parent.category.value,
            "category_confidence": category.confidence,
            "status": parent.status.value,
            "scope": parent.scope.value,
            "chunks": len(records) - 1,
            "joined_prototypes": learned,
        }
        result = RememberResult(
            parent.id,
            True,
            kind=parent.kind,
            confidence=decision.confidence,
            method=decision.method,
            chunks=len(records) - 1,
            neighbours=tuple(near),
        )
        return records, vectors, audit, result

    def _decide(
        self, p: Pending, vector: Vector, near: Sequence[tuple[str, float]], voters: dict[str, Label]
    ) -> Decision:
        if p.kind is not None:
            return Decision(p.kind.value, 1.0, p.method)
        # Fallbacks do not vote: they record that no decision was possible, not a kind.
        neighbours = [(voters[i].kind, s) for i, s in near if i in voters and voters[i].method != "fallback"]
        return self._classifiers.decide_kind(vector, neighbours, p.opening_vector, p.content, p.marks)

    def _categorise(
        self,
        p: Pending,
        vector: Vector,
        near: Sequence[tuple[str, float]],
        voters: dict[str, Label],
        kind: Decision,
    ) -> Decision:
        if p.item.category is not None:
            return Decision(p.item.category.value, 1.0, "explicit")
        neighbours = [(c, s) for i, s in near if i in voters and (c := voters[i].category) is not None]
        return self._classifiers.decide_category(
            vector, neighbours, p.opening_vector, kind, p.content, p.marks
        )


__all__ = ["WriteStore", "Writer"]
