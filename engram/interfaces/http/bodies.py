"""The bodies the REST API accepts, each refusing fields it does not know."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engram import MemoryType, SourceType


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StoreBody(_Body):
    content: str
    context: dict[str, Any] | None = None


class SearchBody(_Body):
    query: str
    options: dict[str, Any] | None = None


class RecallBody(_Body):
    query: str
    limit: int = Field(10, ge=1, le=1000)
    mode: Literal["accurate", "related", "ranked"] = "accurate"
    kind: str | None = None
    scope: str | None = None
    scope_id: str | None = None
    profile: str = "default"
    user_id: str | None = None
    workspace_id: str | None = None
    touch: bool = Field(
        True, description="false: a look that is no use (the web UI's explorer), usage untouched"
    )


class FeedbackBody(_Body):
    helpful: bool


class ToolBody(_Body):
    arguments: dict[str, Any] = Field(default_factory=dict)


class RememberBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    content: str = Field(min_length=1)
    type: MemoryType | None = None
    memory_type: MemoryType | None = None
    experience_type: MemoryType | None = None
    tags: list[str] = Field(default_factory=list)
    source_type: SourceType | None = None
    credibility: float | None = Field(None, ge=0, le=1)
    emotion: str | None = None
    emotional_valence: float | None = Field(None, ge=-1, le=1)
    emotional_arousal: float | None = Field(None, ge=0, le=1)
    episode_id: str | None = None
    sequence_number: int | None = None
    metadata: dict[str, Any] | None = None


class ShodhRecallBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(min_length=1)
    limit: int = Field(5, ge=1, le=100)
    mode: Literal["semantic", "associative", "hybrid"] = "hybrid"
    memory_types: list[MemoryType] | None = None
    quality_boost: bool = False
    quality_weight: float = Field(0.3, ge=0, le=1)


class TagsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] = Field(min_length=1)
    limit: int = Field(20, ge=1, le=100)


class ForgetTagsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] = Field(min_length=1)


class ContextBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    context: str = Field(min_length=1)
    max_results: int = Field(5, ge=1, le=20)
    auto_ingest: bool = True


class ShodhPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: list[str] | None = None
    memory_type: MemoryType | None = None
    metadata: dict[str, Any] | None = None


class ConsolidateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time_horizon: Literal["daily", "weekly", "monthly", "quarterly", "yearly"]
