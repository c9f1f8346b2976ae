"""The write path (seed 000): prepare, embed in batches, then per memory in one transaction: exact-duplicate
check, near-duplicate merge (or a persona slot merge, seed 003), kind and category classification, insert with
chunks, audit entry and any learned prototype. `Memory.remember_many` runs it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.classify import classifier as kinds
from engram.errors import InvalidInput
from engram.lang import pii
from engram.lang.chunk import chunk
from engram.lang.timewords import DAYS, MONTHS
from engram.model.record import Category, Kind, MemoryRecord, NewMemory, Status, Tier, as_utc, new_id, utcnow
from engram.model.vectors import Vector, content_hash
from engram.store.values import Filter, Label

if TYPE_CHECKING:
    from engram.memory import Memory


@dataclass(frozen=True, slots=True)
class RememberResult:
    """Where a write ended up: a new memory, an exact duplicate's id, or the memory it merged into."""

    id: str
    created: bool
    duplicate_of: str | None = None
    merged_into: str | None = None
    kind: Kind = Kind.UNCLASSIFIED
    confidence: float | None = None
    method: str = "auto"  # how the kind was decided: auto | fallback | explicit | prefix
    chunks: int = 0
    # A new memory's nearest memories in its scope when it was written (id, cosine), best first.
    neighbours: tuple[tuple[str, float], ...] = ()
    # Tags a merge put on the memory it merged into: the registry counts them (the memory carries them now).
    tags_added: tuple[str, ...] = ()

    @property
    def outcome(self) -> str:
        if self.duplicate_of:
            return "duplicate"
        return "merged" if self.merged_into else "created"


def prepare(mem: Memory, item: NewMemory) -> _Pending:
    if mem.settings.redact_pii:
        item = redacted(item)
    kind, content = item.kind, item.content
    method = "explicit" if kind is not None else "auto"
    if kind is None:
        prefixed, content = kinds.split_prefix(item.content, [k.value for k in Kind])
        if prefixed is not None:
            kind, method = Kind(prefixed), "prefix"
    offsets = mem.embedder.token_offsets(content)
    pieces = chunk(content, offsets, mem.settings.chunk_tokens, mem.settings.chunk_overlap)
    # Both classifiers read the same opening; none is needed when both labels are given.
    decides = kind is None or item.category is None
    return _Pending(
        item, content, content_hash(content), kind, method, len(offsets), [c.text for c in pieces],
        mem.kinds.opening(content) if decides else None,
    )  # fmt: skip


# The particulars that make two close wordings two facts: numbers, the names of months and days, the times of a
# day and the days next to today, and whether it is so at all (not, never; always).
_PARTICULAR = re.compile(
    rf"\d+(?:[.,:/]\d+)*|\b(?:{MONTHS}|{DAYS}|morning|afternoon|evening|night|tonight|noon|midnight|today"
    r"|tomorrow|yesterday|not|no|never|none|nothing|nobody|cannot|always)\b|n['\u2019]t\b",
    re.IGNORECASE,
)
_NOT = frozenset({"no", "none", "nothing", "nobody", "cannot", "n't", "n\u2019t"})  # \u2019: a typographic apostrophe


def _particulars(text: str) -> list[str]:
    found = (m.lower() for m in _PARTICULAR.findall(text))
    return sorted("not" if m in _NOT else m for m in found)  # "don't" and "do not" say the same


def same_particulars(a: str, b: str) -> bool:
    """Whether two texts name the same numbers, months and days, times of day, and say it is so or not alike.
    "The bank meeting is on 3 March" and "... on 4 March" embed within 0.95 of each other, and so do "I am
    vegetarian" and "I am not vegetarian", or "call John tomorrow morning" and "... evening"; merging them (the
    newer wording replaces the older) lost a fact: they are two memories."""
    return _particulars(a) == _particulars(b)


def check_length(mem: Memory, content: str, where: str = "content") -> None:
    """Refuse content over the configured maximum: before any analysis or embedding reads it."""
    if len(content) > mem.settings.max_content_chars:
        raise InvalidInput(where, f"is {len(content)} characters; the maximum is {mem.settings.max_content_chars}")


def redacted(item: NewMemory) -> NewMemory:
    """With redaction on, no raw personal data is stored, whichever way the text comes in: it is replaced by
    [REDACTED_*] markers (content, metadata, emotion; a tag holding some is dropped), and the metadata names the
    kinds found (never their values)."""
    update = pii.redaction(item.content, item.metadata, item.tags, item.emotion)
    return item if update is None else item.model_copy(update=update)


