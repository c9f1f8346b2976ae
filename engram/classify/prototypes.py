"""Embedding-based classification: prototype clusters plus a neighbour-density vote, with calibrated confidence.

Per label, the prototype score is the mean cosine of a text to the label's closest prototypes (seed sentences
plus memories learned at high confidence), read in two views: the whole text, and its opening words (what kind
of statement a text is shows in how it opens), compared with the prototypes' mean opening taken out. The
density score is the similarity-weighted share of the close stored neighbours carrying each label. The
prototype scores become a distribution through a softmax whose temperature is calibrated leave-one-out on the
prototypes themselves; with a read-out (engram.classify.readout) its probabilities join that distribution;
then the neighbours' shares are fused in. Below the fallback threshold the fallback label is used. The rules
and the measurements behind them: docs/design/classification.md.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from engram.classify.readout import LinearReadout
from engram.classify.taxonomy import Taxonomy
from engram.lang.text import first_words
from engram.model.vectors import Matrix, Vector
from engram.store import room
from engram.store.values import Prototype


@dataclass(frozen=True, slots=True)
class Decision:
    label: str
    confidence: float  # calibrated probability of the winning label, before any fallback
    method: str  # auto | fallback | explicit | prefix
    probabilities: dict[str, float] = field(default_factory=dict)
    prototype: dict[str, float] = field(default_factory=dict)
    density: dict[str, float] = field(default_factory=dict)
    views: dict[str, dict[str, float]] = field(default_factory=dict)  # the prototype score's whole / opening

    @property
    def scores(self) -> dict[str, dict[str, float]]:
        """What led to the decision, stored with the memory."""
        fused = {"probability": self.probabilities, "prototype": self.prototype, "density": self.density}
        return fused | self.views


@dataclass(frozen=True, slots=True)
class Rules:
    prototype_weight: float = 0.65
    temperature: float = 0.05
    fallback_below: float = 0.4
    learn_above: float = 0.9
    neighbour_floor: float = 0.75
    prototype_top: int = 5  # mean cosine of the k closest prototypes; 1 = best cosine
    opening_weight: float = 0.35  # share of the opening view in the prototype score; 0 = whole text only
    opening_words: int = 2
    readout: bool = (
        False  # fuse a linear read-out of the seeds into the prototype distribution (engram.classify.readout)
    )
    forms: tuple[str, ...] = ()  # marks of a text's form the read-out reads beside it (engram.classify.forms)
    form_weights: tuple[tuple[str, float], ...] = ()  # how many times a mark counts, if not once


# Who a statement is about says nothing of what kind of statement it is. Memories an agent writes often begin
# "The user ...", as do the prototypes of one category only: read with their subject, they went mostly to it.
SUBJECT_WORDS = frozenset(
    {"the", "a", "an", "user", "user's", "users", "i", "we", "you", "he", "she", "they", "it", "my", "our"}
    | {"your", "his", "her", "their", "its"}
)


def opening(text: str, count: int) -> str:
    """The view of a text that says what kind of statement it is: its first `count` words after a leading
    article, personal pronoun or "user" ("The user learned that ..." -> "learned that")."""
    found = first_words(text, count + 8)
    start = next((i for i, w in enumerate(found) if w not in SUBJECT_WORDS), 0)
    return " ".join(found[start : start + count])


class PrototypeSet:
    """Prototype vectors stacked into one matrix (and their openings' into another), so scoring a memory is one
    matrix-vector product per view.

    Learning changes the set in place: a new prototype takes a spare row or, once its label holds `keep`
    learned ones, the row of the oldest (rebuilding the matrix on every confident write cost more than
    classifying)."""

    def __init__(self, items: Sequence[Prototype], dim: int) -> None:
        self.items = list(items)
        self._rows: dict[str, list[int]] = {}
        self._learned: dict[str, deque[int]] = {}
        for i, p in enumerate(self.items):
            self._rows.setdefault(p.label, []).append(i)
            if p.source == "learned":
                self._learned.setdefault(p.label, deque()).append(i)
        self._grouped()
        # Room for as many rows again, whose pages are taken only once written: the first confident write
        # copied both matrices into buffers twice their size, resident whole.
        self._space: Matrix = room.zeros((_room(len(self.items)), dim), np.float32)
        self._open: Matrix = room.zeros(self._space.shape, np.float32)  # no opening known: scores 0
        seeded = [p.opening for p in self.items if p.opening is not None and p.source == "seed"]
        self._open_mean = opening_mean(
            seeded or [p.opening for p in self.items if p.opening is not None], dim
        )
        for i, p in enumerate(self.items):
            self._space[i] = p.vector
            if p.opening is not None:
                self._open[i] = centred(p.opening, self._open_mean)
        self.items = [self._in_row(p, i) for i, p in enumerate(self.items)]
        self._lock = threading.Lock()  # one thread may learn while another scores

    def _in_row(self, item: Prototype, row: int) -> Prototype:
        """`item` reading its vector from its row of the matrix, which holds the same float32 values: a
        prototype's own copy doubled the memory of every seed's vector."""
        vector = np.asarray(item.vector)
        if vector.dtype != np.float32 or vector.shape != self._space.shape[1:]:
            return item
        view = self._space[row]
        view.flags.writeable = False
        return replace(item, vector=view)

    @property
    def matrix(self) -> Matrix:
        return self._space[: len(self.items)]

    def learn(self, item: Prototype, keep: int) -> None:
        """Add a learned prototype; past `keep` learned ones for its label, the oldest goes (as in the store)."""
        if keep <= 0:
            return
        with self._lock:
            learned = self._learned.setdefault(item.label, deque())
            if len(learned) >= keep:
                row = learned.popleft()
                self.items[row] = item
            else:
                row = len(self.items)
                if row == self._space.shape[0]:
                    self._space, self._open = _grown(self._space), _grown(self._open)
                    # views of the old matrix would keep it alive
                    self.items = [self._in_row(p, i) for i, p in enumerate(self.items)]
                self.items.append(item)
                self._rows.setdefault(item.label, []).append(row)
                self._grouped()
            self._space[row] = item.vector
            self._open[row] = 0.0 if item.opening is None else centred(item.opening, self._open_mean)
            self.items[row] = self._in_row(item, row)
            learned.append(row)

    def _grouped(self) -> None:
        """Each label's rows in one padded table, so scoring gathers every label's cosines at once. Pads
        point one past the last row, where scoring puts -inf."""
        self._labels = list(self._rows)
        width = max((len(r) for r in self._rows.values()), default=0)
        self._gather = np.full((len(self._labels), width), len(self.items), dtype=np.int64)
        for i, label in enumerate(self._labels):
            self._gather[i, : len(self._rows[label])] = self._rows[label]
        self._counts = np.array([len(self._rows[label]) for label in self._labels], dtype=np.int64)
        self._count_list: list[int] = self._counts.tolist()
        self._fewest = min(self._count_list, default=0)
        self._divisors: dict[int, npt.NDArray[np.int64]] = {}  # per k: each label's count of its k best

    def scores(
        self,
        vector: Vector,
        labels: Iterable[str],
        top: int = 1,
        opening: Vector | None = None,
        weight: float = 0.0,
        views: dict[str, dict[str, float]] | None = None,
    ) -> dict[str, float]:
        """Per label, the best cosine to its prototypes (or the mean of the `top` best); 0 when it has none.
        With an `opening` vector, `weight` of the score is the same measure between the openings, and `views`
        (if given) receives each view's own scores as "whole" and "opening"."""
        labels = list(labels)
        with self._lock:
            if not self.items:
                return dict.fromkeys(labels, 0.0)
            n = len(self.items)
            if opening is not None and weight > 0:
                parts = self._means(
                    [(self._space[:n], vector), (self._open[:n], centred(opening, self._open_mean))], top
                )
                means = (1 - weight) * parts[0] + weight * parts[1]
            else:
                parts = self._means([(self._space[:n], vector)], top)
                means = parts[0]
            counts, names = self._count_list, self._labels
        if views is not None and len(parts) == 2:
            views["whole"] = _per_label(parts[0], names, counts, labels)
            views["opening"] = _per_label(parts[1], names, counts, labels)
        return _per_label(means, names, counts, labels)

    def _means(self, views: Sequence[tuple[Matrix, Vector]], top: int) -> npt.NDArray[np.float32]:
        """Per view (a space and a vector) and label (in `_labels` order), the mean of the label's `top` best
        cosines to the vector in that space; the views in one pass, as scoring is most of classifying."""
        n = views[0][0].shape[0]
        sims = np.empty((len(views), n + 1), dtype=np.float32)
        for row, (space, vector) in enumerate(views):
            np.matmul(space, vector, out=sims[row, :n])
        sims[:, n] = -np.inf
        gathered = sims.take(self._gather, axis=1)
        width = gathered.shape[2]
        k = min(top, width)
        gathered.partition(width - k, axis=2)  # a copy: each row's k largest last, unordered
        best = gathered[:, :, width - k :]
        divisor = self._divisors.get(k)
        if divisor is None:
            divisor = self._divisors[k] = np.maximum(np.minimum(self._counts, k), 1)
        # A label with fewer than k prototypes averages the ones it has (its pads, -inf, count nothing); when
        # every label has k, no pad is among the k best. Read once per text, so none of it is built anew.
        summed = best.sum(axis=2) if self._fewest >= k else np.where(best > -np.inf, best, 0.0).sum(axis=2)
        means: npt.NDArray[np.float32] = summed / divisor
        return means


def opening_mean(openings: Sequence[Vector] | Matrix, dim: int) -> Vector:
    """What all openings share. Two-word phrases share more of their direction than whole texts, and
    prototypes nearest that common part scored well against any opening; the opening view compares them with
    it taken out."""
    if len(openings) == 0:
        return np.zeros(dim, dtype=np.float32)
    mean: Vector = np.mean(np.asarray(openings, dtype=np.float32), axis=0)
    return mean


def centred(vectors: Matrix, mean: Vector) -> Matrix:
    """`vectors` (one or a stack) minus `mean`, back on the unit sphere."""
    out = np.asarray(vectors, dtype=np.float32) - mean
    norms = np.linalg.norm(out, axis=-1, keepdims=True)
    result: Matrix = out / np.maximum(norms, 1e-6)
    return result


def _per_label(
    means: npt.NDArray[np.float32], names: list[str], counts: list[int], labels: list[str]
) -> dict[str, float]:
    """`means` (in the set's label order) for `labels`, clipped at 0; 0 for a label without prototypes."""
    found = {label: max(0.0, v) for label, v, c in zip(names, means.tolist(), counts, strict=True) if c}
    return {label: found.get(label, 0.0) for label in labels}


def _room(rows: int) -> int:
    return max(16, 2 * rows)


def _grown(space: Matrix) -> Matrix:
    grown: Matrix = room.grown(space, _room(space.shape[0]))
    return grown


def density_scores(
    neighbours: Sequence[tuple[str, float]], labels: Iterable[str], floor: float
) -> dict[str, float]:
    """Similarity-weighted share of the close neighbours (cosine >= floor) per label. Distant memories do not
    vote: in a store of unrelated memories the prototypes alone decide. Empty when no neighbour is close."""
    weights = {label: 0.0 for label in labels}
    for label, sim in neighbours:
        if label in weights and sim >= floor and sim > 0:
            weights[label] += sim
    total = sum(weights.values())
    return {} if total <= 0 else {label: w / total for label, w in weights.items()}


def softmax(scores: dict[str, float], temperature: float) -> dict[str, float]:
    top = max(scores.values())
    exps = {k: math.exp((v - top) / temperature) for k, v in scores.items()}
    total = sum(exps.values())
    return {k: v / total for k, v in exps.items()}


def classify(
    vector: Vector,
    prototypes: PrototypeSet,
    neighbours: Sequence[tuple[str, float]],
    taxonomy: Taxonomy,
    rules: Rules,
    opening: Vector | None = None,
    readout: LinearReadout | None = None,
    found: frozenset[str] = frozenset(),
) -> Decision:
    """Decide a label for a memory's `vector` (and its `opening`'s vector: see the module's docstring), with
    the `readout`'s probabilities fused into the prototype distribution when one is given (reading `found`, the
    marks of form the text carries, if it reads any)."""
    labels = taxonomy.learnable
    views: dict[str, dict[str, float]] = {}
    proto = prototypes.scores(vector, labels, rules.prototype_top, opening, rules.opening_weight, views)
    density = density_scores(neighbours, labels, rules.neighbour_floor)
    w = rules.prototype_weight if density else 1.0
    # Both parts as distributions over the labels before they are weighed: the prototype scores are cosines a
    # few hundredths apart, the density shares span 0..1: fused raw, one close neighbour outvoted any margin.
    by_prototype = softmax(proto, rules.temperature)
    if readout is not None:
        read = readout.probabilities(vector, opening)
        views["readout"] = read
        by_prototype = readout.pooled(read, by_prototype)
        if readout.forms:
            by_prototype = readout.with_marks(by_prototype, found, dict(rules.form_weights)) | {
                k: 0.0 for k in by_prototype if k not in readout.labels
            }
    probs = {label: w * by_prototype[label] + (1 - w) * density.get(label, 0.0) for label in labels}
    winner = max(probs, key=lambda k: probs[k])
    confidence = probs[winner]
    label, method = (
        (winner, "auto") if confidence >= rules.fallback_below else (taxonomy.fallback, "fallback")
    )
    return Decision(
        label=label,
        confidence=round(confidence, 4),
        method=method,
        probabilities={k: round(v, 4) for k, v in probs.items()},
        prototype={k: round(v, 4) for k, v in proto.items()},
        density={k: round(v, 4) for k, v in density.items()},
        views={view: {k: round(v, 4) for k, v in scores.items()} for view, scores in views.items()},
    )


def should_learn(decision: Decision, rules: Rules) -> bool:
    return decision.method == "auto" and decision.confidence > rules.learn_above


def calibrate_temperature(
    vectors: Matrix,
    labels: Sequence[str],
    top: int = 1,
    grid: Sequence[float] | None = None,
    *,
    openings: Matrix | None = None,
    weight: float = 0.0,
) -> float:
    """The softmax temperature under which leave-one-out confidence on labelled vectors best matches their
    accuracy (lowest expected calibration error over ten bins). With `openings`, the scores fuse both views
    as `PrototypeSet.scores` does."""
    names = sorted(set(labels))
    label_idx = np.array([names.index(label) for label in labels])
    scores = left_out_scores(vectors, label_idx, len(names), top, openings, weight)
    correct = scores.argmax(axis=1) == label_idx
    best_t, best_err = 0.05, math.inf
    for t in grid or [x / 1000 for x in range(5, 201, 5)]:
        z = (scores - scores.max(axis=1, keepdims=True)) / t
        p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
        conf = p.max(axis=1)
        err = expected_calibration_error(conf, correct)
        if err < best_err:
            best_t, best_err = t, err
    return best_t


def left_out_scores(
    vectors: Matrix,
    label_idx: npt.NDArray[np.int64],
    labels: int,
    top: int,
    openings: Matrix | None = None,
    weight: float = 0.0,
) -> npt.NDArray[np.float64]:
    """Each vector's prototype score per label (columns in sorted label order), itself left out: both views
    fused as `PrototypeSet.scores` fuses them, clipped at 0."""
    scores = _left_out_scores(vectors, label_idx, labels, top)
    if openings is not None and weight > 0:
        opened = centred(openings, opening_mean(openings, openings.shape[1]))
        scores = (1 - weight) * scores + weight * _left_out_scores(opened, label_idx, labels, top)
    clipped: npt.NDArray[np.float64] = np.clip(scores, 0.0, None)
    return clipped


def _left_out_scores(
    vectors: Matrix, label_idx: npt.NDArray[np.int64], labels: int, top: int
) -> npt.NDArray[np.float64]:
    """Each vector's score per label (mean of its `top` best cosines there), itself left out."""
    # float64: a float32 product differs in its last bits with the number of threads BLAS sums with
    wide = np.asarray(vectors, dtype=np.float64)
    sims = wide @ wide.T
    np.fill_diagonal(sims, -np.inf)
    per_label = []
    for i in range(labels):
        own = np.sort(sims[:, label_idx == i], axis=1)[:, ::-1][:, :top]
        own = np.where(np.isfinite(own), own, np.nan)
        per_label.append(np.nanmean(own, axis=1))
    return np.stack(per_label, axis=1).astype(np.float64)


def expected_calibration_error(confidence: npt.NDArray[np.floating], correct: npt.NDArray[np.bool_]) -> float:
    """Mean gap between confidence and accuracy over ten equal-width confidence bins, weighted by bin size."""
    bins = np.minimum((confidence * 10).astype(int), 9)
    total = 0.0
    for b in range(10):
        mask = bins == b
        if mask.any():
            total += abs(float(confidence[mask].mean()) - float(correct[mask].mean())) * int(mask.sum())
    return total / max(1, len(confidence))
