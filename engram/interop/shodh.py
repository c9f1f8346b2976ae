"""The unified SHODH `Memory` record (../shared/specs/shodh-openapi.yaml) and back.

SHODH's fields map one to one onto ours (id, content, content_hash, type, tags, source_type, credibility, emotion,
emotional_valence, emotional_arousal, episode_id, sequence_number, created_at, updated_at, last_accessed_at,
quality_score, access_count, embedding, metadata). Fields SHODH does not have (kind, scope, importance, status,
tier, validity, chunking, category, classifier confidences ...) travel in `metadata["engram"]`, the schema's
place for implementation-specific data, so a record that leaves Engram comes back unchanged. A caller's own
`metadata["engram"]` travels inside that entry (as `metadata_engram`) and comes back where it was. A record from
another system has no such entry and gets Engram's defaults.
"""

from __future__ import annotations

import math
from typing import Any

import pydantic

from engram.errors import InvalidInput
from engram.interop.typemap import KIND_OF_TYPE
from engram.model.ids import addressable
from engram.model.limits import bounded
from engram.model.names import IDENTIFIERS, visible_names
from engram.model.record import (
    KIND_CHARS,
    Kind,
    MemoryRecord,
    MemoryType,
    NewMemory,
    Status,
    ahead_problem,
    invalid_from,
    parse,
    utcnow,
)
from engram.model.vectors import content_hash

EXTENSION = "engram"
# A record's times and access count feed ranking and the lifecycle: one dated ahead of the clock (past
# record.AHEAD) stayed recent and never archived, and a count no use made promoted it.
MAX_ACCESSES = 1_000_000  # more than one recall a minute for a year and a half
# Tags one record may bring: a write gives at most GIVEN_TAGS and the text a few, and a memory merged with its
# duplicates holds theirs too; each new tag is embedded, so five thousand held an import for seconds a record.
MAX_RECORD_TAGS = 1_000
# A record's classifier scores (a few dozen probabilities, shares and cosines, each within -1..1) and confidences
# (within 0..1): a value past them ranked or showed as no classifier could, and 1e308 failed the store's write.
MAX_SCORES = 1_000
MAX_PRIORITY = 10.0  # the lifecycle's priority is capped at 10
# Where a record's own metadata.engram (the caller's, not Engram's) travels in an export: inside Engram's entry,
# so that neither overwrites the other and the caller's value cannot pass for Engram's fields.
_USERS = "metadata_engram"
_SHARED = (
    "id",
    "content",
    "content_hash",
    "type",
    "tags",
    "source_type",
    "credibility",
    "emotion",
    "emotional_valence",
    "emotional_arousal",
    "episode_id",
    "sequence_number",
    "created_at",
    "updated_at",
    "last_accessed_at",
    "quality_score",
    "access_count",
)


def to_shodh(record: MemoryRecord, embedding: list[float] | None = None) -> dict[str, Any]:
    data = record.model_dump(mode="json")
    out = {name: data[name] for name in _SHARED}
    extension = {k: v for k, v in data.items() if k not in _SHARED and k != "metadata"}
    out["embedding"] = embedding
    metadata = dict(data["metadata"])
    if EXTENSION in metadata:  # the caller's own value under Engram's name: carried inside Engram's entry
        extension[_USERS] = metadata.pop(EXTENSION)
    out["metadata"] = metadata | {EXTENSION: extension}
    return out


def from_shodh(data: dict[str, Any]) -> tuple[MemoryRecord, list[float] | None]:
    if not isinstance(data, dict):
        raise InvalidInput("record", "must be an object")
    for name in ("id", "content", "content_hash", "created_at"):
        if data.get(name) in (None, ""):
            raise InvalidInput(name, "is required by the SHODH Memory schema")
    given = data.get("metadata") or {}
    if not isinstance(given, dict):
        raise InvalidInput("metadata", "must be an object")
    metadata = dict(given)
    _keep_unknown(data, metadata)
    extension = metadata.pop(EXTENSION, None) or {}
    if not isinstance(extension, dict):
        raise InvalidInput(f"metadata.{EXTENSION}", "must be an object")
    extension = dict(extension)
    if _USERS in extension:  # back where the caller put it; Engram's fields come from Engram's entry alone
        metadata[EXTENSION] = extension.pop(_USERS)
    fields = {name: data[name] for name in _SHARED if data.get(name) is not None}
    if not extension:  # a foreign record: Engram's defaults, the kind from the SHODH type
        try:
            kind = KIND_OF_TYPE.get(MemoryType(fields.get("type", "Observation")), Kind.NOTE)
        except ValueError:
            kind = Kind.NOTE  # the type itself is reported by validation below
        extension = {"kind": kind.value, "category_method": "imported", "kind_method": "imported"}
        fields.setdefault("updated_at", fields["created_at"])
    embedding = _vector(data.get("embedding"))
    _few_tags(fields.get("tags"))
    try:
        record = MemoryRecord.model_validate(extension | fields | {"metadata": metadata})
    except pydantic.ValidationError as exc:
        raise invalid_from(exc) from None
    addressable(record.id, "id")
    _plausible(record)
    if record.status is Status.SUPERSEDED and not (
        record.metadata.get("superseded_by") or record.metadata.get("merged_into")
    ):  # stranded: no edit nor review makes it live again, as an edit refuses to make one so
        raise InvalidInput(
            "status",
            "superseded needs metadata.superseded_by or merged_into naming the memory that replaces it",
        )
    if record.parent_id is not None:
        addressable(record.parent_id, "parent_id")
        if record.parent_id == record.id:
            raise InvalidInput("parent_id", "is the record's own id: a chunk's parent is another record")
    # What every write refuses an import refuses too (a NUL or a lone surrogate in any text, a scope id too long,
    # metadata JSON cannot hold): the write path's own check of a new memory.
    parse(NewMemory, record.model_dump(include=set(NewMemory.model_fields)))
    visible_names(record.model_dump(include=set(IDENTIFIERS)))  # a scope or owner that shows as another
    # The hash is the dedup key: one the file gives (another algorithm, or edited) would let copies in.
    update: dict[str, Any] = {"content_hash": content_hash(record.content)}
    if record.updated_at is None:
        update["updated_at"] = utcnow()
    return record.model_copy(update=update), embedding


