"""Dictionary lemmas: lemminflect's (word classes and lemmas) and simplemma's (a word's dictionary form), both
read from compact tables.

lemminflect registers token extensions on spaCy whenever it can import spaCy, so importing it would load spaCy
(tens of MB and half a second) into every process, one that never tags a text included. Engram reads none of
those extensions: lemminflect is imported here with spaCy out of its sight, and spaCy loads where its tagger is
first used (engram.tags.phrases), without its command line (`_SpacyLoader` below). Every module takes
`getAllLemmas` from here, so this import comes first.

Both libraries would load their English tables as dicts of Python strings (lemminflect's 80k lines of lemmas
took about 30 MB, its 40k lines of inflections about 17 MB, simplemma's dictionary about 19 MB). Here
lemminflect's tables stay the files' text with an array of where each word starts, and simplemma reads its own
front-coded table in place (`low_memory`): the same entries, looked up by bisection.
"""

from __future__ import annotations

import bisect
import gzip
import importlib.abc
import importlib.machinery
import sys
import threading
from array import array
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

import simplemma

from engram.model.standins import standing_in


class _WithoutSpacy(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == "spacy":
            raise ModuleNotFoundError("not imported for lemminflect", name=fullname)
        return None


def _import_lemminflect() -> None:
    if "lemminflect" in sys.modules or "spacy" in sys.modules:
        return
    finder = _WithoutSpacy()
    sys.meta_path.insert(0, finder)
    try:
        import lemminflect  # noqa: F401
    finally:
        sys.meta_path.remove(finder)


_import_lemminflect()


def _spacy_info(*args: Any, **kwargs: Any) -> Any:
    """`spacy.info`, whose command line loads when it is first called."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


class _SpacyLoader(importlib.machinery.SourceFileLoader):
    """Runs `spacy/__init__.py` with an empty `spacy.cli` in place: it imports `spacy.cli.info` only to offer
    `spacy.info`, and with it every command (typer, weasel, requests, jinja2), which no tagger reads and a
    process would hold for good. `spacy.info` still works (its command loads when called); the stand-ins then leave
    `sys.modules`, so `import spacy.cli` or `from spacy.cli import download` imports the real one."""

    def exec_module(self, module: ModuleType) -> None:
        package, info = ModuleType("spacy.cli"), ModuleType("spacy.cli.info")
        package.__path__ = []
        info.info = _spacy_info  # type: ignore[attr-defined]
        try:
            with standing_in({"spacy.cli": package, "spacy.cli.info": info}):
                super().exec_module(module)
        finally:
            if module.__dict__.get("cli") is package:
                del module.cli


class _SpacyWithoutCli(importlib.abc.MetaPathFinder):
    """Finds spaCy where the path finder does and loads it with `_SpacyLoader`, whoever imports it (the tagger,
    German stop words, a caller of the library)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "spacy":
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = _SpacyLoader(spec.loader.name, spec.loader.path)
        return spec


if "spacy" not in sys.modules and not any(isinstance(f, _SpacyWithoutCli) for f in sys.meta_path):
    sys.meta_path.insert(0, _SpacyWithoutCli())


from lemminflect import getAllLemmas, getInflection  # noqa: E402
from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec  # noqa: E402
from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec  # noqa: E402
from lemminflect.core.Inflections import Inflections  # noqa: E402
from lemminflect.core.Lemmatizer import Lemmatizer  # noqa: E402
from lemminflect.core.LexicalUtils import categoryToUPos  # noqa: E402

Readings = dict[str, tuple[str, ...]]


class LemmaTable(Mapping[str, Readings]):
    """lemminflect's lemma table (lines `word,category,lemma/lemma`, sorted by word) as the file's bytes and the
    offset of each word's first line; a lookup bisects the words and parses that word's lines as lemminflect's
    loader does (category to UPOS, a later line of one class replacing an earlier one). Loaded on first use."""

    def _entry(self, lines: list[str]) -> Readings:
        out: Readings = {}
        for line in lines:
            _, category, forms = LemmaLUCodec.fromString(line)
            out[categoryToUPos(category)] = forms
        return out

    def __init__(self, path: str) -> None:
        self._path = path
        self._text = b""
        self._starts = array("I")
        self._loaded = False
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._loaded:
                return
            with gzip.open(self._path, "rb") as f:
                text = f.read()
            starts, previous, at = array("I"), b"", 0
            while at < len(text):
                word = text[at : text.index(b",", at)]
                if word != previous:
                    if word < previous:
                        raise ValueError(f"{self._path} is not sorted by word at {word!r}")
                    starts.append(at)
                    previous = word
                at = text.index(b"\n", at) + 1
            self._text, self._starts, self._loaded = text, starts, True

    def _word(self, i: int) -> bytes:
        at = self._starts[i]
        return self._text[at : self._text.index(b",", at)]

    def _find(self, word: str) -> int | None:
        if not self._loaded:
            self._load()
        key = word.encode()
        i = bisect.bisect_left(range(len(self._starts)), key, key=self._word)
        return i if i < len(self._starts) and self._word(i) == key else None

    def __getitem__(self, word: str) -> Readings:
        i = self._find(word)
        if i is None:
            raise KeyError(word)
        end = self._starts[i + 1] if i + 1 < len(self._starts) else len(self._text)
        return self._entry([line.decode() for line in self._text[self._starts[i] : end].split(b"\n") if line])

    def get(self, word: str, default: object = None) -> object:  # type: ignore[override]
        try:
            return self[word]
        except KeyError:
            return default

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._find(word) is not None

    def __iter__(self) -> Iterator[str]:
        if not self._loaded:
            self._load()
        return (self._word(i).decode() for i in range(len(self._starts)))

    def __len__(self) -> int:
        if not self._loaded:
            self._load()
        return len(self._starts)


class InflectionTable(LemmaTable):
    """lemminflect's inflection table (lines `lemma,category,form/form,...`, sorted by lemma) kept as its text:
    a lemma's lines merge as lemminflect's loader merges them, and the auxiliaries and modals it writes by hand
    replace what the file says of them."""

    _HAND_WRITTEN: dict[str, Readings] = InflectionLUCodec.updateForAuxMod({})

    def _entry(self, lines: list[str]) -> Readings:
        out: Readings = {}
        for line in lines:
            out.update(InflectionLUCodec.fromString(line)[2])
        return out

    def __getitem__(self, word: str) -> Readings:
        hand = self._HAND_WRITTEN.get(word)
        return dict(hand) if hand is not None else super().__getitem__(word)

    def __contains__(self, word: object) -> bool:
        return word in self._HAND_WRITTEN or super().__contains__(word)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*super().__iter__(), *self._HAND_WRITTEN}))

    def __len__(self) -> int:
        return sum(1 for _ in self)


_lemmatizer = Lemmatizer()
if not hasattr(_lemmatizer, "lemma_dict"):  # lemminflect loads `lemma_dict` on first use unless it is there
    _lemmatizer.lemma_dict = LemmaTable(_lemmatizer.lemma_lu_fn)
_inflections = Inflections()
if not hasattr(_inflections, "infl_dict"):  # and `infl_dict` the same way
    _inflections.infl_dict = InflectionTable(_inflections.infl_lu_fn)


def dictionary_form(word: str) -> str:
    """simplemma's English lemma of `word` ("meetings" -> "meeting"), as it writes it (it capitalises some)."""
    return str(simplemma.lemmatize(word, lang="en", low_memory=True))


@lru_cache(maxsize=16384)
def is_dictionary_word(word: str) -> bool:
    """Whether simplemma's English dictionary has `word`. Cached: a question's words are asked again and again,
    and a look-up in the table read in place costs more than a cached answer."""
    return bool(simplemma.is_known(word, lang="en", low_memory=True))


__all__ = [
    "InflectionTable",
    "LemmaTable",
    "dictionary_form",
    "getAllLemmas",
    "getInflection",
    "is_dictionary_word",
]
