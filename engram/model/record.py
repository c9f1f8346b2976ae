"""The unified memory record: Engram's fields (kind x scope, chunks, recall tracking, validity) and the
SHODH fields (type, source, credibility, emotion, episode, quality), all first-class, validated on every write."""

from __future__ import annotations

import json
import unicodedata
import uuid
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Any

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator

from engram.errors import InvalidInput
from engram.model import refusal
from engram.model.ids import id_problem
from engram.model.names import mixed_script_problem


class Kind(StrEnum):
    IDENTITY = "identity"
    TASK = "task"
    KNOWLEDGE = "knowledge"
    REFERENCE = "reference"
    NOTE = "note"
    UNCLASSIFIED = "unclassified"


class Scope(StrEnum):
    SESSION = "session"
    PROJECT = "project"
    GLOBAL = "global"


class MemoryType(StrEnum):
    """SHODH memory types."""

    OBSERVATION = "Observation"
    DECISION = "Decision"
    LEARNING = "Learning"
    ERROR = "Error"
    DISCOVERY = "Discovery"
    PATTERN = "Pattern"
    CONTEXT = "Context"
    TASK = "Task"
    CODE_EDIT = "CodeEdit"
    FILE_ACCESS = "FileAccess"
    SEARCH = "Search"
    COMMAND = "Command"
    CONVERSATION = "Conversation"


class SourceType(StrEnum):
    USER = "user"
    SYSTEM = "system"
    API = "api"
    FILE = "file"
    WEB = "web"
    AI_GENERATED = "ai_generated"
    INFERRED = "inferred"


class Status(StrEnum):
    APPROVED = "approved"
    PENDING = "pending"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"  # set aside by the lifecycle: kept, not recalled


class Category(StrEnum):
    """The seven categories: what a memory is about, beside its kind (what sort of statement)."""

    CONTEXTS = "contexts"  # user background, preferences, personal info
    PROJECTS = "projects"  # work, goals, ongoing initiatives
    LEARNINGS = "learnings"  # knowledge, skills, educational content
    REMINDERS = "reminders"  # tasks, deadlines, follow-ups
    REFERENCES = "references"  # facts, procedures, lookup information
    INTERACTIONS = "interactions"  # conversations, meetings, social connections
    SYSTEM = "system"  # assistant preferences, workflows, meta-information


class Tier(StrEnum):
    SHORT = "short"
    MID = "mid"
    LONG = "long"


def utcnow() -> datetime:
    return datetime.now(UTC)


# How far ahead of this clock a time given as past (a record's creation, a message's) may be: clocks differ. One
# further ahead stayed recent in ranking and was never archived.
AHEAD = timedelta(days=1)


def ahead_problem(when: datetime, what: str) -> str | None:
    """The problem of a time given as past that lies more than AHEAD ahead of this clock, `what` saying why it
    must not; None when it does not."""
    # Compared in its own zone: one UTC cannot hold (9999-12-31 late in a zone behind it) is still ahead.
    if (when if when.tzinfo else when.replace(tzinfo=UTC)) > utcnow() + AHEAD:
        return f"is {when.isoformat()}, in the future: {what}"
    return None


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC. One that UTC cannot hold (9999-12-31 late in a zone behind it) is a
    ValueError, which a validator reports as the field's problem."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("is out of range once converted to UTC (years 1 to 9999)") from None


# Invisible characters a tag may not hide in (zero-width space, bidi controls, soft hyphen, byte order mark ...):
# every format character but the joiners, which some scripts write words with (Persian's ZWNJ), and every control
# character but the spaces (a bell, an escape, a delete show as nothing in a page or a terminal) and NUL, which is
# refused wherever text is given, as no store holds it.
_KEPT = frozenset("\u200c\u200d\x00")
_UNSEEN = frozenset({"Cf", "Cc"})


def tag_form(tag: str) -> str:
    """A tag as it is stored: lowercase, words joined by hyphens ("Two Words" is two-words), in its compatibility
    form (fullwidth letters are plain ones) and without invisible or control characters: a tag that shows as
    another is it, or a memory tagged so escaped the listing and forget_by_tag of the tag it shows as."""
    form = unicodedata.normalize("NFKC", tag)
    form = "".join(c for c in form if c in _KEPT or c.isspace() or unicodedata.category(c) not in _UNSEEN)
    return "-".join(form.strip().lower().split())


