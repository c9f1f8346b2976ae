"""Modules standing in for others while one module loads: a library that imports something heavy only to offer
what Engram never calls is given a light module of the same name instead. The stand-ins leave `sys.modules` after
the load, so any later importer gets the real module; a module already loaded is left as it is."""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any


@contextmanager
def standing_in(modules: Mapping[str, ModuleType]) -> Iterator[None]:
    """`modules` in `sys.modules` under their names (where nothing holds the name yet) until the block ends."""
    for name, stand_in in modules.items():
        sys.modules.setdefault(name, stand_in)
    try:
        yield
    finally:
        for name, stand_in in modules.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]


# spaCy's pipeline components that the tagger (tok2vec, tagger, attribute ruler) never builds, and the models and
# knowledge base only they use: `spacy/__init__.py` imports every one, and its factories bind their classes.
UNUSED_SPACY_PARTS = frozenset(
    {
        *(
            f"spacy.pipeline.{name}"
            for name in [
                "dep_parser",
                "edit_tree_lemmatizer",
                "entity_linker",
                "entityruler",
                "morphologizer",
                "ner",
                "senter",
                "span_finder",
                "span_ruler",
                "spancat",
                "textcat",
                "textcat_multilabel",
                "transition_parser",
                "legacy",
                "legacy.entity_linker",
            ]
        ),
        *(
            f"spacy.ml.models.{name}"
            for name in ("entity_linker", "parser", "span_finder", "spancat", "textcat")
        ),
        "spacy.ml.parser_model",
        "spacy.kb",
    }
)


class UnusedSpacyPart:
    """What a left-out spaCy component's names stand for: building one says so."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("this spaCy component is not loaded in a serving process, which only tags")


class _LeftOut(ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return UnusedSpacyPart


class _LeftOutLoader(importlib.abc.Loader):
    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return _LeftOut(spec.name)

    def exec_module(self, module: ModuleType) -> None:
        return None


class _SpacyTaggerOnly(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        return ModuleSpec(fullname, _LeftOutLoader()) if fullname in UNUSED_SPACY_PARTS else None


def spacy_for_tagging_only() -> bool:
    """In a serving process, whose only use of spaCy is the tagger, spaCy's other components are stand-ins for the
    rest of the process, not only while a module loads (about 7 MB less). Call before spaCy is imported; False if
    it already was."""
    if "spacy" in sys.modules:
        return False
    if not any(isinstance(f, _SpacyTaggerOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SpacyTaggerOnly())
    return True


_WITHOUT_SPACY: list[bool] = []


def tag_without_spacy() -> None:
    """In a serving process, the tagger runs on numpy from spaCy's exported weights (`engram.tags.postag`, the same
    tokens and tags) and spaCy's framework is never imported to tag."""
    _WITHOUT_SPACY[:] = [True]


def tagging_without_spacy() -> bool:
    return bool(_WITHOUT_SPACY)
