"""The embedder named by the `embedding_model` setting. MiniLM is the default; the others are optional extras.

A store records the name and dimension of the model that embedded it, and opening it with another model raises
ModelMismatch unless the caller asks to re-embed (engram.memory), so a choice here never mixes vector spaces.
"""

from __future__ import annotations

import threading

from engram.embed.embedder import CachedEmbedder, Embedder
from engram.embed.minilm import MINILM_NAME, default_embedder
from engram.errors import InvalidInput

E5_SMALL = "multilingual-e5-small-q4"
MODELS = (MINILM_NAME, E5_SMALL)

_loaded: dict[str, CachedEmbedder] = {}
_lock = threading.Lock()


def embedder_named(name: str) -> Embedder:
    """The process-wide embedder for `name`, loaded once on first use."""
    if name == MINILM_NAME:
        return default_embedder()
    if name not in MODELS:
        raise InvalidInput("embedding_model", f"unknown model {name!r}; known: {', '.join(MODELS)}")
    with _lock:
        if name not in _loaded:
            from engram.embed.e5small import E5Small

            _loaded[name] = CachedEmbedder(E5Small())
        return _loaded[name]