def through_day(value: Any) -> Any:
    """An expiry given as a date alone ("2026-11-25") lasts through that day (UTC): it ends when the next
    begins. Read as midnight, a memory due to expire "today" was already gone when it was stored."""
    if isinstance(value, str) and len(value.strip()) == 10:
        try:
            value = date.fromisoformat(value.strip())
        except ValueError:
            return value  # not a date: the datetime field reports it
    if isinstance(value, date) and not isinstance(value, datetime):
        return datetime(value.year, value.month, value.day, tzinfo=UTC) + timedelta(days=1)
    return value


def text_problem(value: Any) -> str | None:
    """What makes a string, or one inside a list or mapping, unfit to store: a NUL character (PostgreSQL's text
    cannot hold one; other control characters are kept, as pasted text has them) or a lone surrogate (no UTF-8
    store, tokenizer or hash can take it; JSON's "\\ud800" escape decodes to one)."""
    if isinstance(value, str):
        if (nul := value.find("\x00")) >= 0:
            return f"holds a NUL character (U+0000) at {nul}"
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "is not valid Unicode text (it holds a lone surrogate: bytes of another encoding than UTF-8?)"
        return None
    if isinstance(value, dict):
        return next((p for k, v in value.items() if (p := text_problem(k) or text_problem(v))), None)
    if isinstance(value, list | tuple):
        return next((p for v in value if (p := text_problem(v))), None)
    return None


def plain_text(cls: type, value: Any) -> Any:
    """A field validator for every field of a model: text fit to store in all it holds."""
    if problem := text_problem(value):
        raise ValueError(problem)
    return value


def new_id() -> str:
    return str(uuid.uuid4())


# The longest a memory's tag, name (scope, user, workspace, episode id) and id may be; a filter longer than the
# field it filters matches nothing, so it is refused naming it (a 50,000-character tag answered an empty page).
TAG_CHARS = 64
NAME_CHARS = 256
ID_CHARS = 128
# Tags one request gives a memory: each new one is embedded and registered, so ten thousand cost a request seconds.
GIVEN_TAGS = 100
KIND_CHARS = 64  # a kind, scope, status or profile name as a filter, far above any there is
TagFilter = Annotated[str, Field(max_length=TAG_CHARS)]
NameFilter = Annotated[str, Field(max_length=NAME_CHARS)]
KindFilter = Annotated[str, Field(max_length=KIND_CHARS)]


