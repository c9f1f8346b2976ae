"""A memory's kind as evidence of its category: measured on the category seeds by the kinds' own classifier, and
weighed in only where the category classifier alone would leave the memory without a category."""

from __future__ import annotations

from dataclasses import replace

from engram import Memory
from engram.classify.joint import KindEvidence, with_kind
from engram.classify.prototypes import Decision

KINDS = ("identity", "task", "note")


def _evidence() -> KindEvidence:
    # Two seeds of `contexts` read as identity, two of `reminders` as task, one of `interactions` as a note.
    seeds = [
        ("contexts", {"identity": 0.9, "task": 0.05, "note": 0.05}),
        ("contexts", {"identity": 0.8, "task": 0.1, "note": 0.1}),
        ("reminders", {"identity": 0.05, "task": 0.9, "note": 0.05}),
        ("reminders", {"identity": 0.1, "task": 0.8, "note": 0.1}),
        ("interactions", {"identity": 0.2, "task": 0.1, "note": 0.7}),
    ]
    return KindEvidence.measured(seeds, KINDS)


def _undecided() -> Decision:
    probs = {"contexts": 0.35, "reminders": 0.4, "interactions": 0.25}
    return Decision("", 0.4, "fallback", probabilities=probs)


def test_the_measured_rows_are_distributions_led_by_the_seeds_kind() -> None:
    evidence = _evidence()
    assert evidence.categories == ("contexts", "reminders", "interactions")
    for row in evidence.given:
        assert abs(sum(row) - 1) < 1e-9 and min(row) > 0  # smoothed: no kind rules a category out
    led = {
        c: KINDS[max(range(3), key=row.__getitem__)]
        for c, row in zip(evidence.categories, evidence.given, strict=True)
    }
    assert led == {"contexts": "identity", "reminders": "task", "interactions": "note"}


def test_an_undecided_category_is_decided_by_a_clear_kind() -> None:
    kind = Decision("identity", 0.9, "auto", probabilities={"identity": 0.9, "task": 0.05, "note": 0.05})
    got = with_kind(_undecided(), kind, _evidence(), fallback_below=0.5)
    assert (got.label, got.method) == ("contexts", "auto")
    assert got.confidence >= 0.5 and abs(sum(got.probabilities.values()) - 1) < 1e-3
    assert got.views["kind"]["contexts"] > got.views["kind"]["reminders"]


def test_the_kinds_evidence_counts_twice() -> None:
    """A kind leaning to identity (0.7) leaves the category under its line when counted once, and decides it
    counted twice, as the category classifier counts a link or a meeting's heading."""
    kind = Decision("identity", 0.7, "auto", probabilities={"identity": 0.7, "task": 0.15, "note": 0.15})
    once = with_kind(_undecided(), kind, _evidence(), fallback_below=0.5, weight=1.0)
    assert (once.label, once.method) == ("", "fallback")
    twice = with_kind(_undecided(), kind, _evidence(), fallback_below=0.5)
    assert (twice.label, twice.method) == ("contexts", "auto")
    assert twice.probabilities["contexts"] > once.probabilities["contexts"]
    fell_back = replace(kind, method="fallback")  # no kind decided: its evidence counts once
    assert (
        with_kind(_undecided(), fell_back, _evidence(), fallback_below=0.5).probabilities
        == once.probabilities
    )


def test_a_given_kind_counts_as_the_kind_alone() -> None:
    got = with_kind(_undecided(), Decision("task", 1.0, "explicit"), _evidence(), fallback_below=0.5)
    assert (got.label, got.method) == ("reminders", "auto")
    noted = with_kind(_undecided(), Decision("note", 1.0, "explicit"), _evidence(), fallback_below=0.5)
    assert noted.probabilities["interactions"] > _undecided().probabilities["interactions"]


def test_a_weak_kind_leaves_the_category_undecided() -> None:
    flat = {k: 1 / 3 for k in KINDS}
    got = with_kind(_undecided(), Decision("knowledge", 0.33, "fallback", flat), _evidence(), 0.5)
    assert (got.label, got.method) == ("", "fallback")


def test_a_decided_or_given_category_is_kept() -> None:
    kind = Decision("identity", 0.95, "auto", probabilities={"identity": 0.95, "task": 0.03, "note": 0.02})
    decided = Decision("reminders", 0.6, "auto", probabilities={"contexts": 0.3, "reminders": 0.6})
    assert with_kind(decided, kind, _evidence(), 0.5) is decided
    given = Decision("reminders", 1.0, "explicit")
    assert with_kind(given, kind, _evidence(), 0.5) is given


def test_an_unknown_kind_says_nothing() -> None:
    got = with_kind(_undecided(), Decision("unclassified", 1.0, "explicit"), _evidence(), 0.5)
    assert got.method == "fallback" and got.probabilities == _undecided().probabilities


def test_the_shipped_kinds_point_at_their_categories(real: Memory) -> None:
    """Measured with the real model: read by the kinds' classifier, most seeds of `contexts` are statements about
    the user, of `reminders` things to do, of `references` lookup material."""
    real.store_memory("A first memory, so the classifiers are loaded.")
    evidence = real._classifiers.kind_evidence()
    kinds = list(evidence.kinds)
    rows = dict(zip(evidence.categories, evidence.given, strict=True))
    lift = {
        c: max(kinds, key=lambda k: rows[c][kinds.index(k)] / evidence.overall[kinds.index(k)]) for c in rows
    }
    assert lift["contexts"] == "identity"
    assert lift["reminders"] == "task"
    assert lift["references"] == "reference"
    assert lift["interactions"] == "note"
