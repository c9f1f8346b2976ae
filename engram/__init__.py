"""Engram: a local-first memory engine for AI agents."""

from engram.config import RankingProfile, Settings
from engram.embed.embedder import CachedEmbedder, Embedder, FakeEmbedder
from engram.embed.minilm import MiniLM, default_embedder
from engram.errors import (
    EngramError,
    InvalidInput,
    ModelMismatch,
    ModelUnavailable,
    NotFound,
    StoreError,
    StoreUnavailable,
)
from engram.memory import Hit, Memory
from engram.model.record import (
    Category,
    Kind,
    MemoryRecord,
    MemoryType,
    NewMemory,
    Scope,
    SourceType,
    Status,
    Tier,
)
from engram.recall.scoring import RecallMode
from engram.write.writer import RememberResult

__version__ = "0.1.0"

__all__ = [
    "CachedEmbedder",
    "Category",
    "Embedder",
    "EngramError",
    "FakeEmbedder",
    "Hit",
    "InvalidInput",
    "Kind",
    "Memory",
    "MemoryRecord",
    "MemoryType",
    "MiniLM",
    "ModelMismatch",
    "ModelUnavailable",
    "NewMemory",
    "NotFound",
    "RankingProfile",
    "RecallMode",
    "RememberResult",
    "Scope",
    "Settings",
    "SourceType",
    "Status",
    "StoreError",
    "StoreUnavailable",
    "Tier",
    "default_embedder",
]