class _Shared(BaseModel):
    """Fields a caller may set, with Engram's and SHODH's defaults."""

    # allow_inf_nan: a NaN importance is no number, not one "greater than 1".
    model_config = ConfigDict(
        extra="forbid", frozen=True, use_enum_values=False, validate_default=True, allow_inf_nan=False
    )

    scope: Scope = Scope.GLOBAL
    scope_id: str | None = Field(None, max_length=NAME_CHARS)
    # Isolation, outermost first: whose memory (user), in which workspace; None: shared.
    user_id: str | None = Field(None, max_length=NAME_CHARS)
    workspace_id: str | None = Field(None, max_length=NAME_CHARS)
    type: MemoryType = MemoryType.OBSERVATION
    tags: tuple[str, ...] = ()
    validity_score: float = Field(1.0, ge=0, le=1)
    is_negative: bool = False
    source_type: SourceType = SourceType.USER
    credibility: float = Field(1.0, ge=0, le=1)
    emotion: str | None = Field(None, max_length=64)
    emotional_valence: float | None = Field(None, ge=-1, le=1)
    emotional_arousal: float | None = Field(None, ge=0, le=1)
    episode_id: str | None = Field(None, max_length=NAME_CHARS)
    sequence_number: int | None = Field(None, ge=0, le=2**63 - 1)  # what a database integer holds
    quality_score: float | None = Field(None, ge=0, le=1)
    expires_at: datetime | None = None
    status: Status = Status.APPROVED
    tier: Tier = Tier.MID
    user_marked_important: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)
    category: Category | None = None  # None on a new memory: classify; on a record: not categorised

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, value: Any) -> Any:
        if isinstance(value, str):
            raise ValueError("must be a list of strings, not a single string")
        return value

    @field_validator("tags")
    @classmethod
    def _clean_tags(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for tag in value:
            clean = tag_form(tag)
            if not clean:
                raise ValueError("tags must not be empty")
            if len(clean) > TAG_CHARS:
                raise ValueError(f"tag {clean[:20]!r}... is longer than {TAG_CHARS} characters")
            if problem := mixed_script_problem(clean, "tag"):  # a look-alike of another tag
                raise ValueError(problem)
            seen[clean] = None
        return tuple(seen)

    @field_validator("expires_at", mode="before")
    @classmethod
    def _through_day(cls, value: Any) -> Any:
        return through_day(value)

    @field_validator("expires_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)


class NewMemory(_Shared):
    """What a caller hands to `Memory.remember`: content plus any field to set instead of inferring it."""

    content: str
    id: str | None = Field(
        None, min_length=1, max_length=ID_CHARS
    )  # None: a new UUID; set by importers keeping ids
    kind: Kind | None = None  # None: classify automatically
    importance: float | None = Field(None, ge=0, le=1)  # None: 0.5
    created_at: datetime | None = None  # None: now

    _plain = field_validator("*", mode="before")(plain_text)

    @field_validator("metadata")
    @classmethod
    def _json(cls, value: dict[str, Any]) -> dict[str, Any]:
        # Stored as JSON: a value JSON cannot hold (a datetime, NaN) is refused here, not lost or failed on later.
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"must hold only JSON values ({exc})") from None
        return value

    @field_validator("id")
    @classmethod
    def _addressable(cls, value: str | None) -> str | None:
        if value is not None and (problem := id_problem(value)):
            raise ValueError(problem)
        return value

    @field_validator("content")
    @classmethod
    def _content(cls, value: str) -> str:
        if "\x00" in value:
            raise ValueError("must not contain NUL bytes")
        if not value.strip():
            raise ValueError("must not be empty or whitespace only")
        return value

    @field_validator("created_at")
    @classmethod
    def _created(cls, value: datetime | None) -> datetime | None:
        # As the imports do: a memory said in the future stayed recent in ranking and was never archived.
        if value is not None and (problem := ahead_problem(value, "a memory's creation is when it was said")):
            raise ValueError(problem)
        return None if value is None else as_utc(value)


class MemoryRecord(_Shared):
    """A stored memory. Chunks of a long memory are records too, with parent_id and chunk_index set."""

    id: str
    content: str
    content_hash: str
    kind: Kind
    importance: float = Field(0.5, ge=0, le=1)
    parent_id: str | None = None
    chunk_index: int | None = Field(None, ge=0, le=2**31 - 1)
    token_count: int = Field(0, ge=0, le=2**63 - 1)
    access_count: int = Field(0, ge=0, le=2**63 - 1)  # what a database integer holds: an import may say more
    last_accessed_at: datetime | None = None
    created_at: datetime
    updated_at: datetime
    kind_confidence: float | None = None
    kind_method: str = "auto"
    kind_scores: dict[str, float] = Field(default_factory=dict)
    category_confidence: float | None = None
    category_method: str = "auto"  # auto | fallback | explicit | imported
    # The access-based lifecycle: grows x1.05 per retrieval up to 2.0; related memories within cosine
    # 0.85; the priority the last maintenance computed (None until then)
    base_relevance: float = Field(1.0, ge=0, le=2)
    cluster_size: int = Field(0, ge=0, le=2**31 - 1)  # what a PostgreSQL INTEGER column holds
    priority: float | None = None

    @property
    def bucket(self) -> str:
        """The display bucket, e.g. knowledge/global."""
        return f"{self.kind.value}/{self.scope.value}"


def parse(model: type[NewMemory], data: dict[str, Any]) -> NewMemory:
    """Validate caller input, turning pydantic's report into one InvalidInput that names the field."""
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        raise invalid_from(exc) from None


# What a name that is no field of the model validated is not ("timestamp" in a message: a message field).
_UNKNOWN = {
    "NewMemory": "a memory field",
    "Message": "a message field (role, content, ts, platform, conversation_id, message_id, metadata)",
    "SearchOptions": "a search option",
    "StoreContext": "a store context field",
}


def invalid_from(exc: pydantic.ValidationError) -> InvalidInput:
    """The first refused value in the words REST and MCP use ("must be at most 256 characters long, got ..."),
    not pydantic's ("String should have at most 256 characters")."""
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "input"
    if first["type"] == "extra_forbidden":
        return InvalidInput(field, f"is not {_UNKNOWN.get(exc.title, 'a field here')}")
    inside = ".".join(str(part) for part in first["loc"][:-1])
    return InvalidInput(field, refusal.problem(first, inside, "a field here"))
