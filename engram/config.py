"""Settings in one place: read from ENGRAM_* environment variables at entry points and passed down."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, TypeGuard
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from platformdirs import user_data_dir
from pydantic import BaseModel, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engram.errors import InvalidInput, StoreError


class RankingProfile(BaseModel, frozen=True):
    """Weights of the recall score components; they need not sum to 1."""

    vector: float = Field(0.6, ge=0, description="semantic similarity")
    lexical: float = Field(0.2, ge=0, description="bm25 and token overlap")
    importance: float = Field(0.1, ge=0, description="importance, decayed since last use")
    recency: float = Field(0.1, ge=0, description="freshness of last access or update")
    usage: float = Field(0.0, ge=0, description="access count, saturating")
    context: float = Field(0.2, ge=0, description="relevance of the memory's neighbours in its episode")
    episode: float = Field(
        0.2,
        ge=0,
        description="geometric mean of the memory's relevance and the best among the candidates of its episode",
    )
    time: float = Field(
        0.2, ge=0, description="closeness of the memory's creation to a time the query names ('in June 2023')"
    )

    def weighing(self, about_time: bool) -> RankingProfile:
        """The weights for one question. When a memory was made or last used, and how important it was when last
        used (importance decays with time), say nothing about whether it answers a question that is not about
        time or recent events: these priors count only for questions that are."""
        if about_time or not (self.recency or self.usage or self.importance):
            return self
        return self.model_copy(
            update={"recency": 0.0, "usage": 0.0, "importance": self.importance * IMPORTANCE_AT_REST}
        )


# The share of its weight importance keeps for a question not about time: a tie-breaker among equal matches.
IMPORTANCE_AT_REST = 0.0

# "default" is recall's and search_memory's; "redesign" is seed 002's weights for search_memory; "timeless" drops the age priors for archives (a long
# conversation history) where when something was said does not make it more or less relevant; "lexical" and
# "semantic" keep one signal each, to compare with.
DEFAULT_PROFILES: dict[str, RankingProfile] = {
    "default": RankingProfile(),
    "timeless": RankingProfile(importance=0, recency=0),
    # seed 002's for search_memory: semantic, exact match and the three priors, the time score where the query names a time,
    # and the context and episode scores of a memory in a conversation or a document (0 for a memory in neither):
    # without them a reply ("yes, last Friday") is not found through the question it answers.
    "redesign": RankingProfile(
        vector=0.4, lexical=0.3, importance=0.1, recency=0.1, usage=0.1, context=0.2, episode=0.2, time=0.2
    ),
    "lexical": RankingProfile(vector=0, lexical=1, importance=0, recency=0, context=0, episode=0, time=0),
    "semantic": RankingProfile(vector=1, lexical=0, importance=0, recency=0, context=0, episode=0, time=0),
}


class ModeThresholds(BaseModel, frozen=True):
    """A recall mode keeps the best hit and those scoring at least max(floor, ratio x best), at most `cap`."""

    floor: float = Field(description="lowest score a hit beside the best may have")
    ratio: float = Field(description="share of the best hit's score a hit beside it must reach")
    cap: int = Field(description="most hits returned")


def is_url(db: str | Path) -> TypeGuard[str]:
    """A PostgreSQL database URL (anything else names an SQLite file)."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def locate(db: str | Path) -> str | Path:
    """A `postgresql://` URL stays text; `sqlite://PATH` (so `sqlite:///abs/path`) and plain paths become paths
    (`:memory:` too, which SQLite opens as an in-memory database)."""
    if isinstance(db, Path) or is_url(db):
        return db
    if not isinstance(db, str):  # Memory(Settings(...)) is an easy slip: the settings go in `settings=`
        hint = " (give settings as settings=...)" if isinstance(db, Settings) else ""
        raise InvalidInput("db", f"must be a file path or a database URL, got {type(db).__name__}{hint}")
    if (scheme := re.match(r"([A-Za-z][\w+.-]*)://", db)) and scheme.group(1) != "sqlite":
        # Else "mysql://host/db" became a directory "mysql:" holding an SQLite file.
        raise InvalidInput(
            "db",
            f"{scheme.group(1)}:// is not supported; give a file path, sqlite:///path or postgresql://...",
        )
    return Path(db.removeprefix("sqlite://")).expanduser()


def shown(db: str | Path) -> str:
    """A database location fit to print: a URL's password is masked."""
    parts = urlsplit(str(db))
    if not parts.password:
        return str(db)
    user, host = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=f"{user.split(':', 1)[0]}:***@{host}"))


_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def _check_schema(schema: str) -> None:
    if not _SCHEMA.match(schema):
        raise StoreError(f"schema name {schema!r}: lowercase letters, digits and _ only")


def with_schema(url: str, schema: str) -> str:
    """The same PostgreSQL database with `schema` first on the search path (one schema per tenant)."""
    _check_schema(schema)
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "schema"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("schema", schema)])))


