"""The word co-occurrence graph yake builds for each text it reads, without networkx.

yake keeps a text's words as the nodes of a directed graph whose edges count how often one word follows another
(an edge's `tf`), and reads it only through a handful of networkx's `DiGraph` calls. Importing networkx for them
put its whole library (about 290 modules) in every process that reads a text for keyphrases and kept it there.
`DiGraph` answers those calls as networkx does, with the same edge data dicts in the same order, so yake's scores
and keyphrases are the same; `networkx_for_yake` puts it where yake imports networkx, while yake loads.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

Edge = tuple[Hashable, Hashable] | tuple[Hashable, Hashable, dict[str, Any]]


class DiGraph:
    """The part of `networkx.DiGraph` yake calls: nodes and edges added, an edge's data read and changed in place
    (`graph[u][v]["tf"] += 1`), and a node's edges out and in, in the order they were added."""

    def __init__(self) -> None:
        self._succ: dict[Hashable, dict[Hashable, dict[str, Any]]] = {}
        self._pred: dict[Hashable, dict[Hashable, dict[str, Any]]] = {}

    def add_node(self, node: Hashable) -> None:
        if node not in self._succ:
            self._succ[node] = {}
            self._pred[node] = {}

    def add_edge(self, u: Hashable, v: Hashable, **data: Any) -> None:
        self.add_node(u)
        self.add_node(v)
        edge = self._succ[u].get(v, {})
        edge.update(data)
        self._succ[u][v] = edge
        self._pred[v][u] = edge  # one dict for both directions, as networkx keeps it

    def __getitem__(self, node: Hashable) -> dict[Hashable, dict[str, Any]]:
        return self._succ[node]

    def __contains__(self, node: object) -> bool:
        try:
            return node in self._succ
        except TypeError:
            return False

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._succ)

    def __len__(self) -> int:
        return len(self._succ)

    def has_edge(self, u: Hashable, v: Hashable) -> bool:
        return u in self._succ and v in self._succ[u]

    def out_edges(self, node: Hashable, data: bool = False) -> list[Edge]:
        return [(node, v, d) if data else (node, v) for v, d in self._succ[node].items()]

    def in_edges(self, node: Hashable, data: bool = False) -> list[Edge]:
        return [(u, node, d) if data else (u, node) for u, d in self._pred[node].items()]


@contextmanager
def networkx_for_yake() -> Iterator[None]:
    """While yake loads, `import networkx` gives a module holding `DiGraph` alone; it leaves `sys.modules` after,
    so another importer of networkx gets the real one. Where networkx is already loaded, yake uses it."""
    if "networkx" in sys.modules:
        yield
        return
    stand_in = ModuleType("networkx")
    stand_in.DiGraph = DiGraph  # type: ignore[attr-defined]
    sys.modules["networkx"] = stand_in
    try:
        yield
    finally:
        if sys.modules.get("networkx") is stand_in:
            del sys.modules["networkx"]


__all__ = ["DiGraph", "networkx_for_yake"]
