"""A linear read-out of a taxonomy's seed sentences (a scikit-learn logistic regression), beside the prototype
score.

The prototype score compares a text with a label's few closest seed sentences, so a label whose sentences spread
over many topics is found only near one of them. A logistic regression fitted on all the seed sentences at once
weighs each dimension of the embedding by how well it separates the labels. Its features are the two views the
prototype score reads, weighted the same: the whole text and its centred opening words.

A read-out may also read marks of the text's form (engram.classify.forms). The fused distribution is then weighed
by each mark the text carries, naive-Bayes fashion: a label's probability times the share of its seeds that carry
the mark (one added to each count), renormalised. A mark the text lacks says nothing: the readers find a deadline
or a phone number in some texts only ("today" with no deadline word, a local number). Read beside the embedding as
features of the regression, or by a second regression over the held-out distribution and the marks, the marks
took over part of what the embedding said of tasks and references on the seeds, where both agree, and labelled
statements whose mark went unread lost their kind (docs/design/classification.md).

Everything is chosen on the seeds themselves, never on a labelled test set: the regularisation from a small grid
and the softmax temperature by the lowest log-loss over five stratified folds, then the read-out's share in the
fused distribution (a log-linear pool, `read-out ** weight * prototype softmax ** (1 - weight)` renormalised) by the
lowest log-loss of the two fused,
each seed scored by a model that had not seen it (five folds for the regression, leave-one-out for the prototypes).
Fitting takes well under a second; the fitted model is kept with the database and scored with numpy alone. The
built-in taxonomies' read-outs for the default model ship fitted (engram.classify.fitted), so only a custom taxonomy
or another model imports scikit-learn.
"""

from __future__ import annotations

import base64
import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engram.model.vectors import Matrix, Vector

REGULARISATION = (1.0, 4.0, 16.0, 64.0)  # inverse strengths tried (scikit-learn's C)
TEMPERATURES = tuple(round(0.1 + 0.05 * i, 2) for i in range(59))  # 0.1 .. 3.0
WEIGHTS = tuple(round(0.05 * i, 2) for i in range(21))  # 0 .. 1
FOLDS = 5
# The solver runs to the regression's optimum: stopped at scikit-learn's default (1e-4), where it stopped
# depended on the order BLAS summed in, and the coefficients with it.
TOLERANCE = 1e-8
FITTED_BY = "logistic/5"  # changes when fitting does, so a kept read-out is fitted again
FLOOR = 1e-12  # the least probability a part of the pool holds, so one part's zero does not veto the other


def fitted_digest(seeds: str, forms: Sequence[str] = ()) -> str:
    """The digest a read-out is kept under: its seeds' digest, the forms it reads and the fitting's version."""
    return f"{seeds}/{FITTED_BY}" + (f"/{'+'.join(forms)}" if forms else "")


