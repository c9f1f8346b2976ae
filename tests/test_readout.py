from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engram import FakeEmbedder, Memory
from engram.classify import readout as linear
from engram.classify.classifier import Classifier
from engram.classify.prototypes import PrototypeSet, Rules, classify, softmax
from engram.classify.readout import LinearReadout
from engram.classify.taxonomy import Taxonomy
from engram.store.values import Prototype


def _cloud(n: int, dim: int, seed: int) -> tuple[np.ndarray, list[str]]:
    """Labels given by the sign of one direction, drowned in the others: the nearest few points say little,
    a linear model finds the direction."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, dim)).astype(np.float32)
    x[:, 0] = np.where(rng.random(n) < 0.5, -0.8, 0.8) + rng.normal(scale=0.1, size=n)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x, ["pos" if v > 0 else "neg" for v in x[:, 0]]


def _uninformed(n: int, labels: int) -> np.ndarray:
    return np.full((n, labels), 1 / labels)


def test_fit_learns_a_direction_and_takes_a_share_by_held_out_log_loss() -> None:
    x, labels = _cloud(120, 32, seed=1)
    fitted = linear.fit(x, None, labels, np.zeros(32, np.float32), 0.0, _uninformed(120, 2))
    assert fitted.labels == ("neg", "pos")
    assert fitted.held_out_accuracy > 0.9  # every seed scored by a model fitted without it
    assert fitted.weight >= 0.9  # the prototypes said nothing, so the read-out takes (almost) all the weight
    assert fitted.regularisation in linear.REGULARISATION and fitted.temperature in linear.TEMPERATURES
    test, truth = _cloud(200, 32, seed=2)
    hits = [
        max(p := fitted.probabilities(v, None), key=lambda k: p[k]) == t
        for v, t in zip(test, truth, strict=True)
    ]
    assert np.mean(hits) > 0.9


def test_fit_leaves_the_prototypes_alone_when_the_read_out_knows_nothing() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(100, 16)).astype(np.float32)
    labels = ["a" if i % 2 else "b" for i in range(100)]  # unrelated to x
    target = np.array([0 if label == "a" else 1 for label in labels])
    sure = np.full((100, 2), 0.05)
    sure[np.arange(100), target] = 0.95  # prototypes that are right and sure
    fitted = linear.fit(x, None, labels, np.zeros(16, np.float32), 0.0, sure)
    assert fitted.weight <= 0.2
    assert fitted.held_out_accuracy == 1.0


def test_probabilities_read_both_views_and_survive_json() -> None:
    x, labels = _cloud(60, 8, seed=4)
    openings, _ = _cloud(60, 8, seed=5)
    mean = openings.mean(axis=0)
    fitted = linear.fit(x, openings, labels, mean, 0.35, _uninformed(60, 2), digest="d")
    assert fitted.coef.shape == (1, 16)  # two labels: one row, whole text then opening
    again = LinearReadout.from_json(fitted.to_json())
    assert again.digest == "d" and again.weight == fitted.weight
    for v, o in zip(x[:5], openings[:5], strict=True):
        p = fitted.probabilities(v, o)
        assert sum(p.values()) == pytest.approx(1)
        assert again.probabilities(v, o) == pytest.approx(p)
        # the opening counts when known (compared as log-odds: the probabilities saturate)
        q = fitted.probabilities(v, None)
        assert np.log(q["pos"] / q["neg"]) != pytest.approx(np.log(p["pos"] / p["neg"]), abs=0.1)


def test_classify_fuses_the_read_out_into_the_prototype_distribution() -> None:
    tax = Taxonomy("t", {"neg": "", "pos": ""}, {"neg": ("x",), "pos": ("y",)}, fallback="neg")
    x, labels = _cloud(80, 8, seed=6)
    protos = PrototypeSet([Prototype(lab, "seed", v) for v, lab in zip(x, labels, strict=True)], 8)
    rules = Rules(temperature=0.1, prototype_top=3, opening_weight=0.0, fallback_below=0)
    fitted = linear.fit(x, None, labels, np.zeros(8, np.float32), 0.0, _uninformed(80, 2))
    v = x[0]
    plain = classify(v, protos, [], tax, rules)
    fused = classify(v, protos, [], tax, rules, readout=fitted)
    read = fitted.probabilities(v, None)
    by_prototype = softmax(plain.prototype, 0.1)
    # a log-linear pool: read ** w * prototype ** (1 - w), renormalised
    pooled = {k: read[k] ** fitted.weight * by_prototype[k] ** (1 - fitted.weight) for k in ("neg", "pos")}
    for label in ("neg", "pos"):
        expected = pooled[label] / sum(pooled.values())
        assert fused.probabilities[label] == pytest.approx(expected, abs=1e-3)
    assert fused.views["readout"] == pytest.approx({k: round(p, 4) for k, p in read.items()}, abs=1e-4)
    assert "readout" not in plain.views


def test_the_pool_weighs_each_parts_log_odds_and_lets_no_part_veto() -> None:
    read, proto = (
        np.array([[0.9, 0.1], [0.9, 0.1], [0.99, 0.01]]),
        np.array([[0.6, 0.4], [0.01, 0.99], [0.0, 1.0]]),
    )
    pooled, mixed = linear.pool(read, proto, 0.7), 0.7 * read + 0.3 * proto
    assert np.allclose(pooled.sum(axis=1), 1.0)
    assert pooled[0, 0] > mixed[0, 0]  # both favour the first label: surer than their mixture
    assert pooled[1, 1] > mixed[1, 1]  # a sure part counts by its log-odds, not at most its share
    assert 0 < pooled[2, 0] < 1  # a zero in one part is floored, not a veto
    assert np.allclose(linear.pool(read, proto, 1.0), read)  # all the weight on the read-out: the read-out


def test_categories_fit_a_read_out_once_and_keep_it_with_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "r.db"
    with Memory(db, embedder=FakeEmbedder()) as mem:
        mem.store_memory("Remind me to water the plants on Friday")
        made = mem._classifiers.categories.readout
        kinds = mem._classifiers.kinds.readout  # kinds read one too, kept beside the categories'
        assert made is not None and kinds is not None
        assert set(made.labels) == set(mem._classifiers.categories.taxonomy.learnable)
        assert set(kinds.labels) == set(mem._classifiers.kinds.taxonomy.learnable)
        assert mem.store.get_meta("readout:categories") == made.to_json()
        assert mem.store.get_meta("readout:kinds") == kinds.to_json()

    def refit(*args: object, **kwargs: object) -> LinearReadout:
        raise AssertionError("a kept read-out was fitted again")

    monkeypatch.setattr(linear, "fit", refit)
    with Memory(db, embedder=FakeEmbedder()) as mem:
        mem.store_memory("The staging server is called nimbus")
        assert mem._classifiers.categories.readout is not None
        assert mem._classifiers.categories.readout.coef == pytest.approx(made.coef)
    monkeypatch.undo()

    # A database from before read-outs (no meta) gets one when it opens.
    with Memory(db, embedder=FakeEmbedder()) as mem:
        mem.store.set_meta("readout:categories", "")
    with Memory(db, embedder=FakeEmbedder()) as mem:
        mem.store_memory("Tea is grown in Assam")
        assert mem._classifiers.categories.readout is not None
        assert LinearReadout.from_json(mem.store.get_meta("readout:categories") or "").digest == made.digest


def test_a_taxonomy_with_too_few_seeds_per_label_has_no_read_out(tmp_path: Path) -> None:
    tax = Taxonomy(
        "few", {"a": "", "b": ""}, {"a": ("apples", "pears"), "b": ("cars", "trucks")}, fallback="a"
    )
    with Memory(tmp_path / "f.db", embedder=FakeEmbedder()) as mem:
        rules = Rules(readout=True, fallback_below=0)
        classifier = Classifier(tax, rules, mem.store, mem.embedder, learned_max=4, rules_fixed=True)
        vector = mem.embedder.embed_batch(["apples"])[0]
        decided = classifier.decide(vector, [])
        assert classifier.readout is None and "readout" not in decided.views
        assert decided.label == "a"  # the prototype score alone still decides
        assert not mem.store.get_meta("readout:few")


def test_the_fit_does_not_depend_on_how_many_threads_blas_sums_with() -> None:
    """A store limits BLAS to one thread; the shipped read-outs were fitted with more. Fitted in float32, the
    solver stopped at another iteration and the coefficients moved enough to change decisions."""
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(0)
    centres = rng.normal(size=(5, 384)).astype(np.float32)
    target = np.repeat(np.arange(5), 80)
    x = centres[target] * 0.3 + rng.normal(size=(400, 384)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    labels = [f"label{i}" for i in target]
    fits = []
    for threads in (2, 1):
        with threadpool_limits(threads, user_api="blas"):
            fits.append(linear.fit(x, None, labels, np.zeros(384, np.float32), 0.0, _uninformed(400, 5)))
    assert fits[0].regularisation == fits[1].regularisation
    assert np.allclose(fits[0].coef, fits[1].coef, rtol=0, atol=1e-6)
