import math

import pytest

from bench.metrics import ndcg_at_k, recall_all_at_k, recall_any_at_k, recall_at_k

RANKED = ["a", "x", "b", "y", "z", "c"]
RELEVANT = {"a", "b", "c"}


def test_recall_counts_the_fraction_of_evidence_in_the_top_k() -> None:
    assert recall_at_k(RANKED, RELEVANT, 1) == pytest.approx(1 / 3)
    assert recall_at_k(RANKED, RELEVANT, 3) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, RELEVANT, 5) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, RELEVANT, 6) == 1.0
    assert recall_at_k(RANKED, RELEVANT, 100) == 1.0
    assert recall_at_k(["x", "y"], RELEVANT, 10) == 0.0


def test_recall_any_and_all() -> None:
    assert recall_any_at_k(RANKED, RELEVANT, 1) == 1.0
    assert recall_any_at_k(["x", "a"], RELEVANT, 1) == 0.0
    assert recall_all_at_k(RANKED, RELEVANT, 5) == 0.0
    assert recall_all_at_k(RANKED, RELEVANT, 6) == 1.0
    assert recall_all_at_k(["b"], {"b"}, 1) == 1.0


def test_repeats_count_once_at_their_first_position() -> None:
    assert recall_at_k(["a", "a", "a", "b"], {"a", "b"}, 3) == 1.0
    assert recall_at_k(["a", "a", "x", "b"], {"a", "b"}, 2) == 0.5


def test_ndcg_by_hand() -> None:
    # hits at ranks 1 and 3 of three relevant: dcg = 1 + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3) + 1/2
    ideal = 1 + 1 / math.log2(3) + 0.5
    assert ndcg_at_k(RANKED, RELEVANT, 5) == pytest.approx(1.5 / ideal)
    # one relevant unit at rank 2: 1/log2(3)
    assert ndcg_at_k(["x", "a"], {"a"}, 10) == pytest.approx(1 / math.log2(3))
    # k below the number of relevant units: the ideal list has only k gains
    assert ndcg_at_k(["a", "b"], {"a", "b", "c"}, 2) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "y"], {"a"}, 2) == 0.0
    assert ndcg_at_k(["b", "a"], {"a", "b"}, 10) == pytest.approx(1.0)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        recall_at_k(RANKED, set(), 5)
    with pytest.raises(ValueError):
        ndcg_at_k(RANKED, RELEVANT, 0)
