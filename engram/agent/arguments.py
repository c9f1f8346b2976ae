"""The arguments of the agent tools, as models with every field described: checked wherever a tool is called
(library, CLI, REST, MCP), each error naming its field. Numbers and flags as JSON has them: "5" or "yes" is a
caller's mistake, named, not read as 5 or true."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engram.agent import refusal
from engram.errors import InvalidInput
from engram.model.names import mixed_script_problem
from engram.model.record import Category, as_utc, invalid_from, plain_text, through_day

# The advanced tools' numeric arguments, by what they count.
Count = Annotated[int, Field(ge=1, le=100_000, strict=True)]
Examples = Annotated[int, Field(ge=0, le=1000, strict=True)]
Days = Annotated[int, Field(ge=1, le=36_500, strict=True)]  # 100 years: a date further back overflows
Share = Annotated[float, Field(ge=0, le=1, strict=True)]


class StoreContext(BaseModel):
    """What store_memory may be told instead of deciding it; each override is recorded on the memory."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    force_category: Category | None = Field(None, description="use this category instead of classifying")
    force_importance: int | None = Field(
        None,
        ge=1,
        le=5,
        strict=True,
        description="importance 1 (trivial) to 5 (critical) instead of scoring it",
    )
    expires_at: datetime | None = Field(
        None,
        description="when the memory stops being found: ISO date and time, or a date (lasts through that day)",
    )
    additional_tags: tuple[Annotated[str, Field(min_length=1, max_length=64)], ...] = Field(
        (), max_length=50, description="tags to add beside the ones found in the text"
    )
    source: str | None = Field(
        None,
        max_length=64,
        description="where it comes from: conversation, document, web, api, system, assistant",
    )
    user_note: str | None = Field(None, max_length=2000, description="a note kept with the memory")

    _plain = field_validator("*", mode="before")(plain_text)

    @field_validator("expires_at", mode="before")
    @classmethod
    def _through_day(cls, value: Any) -> Any:
        return through_day(value)

    @field_validator("additional_tags")
    @classmethod
    def _one_script(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        # As a memory's tags: a word in two look-alike alphabets is refused, not dropped unseen.
        for tag in value:
            if problem := mixed_script_problem(tag, "tag"):
                raise ValueError(problem)
        return value


class TimeRangeOption(BaseModel):
    """Created at or after `after`, and before `before` (exclusive)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    after: datetime | None = Field(None, description="created at or after this time (ISO)")
    before: datetime | None = Field(None, description="created before this time (ISO, exclusive)")

    @model_validator(mode="after")
    def _ordered(self) -> TimeRangeOption:
        if self.after is not None and self.before is not None and as_utc(self.after) >= as_utc(self.before):
            # before is exclusive ("before 20 November" leaves the 20th out): one day is after D, before D + 1.
            raise ValueError(
                "after must be earlier than before (before is exclusive: for one day, give the next)"
            )
        return self


class SearchOptions(BaseModel):
    """How search_memory searches."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    limit: int = Field(10, ge=1, le=100, strict=True, description="most results to return")
    min_relevance: float = Field(
        0.0,
        ge=0,
        le=1,
        strict=True,
        description="lowest relevance a result may have, half of it from matching (0: judge by confidence only)",
    )
    min_confidence: Literal["auto", "low", "medium", "high"] = Field(
        "auto",
        description="how sure a result must be that it answers the query: high, medium or low (every result); "
        "auto, the default: the medium and high ones, topped up to three with the best guesses, marked low",
    )
    time_range: TimeRangeOption | None = Field(None, description="only memories created in this range")
    importance_min: int | None = Field(
        None, ge=1, le=5, strict=True, description="only memories at least this important (1-5)"
    )
    content_type: str | None = Field(
        None,
        description="only this category or kind, or an everyday name for one: reminder, task, fact, meeting",
    )
    include_expired: bool = Field(False, strict=True, description="also memories past their expiry")


def validated(model: type[BaseModel], data: dict[str, Any] | None, name: str) -> Any:
    """`data` checked against `model`; an error names the field as `name.field`."""
    if data is not None and not isinstance(data, dict):
        raise InvalidInput(name, "must be an object")
    try:
        return model.model_validate(data or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "extra_forbidden":  # named by what it is not: "is not a search option"
            err = invalid_from(exc)
            raise InvalidInput(f"{name}.{err.field}", err.problem) from None
        loc = [name, *first["loc"]]
        problem = refusal.problem(first, refusal.path(loc[:-1]), "a field here")
        raise InvalidInput(refusal.path(loc), problem) from None
