"""lemminflect's dictionary lemmas, imported without its spaCy hook.

lemminflect registers token extensions on spaCy whenever it can import spaCy, so importing it would load spaCy
(tens of MB and half a second) into every process, one that never tags a text included. Engram reads none of
those extensions: lemminflect is imported here with spaCy out of its sight, and spaCy loads where its tagger is
first used (engram.tags.phrases). Every module takes `getAllLemmas` from here, so this import comes first.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


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

from lemminflect import getAllLemmas, getInflection  # noqa: E402

__all__ = ["getAllLemmas", "getInflection"]
