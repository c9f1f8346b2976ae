"""yake reads a text's keyphrases on `engram.lang.cograph.DiGraph` instead of networkx: a process that reads text
never imports networkx, and the keyphrases and their scores are the ones networkx's graph gives."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from types import ModuleType

import pytest
from test_footprint_spacy import TEXTS as SENTENCES

from engram.lang import analysis, cograph

TEXTS = [
    *SENTENCES,
    "The garden needs water. The garden needs new tomato plants, and the tomato plants need sun in the garden.",
    " ".join(
        [
            "Quarterly planning: the data team moves the billing pipeline to the new warehouse in March.",
            "The billing pipeline reads invoices from the payment service and the warehouse keeps them a year.",
            "Risks: the payment service's API limits, the warehouse costs, and the March freeze of the team.",
        ]
        * 4
    ),
    "",
    "ok",
]


def test_reading_keyphrases_does_not_import_networkx() -> None:
    code = """
        import sys
        from engram.lang import analysis
        assert analysis.concepts("The garden needs new tomato plants from the shop on Sunday.")
        import yake.data.core
        print("networkx" in sys.modules, type(yake.data.core.nx.DiGraph()).__module__)
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=300
    )
    assert done.stdout.split() == ["False", "engram.lang.cograph"]


def test_keyphrases_and_scores_are_networkxs(monkeypatch: pytest.MonkeyPatch) -> None:
    networkx = pytest.importorskip("networkx")
    extractor = analysis._extractor()
    import yake.data.core  # type: ignore[import-untyped]

    stand_in = ModuleType("networkx")
    stand_in.DiGraph = cograph.DiGraph  # type: ignore[attr-defined]
    monkeypatch.setattr(yake.data.core, "nx", stand_in)
    ours = [extractor.extract_keywords(t) for t in TEXTS]
    monkeypatch.setattr(yake.data.core, "nx", networkx)
    theirs = [extractor.extract_keywords(t) for t in TEXTS]
    assert ours == theirs
    assert sum(bool(k) for k in ours) >= len(TEXTS) - 2


def test_the_graph_answers_as_networkxs() -> None:
    networkx = pytest.importorskip("networkx")
    rng = random.Random(7)
    ours, theirs = cograph.DiGraph(), networkx.DiGraph()
    for _ in range(400):
        u, v, node_only = rng.randrange(30), rng.randrange(30), rng.random() < 0.2
        for graph in (ours, theirs):
            if node_only:
                graph.add_node(u)
            elif u not in graph or v not in graph[u]:  # as yake adds an edge, then counts it
                graph.add_edge(u, v, tf=0.0)
            else:
                graph[u][v]["tf"] += 1.0
    for node in theirs:
        assert list(ours.out_edges(node, data=True)) == list(theirs.out_edges(node, data=True))
        assert list(ours.in_edges(node, data=True)) == list(theirs.in_edges(node, data=True))
        assert len(ours.out_edges(node)) == len(theirs.out_edges(node))
        assert [ours.has_edge(node, v) for v in range(30)] == [theirs.has_edge(node, v) for v in range(30)]
    assert list(ours) == list(theirs)
