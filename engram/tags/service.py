"""The tag registry as memories see it: usage counts that are those of the memories carrying each tag, and the
vocabulary of active tags with their embeddings, which this service alone caches and refreshes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engram.embed.embedder import Embedder
from engram.model.record import utcnow
from engram.model.vectors import Vector
from engram.store.roles import TagRegistry
from engram.store.values import TagRow
from engram.tags.consolidate import Merge, consolidate
from engram.tags.plan import TagPlan
from engram.tags.vocabulary import Vocabulary


class TagService:
    """Every change to tag usage goes through here, so the cached vocabulary stays that of the registry; a
    service that rewrites the registry wholesale (a rollback, a restore, an import) calls `reload`."""

    def __init__(self, store: TagRegistry, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder
        self._vocabulary: Vocabulary | None = None

    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            self._vocabulary = Vocabulary.of(self._store.tags(), self._embedder.dim)
        return self._vocabulary

    def reload(self) -> None:
        """Read the vocabulary from the registry again on next use."""
        self._vocabulary = None

    def record(self, plan: TagPlan, vectors: dict[str, Vector], at: datetime) -> None:
        """Count the uses of a new memory's tags; new tags join the vocabulary with their embedding."""
        self._store.use_tags(list(plan.tags), at, {t: v for t, v in vectors.items() if t in plan.new})
        vocabulary = self.vocabulary()
        for tag in plan.new:
            vocabulary.add(tag, vectors[tag])

    def count_uses(self, tags: Sequence[str]) -> None:
        """Count new uses of tags; a tag the registry does not hold yet joins it with its embedding."""
        if not tags:
            return
        new = list(dict.fromkeys(t for t in tags if self._store.tag(t) is None))
        vectors = dict(zip(new, self.embed(new), strict=True)) if new else {}
        self._store.use_tags(tags, utcnow(), vectors)
        if new:
            self.reload()

    def drop_uses(self, tags: Sequence[str]) -> None:
        """A memory no longer carries these tags (forgotten): one use fewer each; at none a tag is archived."""
        self._store.drop_tag_uses(tags)

    def retag(self, before: Sequence[str], after: Sequence[str]) -> None:
        """Keep the usage counts those of the memories when a memory's tags are edited."""
        self._store.drop_tag_uses([t for t in before if t not in after])
        self.count_uses([t for t in after if t not in before])
        self.reload()  # a tag may have been archived or become active again

    def embed(self, tags: Sequence[str]) -> list[Vector]:
        """Each tag's embedding, read as words ("machine-learning" as "machine learning")."""
        return list(self._embedder.embed_batch([t.replace("-", " ") for t in tags]))

    def is_word(self, text: str) -> bool:
        """Whether `text` is one token of the embedding model's vocabulary: a word of its own, not a clip."""
        return len(self._embedder.token_offsets(text)) == 1

    def merges(self, rows: Sequence[TagRow]) -> list[Merge]:
        """Which of these tag rows (the registry's active tags) consolidation would fold into which."""
        return consolidate(rows, self.is_word)
