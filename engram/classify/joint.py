"""What a memory's kind says of its category.

The kind and the category are decided by two classifiers over the same embedding, but the kinds' read-out also
reads the marks of a statement's form (a deadline, an address, the speaker's own words) and was fitted on other
sentences, so its decision is evidence the category classifier lacks: a statement about the user is mostly
`contexts`, a thing to do `reminders`, lookup material `references`, whatever topic it shares with a project.

How much a kind says of each category is measured, never written by hand: the kinds' classifier reads every
category seed sentence, and a category's row is the mean of the kind distributions its seeds got (a soft count,
one added to each cell). A category decision is then weighed by the kind distribution as soft evidence
(Pearl's virtual evidence): each category's probability times `sum_k P(kind k | category) q(k) / P(k)`, where q is
the memory's kind distribution and P(k) the kinds' share over all category seeds, counted twice (`KIND_WEIGHT`),
renormalised, before the category's fallback line is applied (docs/design/classification.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engram.classify.prototypes import Decision

SMOOTHING = 1.0  # added to each soft count, so no kind rules a category out
# The kind's weight counts twice, as the categories count a link or a meeting's heading: counted once, most lines
# under the line stayed undecided even where the kind was right and clear. A kind that fell back decided nothing,
# so it counts once: twice, "No phone calls before 3pm after a night" became a reminder.
KIND_WEIGHT = 2.0


@dataclass(frozen=True, slots=True)
class KindEvidence:
    """P(kind the kinds' classifier decides | category), measured on the category seeds."""

    categories: tuple[str, ...]
    kinds: tuple[str, ...]
    given: tuple[tuple[float, ...], ...]  # categories x kinds, each row sums to 1
    overall: tuple[float, ...]  # the kinds' share over all category seeds

    @classmethod
    def measured(cls, seeds: Sequence[tuple[str, Mapping[str, float]]], kinds: Sequence[str]) -> KindEvidence:
        """`seeds`: each category seed's label and the kind distribution the kinds' classifier gave it."""
        names = tuple(dict.fromkeys(label for label, _ in seeds))
        counts = {c: [SMOOTHING] * len(kinds) for c in names}
        for label, dist in seeds:
            row = counts[label]
            for i, k in enumerate(kinds):
                row[i] += float(dist.get(k, 0.0))
        given = tuple(tuple(v / sum(row) for v in row) for row in (counts[c] for c in names))
        overall = tuple(sum(row[i] for row in given) / len(given) for i in range(len(kinds)))
        return cls(names, tuple(kinds), given, overall)

    def likelihoods(self, kind: Decision) -> dict[str, float]:
        """Each category's weight given the memory's kind decision (its distribution, or the label alone when it
        was given rather than decided); all 1 when the decision names no kind this table knows."""
        q = kind.probabilities or {kind.label: 1.0}
        if not any(q.get(k, 0.0) > 0 for k in self.kinds):
            return dict.fromkeys(self.categories, 1.0)
        return {
            c: sum(p * q.get(k, 0.0) / o for k, p, o in zip(self.kinds, row, self.overall, strict=True))
            for c, row in zip(self.categories, self.given, strict=True)
        }


def with_kind(
    category: Decision,
    kind: Decision,
    evidence: KindEvidence,
    fallback_below: float,
    weight: float = KIND_WEIGHT,
) -> Decision:
    """`category` weighed by what `kind` says of it (its likelihoods raised to `weight`, or to 1 when the kind
    fell back), renormalised, and decided again against `fallback_below`. A category given by the caller, or one
    with no distribution, is kept as it is."""
    if category.method != "fallback" or not category.probabilities:
        return category
    weights = evidence.likelihoods(kind)
    weight = 1.0 if kind.method == "fallback" else weight
    weighed = {c: p * weights.get(c, 1.0) ** weight for c, p in category.probabilities.items()}
    total = sum(weighed.values())
    if total <= 0:
        return category
    probs = {c: round(v / total, 4) for c, v in weighed.items()}
    winner = max(probs, key=lambda c: probs[c])
    confidence = probs[winner]
    decided = confidence >= fallback_below
    return Decision(
        label=winner if decided else "",
        confidence=confidence,
        method="auto" if decided else "fallback",
        probabilities=probs,
        prototype=category.prototype,
        density=category.density,
        views=category.views | {"kind": {c: round(w, 4) for c, w in weights.items()}},
    )
