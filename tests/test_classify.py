from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram import FakeEmbedder, Memory, Settings
from engram.classify.prototypes import (
    PrototypeSet,
    Rules,
    calibrate_temperature,
    classify,
    density_scores,
    opening,
    should_learn,
    softmax,
)
from engram.classify.taxonomy import Taxonomy, load_taxonomy, split_prefix
from engram.lang.text import first_words, words
from engram.model.vectors import Matrix
from engram.store.values import Prototype

TAX = Taxonomy(
    "t",
    {"a": "", "b": "", "c": "", "none": ""},
    {"a": ("x",), "b": ("y",), "c": ("z",), "none": ()},
    fallback="c",
)


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


PROTOS = PrototypeSet(
    [
        Prototype("a", "seed", unit(1, 0, 0)),
        Prototype("b", "seed", unit(0, 1, 0)),
        Prototype("c", "seed", unit(0, 0, 1)),
    ],
    3,
)


def test_prototype_only_when_no_neighbours() -> None:
    d = classify(unit(1, 0.2, 0), PROTOS, [], TAX, Rules(temperature=0.1, prototype_top=1))
    assert d.label == "a" and d.method == "auto" and d.density == {}
    fused = {"a": d.prototype["a"], "b": d.prototype["b"], "c": d.prototype["c"]}
    assert d.probabilities == pytest.approx(softmax(fused, 0.1), abs=1e-4)
    assert sum(d.probabilities.values()) == pytest.approx(1, abs=1e-3)


def test_fusion_is_065_prototype_035_density() -> None:
    v = unit(1, 1, 0)  # equally close to a and b
    d = classify(
        v,
        PROTOS,
        [("b", 0.9), ("b", 0.8), ("a", 0.6), ("c", 0.1)],
        TAX,
        Rules(temperature=0.05, fallback_below=0, prototype_top=1, neighbour_floor=0.5),
    )
    assert d.label == "b"
    assert d.density == pytest.approx(
        {"a": 0.6 / 2.3, "b": 1.7 / 2.3, "c": 0.0}, abs=1e-4
    )  # 0.1: below floor
    # Both parts are distributions over the labels: the prototype scores through the softmax, the density shares.
    by_prototype = softmax(d.prototype, 0.05)
    for label in ("a", "b", "c"):
        fused = 0.65 * by_prototype[label] + 0.35 * d.density[label]
        assert d.probabilities[label] == pytest.approx(fused, abs=1e-3)
    assert sum(d.probabilities.values()) == pytest.approx(1, abs=1e-3)


def test_one_close_neighbour_does_not_outvote_a_clear_prototype_margin() -> None:
    # The prototypes favour a clearly (cosines 0.82 and 0.57); one neighbour of label b sits at the vote's floor.
    v = unit(1, 0.7, 0)
    rules = Rules(temperature=0.05, fallback_below=0, prototype_top=1, neighbour_floor=0.5)
    alone = classify(v, PROTOS, [], TAX, rules)
    voted = classify(v, PROTOS, [("b", 0.5)], TAX, rules)
    assert alone.label == "a" and alone.confidence > 0.8
    assert voted.label == "a"  # summed as raw scores, the one vote (0.35 x 1.0) beat the margin (0.65 x 0.25)
    assert voted.confidence < alone.confidence  # it does lower the confidence


def test_by_default_only_a_near_duplicate_close_neighbour_votes() -> None:
    # Memories of one household share topics, not kinds: a neighbour votes only as close as seed pairs that share
    # their kind more often than the classifier is right.
    v = unit(1, 1, 0)  # equally close to a and b
    rules = Rules(temperature=0.05, fallback_below=0, prototype_top=1)
    topical = classify(v, PROTOS, [("b", 0.7), ("b", 0.6)], TAX, rules)
    assert topical.density == {}
    close = classify(v, PROTOS, [("b", 0.8), ("a", 0.6)], TAX, rules)
    assert close.density == pytest.approx({"a": 0.0, "b": 1.0, "c": 0.0}) and close.label == "b"


