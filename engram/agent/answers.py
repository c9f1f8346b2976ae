"""The answers of the tools whose library call returns a value of its own (remember, recall): as an agent
reads them."""

from __future__ import annotations

from collections.abc import Sequence

from engram.model.answers import PiiSummary, RecallAnswer, RememberAnswer
from engram.model.record import MemoryRecord
from engram.model.results import RememberResult, Scored


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
    return {
        "results": [
            {
                "id": h.record.id,
                "content": h.record.content,
                "kind": h.record.kind.value,
                "score": round(h.score, 4),
                "components": {k: round(v, 4) for k, v in h.components.items()},
            }
            for h in hits
        ],
        "count": len(hits),
    }
