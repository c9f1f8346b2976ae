"""The review queue: memories waiting for a person (uncertain extractions, personal data), and the decisions on
them: approve, reject, or edit (approved as edited), one at a time or many at once, with the reason each one
waits."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engram.errors import InvalidInput
from engram.model.record import Kind, MemoryRecord, Status
from engram.review.extract import APPROVE_AT, KINDS
from engram.store.roles import AuditLog, Rows, Transactions
from engram.store.values import Filter, Position
from engram.write.edit import Editor, fetch
from engram.write.rules import review_reason

BULK_ACTIONS = ("approve", "reject")  # an edit names new content: one memory at a time
MAX_BULK = 1000
_PAGE = 500  # pending memories read per page while a filter looks for matches


class ReviewStore(Transactions, Rows, AuditLog, Protocol):
    """What the queue lists and records."""


def _candidate(record: MemoryRecord) -> dict[str, Any]:
    found = record.metadata.get("candidate")
    return found if isinstance(found, dict) else {}


def extraction_confidence(record: MemoryRecord) -> float | None:
    """The confidence the extractor gave the memory (ingest keeps it in `metadata.candidate`), if any."""
    value = _candidate(record).get("confidence")
    return float(value) if isinstance(value, int | float) else None


def why_waiting(record: MemoryRecord) -> str:
    """The reason a memory waits for review: the one written when it was queued, else one read from what its
    metadata says (memories queued before the reason was written)."""
    given = record.metadata.get("review_reason")
    if isinstance(given, str) and given:
        return given
    pii = record.metadata.get("pii")
    kinds: list[str] = []
    if isinstance(pii, dict) and pii.get("risk", 0) >= 2:
        kinds = [str(k) for k in pii.get("kinds", [])]
    elif isinstance(found := record.metadata.get("pii_found"), list):
        kinds = [str(k) for k in found]
    return review_reason(confidence=extraction_confidence(record), approve_at=APPROVE_AT, pii_kinds=kinds)


def _kind_test(kind: str | None) -> Any:
    """Whether a memory is of `kind`: a record kind (task, identity ...) or an extracted kind (todo, profile ...)."""
    if kind is None:
        return lambda _: True
    name = kind.strip().lower()
    record_kinds = {k.value for k in Kind}
    if name not in record_kinds and name not in KINDS:
        raise InvalidInput(
            "kind",
            f"must be a memory kind ({', '.join(sorted(record_kinds))}) or an extracted "
            f"kind ({', '.join(KINDS)}), not {kind!r}",
        )
    return lambda r: r.kind.value == name or _candidate(r).get("kind") == name


def _which(kind: str | None, below_confidence: float | None) -> Callable[[MemoryRecord], bool]:
    """Whether a pending memory is of `kind` and was extracted with a confidence under `below_confidence`."""
    if below_confidence is not None and (
        isinstance(below_confidence, bool)
        or not isinstance(below_confidence, int | float)
        or not 0 < below_confidence <= 1
    ):
        raise InvalidInput("below_confidence", "must be a number above 0 and at most 1")
    of_kind = _kind_test(kind)

    def keeps(record: MemoryRecord) -> bool:
        if not of_kind(record):
            return False
        if below_confidence is None:
            return True
        confidence = extraction_confidence(record)
        return confidence is not None and confidence < below_confidence

    return keeps


def pending_matching(
    records: Sequence[MemoryRecord], kind: str | None = None, below_confidence: float | None = None
) -> list[MemoryRecord]:
    """The memories among `records` that `review_many` with the same filter would decide on: a list to read
    before approving or rejecting them all."""
    keeps = _which(kind, below_confidence)
    return [r for r in records if keeps(r)]


class ReviewQueue:
    def __init__(self, store: ReviewStore, editor: Editor) -> None:
        self._store = store
        self._editor = editor

    def pending(self, limit: int = 100) -> list[MemoryRecord]:
        """Pending memories, newest first."""
        return self._store.select(Filter(statuses=(Status.PENDING,), include_expired=True), limit=limit)

    def review(self, memory_id: str, action: str, content: str | None = None) -> MemoryRecord:
        """approve, reject, or edit (new content; the memory is approved as edited)."""
        record = fetch(self._store, memory_id)
        self._reviewable(record, "id")
        if action == "edit" and content is None:
            raise InvalidInput("content", "is required to edit a memory")
        if action not in (*BULK_ACTIONS, "edit"):
            raise InvalidInput("action", "must be approve, reject or edit")
        if self._decided(record, action, "id") and content is None:
            return record
        return self._decide(record, action, content)

    def review_many(
        self,
        action: str,
        *,
        ids: Sequence[str] = (),
        kind: str | None = None,
        below_confidence: float | None = None,
        limit: int = MAX_BULK,
    ) -> list[MemoryRecord]:
        """Approve or reject many memories at once: those `ids` name, or the pending ones a filter picks (of a
        kind, extracted with a confidence under `below_confidence`), newest first, at most `limit`. With ids and
        a filter, the ids the filter keeps. All the decisions commit together, each audited as one review."""
        if action not in BULK_ACTIONS:
            raise InvalidInput("action", "must be approve or reject (edit one memory at a time)")
        if isinstance(ids, str):
            raise InvalidInput("ids", "must be a list of memory ids, not one string")
        if not ids and kind is None and below_confidence is None:
            raise InvalidInput("ids", "give memory ids, or a filter (kind, below_confidence), to review many")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_BULK:
            raise InvalidInput("limit", f"must be a whole number between 1 and {MAX_BULK}")
        keeps = _which(kind, below_confidence)
        if len(ids) > MAX_BULK:
            raise InvalidInput("ids", f"names {len(ids)} memories; at most {MAX_BULK} at once")
        done: set[str] = set()  # decided so already in review: answered as they are
        if ids:
            chosen = []
            for i, memory_id in enumerate(dict.fromkeys(ids)):
                if not isinstance(memory_id, str) or not memory_id:
                    raise InvalidInput(f"ids[{i}]", "must be a memory id")
                record = fetch(self._store, memory_id)
                self._reviewable(record, f"ids[{i}]")
                if self._decided(record, action, f"ids[{i}]"):
                    done.add(record.id)
                chosen.append(record)
            chosen = [r for r in chosen if keeps(r)][:limit]
        else:
            chosen = self._pending_where(keeps, limit)
        # Checked before anything changes, and one transaction: a failure leaves every memory as it was.
        with self._store.atomic():
            return [r if r.id in done else self._decide(r, action, None) for r in chosen]

    def _pending_where(self, keeps: Any, limit: int) -> list[MemoryRecord]:
        """Pending memories `keeps` accepts, newest first, read page by page."""
        where = Filter(statuses=(Status.PENDING,), include_expired=True)
        out: list[MemoryRecord] = []
        after: Position | None = None
        while len(out) < limit:
            page = self._store.select(where, limit=_PAGE, after=after)
            out += [r for r in page if keeps(r)]
            if len(page) < _PAGE:
                break
            after = (page[-1].created_at, page[-1].id)
        return out[:limit]

    @staticmethod
    def _reviewable(record: MemoryRecord, field: str) -> None:
        if record.status in (Status.SUPERSEDED, Status.ARCHIVED):
            # Approving a superseded memory would make it live beside the one that replaced it.
            raise InvalidInput(field, f"is {record.status.value}, not a memory to review")

    def _decided(self, record: MemoryRecord, action: str, field: str) -> bool:
        """Whether a person already made this decision on the memory in review (nothing to do again). The
        opposite of a decision still standing is refused: a reject from a stale page or a second tab would undo
        an approval unseen. A memory ingest approved on its own, which nobody reviewed, can still be rejected."""
        last = next((e for e in self._store.audit_log(record.id, 200) if e["action"] == "review"), None)
        if last is None:
            return False
        before = Status.REJECTED if last["detail"].get("action") == "reject" else Status.APPROVED
        if record.status != before:  # changed since (an edit of its status): the review no longer stands
            return False
        now = Status.REJECTED if action == "reject" else Status.APPROVED
        if now == before:
            return True
        take_back = (
            "forget it, or invalidate it, to take it back"
            if before == Status.APPROVED
            else "edit its status to approved to keep it after all"
        )
        raise InvalidInput(field, f"was {before.value} in review on {str(last['at'])[:10]}; {take_back}")

    def _decide(self, record: MemoryRecord, action: str, content: str | None) -> MemoryRecord:
        status = Status.REJECTED if action == "reject" else Status.APPROVED
        fields: dict[str, Any] = {"status": status}
        if content is not None:
            fields["content"] = content
        updated = self._editor.update(record.id, fields)
        self._store.audit("review", record.id, {"action": action, "from": record.status.value})
        return updated