def test_low_confidence_falls_back_and_high_confidence_learns() -> None:
    unsure = classify(unit(1, 1, 1), PROTOS, [], TAX, Rules(temperature=0.05, prototype_top=1))
    assert unsure.label == "c" and unsure.method == "fallback" and unsure.confidence < 0.75
    assert not should_learn(unsure, Rules())
    sure = classify(unit(1, 0, 0), PROTOS, [], TAX, Rules(temperature=0.05, prototype_top=1))
    assert sure.confidence > 0.9 and should_learn(sure, Rules())


def test_a_winner_more_likely_than_not_is_kept_not_replaced_by_the_fallback() -> None:
    # Between a and b, leaning to a: the winner is right more often than the fallback guess would be.
    leaning = classify(unit(1, 0.95, 0), PROTOS, [], TAX, Rules(temperature=0.05, prototype_top=1))
    assert leaning.label == "a" and leaning.method == "auto"
    assert Rules().fallback_below <= leaning.confidence < 0.75  # the old threshold fell back here
    assert Settings().kind_fallback_below == Rules().fallback_below


def test_density_ignores_dissimilar_neighbours() -> None:
    assert density_scores([("a", 0.45), ("b", 0.1)], ["a", "b"], 0.5) == {}
    assert density_scores([("a", 0.6), ("zzz", 0.9)], ["a", "b"], 0.5) == {"a": 1.0, "b": 0.0}
    mixed = density_scores([("a", 0.8), ("b", 0.6), ("b", 0.6)], ["a", "b"], 0.5)
    assert mixed == pytest.approx({"a": 0.8 / 2.0, "b": 1.2 / 2.0})


def test_split_prefix() -> None:
    assert split_prefix("task: file taxes", ["task", "note"]) == ("task", "file taxes")
    assert split_prefix("Note:  remember", ["task", "note"]) == ("note", "remember")
    assert split_prefix("time: 10am", ["task", "note"]) == (None, "time: 10am")
    assert split_prefix("task:", ["task"]) == (None, "task:")


def test_calibration_prefers_sharper_softmax_for_separable_data() -> None:
    rng = np.random.default_rng(0)
    centres = np.eye(3, 16, dtype=np.float32)
    vecs = np.concatenate([c + 0.05 * rng.standard_normal((20, 16)).astype(np.float32) for c in centres])
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    labels = [lab for lab in "abc" for _ in range(20)]
    separable = calibrate_temperature(vecs, labels)
    noisy = vecs + 0.6 * rng.standard_normal(vecs.shape).astype(np.float32)
    noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
    assert separable <= calibrate_temperature(noisy, labels)


def test_kind_taxonomy_file() -> None:
    tax = load_taxonomy("kinds", fallback="knowledge")
    assert set(tax.labels) == {"identity", "task", "knowledge", "reference", "note", "unclassified"}
    assert tax.prototypes["unclassified"] == ()
    assert all(len(tax.prototypes[k]) >= 15 for k in tax.learnable)
    assert len(tax.learnable) == 5


def test_learned_prototypes_join_and_the_oldest_leaves() -> None:
    grown = PrototypeSet(PROTOS.items, 3)
    for i in range(4):
        grown.learn(Prototype("a", "learned", unit(1, 0.1 * (i + 1), 0), memory_id=str(i)), keep=2)
    learned = [p.memory_id for p in grown.items if p.source == "learned"]
    assert sorted(learned) == ["2", "3"] and len(grown.items) == 5 and len(PROTOS.items) == 3
    assert grown.matrix.shape == (5, 3)
    assert grown.scores(unit(1, 0.4, 0), ["a", "b"])["a"] == pytest.approx(1.0, abs=1e-5)


def test_learning_grows_the_matrix_and_every_row_keeps_its_vector() -> None:
    grown = PrototypeSet(PROTOS.items, 3)
    for i in range(40):
        grown.learn(Prototype("b" if i % 2 else "c", "learned", unit(i, 1, 1), memory_id=str(i)), keep=64)
    assert len(grown.items) == 43 and grown.matrix.shape == (43, 3)
    assert all(np.allclose(grown.matrix[i], p.vector) for i, p in enumerate(grown.items))
    assert grown.scores(unit(39, 1, 1), ["b", "c"])["b"] == pytest.approx(1.0, abs=1e-5)