def embed(mem: Memory, prepared: Sequence[_Pending], embedded: Mapping[str, Vector]) -> None:
    """One batch for every text neither already embedded in this database nor in `embedded` (by hash), and
    for the openings the classifiers read that `mem.openings` does not hold yet."""
    texts: dict[str, str] = {}
    for p in prepared:
        for text in p.pieces:
            texts.setdefault(content_hash(text), text)
    known = {
        h: v
        for h in texts
        if (v := embedded.get(h)) is not None or (v := mem.store.vector_for_hash(h)) is not None
    }
    todo = [h for h in texts if h not in known]
    # Openings repeat ("i think", "remind me"): most are in the cache (store_memory puts its own there).
    wanted = list(dict.fromkeys(p.opening for p in prepared if p.opening is not None))
    opened = mem.openings.known(wanted)
    fresh = [o for o in wanted if o not in opened]
    head = [texts[h] for h in todo]
    # One memory's opening runs beside it, in one model call. In bulk the openings (a few tokens each) get a
    # call of their own: mixed into the batches sorted by length they cost 5% of the ingest, alone 3%.
    runs = [head + fresh] if len(prepared) == 1 else [head, fresh]
    none = np.zeros((0, mem.embedder.dim), dtype=np.float32)
    vectors = np.concatenate([mem.embedder.embed_batch(run) if run else none for run in runs])
    known.update(zip(todo, vectors[: len(todo)], strict=True))
    opened |= dict(zip(fresh, mem.openings.keep(fresh, vectors[len(todo) :]), strict=True))
    for p in prepared:
        p.vectors = [known[content_hash(t)] for t in p.pieces]
        p.opening_vector = None if p.opening is None else opened[p.opening]


def write(mem: Memory, p: _Pending) -> RememberResult:
    """Write one prepared memory inside the caller's write transaction (`remember_many` commits a slice at
    once): nothing can slip the same memory in between the duplicate checks and the insert, the checks read
    from the writer's warm cache, and a failure undoes the whole slice."""
    item = p.item
    if item.id is not None and mem.store.get(item.id) is not None:
        raise InvalidInput("id", f"a memory with id {item.id} already exists")
    existing = mem.store.find_hash(p.hash, item.scope, item.scope_id, item.user_id, item.workspace_id)
    if existing is not None:
        # Said again as a memory that holds (approved), a pending one is approved: a first write would be.
        approving = existing.status is Status.PENDING and item.status is Status.APPROVED
        if (existing.status not in LIVE and item.status in LIVE) or approving:
            _revive(mem, existing, item.status)
        if _expired(existing) and not _expired(item):
            _renew(mem, mem.store.get(existing.id) or existing, item.expires_at)
        return RememberResult(
            existing.id,
            False,
            duplicate_of=existing.id,
            kind=existing.kind,
            confidence=existing.kind_confidence,
        )
    vector = p.vectors[0] if len(p.vectors) == 1 else mean(p.vectors)
    scope_filter = Filter(scope=item.scope, scope_id=item.scope_id, statuses=LIVE, user_id=item.user_id,
                          workspace_id=item.workspace_id, owner_exact=True)  # fmt: skip
    hits = mem.store.labelled_search(vector, mem.settings.kind_neighbours, scope_filter)
    near = [(i, s) for i, s, _ in hits]
    voters = {i: label for i, _, label in hits}
    # Persona mode (seed 003): a mid-term slot absorbs anything within 0.85, not only near-copies.
    persona = mem.settings.lifecycle_mode == "persona"
    threshold = min(mem.settings.near_duplicate, 0.85) if persona else mem.settings.near_duplicate
    # The closest near-copy (in persona mode, mid-term slot) that names the same particulars: of "on 3 March" and
    # "on 4 March", the one the new wording repeats; a changed date or number is a new fact, not one to fold in.
    # A chunk is part of a longer text: a short memory never replaces it.
    for memory_id, cosine in near if len(p.pieces) == 1 else ():
        if cosine < threshold:
            break
        closest = voters.get(memory_id)
        target = None if closest is None or closest.is_chunk else mem.store.get(memory_id)
        # A pending candidate never rewrites an approved memory (nor an approved one a pending): review decides.
        if target is None or target.status != item.status or not same_particulars(p.content, target.content):
            continue
        if cosine >= mem.settings.near_duplicate:
            return _merge(mem, target, cosine, p, vector)
        if persona and target.tier == Tier.MID:
            return _merge(mem, target, cosine, p, vector, slot=True)
    decision = _decide(mem, p, vector, near, voters)
    category = _categorise(mem, p, vector, near, voters)
    now = utcnow()
    created = item.created_at or now
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
            "kind_scores": _flatten(decision.scores),
            "category": None if category.method == "fallback" else Category(category.label),
            "category_confidence": category.confidence,
            "category_method": category.method,
        }
    )
    records, vectors = with_chunks(mem, parent, p.pieces, p.vectors, vector)
    # The memory, its chunks, its audit entry and the prototypes it teaches commit together (in the caller's
    # transaction).
    mem.store.insert(records, vectors)
    learned = []
    for classifier, decided in ((mem.kinds, decision), (mem.categories, category)):
        if kinds.should_learn(decided, classifier.rules):
            classifier.learn(
                mem.store, mem.embedder, decided.label, vector, parent.content, parent.id, p.opening_vector
            )
            learned.append(classifier.taxonomy.name)
    mem.store.audit(
        "create",
        parent.id,
        {"kind": parent.kind.value, "kind_method": decision.method, "confidence": decision.confidence,
         "category": None if parent.category is None else parent.category.value,
         "category_confidence": category.confidence, "status": parent.status.value,
         "scope": parent.scope.value, "chunks": len(records) - 1, "joined_prototypes": learned},
    )  # fmt: skip
    return RememberResult(
        parent.id,
        True,
        kind=parent.kind,
        confidence=decision.confidence,
        method=decision.method,
        chunks=len(records) - 1,
        neighbours=tuple(near),
    )


