"""The write path's rules that need no store: which statuses are live, when two close wordings are two facts,
redaction of a new memory, the vector of a chunked memory, and the length limit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from engram.errors import InvalidInput
from engram.lang import pii
from engram.lang.timewords import DAYS, MONTHS
from engram.model.record import MemoryRecord, NewMemory, Status, as_utc, utcnow
from engram.model.vectors import Vector

# Memories recall can return; the others (rejected, superseded, archived) are kept but set aside.
LIVE = (Status.APPROVED, Status.PENDING)

# The particulars that make two close wordings two facts: numbers, the names of months and days, the times of a
# day and the days next to today, and whether it is so at all (not, never; always).
_PARTICULAR = re.compile(
    rf"\d+(?:[.,:/]\d+)*|\b(?:{MONTHS}|(?:{DAYS})s?|morning|afternoon|evening|night|tonight|noon|midnight|today"
    r"|tomorrow|yesterday|not|no|never|none|nothing|nobody|cannot|always)\b|n['\u2019]t\b",
    re.IGNORECASE,
)
_NOT = frozenset(
    {"no", "none", "nothing", "nobody", "cannot", "n't", "n\u2019t"}
)  # \u2019: a typographic apostrophe


def _particulars(text: str) -> list[str]:
    found = (m.lower() for m in _PARTICULAR.findall(text))
    # "don't" and "do not" say the same, and "on Mondays" names the day "on Monday" does.
    return sorted("not" if m in _NOT else m.removesuffix("s") if m.endswith("days") else m for m in found)


def same_particulars(a: str, b: str) -> bool:
    """Whether two texts name the same numbers, months and days, times of day, and say it is so or not alike.
    "The bank meeting is on 3 March" and "... on 4 March" embed very close, and so do "I am vegetarian" and "I
    am not vegetarian": merging them (the newer wording replaces the older) would lose a fact."""
    return _particulars(a) == _particulars(b)


def check_length(content: str, maximum: int, where: str = "content") -> None:
    """Refuse content over the configured maximum: before any analysis or embedding reads it."""
    if len(content) > maximum:
        raise InvalidInput(where, f"is {len(content)} characters; the maximum is {maximum}")


def redacted(item: NewMemory) -> NewMemory:
    """With redaction on, no raw personal data is stored, whichever way the text comes in: it is replaced by
    [REDACTED_*] markers (content, metadata, emotion; a tag holding some is dropped), and the metadata names the
    kinds found (never their values)."""
    update = pii.redaction(item.content, item.metadata, item.tags, item.emotion)
    return item if update is None else item.model_copy(update=update)


def mean(vectors: Sequence[Vector]) -> Vector:
    """The unit vector of a memory stored in several chunks: the mean of theirs, normalised."""
    m = np.mean(np.stack(vectors), axis=0)
    out: Vector = (m / (np.linalg.norm(m) or 1.0)).astype(np.float32)
    return out


def expired(memory: MemoryRecord | NewMemory) -> bool:
    return memory.expires_at is not None and as_utc(memory.expires_at) <= utcnow()


def changed_at(target: MemoryRecord, item: NewMemory) -> datetime:
    """When a merge changed the memory: the new wording's own time when the caller gave one (a backfill or an
    import says when it was written, and the age scores must not count it as written today), never before the
    memory's last update."""
    if item.created_at is None:
        return utcnow()
    return max(target.updated_at, item.created_at)


def flatten(scores: dict[str, dict[str, float]]) -> dict[str, float]:
    """A decision's scores as one level of "part.label" keys, as a record keeps them."""
    return {f"{part}.{label}": value for part, values in scores.items() for label, value in values.items()}


# How the review reason names each kind of personal data: the words a person reads, not the detector's labels.
_PII_WORDS = {
    "email": "email address",
    "phone": "phone number",
    "card": "card number",
    "iban": "IBAN",
    "account": "bank account number",
    "ssn": "social security number",
    "ip": "IP address",
    "secret": "secret or password",
}


def review_reason(*, confidence: float | None, approve_at: float, pii_kinds: Sequence[str] = ()) -> str:
    """Why a memory waits for a person, as one plain sentence: raw personal data it holds, and an extraction
    confidence under the approval line (both when both hold)."""
    parts: list[str] = []
    if pii_kinds:
        words = ", ".join(dict.fromkeys(_PII_WORDS.get(k, k) for k in pii_kinds))
        parts.append(f"holds personal data: {words}")
    if confidence is not None and confidence < approve_at:
        parts.append(f"extracted with confidence {confidence:.2f}, below the {approve_at:.2f} approval line")
    if not parts:
        return "stored as pending by the writer, to be reviewed"
    return "; ".join(parts)
