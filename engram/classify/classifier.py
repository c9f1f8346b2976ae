"""A taxonomy bound to a database: its seed prototypes embedded once per database and model, the temperature
calibrated on them, the read-out fitted on them, and the prototypes learned from confident decisions."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from engram.classify import fitted, forms
from engram.classify import readout as linear
from engram.classify.prototypes import (
    SUBJECT_WORDS,
    Decision,
    PrototypeSet,
    Rules,
    calibrate_temperature,
    classify,
    left_out_scores,
    opening,
    opening_mean,
)
from engram.classify.readout import LinearReadout
from engram.classify.taxonomy import Taxonomy
from engram.embed.embedder import Embedder
from engram.model import heap
from engram.model.vectors import Matrix, Vector
from engram.store.roles import Prototypes
from engram.store.values import Prototype

# Seed prototype vectors and their calibrated temperature, per taxonomy, model, dimension and rules, in this process.
_SEEDED: dict[str, tuple[Matrix, Matrix | None, float]] = {}
# Read-outs fitted on those seeds, by the same digest.
_READOUTS: dict[str, LinearReadout] = {}


class Classifier:
    """One taxonomy bound to a database: its seed prototypes are embedded once per database and model (and
    the softmax temperature calibrated on them, leave-one-out, unless `rules_fixed`); confident decisions
    join the label's prototypes, at most `learned_max` per label."""

    def __init__(
        self,
        taxonomy: Taxonomy,
        rules: Rules,
        store: Prototypes,
        embedder: Embedder,
        *,
        learned_max: int,
        rules_fixed: bool,
    ) -> None:
        self.taxonomy = taxonomy
        self.store = store
        self.embedder = embedder
        self.rules = rules
        self.learned_max = learned_max
        self._rules_fixed = rules_fixed
        self._set: PrototypeSet | None = None
        self._unsaved: list[Prototype] = []
        self.readout: LinearReadout | None = None  # with `rules.readout`, set with the prototypes
        self.use_shipped = True  # a read-out shipped for these seeds and model is taken instead of fitting

    def prototypes(self) -> PrototypeSet:
        store, embedder = self.store, self.embedder
        if self._set is None:
            name, rules = self.taxonomy.name, self.rules
            key, t_key = f"prototypes:{name}", f"temperature:{name}"
            seeds = self.seeds()
            digest = self.seed_digest()
            if store.get_meta(key) != digest:
                if digest not in _SEEDED:  # every new database (a tenant's, say) would embed the same seeds
                    _SEEDED[digest] = self._embedded(embedder, seeds)
                vectors, openings, temperature = _SEEDED[digest]
                store.replace_seed_prototypes(
                    name,
                    [
                        Prototype(lab, "seed", v, t, None, None if openings is None else openings[i])
                        for i, ((lab, t), v) in enumerate(zip(seeds, vectors, strict=True))
                    ],
                )
                store.set_meta(t_key, str(temperature))
                store.set_meta(key, digest)
            if not self._rules_fixed:
                self.rules = replace(self.rules, temperature=float(store.get_meta(t_key) or 0.05))
            self._set = PrototypeSet(self._completed(store.prototypes(name), embedder), embedder.dim)
            if rules.readout:
                self.readout = self._readout(store, digest, self._set.items)
            # The rows as read (every vector as bytes, then decoded) are freed, their pages still held.
            heap.give_back()
        return self._set

    def seeds(self) -> list[tuple[str, str]]:
        return [(label, text) for label, texts in self.taxonomy.prototypes.items() for text in texts]

    def seed_digest(self) -> str:
        """What the seed prototypes were made from: the model, the seeds and the rules that embed them."""
        rules = self.rules
        opened = (rules.opening_words, rules.opening_weight, "centred", sorted(SUBJECT_WORDS))
        made_by = (self.embedder.name, rules.prototype_top, opened, self.seeds())
        return hashlib.sha256(repr(made_by).encode()).hexdigest()

    def readout_digest(self) -> str:
        """What a read-out is fitted from: the seeds' digest and the fitting's version."""
        return linear.fitted_digest(self.seed_digest(), self.rules.forms)

    def _readout(self, store: Prototypes, digest: str, items: Sequence[Prototype]) -> LinearReadout | None:
        """The read-out of this database's seeds: kept in its meta, fitted again when the seeds or model
        change (and once for a database made before read-outs). None when a label has too few seeds to
        hold any out."""
        key, digest = f"readout:{self.taxonomy.name}", linear.fitted_digest(digest, self.rules.forms)
        raw = store.get_meta(key)
        if raw and (kept := LinearReadout.from_json(raw)).digest == digest:
            return kept
        seeds = [p for p in items if p.source == "seed"]
        counts = Counter(p.label for p in seeds)
        if len(counts) < 2 or min(counts.values()) < linear.FOLDS:
            return None
        if digest not in _READOUTS and self.use_shipped:
            # Built-in seeds with the default model: fitted ahead, so scikit-learn is never loaded.
            ready = fitted.shipped(self.taxonomy.name, digest, self.rules.temperature)
            if ready is not None:
                _READOUTS[digest] = ready
        if digest not in _READOUTS:
            vectors = np.stack([p.vector for p in seeds])
            opened = self.rules.opening_weight > 0 and all(p.opening is not None for p in seeds)
            openings = np.stack([p.opening for p in seeds if p.opening is not None]) if opened else None
            labels = [p.label for p in seeds]
            names = sorted(set(labels))
            scores = left_out_scores(
                vectors,
                np.array([names.index(label) for label in labels]),
                len(names),
                self.rules.prototype_top,
                openings,
                self.rules.opening_weight,
            )
            left_out = linear.softmax_rows(scores / self.rules.temperature)
            mean = opening_mean(openings if openings is not None else [], vectors.shape[1])
            weight = self.rules.opening_weight if openings is not None else 0.0
            marks = forms.marks([forms.read(p.text or "") for p in seeds], self.rules.forms)
            _READOUTS[digest] = linear.fit(
                vectors, openings, labels, mean, weight, left_out, digest, marks, self.rules.forms
            )
        store.set_meta(key, _READOUTS[digest].to_json())
        return _READOUTS[digest]

    def _embedded(
        self, embedder: Embedder, seeds: list[tuple[str, str]]
    ) -> tuple[Matrix, Matrix | None, float]:
        """The seeds' vectors, their openings' and the temperature calibrated on them."""
        vectors = embedder.embed_batch([t for _, t in seeds])
        openings = self._embed_openings(embedder, [t for _, t in seeds])
        labels = [label for label, _ in seeds]
        top, weight = self.rules.prototype_top, self.rules.opening_weight
        return (
            vectors,
            openings,
            calibrate_temperature(vectors, labels, top, openings=openings, weight=weight),
        )

    def opening(self, text: str) -> str | None:
        """The opening of `text` this classifier reads, or None when it reads the whole text only."""
        if self.rules.opening_weight <= 0:
            return None
        return opening(text, self.rules.opening_words) or None

    def _embed_openings(self, embedder: Embedder, texts: Sequence[str]) -> Matrix | None:
        if self.rules.opening_weight <= 0:
            return None
        return embedder.embed_batch([opening(t, self.rules.opening_words) for t in texts])

    def _completed(self, items: list[Prototype], embedder: Embedder) -> list[Prototype]:
        """Prototypes learned before openings were kept get theirs from their text."""
        missing = [i for i, p in enumerate(items) if p.opening is None and p.text]
        vectors = self._embed_openings(embedder, [items[i].text or "" for i in missing]) if missing else None
        if vectors is None:
            return items
        for row, i in enumerate(missing):
            items[i] = replace(items[i], opening=vectors[row])
        return items

    def decide(
        self,
        vector: Vector,
        neighbours: Sequence[tuple[str, float]],
        opening: Vector | None = None,
        text: str | None = None,
        marks: frozenset[str] | None = None,
    ) -> Decision:
        """`neighbours` are the labels of the stored memories closest to it, with their cosines; `opening` is
        the embedding of `self.opening(text)`; `text`, when given, is read for the marks of form the read-out
        reads (`rules.forms`), unless `marks` holds them already (`self.marks`)."""
        protos = self.prototypes()
        found: frozenset[str] = frozenset()
        if self.readout is not None and self.readout.forms:
            found = marks if marks is not None else forms.read(text) if text else frozenset()
        return classify(vector, protos, neighbours, self.taxonomy, self.rules, opening, self.readout, found)

    def marks(self, texts: Sequence[str]) -> list[frozenset[str]] | None:
        """The marks of form `decide` would read in each of `texts`, read at once; None when it reads none."""
        self.prototypes()
        if self.readout is None or not self.readout.forms:
            return None
        return forms.read_all(texts)

    def learn(
        self,
        label: str,
        vector: Vector,
        text: str,
        memory_id: str,
        opening: Vector | None = None,
    ) -> None:
        """Join a label's prototypes now; the store keeps it at the next `save_learned`, in the same
        transaction as the memory that taught it."""
        item = Prototype(label, "learned", vector, text[:200], memory_id, opening)
        self.prototypes().learn(item, self.learned_max)
        self._unsaved.append(item)

    def save_learned(self) -> None:
        """Write the prototypes learned since the last call, in one statement: a row and a trim for each
        confident write was a tenth of a write's time."""
        items, self._unsaved = self._unsaved, []
        self.store.add_learned_prototypes(self.taxonomy.name, items, keep=self.learned_max)

    def forget_cache(self) -> None:
        self._set = None
        self._unsaved = []  # rolled back with the writes that taught them

    def forget_learned(self) -> None:
        """Learned prototypes live in one vector space: a new model starts from the seeds again."""
        self.store.clear_learned_prototypes(self.taxonomy.name)
        self._set = None