def with_chunks(
    mem: Memory, parent: MemoryRecord, pieces: Sequence[str], vectors: Sequence[Vector], whole: Vector
) -> tuple[list[MemoryRecord], list[Vector | None]]:
    """The rows of a memory: itself, searched by `whole` when it is one piece; else unsearched, with a chunk per
    piece (its own text, searched by its own vector) sharing every other field."""
    if len(pieces) == 1:
        return [parent], [whole]
    records: list[MemoryRecord] = [parent]
    for index, text in enumerate(pieces):
        update = {"id": new_id(), "parent_id": parent.id, "chunk_index": index, "content": text,
                  "content_hash": content_hash(text), "token_count": len(mem.embedder.token_offsets(text))}  # fmt: skip
        records.append(parent.model_copy(update=update))
    return records, [None, *vectors]


def passages(mem: Memory, content: str) -> list[str]:
    """The passages a memory is stored in: itself whole, or its chunks when it is longer than one."""
    offsets = mem.embedder.token_offsets(content)
    return [c.text for c in chunk(content, offsets, mem.settings.chunk_tokens, mem.settings.chunk_overlap)]


def _decide(
    mem: Memory, p: _Pending, vector: Vector, near: Sequence[tuple[str, float]], voters: dict[str, Label]
) -> kinds.Decision:
    if p.kind is not None:
        return kinds.Decision(p.kind.value, 1.0, p.method)
    # Fallbacks do not vote: they record that no decision was possible, not a kind.
    neighbours = [(voters[i].kind, s) for i, s in near if i in voters and voters[i].method != "fallback"]
    return mem.kinds.decide(vector, neighbours, mem.store, mem.embedder, p.opening_vector)


def _categorise(
    mem: Memory, p: _Pending, vector: Vector, near: Sequence[tuple[str, float]], voters: dict[str, Label]
) -> kinds.Decision:
    if p.item.category is not None:
        return kinds.Decision(p.item.category.value, 1.0, "explicit")
    neighbours = [(c, s) for i, s in near if i in voters and (c := voters[i].category) is not None]
    return mem.categories.decide(vector, neighbours, mem.store, mem.embedder, p.opening_vector)


def decided_again(
    mem: Memory, old: MemoryRecord, vector: Vector, opening: Vector | None, *, kind: bool, category: bool
) -> dict[str, Any]:
    """The kind and category (each when asked) new content of `old` gets, as record fields: decided as a new
    memory's are, by prototypes and the votes of its nearest memories in its scope, leaving out its own rows."""
    own = {old.id, *(c.id for c in mem.store.children(old.id))}
    where = Filter(scope=old.scope, scope_id=old.scope_id, statuses=LIVE, user_id=old.user_id,
                   workspace_id=old.workspace_id, owner_exact=True)  # fmt: skip
    k = mem.settings.kind_neighbours
    hits = [h for h in mem.store.labelled_search(vector, k + len(own), where) if h[0] not in own][:k]
    fields: dict[str, Any] = {}
    if kind:
        votes = [(label.kind, s) for _, s, label in hits if label.method != "fallback"]
        decision = mem.kinds.decide(vector, votes, mem.store, mem.embedder, opening)
        fields |= {"kind": Kind(decision.label), "kind_confidence": decision.confidence,
                   "kind_method": decision.method, "kind_scores": _flatten(decision.scores)}  # fmt: skip
    if category:
        votes = [(c, s) for _, s, label in hits if (c := label.category) is not None]
        decision = mem.categories.decide(vector, votes, mem.store, mem.embedder, opening)
        fields |= {"category": None if decision.method == "fallback" else Category(decision.label),
                   "category_confidence": decision.confidence, "category_method": decision.method}  # fmt: skip
    return fields