def _plausible(record: MemoryRecord) -> None:
    """Refuse a time after the clock's (give or take AHEAD) and an access count no use could have made."""
    for name in ("created_at", "updated_at", "last_accessed_at"):
        when = getattr(record, name)
        if when is not None and (problem := ahead_problem(when, "a record's times are past ones")):
            raise InvalidInput(name, problem)
    _classifier_values(record)
    if record.access_count > MAX_ACCESSES:
        raise InvalidInput(
            "access_count",
            f"is {record.access_count:,}; a memory recalled that often is none (at most {MAX_ACCESSES:,})",
        )


def _few_tags(tags: Any) -> None:
    """Refuse more tags than a memory holds, counted before each is read."""
    if isinstance(tags, list) and len(tags) > MAX_RECORD_TAGS:
        raise InvalidInput("tags", f"holds {len(tags):,} tags; a memory has at most {MAX_RECORD_TAGS:,}")


def _classifier_values(record: MemoryRecord) -> None:
    """Refuse classifier scores, confidences, methods and a priority no classifier nor maintenance gives."""
    if len(record.kind_scores) > MAX_SCORES:
        raise InvalidInput("kind_scores", f"holds {len(record.kind_scores):,} scores; at most {MAX_SCORES:,}")
    for key, value in record.kind_scores.items():
        if len(key) > 2 * KIND_CHARS + 1:
            raise InvalidInput(
                "kind_scores", f"has a key of {len(key):,} characters; a part.label is shorter"
            )
        if not -1 <= value <= 1:
            raise InvalidInput(f"kind_scores.{key}", f"is {value:.4g}; a classifier score lies within -1..1")
    for name in ("kind_confidence", "category_confidence"):
        value = getattr(record, name)
        if value is not None and not 0 <= value <= 1:
            raise InvalidInput(name, f"is {value:.4g}; a confidence lies within 0..1")
    for name in ("kind_method", "category_method"):
        if len(getattr(record, name)) > KIND_CHARS:
            raise InvalidInput(name, f"is longer than {KIND_CHARS} characters")
    if record.priority is not None and not 0 <= record.priority <= MAX_PRIORITY:
        raise InvalidInput(
            "priority", f"is {record.priority:.4g}; a priority lies within 0..{MAX_PRIORITY:g}"
        )


# Engram's own fields (kind, scope, scope_id, importance, status ...): their place in a record is metadata.engram.
_OWN = frozenset(MemoryRecord.model_fields) - set(_SHARED) - {"metadata"}


def _keep_unknown(data: dict[str, Any], metadata: dict[str, Any]) -> None:
    """The schema's rule for a field an implementation does not support: kept in `metadata`, under its own name
    (one metadata already holds with another value is refused, so nothing is dropped unseen). One of Engram's own
    fields at the top level is refused naming where it goes: taking it there would guess what it meant."""
    for name, value in data.items():
        if name in _SHARED or name in ("embedding", "metadata"):
            continue
        if name in _OWN or name == EXTENSION:
            raise InvalidInput(
                name, f"is one of Engram's own fields, which a SHODH record carries in metadata.{EXTENSION}"
            )
        bounded(name, value)
        if name in metadata and metadata[name] != value:
            raise InvalidInput(name, "is not a SHODH field and metadata holds another value under its name")
        metadata[name] = value


def _vector(value: Any) -> list[float] | None:
    """A list of finite numbers (JSON's true is not one, nor Python's NaN or Infinity); its length is the
    file's model's business (transfer.import_memories)."""
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        raise InvalidInput("embedding", "must be a non-empty list of numbers")
    out: list[float] = []
    for index, x in enumerate(value):
        try:
            number = float(x) if isinstance(x, int | float) and not isinstance(x, bool) else math.nan
        except OverflowError:  # an integer too large for a float
            number = math.nan
        if not math.isfinite(number):
            raise InvalidInput("embedding", f"value {index} must be a finite number, not {str(x)[:40]}")
        out.append(number)
    return out
