"""The classifiers a database uses: kinds (what sort of statement), categories (what it is about) and, for
conversation ingest, the extraction kinds; with the cache of opening-word vectors they read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engram.classify.addressee import addressed_share, speaker_opens, told_by_speaker
from engram.classify.classifier import Classifier
from engram.classify.forms import FORMS
from engram.classify.joint import KindEvidence, with_kind
from engram.classify.prototypes import Decision, Rules, should_learn
from engram.classify.taxonomy import load_taxonomy
from engram.config import Settings
from engram.embed.embedder import CachedEmbedder, Embedder
from engram.model.record import Kind
from engram.model.vectors import Vector
from engram.store.roles import Prototypes

KIND_TAXONOMY = "kinds"
CATEGORY_TAXONOMY = "categories"
EXTRACTION_TAXONOMY = "paperbot"
# What each kind says of each category, by the digests of the kinds' read-out and the category seeds.
_EVIDENCE: dict[str, KindEvidence] = {}


class Classifiers:
    """Kinds and categories share their rules (from the settings); a category the classifier is unsure of is
    left unset, to be given later. Learned prototypes are kept in memory until `save_learned`, which the write
    path calls inside the transaction of the memories that taught them; `forget_cache` drops what a rolled-back
    transaction taught."""

    def __init__(self, settings: Settings, store: Prototypes, embedder: Embedder) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        shared = Rules(
            prototype_weight=settings.kind_prototype_weight,
            temperature=settings.kind_temperature or 0.05,
            fallback_below=settings.kind_fallback_below,
            learn_above=settings.kind_learn_above,
            neighbour_floor=settings.kind_neighbour_floor,
            prototype_top=settings.kind_prototype_top,
            opening_weight=settings.kind_opening_weight,
            opening_words=settings.kind_opening_words,
        )
        fixed = settings.kind_temperature is not None
        # Kinds read the linear read-out as categories do: fitted on the seeds, it separates the statements a
        # few close prototypes leave unsure; it reads the marks of a statement's form too, a deadline or an
        # address, which its embedding (mostly its topic) hides (docs/design/classification.md).
        self.kinds = Classifier(
            load_taxonomy(KIND_TAXONOMY, fallback=Kind.KNOWLEDGE.value),
            replace(shared, readout=True, forms=FORMS),
            store,
            embedder,
            learned_max=settings.kind_learned_max,
            rules_fixed=fixed,
        )
        self.categories = Classifier(
            load_taxonomy(CATEGORY_TAXONOMY, fallback=""),
            replace(
                shared,
                fallback_below=settings.category_fallback_below,
                learn_above=settings.category_learn_above,
                readout=True,
                # A link, an e-mail address or a phone number says lookup material whatever the topic: "Grafana
                # dashboard ...: https://..." sat among the team's projects. The kinds' other marks do not carry
                # over: a deadline makes a reminder already, and the speaker's words tell no topic. A meeting's
                # heading says its notes are an account of it, whatever project or task they name. A time that
                # comes round, stated rather than asked, is a household's or a timetable's slot, not a thing to do.
                forms=("address", "meeting", "recurring"),
                # The first two say so whatever the topic, yet the seeds, written for topics, carry few of them:
                # counted once, a team's link stayed with its project and a stand-up's notes with their task.
                form_weights=(("address", 2.0), ("meeting", 2.0)),
            ),
            store,
            embedder,
            learned_max=settings.kind_learned_max,
            rules_fixed=fixed,
        )
        # How often the seeds of instructions to the assistant open with the speaker (engram.classify.addressee).
        self._addressed = addressed_share(self.categories.taxonomy.prototypes)
        # The vectors of texts' opening words, which both classifiers read (the write path fills it).
        self.openings = CachedEmbedder(embedder, capacity=8192)
        self._extraction: Classifier | None = None
        self._evidence: KindEvidence | None = None

    def opening(self, text: str) -> str | None:
        """The opening words of `text` the classifiers read (both read the same), or None."""
        return self.kinds.opening(text)

    def decide_kind(
        self,
        vector: Vector,
        neighbours: list[tuple[str, float]],
        opening: Vector | None,
        text: str | None = None,
        marks: frozenset[str] | None = None,
    ) -> Decision:
        """`text`: the memory's content, read for the marks of its form (engram.classify.forms), unless
        `marks` holds them already (`kind_marks`)."""
        return self.kinds.decide(vector, neighbours, opening, text, marks)

    def kind_marks(self, texts: Sequence[str]) -> list[frozenset[str]] | None:
        """The marks of form the kinds read in each text, read at once (a bulk write reads them while the model
        embeds); None when the kinds read none."""
        return self.kinds.marks(texts)

    def decide_category(
        self,
        vector: Vector,
        neighbours: list[tuple[str, float]],
        opening: Vector | None,
        kind: Decision | None = None,
        text: str | None = None,
        marks: frozenset[str] | None = None,
    ) -> Decision:
        """`kind`: the memory's kind decision, weighed in as evidence of its category (engram.classify.joint);
        `text` is read for the marks of form the categories read, unless `marks` holds them (`kind_marks`)."""
        decided = self.categories.decide(vector, neighbours, opening, text, marks)
        share = self._addressed
        if text and share is not None and speaker_opens(text):
            # The speaker as the subject tells of the speaker, not what the assistant is told to do.
            decided = told_by_speaker(decided, share, self.categories.rules.fallback_below)
        if kind is None or decided.method != "fallback":
            return decided  # only a category left undecided on its own is weighed by the kind
        return with_kind(decided, kind, self.kind_evidence(), self.categories.rules.fallback_below)

    def kind_evidence(self) -> KindEvidence:
        """What each kind says of each category, measured once per process and pair of seed sets."""
        if self._evidence is not None:
            return self._evidence  # the digests hash every seed sentence: not once per write
        key = f"{self.kinds.readout_digest()}|{self.categories.seed_digest()}"
        self._evidence = _EVIDENCE.get(key)
        if self._evidence is None:
            seeds = [p for p in self.categories.prototypes().items if p.source == "seed"]
            read = [
                (p.label, self.kinds.decide(p.vector, [], p.opening, p.text).probabilities) for p in seeds
            ]
            self._evidence = _EVIDENCE[key] = KindEvidence.measured(read, self.kinds.taxonomy.learnable)
        return self._evidence

    def learn(
        self,
        kind: Decision,
        category: Decision,
        vector: Vector,
        text: str,
        memory_id: str,
        opening: Vector | None,
    ) -> list[str]:
        """A confident decision joins its label's prototypes; the taxonomies that learned, by name."""
        learned = []
        for classifier, decided in ((self.kinds, kind), (self.categories, category)):
            if should_learn(decided, classifier.rules):
                classifier.learn(decided.label, vector, text, memory_id, opening)
                learned.append(classifier.taxonomy.name)
        return learned

    def save_learned(self) -> None:
        for classifier in (self.kinds, self.categories):
            classifier.save_learned()

    def forget_cache(self) -> None:
        """Read the prototypes from the store again: after a rolled-back write or a restore."""
        for classifier in (self.kinds, self.categories):
            classifier.forget_cache()

    def forget_learned(self) -> None:
        """A new model: learned prototypes (of the old vector space) go, and the seeds are embedded again."""
        for classifier in (self.kinds, self.categories):
            classifier.forget_learned()
            self._store.set_meta(f"prototypes:{classifier.taxonomy.name}", "")
        self._evidence = None  # measured in the old vector space

    def extraction(self) -> Classifier:
        """The extraction kinds (conversation ingest), loaded on first use. It reads the whole statement only:
        read with its opening words as well it found the same on labelled messages and more candidates in chit-chat."""
        if self._extraction is None:
            rules = Rules(
                prototype_weight=1.0,
                temperature=0.05,
                fallback_below=0.0,
                learn_above=1.1,
                prototype_top=self._settings.kind_prototype_top,
                opening_weight=0.0,
            )
            self._extraction = Classifier(
                load_taxonomy(EXTRACTION_TAXONOMY, fallback="note"),
                rules,
                self._store,
                self._embedder,
                learned_max=0,
                rules_fixed=False,
            )
        return self._extraction