def test_top_k_mean_averages_the_closest_prototypes() -> None:
    protos = PrototypeSet(
        [
            Prototype("a", "seed", unit(1, 0)),
            Prototype("a", "seed", unit(0, 1)),
            Prototype("a", "seed", unit(-1, 0)),
        ],
        2,
    )
    assert protos.scores(unit(1, 0), ["a"], top=1)["a"] == pytest.approx(1.0)
    assert protos.scores(unit(1, 0), ["a"], top=2)["a"] == pytest.approx(0.5)


def test_the_opening_view_takes_its_share_of_the_prototype_score() -> None:
    # The whole text is closer to a; its opening words are b's prototype's opening words.
    protos = PrototypeSet(
        [
            Prototype("a", "seed", unit(1, 0, 0), opening=unit(1, 0, 0)),
            Prototype("b", "seed", unit(0, 1, 0), opening=unit(0, 0, 1)),
        ],
        3,
    )
    text, start = unit(1, 0.8, 0), unit(0, 0, 1)
    whole = classify(text, protos, [], TAX, Rules(prototype_top=1, opening_weight=0.0), start)
    assert whole.label == "a"
    both = classify(text, protos, [], TAX, Rules(prototype_top=1, opening_weight=0.35), start)
    assert both.label == "b"
    cos_a, cos_b = float(text @ unit(1, 0, 0)), float(text @ unit(0, 1, 0))
    # Taken apart from what the two openings share, a's and b's point opposite ways: a's opening scores -1.
    assert both.prototype["a"] == pytest.approx(0.65 * cos_a - 0.35, abs=1e-4)
    assert both.prototype["b"] == pytest.approx(0.65 * cos_b + 0.35, abs=1e-4)
    # Each view's own scores are kept with the decision.
    assert both.scores["whole"] == pytest.approx({"a": cos_a, "b": cos_b, "c": 0.0}, abs=1e-4)
    assert both.scores["opening"] == pytest.approx({"a": 0.0, "b": 1.0, "c": 0.0}, abs=1e-4)
    assert "whole" not in whole.scores  # one view: nothing to split
    # Without the memory's opening, the whole text decides.
    assert classify(text, protos, [], TAX, Rules(prototype_top=1, opening_weight=0.35)).label == "a"


def test_the_opening_view_compares_openings_without_what_all_of_them_share() -> None:
    # Every prototype has the same whole text, so only the openings decide. By plain cosine the query's
    # opening is closest to a's, which lies near what all three share; with that shared part taken out
    # (the seeds' mean), it points b's way.
    a, b, c, query = unit(0, 1, 3, 3), unit(0, 1, 0, 0), unit(3, 1, 3, 4), unit(1, 4, 2, 4)
    same = unit(1, 0, 0, 0)
    protos = PrototypeSet(
        [
            Prototype("a", "seed", same, opening=a),
            Prototype("b", "seed", same, opening=b),
            Prototype("c", "seed", same, opening=c),
        ],
        4,
    )
    assert max(("a", "b", "c"), key=lambda k: float(query @ {"a": a, "b": b, "c": c}[k])) == "a"
    decision = classify(same, protos, [], TAX, Rules(prototype_top=1, opening_weight=0.35), query)
    assert decision.label == "b"
    mean = (a + b + c) / 3

    def centred(v: np.ndarray) -> np.ndarray:
        return (v - mean) / np.linalg.norm(v - mean)

    assert decision.scores["opening"]["b"] == pytest.approx(float(centred(query) @ centred(b)), abs=1e-4)
    # A learned prototype is compared the same way, and does not move the seeds' mean.
    protos.learn(Prototype("c", "learned", same, opening=query), keep=4)
    again = classify(same, protos, [], TAX, Rules(prototype_top=1, opening_weight=0.35), query)
    assert again.label == "c" and again.scores["opening"]["c"] == pytest.approx(1.0, abs=1e-4)
    assert again.scores["opening"]["b"] == pytest.approx(decision.scores["opening"]["b"], abs=1e-4)


