"""spaCy's English part-of-speech tagger (en_core_web_sm: tok2vec, tagger, attribute ruler) run with numpy alone:
the same tokens, the same hashed features and the same layers, from weights exported once in a process of its own
(`engram.tags.tagger_export`). A serving process tags with it instead of importing spaCy's framework (thinc,
its layers and registries, pydantic v1 models), which it would hold for good."""

from __future__ import annotations

import functools
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engram.model import heap
from engram.tags.tokens import Doc, Token, Tokenizer

log = logging.getLogger(__name__)

FORMAT = 1  # of the exported files: a change to what the export writes gives it a new folder

_M64 = 0xFFFFFFFFFFFFFFFF


@functools.lru_cache(maxsize=16_384)
def _murmur64a(text: str) -> int:
    """spaCy's string hash: MurmurHash64A of the UTF-8 bytes, seed 1."""
    data = text.encode("utf8")
    m, r = 0xC6A4A7935BD1E995, 47
    h = (1 ^ (len(data) * m)) & _M64
    end = len(data) - len(data) % 8
    for at in range(0, end, 8):
        k = (int.from_bytes(data[at : at + 8], "little") * m) & _M64
        k ^= k >> r
        k = (k * m) & _M64
        h = ((h ^ k) * m) & _M64
    tail = data[end:]
    if tail:
        h ^= int.from_bytes(tail, "little")
        h = (h * m) & _M64
    h ^= h >> r
    h = (h * m) & _M64
    return h ^ (h >> r)


def _keys(ids: NDArray[np.uint64], seed: int) -> NDArray[np.uint32]:
    """thinc's `ops.hash`: MurmurHash3_x86_128 of each 64-bit id, as four 32-bit keys."""
    with np.errstate(over="ignore"):
        h1 = ids * np.uint64(0x87C37B91114253D5)
        h1 = (h1 << np.uint64(31)) | (h1 >> np.uint64(33))
        h1 = h1 * np.uint64(0x4CF5AD432745937F)
        h1 ^= np.uint64(seed ^ 8)
        h2 = np.full_like(ids, np.uint64(seed ^ 8))
        h1 = h1 + h2
        h2 = h2 + h1
        h1, h2 = _mix(h1), _mix(h2)
        h1 = h1 + h2
        h2 = h2 + h1
    out = np.empty((len(ids), 4), dtype=np.uint32)
    out[:, 0], out[:, 1] = h1 & np.uint64(0xFFFFFFFF), h1 >> np.uint64(32)
    out[:, 2], out[:, 3] = h2 & np.uint64(0xFFFFFFFF), h2 >> np.uint64(32)
    return out


def _mix(h: NDArray[np.uint64]) -> NDArray[np.uint64]:
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def _shape(text: str) -> str:
    """spaCy's word shape: Xxxx, dd, runs of one class cut at four."""
    if len(text) >= 100:
        return "LONG"
    shape, last, run = [], "", 0
    for char in text:
        kind = ("X" if char.isupper() else "x") if char.isalpha() else "d" if char.isdigit() else char
        run = run + 1 if kind == last else 0
        last = kind
        if run < 4:
            shape.append(kind)
    return "".join(shape)


def _layer_norm(x: NDArray[np.float32], gain: NDArray[np.float32], bias: NDArray[np.float32]) -> Any:
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True) + 1e-08
    return (x - mu) * var ** (-1.0 / 2.0) * gain + bias


def _maxout(x: Any, w: NDArray[np.float32], b: NDArray[np.float32]) -> Any:
    out, pieces, width = w.shape
    y = x @ w.reshape(out * pieces, width).T + b.reshape(out * pieces)
    return y.reshape(len(x), out, pieces).max(axis=2)


