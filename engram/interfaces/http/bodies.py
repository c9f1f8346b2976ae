"""The bodies the REST API accepts, each refusing fields it does not know. Booleans and numbers are strict: 0 is
no `false`, "5" no 5 and `false` no 0.0 (a client that sends them has a bug worth hearing about)."""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from engram import (
    GIVEN_TAGS,
    InvalidInput,
    KindFilter,
    MemoryType,
    NameFilter,
    NewMemory,
    SourceType,
    TagFilter,
)

Number = Annotated[float, Field(strict=True)]  # an int is a number too; a bool or a text is not


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StoreBody(_Body):
    content: str
    context: dict[str, Any] | None = None


class SearchBody(_Body):
    query: str
    options: dict[str, Any] | None = None
    touch: StrictBool = Field(
        True, description="false: a look that is no use (the web UI's list of things to do), usage untouched"
    )


class RecallBody(_Body):
    query: str
    limit: StrictInt = Field(10, ge=1, le=1000)
    mode: Literal["accurate", "related", "ranked"] = "accurate"
    kind: KindFilter | None = None
    scope: KindFilter | None = None
    scope_id: NameFilter | None = None
    profile: KindFilter = "default"
    user_id: NameFilter | None = None
    workspace_id: NameFilter | None = None
    touch: StrictBool = Field(
        True, description="false: a look that is no use (the web UI's explorer), usage untouched"
    )


class FeedbackBody(_Body):
    helpful: StrictBool


class ToolBody(_Body):
    arguments: dict[str, Any] = Field(default_factory=dict)


class RememberBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    content: str = Field(min_length=1)
    type: MemoryType | None = None
    memory_type: MemoryType | None = None
    experience_type: MemoryType | None = None
    tags: list[str] = Field(default_factory=list, max_length=GIVEN_TAGS)
    source_type: SourceType | None = None
    credibility: Number | None = Field(None, ge=0, le=1)
    emotion: str | None = None
    emotional_valence: Number | None = Field(None, ge=-1, le=1)
    emotional_arousal: Number | None = Field(None, ge=0, le=1)
    episode_id: str | None = None
    sequence_number: StrictInt | None = None
    metadata: dict[str, Any] | None = None


class ShodhRecallBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(min_length=1)
    limit: StrictInt = Field(5, ge=1, le=100)
    mode: Literal["semantic", "associative", "hybrid"] = "hybrid"
    memory_types: list[MemoryType] | None = None
    quality_boost: StrictBool = False
    quality_weight: Number = Field(0.3, ge=0, le=1)


class TagsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[TagFilter] = Field(min_length=1, max_length=100)
    limit: StrictInt = Field(20, ge=1, le=100)


class ForgetTagsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[TagFilter] = Field(min_length=1, max_length=100)


class ContextBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    context: str = Field(min_length=1)
    max_results: StrictInt = Field(5, ge=1, le=20)
    # Off unless asked (SHODH's default is on): kept by default, every question asked became a memory of its own.
    auto_ingest: StrictBool = Field(False, description="also keep the context as a Conversation memory")


class ShodhPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] | None = Field(None, max_length=GIVEN_TAGS)
    memory_type: MemoryType | None = None
    metadata: dict[str, Any] | None = None


class ConsolidateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time_horizon: Literal["daily", "weekly", "monthly", "quarterly", "yearly"]


def _kinds(annotation: Any) -> set[type]:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return {k for arg in typing.get_args(annotation) for k in _kinds(arg)}
    return {annotation} if annotation in (bool, int, float) else set()


# The fields of a memory an edit may set that are booleans or numbers, and which.
_SCALARS = {name: kinds for name, f in NewMemory.model_fields.items() if (kinds := _kinds(f.annotation))}


def strict_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """A PATCH's fields with its booleans and numbers checked as strictly as a body's: `user_marked_important: 0`
    and `importance: true` are refused, naming the field; so are more tags than one request may give."""
    tags = fields.get("tags")
    if isinstance(tags, list) and len(tags) > GIVEN_TAGS:
        raise InvalidInput("tags", f"holds {len(tags):,} tags; give a memory at most {GIVEN_TAGS} at once")
    for name, value in fields.items():
        kinds = _SCALARS.get(name)
        if not kinds or value is None:
            continue
        if bool in kinds and not isinstance(value, bool):
            raise InvalidInput(name, "must be true or false")
        if bool not in kinds and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise InvalidInput(name, "must be a number")
        if float not in kinds and isinstance(value, float):
            raise InvalidInput(name, "must be a whole number")
    return fields
