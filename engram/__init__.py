"""Engram: a local-first memory engine for AI agents.

Everything a user (or an interface) needs is imported from here; the modules below are the implementation."""

from importlib import metadata as _metadata

from engram.config import RankingProfile, Settings
from engram.embed.embedder import CachedEmbedder, Embedder, FakeEmbedder
from engram.embed.minilm import MiniLM, default_embedder
from engram.errors import (
    EngramError,
    InvalidInput,
    MissingExtra,
    ModelMismatch,
    ModelUnavailable,
    NotFound,
    StoreError,
    StoreUnavailable,
)
from engram.interop.documents import TYPES as DOCUMENT_TYPES
from engram.interop.shodh import to_shodh
from engram.memory import Hit, Memory
from engram.model.answers import (
    FORGET_NOTE,
    AddedFile,
    DiscoverResult,
    ForgetAnswer,
    MaintainAnswer,
    PiiSummary,
    RecallAnswer,
    RememberAnswer,
    SearchMemoryResult,
    StatsAnswer,
    StoreMemoryResult,
)
from engram.model.record import (
    GIVEN_TAGS,
    ID_CHARS,
    KIND_CHARS,
    NAME_CHARS,
    TAG_CHARS,
    Category,
    Kind,
    KindFilter,
    MemoryRecord,
    MemoryType,
    NameFilter,
    NewMemory,
    Scope,
    SourceType,
    Status,
    TagFilter,
    Tier,
)
from engram.model.results import RememberResult
from engram.recall.modes import RecallMode
from engram.review.extract import Message
from engram.review.messages import read_messages
from engram.review.queue import pending_matching, why_waiting
from engram.store.copy import copy_database

try:
    __version__ = _metadata.version("engram-memory")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = [
    "DOCUMENT_TYPES",
    "FORGET_NOTE",
    "GIVEN_TAGS",
    "ID_CHARS",
    "KIND_CHARS",
    "NAME_CHARS",
    "TAG_CHARS",
    "AddedFile",
    "CachedEmbedder",
    "Category",
    "DiscoverResult",
    "Embedder",
    "EngramError",
    "FakeEmbedder",
    "ForgetAnswer",
    "Hit",
    "InvalidInput",
    "Kind",
    "KindFilter",
    "MaintainAnswer",
    "Memory",
    "MemoryRecord",
    "MemoryType",
    "Message",
    "MiniLM",
    "MissingExtra",
    "ModelMismatch",
    "ModelUnavailable",
    "NameFilter",
    "NewMemory",
    "NotFound",
    "PiiSummary",
    "RankingProfile",
    "RecallAnswer",
    "RecallMode",
    "RememberAnswer",
    "RememberResult",
    "Scope",
    "SearchMemoryResult",
    "Settings",
    "SourceType",
    "StatsAnswer",
    "Status",
    "StoreError",
    "StoreMemoryResult",
    "StoreUnavailable",
    "TagFilter",
    "Tier",
    "copy_database",
    "default_embedder",
    "pending_matching",
    "read_messages",
    "to_shodh",
    "why_waiting",
]
