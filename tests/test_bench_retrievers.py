from datetime import datetime

import numpy as np
import pytest

pytest.importorskip("bm25s", reason="the bench extra is not installed")

from bench.datasets import Haystack, Query, Unit
from bench.retrieval import evaluate, limit_questions, make_retrievers
from bench.retrievers import EngramRetriever, min_max, tokenize
from engram.embed.embedder import FakeEmbedder

DAY = datetime(2023, 5, 1, 12, 0)
UNITS = [
    Unit("D1:1", "Ann: I adopted a grey cat named Pixel last week.", DAY),
    Unit("D1:2", "Bob: My sister plays the violin in an orchestra.", DAY),
    Unit("D1:3", "Ann: We are painting the kitchen yellow this weekend.", DAY),
    Unit("D1:4", "Bob: My sister plays the violin in an orchestra.", DAY),  # the same text twice
]


def test_tokenize_drops_stopwords_and_case() -> None:
    assert tokenize("What is THE cat's name?") == ["cat", "name"]


def test_min_max() -> None:
    assert list(min_max(np.array([2.0, 4.0, 3.0]))) == [0.0, 1.0, 0.5]
    assert list(min_max(np.array([1.0, 1.0]))) == [0.0, 0.0]


@pytest.mark.parametrize("name", ["bm25", "dense", "blend", "engram-default", "engram-lexical"])
def test_each_retriever_finds_the_obvious_unit(name: str) -> None:
    (retriever,) = make_retrievers([name], FakeEmbedder())
    retriever.index(UNITS)
    ranked = retriever.search("grey cat Pixel", 3, DAY)
    assert ranked[0] == "D1:1"
    assert len(ranked) == len(set(ranked)) <= 3


def test_engram_profiles_share_one_database_per_haystack() -> None:
    default, lexical = make_retrievers(["engram-default", "engram-lexical"], FakeEmbedder())
    assert isinstance(default, EngramRetriever) and isinstance(lexical, EngramRetriever)
    default.index(UNITS)
    memory = default.databases.memory
    lexical.index(list(UNITS))
    assert lexical.databases.memory is memory
    lexical.index(UNITS[:2])
    assert lexical.databases.memory is not memory
    lexical.close()


def test_engram_credits_every_unit_stored_in_one_memory() -> None:
    retriever = EngramRetriever("default", FakeEmbedder())
    retriever.index(UNITS)
    ranked = retriever.search("sister violin orchestra", 2, DAY)
    assert ranked == ["D1:2", "D1:4"]
    retriever.close()


def test_evaluate_and_limit() -> None:
    from rich.console import Console

    queries = (
        Query("q1", "violin", ("D1:2",), DAY, "4"),
        Query("q2", "kitchen painting", ("D1:3", "D1:1"), DAY, "1"),
    )
    haystacks = [Haystack("h", tuple(UNITS), queries)]
    assert [len(h.queries) for h in limit_questions(haystacks, 1)] == [1]
    runs = evaluate(
        make_retrievers(["bm25", "engram-lexical"], FakeEmbedder()), haystacks, "test", Console(quiet=True)
    )
    assert set(runs) == {"bm25", "engram-lexical"}
    rows = runs["bm25"].rows
    assert [r.query_id for r in rows] == ["q1", "q2"]
    assert rows[0].metrics["recall@5"] == 1.0
    assert rows[1].metrics["recall@5"] == 1.0  # all four units fit in the top 5
    assert rows[1].metrics["recall_all@5"] == 1.0


def test_engram_leaves_out_blank_units() -> None:
    retriever = EngramRetriever("default", FakeEmbedder())
    retriever.index([*UNITS, Unit("D1:5", "  ", DAY)])
    assert "D1:5" not in retriever.search("violin kitchen cat", 10, DAY)
    retriever.close()


def test_evaluate_prints_the_evidence_a_question_missed_only_when_asked() -> None:
    from io import StringIO

    from rich.console import Console

    # Eleven loose units before the evidence: bm25 ranks the evidence, which shares no word with the
    # question, below the top 10, while the unit that does share one is found.
    filler = [Unit(f"D2:{i}", f"Cy: the river otter number {i} swims", DAY) for i in range(11)]
    units = (*UNITS, *filler)
    queries = (Query("q1", "violin river otter", ("D1:2", "D1:3"), DAY, "1"),)
    haystacks = [Haystack("h", units, queries)]
    for misses in (True, False):
        out = StringIO()
        evaluate(
            make_retrievers(["bm25"], FakeEmbedder()), haystacks, "test", Console(file=out, width=400), misses
        )
        printed = out.getvalue()
        if misses:
            assert "test bm25 q1 (1): missed 1 of 2 in the top 10: D1:3 | violin river otter" in printed
        else:
            assert "missed" not in printed