@dataclass(frozen=True, slots=True)
class LinearReadout:
    labels: tuple[str, ...]
    coef: Matrix  # labels x features: the whole text's dimensions, then the centred opening's
    intercept: Vector
    opening_mean: Vector  # the seeds' mean opening, taken out as the prototype score does
    opening_weight: float
    temperature: float
    weight: float  # the read-out's share in the fused distribution
    regularisation: float
    held_out_accuracy: float  # of the fused distribution, each seed scored without itself
    digest: str = ""  # the seeds and model it was fitted on
    forms: tuple[str, ...] = ()  # the marks of form it reads (engram.classify.forms)
    likelihoods: Matrix | None = None  # labels x forms: the share of each label's seeds that carry the mark

    def probabilities(self, vector: Vector, opening: Vector | None) -> dict[str, float]:
        logits = (
            self.coef @ features(vector, opening, self.opening_mean, self.opening_weight) + self.intercept
        )
        if len(self.labels) == 2:  # one logit: the second label's log-odds
            logits = np.array([0.0, logits[0]])
        return dict(zip(self.labels, softmax_rows(logits / self.temperature).tolist(), strict=True))

    def pooled(self, read: dict[str, float], by_prototype: dict[str, float]) -> dict[str, float]:
        """The read-out's distribution and the prototype softmax pooled as `pool` pools them, over the labels of
        `by_prototype`."""
        labels = list(by_prototype)
        row = pool(
            np.array([[read.get(k, 0.0) for k in labels]]),
            np.array([[by_prototype[k] for k in labels]]),
            self.weight,
        )[0]
        return dict(zip(labels, row.tolist(), strict=True))

    def with_marks(
        self, fused: dict[str, float], found: frozenset[str], weights: Mapping[str, float] | None = None
    ) -> dict[str, float]:
        """The fused distribution weighed by the marks of form the text carries (`found`): each label's
        probability times the share of its seeds that carry each mark, renormalised; a mark with a weight in
        `weights` counts that many times (its shares raised to that power)."""
        if self.likelihoods is None or not found & set(self.forms):
            return fused
        carried = np.array([[float(f in found) * (weights or {}).get(f, 1.0) for f in self.forms]])
        row = np.array([[fused.get(k, 0.0) for k in self.labels]])
        p = _weighed(row, self.likelihoods.astype(np.float64), carried)[0]
        return dict(zip(self.labels, p.tolist(), strict=True))

    def to_json(self) -> str:
        return json.dumps(
            {
                "labels": list(self.labels),
                "coef": _encode(self.coef),
                "shape": list(self.coef.shape),
                "intercept": _encode(self.intercept),
                "opening_mean": _encode(self.opening_mean),
                "opening_weight": self.opening_weight,
                "temperature": self.temperature,
                "weight": self.weight,
                "regularisation": self.regularisation,
                "held_out_accuracy": self.held_out_accuracy,
                "digest": self.digest,
                "forms": list(self.forms),
                "likelihoods": None if self.likelihoods is None else _encode(self.likelihoods),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> LinearReadout:
        raw = json.loads(text)
        return cls(
            labels=tuple(raw["labels"]),
            coef=_decode(raw["coef"]).reshape(raw["shape"]),
            intercept=_decode(raw["intercept"]),
            opening_mean=_decode(raw["opening_mean"]),
            opening_weight=float(raw["opening_weight"]),
            temperature=float(raw["temperature"]),
            weight=float(raw["weight"]),
            regularisation=float(raw["regularisation"]),
            held_out_accuracy=float(raw["held_out_accuracy"]),
            digest=str(raw["digest"]),
            forms=tuple(raw.get("forms", ())),
            likelihoods=None
            if raw.get("likelihoods") is None
            else _decode(raw["likelihoods"]).reshape(len(raw["labels"]), -1),
        )


def features(vectors: Matrix, openings: Matrix | None, mean: Vector, weight: float) -> Matrix:
    """The whole text's vector(s) at 1 - weight beside the centred opening's at weight (zeros if unknown)."""
    whole = np.asarray(vectors, dtype=np.float32)
    if weight <= 0:
        return whole
    if openings is None:
        opened = np.zeros_like(whole)
    else:
        centred = np.asarray(openings, dtype=np.float32) - mean
        opened = centred / np.maximum(np.linalg.norm(centred, axis=-1, keepdims=True), 1e-6)
    out: Matrix = np.concatenate([(1 - weight) * whole, weight * opened], axis=-1)
    return out


def fit(
    vectors: Matrix,
    openings: Matrix | None,
    labels: Sequence[str],
    opening_mean: Vector,
    opening_weight: float,
    left_out_prototype: npt.NDArray[np.float64],
    digest: str = "",
    marks: Matrix | None = None,
    forms: Sequence[str] = (),
) -> LinearReadout:
    """Fit on the seed sentences. `left_out_prototype` is each seed's prototype softmax (columns in sorted label
    order) with that seed left out of the prototypes; `marks` (seeds x `forms`) the marks of form each carries."""
    # Imported here: scikit-learn loads in most of a second, and only a new database fits a read-out.
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    names = tuple(sorted(set(labels)))
    target = np.array([names.index(label) for label in labels])
    # In float64: fitted on float32 features, the solver stopped at another iteration whenever BLAS summed in
    # another order (a process whose BLAS a store had limited to one thread), and the coefficients moved by a
    # tenth, enough to change decisions; in float64 they agree across thread counts to 1e-9.
    x = features(vectors, openings, opening_mean, opening_weight).astype(np.float64)
    folds = StratifiedKFold(FOLDS, shuffle=True, random_state=0)  # every label needs FOLDS seeds

    def model(c: float) -> LogisticRegression:
        return LogisticRegression(C=c, max_iter=5000, tol=TOLERANCE)

    best: tuple[float, float, float, npt.NDArray[np.float64]] | None = None  # log-loss, C, T, probabilities
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a fold that stops early only scores worse
        for c in REGULARISATION:
            logits = cross_val_predict(model(c), x, target, cv=folds, method="decision_function")
            if logits.ndim == 1:  # two labels: the second's log-odds
                logits = np.stack([np.zeros_like(logits), logits], axis=1)
            for t in TEMPERATURES:
                p = softmax_rows(logits / t)
                loss = _log_loss(p, target)
                if best is None or loss < best[0]:
                    best = (loss, c, t, p)
        assert best is not None
        _, c, t, held_out = best
        fitted = model(c).fit(x, target)
    weight = min(WEIGHTS, key=lambda w: _log_loss(pool(held_out, left_out_prototype, w), target))
    fused = pool(held_out, left_out_prototype, weight)
    likelihoods: Matrix | None = None
    if forms:
        assert marks is not None and marks.shape == (len(labels), len(forms))
        likelihoods, left_out = _mark_likelihoods(marks, target, len(names))
        fused = _weighed(fused, left_out, np.asarray(marks, dtype=np.float64))
    return LinearReadout(
        labels=names,
        coef=np.asarray(fitted.coef_, dtype=np.float32),
        intercept=np.asarray(fitted.intercept_, dtype=np.float32),
        opening_mean=np.asarray(opening_mean, dtype=np.float32),
        opening_weight=opening_weight,
        temperature=t,
        weight=weight,
        regularisation=c,
        held_out_accuracy=round(float(np.mean(fused.argmax(axis=1) == target)), 4),
        digest=digest,
        forms=tuple(forms),
        likelihoods=likelihoods,
    )


def _mark_likelihoods(
    marks: Matrix, target: npt.NDArray[np.int64], labels: int
) -> tuple[Matrix, npt.NDArray[np.float64]]:
    """Per label and mark, the share of the label's seeds that carry it (one added to each count, so no share is
    0 or 1); and the same with each seed itself left out, per seed (seeds x labels x marks)."""
    carried = np.asarray(marks, dtype=np.float64)
    counts = np.stack([carried[target == k].sum(axis=0) for k in range(labels)])  # labels x marks
    sizes = np.bincount(target, minlength=labels).astype(np.float64)[:, None]
    shares: Matrix = ((counts + 1) / (sizes + 2)).astype(np.float32)
    own = np.zeros((len(target), labels, carried.shape[1]))
    own[np.arange(len(target)), target] = carried
    alone = np.zeros((len(target), labels, 1))
    alone[np.arange(len(target)), target] = 1.0
    left_out: npt.NDArray[np.float64] = (counts[None] - own + 1) / (sizes[None] - alone + 2)
    return shares, left_out


def _weighed(
    fused: npt.NDArray[np.float64], likelihoods: npt.NDArray[np.float64], carried: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Each row of `fused` times the likelihoods (rows x labels x marks, or labels x marks) of the marks its
    text carries (rows x marks: 0 where it lacks one, else the power the mark's likelihood is raised to),
    renormalised: a mark the text lacks says nothing."""
    factors = np.where(carried[:, None, :] > 0, likelihoods ** carried[:, None, :], 1.0).prod(axis=2)
    weighed = fused * factors
    out: npt.NDArray[np.float64] = weighed / weighed.sum(axis=1, keepdims=True)
    return out


def pool(
    read: npt.NDArray[np.float64], prototype: npt.NDArray[np.float64], weight: float
) -> npt.NDArray[np.float64]:
    """Log-linear pool of two distributions (rows): `read ** weight * prototype ** (1 - weight)`, renormalised,
    so each part's log-odds count at its weight, as independent evidence adds. In the mixture `weight * read +
    (1 - weight) * prototype` a part could add at most its share to a label, and a read-out sure of one label
    outvoted prototypes sure of another; the pool had the lower held-out log-loss on the seeds of both taxonomies
    (docs/design/classification.md)."""
    logs = weight * np.log(np.maximum(read, FLOOR)) + (1 - weight) * np.log(np.maximum(prototype, FLOOR))
    return softmax_rows(logs)


def softmax_rows(z: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    """Softmax over the last axis."""
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    out: npt.NDArray[np.float64] = e / e.sum(axis=-1, keepdims=True)
    return out


def _log_loss(p: npt.NDArray[np.float64], target: npt.NDArray[np.int64]) -> float:
    return float(-np.mean(np.log(np.maximum(p[np.arange(len(target)), target], 1e-12))))


def _encode(a: npt.NDArray[np.float32]) -> str:
    return base64.b64encode(np.asarray(a, dtype="<f4").tobytes()).decode("ascii")


def _decode(s: str) -> npt.NDArray[np.float32]:
    return np.frombuffer(base64.b64decode(s), dtype="<f4").astype(np.float32)
