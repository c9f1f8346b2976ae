"""A prototype set holds each vector once (its row of the matrix) and learns into room it already has; loading\nit hands the memory of the rows as read back."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import numpy as np
import pytest

from engram import FakeEmbedder, Memory
from engram.classify import classifier as classifier_module
from engram.classify.classifier import Classifier
from engram.classify.prototypes import PrototypeSet, Rules
from engram.classify.taxonomy import Taxonomy
from engram.store.values import Prototype

DIM = 16
LABELS = ("fact", "task", "event")


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    rows = rng.standard_normal((n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _seeds(rng: np.random.Generator, n: int) -> list[Prototype]:
    vectors, openings = _unit(rng, n), _unit(rng, n)
    return [
        Prototype(LABELS[i % 3], "seed", vectors[i].copy(), f"seed {i}", None, openings[i].copy())
        for i in range(n)
    ]


def test_the_set_keeps_no_second_copy_of_a_vector() -> None:
    items = _seeds(np.random.default_rng(1), 30)
    given = [weakref.ref(p.vector) for p in items]
    values = np.stack([p.vector for p in items])
    protos = PrototypeSet(items, DIM)
    del items
    gc.collect()
    assert all(ref() is None for ref in given)
    assert np.array_equal(np.stack([p.vector for p in protos.items]), values)
    assert all(np.shares_memory(p.vector, protos.matrix) for p in protos.items)
    assert not protos.items[0].vector.flags.writeable


def test_learning_grows_in_place_and_scores_as_a_fresh_set() -> None:
    rng = np.random.default_rng(2)
    protos = PrototypeSet(_seeds(rng, 30), DIM)
    at = protos.matrix.ctypes.data
    learned = _unit(rng, 60)
    for i, vector in enumerate(learned[:30]):
        protos.learn(Prototype(LABELS[i % 3], "learned", vector, f"learned {i}"), keep=100)
    assert protos.matrix.ctypes.data == at  # the first learned rows take room the set already had
    for i, vector in enumerate(learned[30:], start=30):  # past that room: a larger buffer, views moved to it
        protos.learn(Prototype(LABELS[i % 3], "learned", vector, f"learned {i}"), keep=100)
    assert all(np.shares_memory(p.vector, protos.matrix) for p in protos.items)
    fresh = PrototypeSet([Prototype(p.label, p.source, p.vector.copy(), p.text) for p in protos.items], DIM)
    for query in _unit(rng, 5):
        assert protos.scores(query, LABELS, top=3) == fresh.scores(query, LABELS, top=3)


def test_loading_a_taxonomys_prototypes_hands_the_rows_as_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tax = Taxonomy(
        "few", {"a": "", "b": ""}, {"a": ("apples", "pears"), "b": ("cars", "trucks")}, fallback="a"
    )
    given: list[str] = []
    with Memory(tmp_path / "f.db", embedder=FakeEmbedder()) as mem:
        classifier = Classifier(tax, Rules(), mem.store, mem.embedder, learned_max=4, rules_fixed=True)
        monkeypatch.setattr(classifier_module.heap, "give_back", lambda: given.append("loaded"))
        classifier.prototypes()
        classifier.prototypes()
    assert given == ["loaded"]  # once per load, not per use