# Memories recall can return; the others (rejected, superseded, archived) are kept but set aside.
LIVE = (Status.APPROVED, Status.PENDING)


def _revive(mem: Memory, existing: MemoryRecord, status: Status) -> None:
    """The same text remembered again after it was rejected, superseded or archived: asked for once more, it is
    live again (as the new write would be), rather than a duplicate of a memory nothing returns."""
    if mem.operation is not None:
        mem.operation.before_memory(existing.id, existing)
    mem.store.update(existing.model_copy(update={"status": status, "updated_at": utcnow()}))
    mem.store.audit("revive", existing.id, {"from": existing.status.value, "to": status.value})


def _expired(memory: MemoryRecord | NewMemory) -> bool:
    return memory.expires_at is not None and as_utc(memory.expires_at) <= utcnow()


def _renew(mem: Memory, existing: MemoryRecord, expires_at: datetime | None) -> None:
    """The same text remembered again after it expired: it holds again, until the new write's expiry (if any),
    rather than a duplicate of a memory nothing returns."""
    if mem.operation is not None:
        mem.operation.before_memory(existing.id, existing)
    mem.store.update(existing.model_copy(update={"expires_at": expires_at, "updated_at": utcnow()}))
    times = {"expired_at": existing.expires_at, "expires_at": expires_at}
    mem.store.audit("renew", existing.id, {k: None if t is None else t.isoformat() for k, t in times.items()})


def _merge(
    mem: Memory, target: MemoryRecord, similarity: float, p: _Pending, vector: Vector, *, slot: bool = False
) -> RememberResult:
    """Seed 000's near-duplicate rule: the newer wording replaces the older, importance moves 10% toward
    the new value and validity gains 0.01. A persona mid-term `slot` merge (seed 003) also counts an
    access, grows the slot's cluster and raises its priority to max(1.05, old + 0.1)."""
    new_importance = 0.5 if p.item.importance is None else p.item.importance
    wording: dict[str, Any] = {"content": p.content, "content_hash": p.hash, "token_count": p.tokens}
    if slot:  # the slot keeps its own wording (the new text is in the audit log)
        wording = {
            "access_count": target.access_count + 1,
            "cluster_size": target.cluster_size + 1,
            "priority": max(1.05, (target.priority if target.priority is not None else 1.0) + 0.1),
        }
    merged = target.model_copy(
        update=wording
        | {
            "importance": 0.9 * target.importance + 0.1 * new_importance,
            "validity_score": min(1.0, target.validity_score + 0.01),
            "tags": tuple(dict.fromkeys((*target.tags, *p.item.tags))),
            "updated_at": _changed_at(target, p.item),
        }
    )
    if mem.operation is not None:
        mem.operation.before_memory(target.id, target)
    mem.store.update(merged, None if slot else vector)
    mem.store.audit(
        "merge",
        target.id,
        {
            "similarity": round(similarity, 4),
            "new_content" if slot else "old_content": p.content if slot else target.content,
            "old_importance": target.importance,
            "slot": slot,
        },
    )
    return RememberResult(
        target.id, False, merged_into=target.id, kind=target.kind, confidence=target.kind_confidence,
        tags_added=tuple(t for t in merged.tags if t not in target.tags),
    )


def _changed_at(target: MemoryRecord, item: NewMemory) -> datetime:
    """When a merge changed the memory: the new wording's own time when the caller gave one (a backfill or an
    import says when it was written, and the age scores must not count it as written today), never before the
    memory's last update."""
    if item.created_at is None:
        return utcnow()
    return max(target.updated_at, item.created_at)


@dataclass(slots=True)
class _Pending:
    item: NewMemory
    content: str
    hash: str
    kind: Kind | None
    method: str
    tokens: int
    pieces: list[str]
    opening: str | None = None  # what the classifiers read beside the whole text (classify.opening)
    vectors: list[Vector] = field(default_factory=list)
    opening_vector: Vector | None = None


def mean(vectors: Sequence[Vector]) -> Vector:
    m = np.mean(np.stack(vectors), axis=0)
    out: Vector = (m / (np.linalg.norm(m) or 1.0)).astype(np.float32)
    return out


def _flatten(scores: dict[str, dict[str, float]]) -> dict[str, float]:
    return {f"{part}.{label}": value for part, values in scores.items() for label, value in values.items()}
