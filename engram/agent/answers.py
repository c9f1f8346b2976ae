"""The answers of the tools whose library call returns a value of its own (remember, recall): as an agent
reads them."""

from __future__ import annotations

from collections.abc import Sequence

from engram.model.answers import PassageAnswer, PiiSummary, RecallAnswer, RecallHit, RememberAnswer
from engram.model.record import MemoryRecord
from engram.model.results import Passage, RememberResult, Scored


def remember_answer(result: RememberResult, pii: PiiSummary) -> RememberAnswer:
    return {
        "id": result.id,
        "outcome": result.outcome,
        "kind": None if result.kind is None else result.kind.value,
        "confidence": result.confidence,
        "duplicate_of": result.duplicate_of,
        "merged_into": result.merged_into,
        "pii": pii,
    }


def recall_answer(hits: Sequence[Scored[MemoryRecord]]) -> RecallAnswer:
    return {"results": [recall_hit(h) for h in hits], "count": len(hits)}


def recall_hit(hit: Scored[MemoryRecord]) -> RecallHit:
    """A hit as recall answers it: a passage of a document under the document's id, with where it sits."""
    record = hit.record
    out: RecallHit = {
        "id": record.parent_id or record.id,
        "content": record.content,
        "kind": record.kind.value,
        "score": round(hit.score, 4),
        "confidence": hit.confidence or "low",
        "components": {k: round(v, 4) for k, v in hit.components.items()},
    }
    if hit.passage is not None:
        out["passage"] = passage_answer(hit.passage)
    return out


def passage_answer(passage: Passage) -> PassageAnswer:
    return {
        "document": passage.document,
        "index": passage.index,
        "count": passage.count,
        "heading": passage.heading,
    }
