"""Text the store holds already: said again word for word (revived if set aside, renewed if expired), or said
again in other words, within the near-duplicate cosine (the newer wording replaces the older; in persona mode a
mid-term slot absorbs it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from engram.config import Settings
from engram.lang.pii import MARKER
from engram.model.record import MemoryRecord, NewMemory, Status, Tier, utcnow
from engram.model.results import RememberResult
from engram.model.vectors import Vector
from engram.store.roles import AuditLog, Rows
from engram.store.values import Label
from engram.write.operations import Operation
from engram.write.rules import LIVE, changed_at, expired, same_particulars


class DuplicateStore(Rows, AuditLog, Protocol):
    """What handling a duplicate reads and writes."""


class Duplicates:
    def __init__(self, settings: Settings, store: DuplicateStore) -> None:
        self._settings = settings
        self._store = store

    def said_again(
        self, existing: MemoryRecord, item: NewMemory, operation: Operation | None
    ) -> RememberResult:
        """The same text in the same scope for the same owner: no new memory. Said again as a memory that holds
        (approved), a pending one is approved, as a first write would be; a memory set aside is live again, and
        an expired one holds again."""
        approving = existing.status is Status.PENDING and item.status is Status.APPROVED
        if (existing.status not in LIVE and item.status in LIVE) or approving:
            self._revive(existing, item.status, operation)
        if expired(existing) and not expired(item):
            self._renew(self._store.get(existing.id) or existing, item.expires_at, operation)
        return RememberResult(
            existing.id,
            False,
            duplicate_of=existing.id,
            kind=existing.kind,
            confidence=existing.kind_confidence,
        )

    @staticmethod
    def kept_apart(item: NewMemory, operation: Operation | None) -> bool:
        """Whether a new memory is written as its own even when it repeats a stored one: a value redaction hid
        ("the wifi password is [REDACTED_SECRET]") may be another one said in the same words, and only the newer
        memory stands for it. An import (an `operation`) brings memories as they were, each once."""
        return (
            operation is None and "pii_redacted" in item.metadata and MARKER.search(item.content) is not None
        )

    def threshold(self) -> float:
        """The cosine from which a new memory may be folded into a neighbour. Persona mode: a mid-term slot
        absorbs anything within 0.85, not only near-copies."""
        settings = self._settings
        persona = settings.lifecycle_mode == "persona"
        return min(settings.near_duplicate, 0.85) if persona else settings.near_duplicate

    def folded(
        self,
        item: NewMemory,
        wording: tuple[str, str, int],
        pieces: int,
        vector: Vector,
        near: Sequence[tuple[str, float]],
        voters: Mapping[str, Label],
        operation: Operation | None,
    ) -> RememberResult | None:
        """The new memory (its `wording`: content, hash, tokens) merged into the closest near-copy (in persona
        mode, mid-term slot) among its `near` neighbours that names the same particulars: of "on 3 March" and
        "on 4 March", the one the new wording repeats; a changed date or number is a new fact. None when there
        is none. A chunk is part of a longer text: a short memory never replaces it, nor does a long one
        (`pieces` > 1) replace anything."""
        settings, threshold = self._settings, self.threshold()
        folds = pieces == 1 and not self.kept_apart(item, operation)
        for memory_id, cosine in near if folds else ():
            if cosine < threshold:
                break
            closest = voters.get(memory_id)
            target = None if closest is None or closest.is_chunk else self._store.get(memory_id)
            # A pending candidate never rewrites an approved memory (nor an approved one a pending): review decides.
            if (
                target is None
                or target.status != item.status
                or not same_particulars(wording[0], target.content)
            ):
                continue
            if cosine >= settings.near_duplicate:
                return self.merge(target, cosine, item, wording, vector, operation)
            if settings.lifecycle_mode == "persona" and target.tier == Tier.MID:
                return self.merge(target, cosine, item, wording, vector, operation, slot=True)
        return None

    def merge(
        self,
        target: MemoryRecord,
        similarity: float,
        item: NewMemory,
        wording: tuple[str, str, int],
        vector: Vector,
        operation: Operation | None,
        *,
        slot: bool = False,
    ) -> RememberResult:
        """The near-duplicate rule: the newer wording (content, hash, tokens) replaces the older, importance
        moves 10% toward the new value and validity gains 0.01. A persona mid-term `slot` merge also counts an
        access, grows the slot's cluster and raises its priority to max(1.05, old + 0.1)."""
        content, digest, tokens = wording
        new_importance = 0.5 if item.importance is None else item.importance
        change: dict[str, Any] = {"content": content, "content_hash": digest, "token_count": tokens}
        if slot:  # the slot keeps its own wording (the new text is in the audit log)
            change = {
                "access_count": target.access_count + 1,
                "cluster_size": target.cluster_size + 1,
                "priority": max(1.05, (target.priority if target.priority is not None else 1.0) + 0.1),
            }
        merged = target.model_copy(
            update=change
            | {
                "importance": 0.9 * target.importance + 0.1 * new_importance,
                "validity_score": min(1.0, target.validity_score + 0.01),
                "tags": tuple(dict.fromkeys((*target.tags, *item.tags))),
                "updated_at": changed_at(target, item),
            }
        )
        if operation is not None:
            operation.before_memory(target.id, target)
        self._store.update(merged, None if slot else vector)
        self._store.audit(
            "merge",
            target.id,
            {
                "similarity": round(similarity, 4),
                "new_content" if slot else "old_content": content if slot else target.content,
                "old_importance": target.importance,
                "slot": slot,
            },
        )
        return RememberResult(
            target.id,
            False,
            merged_into=target.id,
            kind=target.kind,
            confidence=target.kind_confidence,
            tags_added=tuple(t for t in merged.tags if t not in target.tags),
        )

    def _revive(self, existing: MemoryRecord, status: Status, operation: Operation | None) -> None:
        """The same text remembered again after it was rejected, superseded or archived: asked for once more, it
        is live again (as the new write would be), rather than a duplicate of a memory nothing returns."""
        if operation is not None:
            operation.before_memory(existing.id, existing)
        self._store.update(existing.model_copy(update={"status": status, "updated_at": utcnow()}))
        self._store.audit("revive", existing.id, {"from": existing.status.value, "to": status.value})

    def _renew(
        self, existing: MemoryRecord, expires_at: datetime | None, operation: Operation | None
    ) -> None:
        """The same text remembered again after it expired: it holds again, until the new write's expiry (if
        any), rather than a duplicate of a memory nothing returns."""
        if operation is not None:
            operation.before_memory(existing.id, existing)
        self._store.update(existing.model_copy(update={"expires_at": expires_at, "updated_at": utcnow()}))
        times = {"expired_at": existing.expires_at, "expires_at": expires_at}
        self._store.audit(
            "renew", existing.id, {k: None if t is None else t.isoformat() for k, t in times.items()}
        )
