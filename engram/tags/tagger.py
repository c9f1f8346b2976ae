"""What store_memory reads in a memory's text: its concepts, entities and importance indicators, and the tags
they give, mapped onto the vocabulary. A content edit reads the new text the same way, so the automatic tags
follow the content."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np

from engram.classify.service import Classifiers
from engram.config import Settings
from engram.embed.embedder import Embedder
from engram.errors import InvalidInput
from engram.lang import analysis, pii
from engram.model.record import NewMemory, parse
from engram.model.vectors import Vector, content_hash
from engram.tags import phrases
from engram.tags.context import context_tags
from engram.tags.plan import TagPlan, on_topic, plan_tags
from engram.tags.service import TagService

MAX_AUTOMATIC = 6  # tags a memory gets from its text: enough to file it, few enough to mean something
MIN_TOPICS = 2  # topic tags kept whatever context tags take


class _Embedded(Protocol):
    def vector_for_hash(self, content_hash: str) -> Vector | None: ...


@dataclass(frozen=True)
class Tagging:
    found: analysis.ContentAnalysis
    plan: TagPlan
    vectors: dict[str, Vector]  # each tag's embedding: a new tag joins the vocabulary with it
    embedded: dict[
        str, Vector
    ]  # the content's own vector by hash, when it was embedded here (the write reuses it)
    off_topic: list[str]  # concepts left out as not about the text
    automatic: tuple[str, ...]  # the tags the text gave, not the caller: an edit of the text replaces these

    @property
    def metadata(self) -> dict[str, Any]:
        """What the analysis found, kept with the memory."""
        found = self.found
        return {
            "concepts": list(found.concepts),
            "entities": [{"text": e.text, "kind": e.kind} for e in found.entities],
            "importance_indicators": list(found.indicators),
            "auto_tags": list(self.automatic),
        }


class Tagger:
    """Reads a text and gives its tags, embedding in one model call the new tag phrases, the text itself (the
    write path reuses its vector, by content hash) and its opening words (the classifiers' cache)."""

    def __init__(
        self,
        settings: Settings,
        embedder: Embedder,
        store: _Embedded,
        classifiers: Classifiers,
        tags: TagService,
    ) -> None:
        self._settings = settings
        self._embedder = embedder
        self._store = store
        self._classifiers = classifiers
        self._tags = tags

    def tagged(self, content: str, given: Sequence[str]) -> Tagging:
        """The analysis of `content` and its tags: the concepts' tags and context tags (urgency, ...) beside
        the caller's `given` tags, which are never cut. Text over the longest a memory may be is refused first,
        as the write refuses it: read for concepts, a 1 MB text held a core for seconds before its refusal."""
        if len(content) > (longest := self._settings.max_content_chars):
            raise InvalidInput("content", f"is {len(content)} characters; the maximum is {longest}")
        found = analysis.analyse(content)
        found = replace(found, concepts=phrases.topics(content), context_tags=context_tags(content))
        if self._settings.redact_pii:
            # Looked at as given: once lowercase-hyphenated, "bob@example.com" is a tag no scan recognises.
            given = [t for t in given if pii.risk(t) < 2]
        caller = [t for t in dict.fromkeys(analysis.normalize_tag(x) for x in given) if t]
        context = [t for t in (analysis.normalize_tag(x) for x in found.context_tags) if t]
        extra = list(dict.fromkeys([*caller, *context]))
        concept_tags, vectors, embedded, off_topic = self._tag_vectors(found.concepts, extra, content)
        vocabulary = self._tags.vocabulary()
        room = max(MIN_TOPICS, MAX_AUTOMATIC - len(context))  # caller tags come on top, never cut
        plan = plan_tags(
            concept_tags, vectors[: len(concept_tags)], vocabulary, extra, maximum=room + len(extra)
        )
        spelled = {vocabulary.spelled(t) or t for t in caller}
        return Tagging(
            found,
            plan,
            dict(zip([*concept_tags, *extra], vectors, strict=True)),
            embedded,
            off_topic,
            tuple(t for t in plan.tags if t not in spelled),
        )

    def tag_item(self, item: dict[str, Any]) -> dict[str, Any]:
        """A memory to write (`remember`'s, a document's) with the tags of its text when its caller gave none,
        kept as automatic so that a content edit replaces them, as it replaces store_memory's; as it is
        otherwise. store_memory alone also reads importance and context from the analysis."""
        content = item.get("content")
        if item.get("tags") or not isinstance(content, str):
            return item
        try:
            parse(NewMemory, {"content": content})
        except InvalidInput:
            return item  # bad text is refused by the write, naming the field, before anything reads it
        tagging = self.tagged(content, [])
        metadata = dict(item.get("metadata") or {})
        # The importance is the caller's (or the default), not the analysis': an edit keeps it.
        overridden = [*(metadata.get("overridden") or []), "importance"]
        metadata |= {"auto_tags": list(tagging.automatic), "overridden": list(dict.fromkeys(overridden))}
        return item | {"tags": list(tagging.plan.tags), "metadata": metadata}

    def _tag_vectors(
        self, concepts: tuple[str, ...], extra: list[str], content: str
    ) -> tuple[list[str], np.ndarray[Any, Any], dict[str, Vector], list[str]]:
        """The concepts that can be tags, one embedding batch for them and the extra tags, and the concept tags left
        out as not about the text (`on_topic`). The content joins the batch when it is one chunk (the model runs texts
        of one call side by side), and its vector comes back by content hash for the write path; so do its opening
        words (`Classifier.opening`), into the classifiers' openings cache. A text of several chunks has no one vector to compare its
        concepts with, and keeps them all."""
        tags = [t for t in dict.fromkeys(analysis.normalize_tag(c) for c in concepts) if t and t not in extra]
        names = [*tags, *extra]
        vectors = np.zeros((len(names), self._embedder.dim), dtype=np.float32)
        # A tag already in the vocabulary brings its embedding: only new words go through the model.
        vocabulary = self._tags.vocabulary()
        todo = []
        for i, name in enumerate(names):
            known = vocabulary.vector(name)
            if known is None:
                todo.append(i)
            else:
                vectors[i] = known
        texts = [names[i].replace("-", " ") for i in todo]
        whole, digest = content.strip(), content_hash(content)
        # Text this database already embedded is never embedded again (the write path reuses it).
        short = len(self._embedder.token_offsets(whole)) <= self._settings.chunk_tokens
        stored = self._store.vector_for_hash(digest) if short else None
        alone = short and stored is None
        # So is the opening the classifiers read, unless an earlier memory opened the same way; its vector goes to
        # the openings cache, where the write path looks for it.
        start = self._classifiers.opening(whole)
        openings = self._classifiers.openings
        opening = [start] if start is not None and not openings.known([start]) else []
        embedded: dict[str, Vector] = {}
        if todo or alone or opening:
            batch = self._embedder.embed_batch([*texts, *([whole] if alone else []), *opening])
            vectors[todo] = batch[: len(todo)]
            openings.keep(opening, batch[len(batch) - len(opening) :])
            if alone:
                embedded[digest] = batch[len(todo)]
        names_in = {analysis.normalize_tag(n) for n in analysis.named(content)}
        floor = self._settings.tag_on_topic
        whole_vector = embedded.get(digest, stored)
        keep = on_topic(tags, vectors[: len(tags)], whole_vector, names_in, floor)
        kept_rows = [i for i, kept in enumerate(keep) if kept]
        if whole_vector is not None:  # the topics closest to what the text says first: they fill the room
            closeness = vectors[kept_rows] @ whole_vector
            kept_rows = [kept_rows[j] for j in np.argsort(-closeness, kind="stable")]
        rows = kept_rows + list(range(len(tags), len(names)))
        off_topic = [t for t, kept in zip(tags, keep, strict=True) if not kept]
        return [tags[i] for i in kept_rows], vectors[rows], embedded, off_topic