def split_schema(url: str) -> tuple[str, str]:
    """(libpq URL, schema): `schema` is Engram's own parameter, not libpq's."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    schema = next((v for k, v in query if k == "schema"), "public")
    _check_schema(schema)
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    return urlunsplit(parts._replace(query=rest)), schema


class Settings(BaseSettings):
    """Engram's configuration. Every field can be set as ENGRAM_<NAME>."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_", extra="forbid")

    home: Path = Field(
        default_factory=lambda: Path(user_data_dir("engram", appauthor=False)),
        description="data directory; the default database lives here",
    )
    db: str | None = Field(
        None, description="database file, or a postgresql:// URL; default <home>/memories.db"
    )
    max_content_chars: int = Field(100_000, gt=0, description="longest content accepted, in characters")
    embedding_model: Literal["all-MiniLM-L6-v2", "multilingual-e5-small-q4"] = Field(
        "all-MiniLM-L6-v2", description="embedder for a new store; a store keeps the model it was made with"
    )
    chunk_tokens: int = Field(220, gt=8, description="chunk size in model tokens")
    chunk_overlap: int = Field(40, ge=0, description="overlap between consecutive chunks in model tokens")
    near_duplicate: float = Field(0.95, gt=0, le=1, description="cosine at which a new memory merges")
    kind_fallback_below: float = Field(0.4, description="confidence under which the kind falls back")
    kind_learn_above: float = Field(0.9, description="confidence over which a memory becomes a prototype")
    kind_learned_max: int = Field(64, ge=0, description="learned prototypes kept per kind")
    kind_neighbours: int = Field(20, gt=0, description="neighbours that vote on a kind")
    kind_prototype_weight: float = Field(0.65, ge=0, le=1, description="prototype share of the kind score")
    kind_prototype_top: int = Field(
        5, ge=1, description="prototype score: mean cosine of a kind's k closest prototypes (1 = best cosine)"
    )
    kind_opening_weight: float = Field(
        0.35,
        ge=0,
        le=1,
        description="share of the prototype score read from a text's opening words (0: none)",
    )
    kind_opening_words: int = Field(2, ge=1, description="how many opening words the classifiers read")
    kind_neighbour_floor: float = Field(
        0.75, ge=0, le=1, description="cosine a stored memory needs to vote on a new memory's kind"
    )
    kind_temperature: float | None = Field(
        None, gt=0, description="softmax temperature for kind confidence; None: calibrated on the prototypes"
    )
    category_fallback_below: float = Field(
        0.5, description="confidence under which no category is set (it can be given later)"
    )
    category_learn_above: float = Field(0.9, description="confidence over which a memory joins its category")
    tag_on_topic: float = Field(
        0.2, ge=-1, le=1, description="cosine a concept needs to the memory's text to become a tag (-1: any)"
    )
    recency_half_life_days: float = Field(30.0, gt=0, description="recency halves over this many days")
    importance_daily_decay: float = Field(0.99, gt=0, le=1, description="importance factor per idle day")
    negative_penalty: float = Field(0.25, ge=0, description="subtracted from the score of negative memories")
    mmr_lambda: float = Field(0.75, ge=0, le=1, description="relevance vs diversity in MMR re-ranking")
    feedback_docs: int = Field(
        3,
        ge=0,
        description="pseudo-relevance feedback: the best-matching first-pass hits the query moves toward; 0: off",
    )
    feedback_weight: float = Field(
        0.5,
        ge=0,
        description="Rocchio: the query plus this x the mean vector of the feedback hits, re-normalised",
    )
    accurate: ModeThresholds = Field(
        ModeThresholds(floor=0.2, ratio=0.58, cap=8),
        description="accurate recall keeps the best hit and those at least max(floor, ratio x best), at most cap "
        '(JSON, e.g. {"floor": 0.2, "ratio": 0.58, "cap": 8})',
    )
    related: ModeThresholds = Field(
        ModeThresholds(floor=0.12, ratio=0.35, cap=12),
        description="related recall's floor, ratio and cap, as for accurate (looser: more results)",
    )
    profiles: dict[str, RankingProfile] = Field(
        default_factory=lambda: dict(DEFAULT_PROFILES),
        description="ranking profiles by name (JSON): the weight of each score component; must include default",
    )
    busy_timeout_ms: int = Field(30_000, ge=0, description="how long a writer waits for another process")
    blas_threads: int = Field(
        1,
        ge=0,
        description="numpy BLAS threads, process-wide (engram's products are small; an idle pool spins on a "
        "core the model needs); 0 leaves BLAS as it is",
    )
    pg_pool_size: int = Field(8, ge=1, description="most PostgreSQL connections one process holds")
    llm_url: str | None = Field(
        None,
        description="OpenAI-compatible endpoint for LLM extraction on ingest (e.g. http://localhost:11434/v1); off when unset",
    )
    llm_model: str = Field("llama3.1", description="model name sent to the LLM endpoint")
    llm_api_key: str | None = Field(None, description="bearer key for the LLM endpoint, if it needs one")
    llm_timeout_s: float = Field(20.0, gt=0, description="seconds to wait for the LLM before falling back")
    redact_pii: bool = Field(False, description="replace detected PII by [REDACTED_*] markers before storing")
    lifecycle_mode: Literal["store", "persona"] = Field(
        "store", description="store: no tier capacities; persona: mid-term 20 slots, long-term 100"
    )
    long_term_capacity: int = Field(100, gt=0, description="long-term memories kept in persona mode")
    maintain_every_minutes: float = Field(
        10.0, ge=0, description="how often `engram serve` runs lifecycle maintenance; 0: never"
    )

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if self.chunk_overlap >= self.chunk_tokens:
            raise ValueError("chunk_overlap must be smaller than chunk_tokens")
        if "default" not in self.profiles:
            raise ValueError("profiles must include 'default'")
        return self

    @property
    def db_path(self) -> str | Path:
        """The database: a file path, or a PostgreSQL URL kept as text."""
        if self.db is None:
            return self.home / "memories.db"
        return locate(self.db)