class Tagger:
    """Tags a text as `spacy.load(model)` with only tok2vec, the tagger and the attribute ruler would."""

    def __init__(self, folder: Path) -> None:
        tables = json.loads((folder / "tables.json").read_text(encoding="utf-8"))
        with np.load(folder / "weights.npz") as weights:
            self.weights = {name: weights[name] for name in weights.files}
        self.tokenizer = Tokenizer(tables)
        self.features: list[str] = tables["features"]
        self.seeds: list[int] = tables["seeds"]
        self.pad: int = tables["pad"]
        self.labels: list[str] = tables["labels"]
        self._by_first: dict[Any, list[tuple[int, list[dict[str, Any]], dict[str, Any]]]] = {}
        for order, rule in enumerate(tables["ruler"]):
            for pattern in rule["patterns"]:
                self._by_first.setdefault(_first_key(pattern), []).append((order, pattern, rule))
        # spaCy's lookup tables are keyed by the string's id
        self._norms: dict[int, str] = {int(key): norm for key, norm in tables["lexeme_norm"].items()}
        self._base_norms: dict[str, str] = tables["base_norms"]
        self._symbols: dict[str, int] = tables["symbols"]

    def _id(self, text: str) -> int:
        """The string's id in spaCy's string store: a symbol's number, else its hash (0 for no text)."""
        if not text:
            return 0
        symbol = self._symbols.get(text)
        return symbol if symbol is not None else _murmur64a(text)

    def _norm(self, text: str) -> str:
        found = self._norms.get(self._id(text))
        if found is None:
            found = self._base_norms.get(text)
        return text.lower() if found is None else found

    def _row(self, token: Token) -> list[int]:
        text = token.text
        values = {
            "NORM": lambda: self._id(token.norm if token.norm else self._norm(text)),
            "PREFIX": lambda: self._id(text[0]),
            "SUFFIX": lambda: self._id(text[-3:]),
            "SHAPE": lambda: self._id(_shape(text)),
            "SPACY": lambda: int(bool(token.whitespace_)),
            "IS_SPACE": lambda: int(text.isspace()),
        }
        return [values[name]() for name in self.features]

    def __call__(self, text: str) -> Doc:
        doc = self.tokenizer(text)
        if not len(doc):
            return doc
        w = self.weights
        ids = np.array([self._row(t) for t in doc], dtype=np.uint64)
        embedded = np.concatenate(
            [
                w[f"embed{column}"][
                    _keys(np.ascontiguousarray(ids[:, column]), seed) % len(w[f"embed{column}"])
                ].sum(axis=1)
                for column, seed in enumerate(self.seeds)
            ],
            axis=1,
        )
        x = _layer_norm(_maxout(embedded, w["maxout0_W"], w["maxout0_b"]), w["norm0_G"], w["norm0_b"])
        # The encoder reads the doc with `pad` rows of zeros on each side, as spaCy's does.
        padding = np.zeros((self.pad, x.shape[1]), dtype=np.float32)
        x = np.concatenate([padding, x, padding])
        for layer in range(1, 5):
            window = np.zeros((len(x), 3, x.shape[1]), dtype=np.float32)
            window[1:, 0] = x[:-1]
            window[:, 1] = x
            window[:-1, 2] = x[1:]
            y = _maxout(window.reshape(len(x), -1), w[f"maxout{layer}_W"], w[f"maxout{layer}_b"])
            x = x + _layer_norm(y, w[f"norm{layer}_G"], w[f"norm{layer}_b"])
        x = x[self.pad : len(x) - self.pad]
        scores = x @ w["output_W"].T + w["output_b"]
        for token, best in zip(doc, scores.argmax(axis=1), strict=True):
            token.tag_ = self.labels[int(best)]
        self._rule(doc)
        return doc

    def _rule(self, doc: Doc) -> None:
        """The attribute ruler: each pattern that matches (read before any is applied) sets its token's TAG or
        POS, in the patterns' order."""
        tokens = list(doc)
        changes = []
        for start, token in enumerate(tokens):
            keys = (
                ("TAG", token.tag_),
                ("LOWER", token.text.lower()),
                ("IS_SPACE", token.text.isspace()),
                None,
            )
            for order, pattern, rule in [c for key in keys for c in self._by_first.get(key, ())]:
                span = tokens[start : start + len(pattern)]
                if len(span) == len(pattern) and all(
                    _matches(t, p) for t, p in zip(span, pattern, strict=True)
                ):
                    changes.append((order, start, span[rule["index"]], rule["attrs"]))
        for _, _, token, attrs in sorted(changes, key=lambda c: (c[0], c[1])):
            token.tag_ = attrs.get("TAG", token.tag_)
            token.pos_ = attrs.get("POS", token.pos_)


def _first_key(pattern: list[dict[str, Any]]) -> tuple[str, Any] | None:
    """What a token must equal for `pattern` to start at it, where its first token asks one value plainly."""
    for attr in ("TAG", "LOWER", "IS_SPACE"):
        wanted = pattern[0].get(attr)
        if wanted is not None and not isinstance(wanted, dict):
            return (attr, wanted)
    return None


def _matches(token: Token, pattern: dict[str, Any]) -> bool:
    for attr, wanted in pattern.items():
        value: Any = {
            "TAG": token.tag_,
            "LOWER": token.text.lower(),
            "IS_SPACE": token.text.isspace(),
            "DEP": "",  # no parser: no dependency label
        }[attr]
        if isinstance(wanted, dict):
            if ("IN" in wanted and value not in wanted["IN"]) or value in wanted.get("NOT_IN", ()):
                return False
        elif value != wanted:
            return False
    return True


def folder(model: str) -> Path:
    """Where the export of `model` is kept: the user's cache, by the model's and spaCy's versions and this format."""
    from platformdirs import user_cache_dir

    base = os.environ.get("ENGRAM_TAGGER_DIR") or user_cache_dir("engram", appauthor=False)
    versions = f"{metadata.version(model)}-spacy{metadata.version('spacy')}-{FORMAT}"
    return Path(base) / "tagger" / f"{model}-{versions}"


_exporting = threading.RLock()
_shared: dict[str, Tagger | None] = {}


def shared(model: str) -> Tagger | None:
    """The process's exported tagger of `model`, loaded on first use; None where it could not be exported (no
    writable cache), and spaCy then tags as in any other process."""
    with _exporting:
        if model not in _shared:
            try:
                _shared[model] = load(model)
            except (OSError, RuntimeError, ValueError) as exc:
                log.warning("tagging with spaCy: its tagger could not be exported (%s)", exc)
                _shared[model] = None
            heap.give_back()  # the files as read, which the arrays replaced
        return _shared[model]


def load(model: str) -> Tagger:
    """The exported tagger of `model`, exported first (in a process of its own, a few seconds) where missing."""
    where = folder(model)
    with _exporting:
        if not (where / "tables.json").exists():
            where.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=where.parent) as scratch:
                done = subprocess.run(
                    [sys.executable, "-m", "engram.tags.tagger_export", model, scratch],
                    capture_output=True,
                    text=True,
                )
                if done.returncode:
                    raise RuntimeError(f"exporting the tagger {model} failed: {done.stderr[-2000:]}")
                try:
                    os.replace(scratch, where)
                except OSError:
                    if not (where / "tables.json").exists():  # another process exported it meanwhile
                        raise
                os.makedirs(scratch, exist_ok=True)  # for the scratch folder's own removal
    return Tagger(where)
