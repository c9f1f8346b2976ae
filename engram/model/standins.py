"""Modules standing in for others while one module loads: a library that imports something heavy only to offer
what Engram never calls is given a light module of the same name instead. The stand-ins leave `sys.modules` after
the load, so any later importer gets the real module; a module already loaded is left as it is."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType


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