def test_the_opening_is_the_first_words_after_the_subject() -> None:
    assert opening("TODO: back up the laptop", 2) == "todo back"
    assert opening("  I learned that...", 2) == "learned that"
    assert opening("The user learned that tea has caffeine", 2) == "learned that"
    assert opening("User met with Priya", 2) == "met with"
    assert opening("I'm a nurse", 2) == "i'm a"  # the verb comes with it
    assert opening("The the", 2) == "the the"  # nothing but subject words: kept as they are
    assert opening("!!!", 2) == ""


def test_learned_prototypes_keep_their_opening(mem: Memory) -> None:
    start = mem.embedder.embed_batch(["buy milk"])[0]
    mem._classifiers.kinds.learn("task", start, "Buy milk and eggs", "m1", opening=start)
    mem._classifiers.kinds.save_learned()
    (learned,) = [p for p in mem.store.prototypes("kinds") if p.source == "learned"]
    assert learned.opening is not None and np.allclose(learned.opening, start)


def test_a_prototype_learned_before_openings_were_kept_gets_one_from_its_text(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    start = embedder.embed_batch(["buy milk"])[0]
    with Memory(tmp_path / "a.db", embedder=embedder) as mem:
        mem._classifiers.kinds.learn("task", start, "Buy milk and eggs", "m1", opening=start)
        mem._classifiers.kinds.save_learned()
    with sqlite3.connect(tmp_path / "a.db") as db:
        db.execute("UPDATE prototypes SET opening = NULL WHERE source = 'learned'")
    with Memory(tmp_path / "a.db", embedder=embedder) as mem:
        (learned,) = [p for p in mem._classifiers.kinds.prototypes().items if p.source == "learned"]
        assert learned.opening is not None and np.allclose(learned.opening, start, atol=1e-6)


def test_a_new_database_reuses_the_seed_vectors_this_process_embedded(tmp_path: Path) -> None:
    class Counting(FakeEmbedder):
        texts = 0

        def embed_batch(self, texts: Sequence[str]) -> Matrix:
            Counting.texts += len(texts)
            return super().embed_batch(texts)

    embedder = Counting(dim=48, name="counting-fake")
    with Memory(tmp_path / "a.db", embedder=embedder) as first:
        first.remember_many([{"content": "I prefer tea in the morning"}])  # untagged: no tag phrases embedded
    kind_seeds = sum(len(t) for t in first._classifiers.kinds.taxonomy.prototypes.values())
    category_seeds = sum(len(t) for t in first._classifiers.categories.taxonomy.prototypes.values())
    # Each seed and the memory are embedded whole and by their opening words.
    assert Counting.texts == 2 * (kind_seeds + category_seeds + 1)
    with Memory(tmp_path / "b.db", embedder=embedder) as second:
        second.remember_many([{"content": "I prefer tea in the morning"}])  # untagged
        seeded = [p for p in second.store.prototypes("kinds") if p.source == "seed"]
        assert len(seeded) == kind_seeds
    assert Counting.texts == 2 * (
        kind_seeds + category_seeds + 2
    )  # only the new memory (and its opening) was embedded


@given(
    first=st.integers(min_value=0, max_value=300),
    second=st.integers(min_value=0, max_value=300),
    rest=st.text(alphabet="ab '\u2019_.\u0130", max_size=20),
    count=st.integers(min_value=1, max_value=3),
)
@settings(max_examples=300, deadline=None)
def test_the_opening_words_are_the_texts_first_words_however_long_it_is(
    first: int, second: int, rest: str, count: int
) -> None:
    # The words are read from the text's head when enough of them are there: none may come out cut short.
    text = "a" * first + " " + "b" * second + rest
    assert first_words(text, count) == words(text)[:count]
