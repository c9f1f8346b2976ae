"""A question understood as the agent tools read it, in one place for search_memory and recall: a time range
filters, a time it names favours that period, an event it is relative to ("before the launch") filters around the
memory that mentions it, misspelt words are read as the store spells them, and its concepts that are tags in use
expand the text search through related tags."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np

from engram.config import Settings
from engram.lang import analysis
from engram.model.vectors import Vector
from engram.recall.confidence import at_least
from engram.recall.modes import RecallMode
from engram.recall.query import Query, query_concepts, read_query
from engram.recall.query import read_search as read
from engram.recall.retriever import Retriever
from engram.store.values import Filter
from engram.tags.naming import key
from engram.tags.service import TagService

EXPANSION_AT = 0.6  # cosine at which a tag expands a query concept


class Understanding:
    def __init__(self, settings: Settings, retriever: Retriever, tags: TagService) -> None:
        self._settings = settings
        self._retriever = retriever
        self._tags = tags

    def __call__(
        self,
        text: Any,
        seen: Filter,
        *,
        after: datetime | None = None,
        before: datetime | None = None,
    ) -> Query:
        """The question asked at `seen.now`, a time range (`after`, `before`) given with it filtering; an event
        it is relative to is looked for among the memories `seen` lets the asker see."""
        now = seen.now
        assert now is not None
        query = read(text, now, longest=self._settings.max_content_chars, after=after, before=before)
        if query.anchor is not None:
            probe = read_query(query.event, now, longest=self._settings.max_content_chars)
            event = self._retriever.recall(
                probe, seen, limit=1, mode=RecallMode.RANKED, profile="default", touch=False
            )
            # A weak match (a document sharing no word with the event) is no event: filtering around it hid
            # the answer.
            if event and at_least(event[0].confidence, "medium"):
                query = self._around(query, event[0].record.id, event[0].record.created_at, seen)
        query = self._retriever.corrected(query)
        concepts = query_concepts(query.topic)
        return replace(query, concepts=concepts, expansions=self._expansions(concepts))

    def _around(self, query: Query, event: str, at: datetime, seen: Filter) -> Query:
        """`query` filtered around the event's memory, unless no memory the asker sees lies on the side asked
        for: stored in one sitting with the event, the other memories are neither before nor after it, and the
        filter answered "what do I need to do before the concert?" with nothing."""
        anchored = query.anchored(event, at)
        clause = anchored.time
        assert clause is not None
        side = seen.created_within(clause.after, clause.before)
        found, _ = self._retriever.ranked(anchored, side, limit=1, profile="default")
        return anchored if found else query

    def _expansions(self, concepts: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
        """Each query concept that is a tag in use, with the tags closest to it (expansion through the tag
        graph). Concepts outside the vocabulary are not embedded: the query's own embedding already searches by
        meaning, and a model call per concept would cost more than the rest of the search."""
        vocabulary = self._tags.vocabulary()
        known: list[tuple[str, str, Vector]] = []
        for concept in concepts:
            tag = analysis.normalize_tag(concept)
            name = tag if vocabulary.vector(tag) is not None else vocabulary.spelled(tag)
            vector = None if name is None else vocabulary.vector(name)
            if name is not None and vector is not None:
                known.append((concept, name, vector))
        if not known:
            return {}
        out: dict[str, tuple[str, ...]] = {}
        nearest = vocabulary.nearest(np.stack([v for _, _, v in known]), 4)
        for (concept, name, _), near in zip(known, nearest, strict=True):
            kept = [tag for tag, cosine in near if cosine >= EXPANSION_AT and key(tag) != key(name)][:3]
            if kept:
                out[concept] = tuple(kept)
        return out
