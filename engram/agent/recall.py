"""recall: hybrid search. Accurate and related recall understand a question as search_memory does
(engram.agent.understanding: an event it is relative to, misspelt words, related tags), and answer one that names
no topic with a list (engram.agent.listing): the things to do, or the memories of the time it names, each an exact
match and so kept by either mode. Ranked recall is the plain ranked list, for evaluation and paging."""

from __future__ import annotations

from dataclasses import replace

from engram.agent.listing import memories_of, things_due
from engram.agent.understanding import Understanding
from engram.agent.updated import newer_first, with_updates
from engram.config import Settings
from engram.model.record import Kind
from engram.recall.modes import RecallMode
from engram.recall.query import Query, read_query
from engram.recall.retriever import Hit, Retriever
from engram.store.values import Filter


class Recall:
    def __init__(self, understanding: Understanding, retriever: Retriever, settings: Settings) -> None:
        self._understand = understanding
        self._retriever = retriever
        self._longest = settings.max_content_chars

    def __call__(
        self, text: str, where: Filter, *, limit: int, mode: RecallMode, profile: str, touch: bool
    ) -> list[Hit]:
        """The memories answering the question `text`, asked at `where.now`, among those `where` selects, as
        `mode` keeps them; each returned memory's use is counted unless `touch` is false."""
        retriever = self._retriever
        if mode is RecallMode.RANKED:
            asked = self._read(text, where)
            return retriever.recall(asked, where, limit=limit, mode=mode, profile=profile, touch=touch)
        # The event a question is relative to may be a memory of any kind.
        query = self._understand(text, replace(where, kinds=()))
        clause = query.time
        if clause is not None and clause.applied == "filter":  # around the event the question names
            where = where.created_within(clause.after, clause.before)

        def ranked(where: Filter, exact: bool, most: int) -> tuple[list[Hit], int]:
            return retriever.ranked(query, where, limit=most, profile=profile, exact=exact)

        # Asked for tasks by kind, the question lists the things to do as when asked for no kind.
        listed = things_due(query, where, ranked, limit) if where.kinds in ((), (Kind.TASK,)) else None
        listed = listed or memories_of(query, where, ranked, limit)
        if listed is None:
            hits = retriever.recall(query, where, limit=limit, mode=mode, profile=profile, touch=touch)
            shown = {h.record.id for h in hits}
            if any(_changed_elsewhere(h, shown) for h in hits):
                # The change of a fact returned, left out as unsure: returned with it, as search_memory does.
                found, _ = retriever.ranked(query, where, limit=max(limit, 10), profile=profile)
                hits = with_updates(hits, found)
            # A fact and its later change both found: the change first, as search_memory shows them.
            return newer_first(hits, query)
        if touch and listed.hits:
            retriever.touch(listed.hits, query.now)
        return listed.hits

    def rank(self, text: str, where: Filter, *, limit: int, profile: str, touch: bool) -> list[Hit]:
        """The `limit` best memories by score alone (no diversity re-ranking), each long memory once."""
        asked = self._read(text, where)
        hits, _ = self._retriever.ranked(asked, where, limit=limit, profile=profile)
        if touch and hits:
            self._retriever.touch(hits, asked.now)
        return hits

    def _read(self, text: str, where: Filter) -> Query:
        """The question as ranked recall reads it: its words, no time or event applied."""
        assert where.now is not None
        return read_query(text, where.now, longest=self._longest)


def _changed_elsewhere(hit: Hit, shown: set[str]) -> bool:
    """Whether a newer memory says `hit` changed and is not among the `shown` ones."""
    newer = hit.record.metadata.get("updated_by")
    return isinstance(newer, str) and newer not in shown
