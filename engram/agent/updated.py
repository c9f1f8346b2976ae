"""Memories that say an older one changed ("Clara moved to Porto" after "My sister Clara lives in Lisbon"), as both
search_memory and recall show them: the newer one just above the older one, and kept when the older one is."""

from __future__ import annotations

import re
from dataclasses import replace

from engram.recall.query import Query
from engram.recall.retriever import Hit
from engram.write.updates import moves_time, unchanged_stems

# A question asking where, who or why: not what a change of time answers.
_NOT_WHEN = re.compile(r"^\W*(?:where|who|whom|whose|why)\b", re.IGNORECASE)

_RANK = ("low", "medium", "high")


def with_updates(shown: list[Hit], found: list[Hit]) -> list[Hit]:
    """The shown hits, and the hits found that say a shown one changed ("Clara moved to Porto" for "My sister
    Clara lives in Lisbon"), as sure as the one they update: the newer wording often shares fewer words with the
    question, and left out as unsure (or shown as low), the answer was the old fact."""
    kept = {h.record.id for h in shown}
    sure: dict[str, str] = {}
    for h in shown:
        if "updated_by" in h.record.metadata:
            newer = str(h.record.metadata["updated_by"])
            sure[newer] = max(sure.get(newer, "low"), h.confidence or "low", key=_RANK.index)
    raised = [
        replace(h, confidence=sure[h.record.id])
        if h.record.id in sure and _RANK.index(sure[h.record.id]) > _RANK.index(h.confidence or "low")
        else h
        for h in shown
    ]
    extra = [
        replace(h, confidence=sure[h.record.id])
        for h in found
        if h.record.id in sure and h.record.id not in kept
    ]
    return [*raised, *extra]


def newer_first(hits: list[Hit], query: Query) -> list[Hit]:
    """The hits with each memory that says an older one changed ("we moved the standup to 10am") just above that
    older one when both were found: the first statement of a fact is often the longer and the closer to the
    question, and ranked above the change. Not when the question asks, not for things as they are now, about
    the older memory's other facts, which the change leaves as they were ("who is Mum's key worker?" of "Mum ...
    Room 14. Her key worker is Precious", changed by "moved Mum down to room 3")."""
    place = {h.record.id: i for i, h in enumerate(hits)}
    moved: dict[str, int] = {}
    for i, hit in enumerate(hits):
        newer = hit.record.metadata.get("updated_by")
        if (
            hit.record.parent_id is None
            and isinstance(newer, str)
            and place.get(newer, -1) > i
            and (
                query.recent
                or _asks_what_changed(query, hit.record.content, hits[place[newer]].record.content)
            )
        ):
            moved[newer] = min(moved.get(newer, i), i)
    if not moved:
        return hits
    # Sorted by (the place it moves to, after the older one's place by a half), so ties keep their order.
    return sorted(
        hits, key=lambda h: moved[h.record.id] - 0.5 if h.record.id in moved else place[h.record.id]
    )


def _asks_what_changed(query: Query, older: str, newer: str) -> bool:
    """Whether a question not asking for now asks what the newer memory changed: none of the older memory's other
    facts, and not where, who or why of a thing only moved in time ("where do I do my midweek runs?" of "long run
    Sundays 8am ..., easy runs Tues and Thurs round Queen's Park", moved by "long run's moving to Saturdays")."""
    if _NOT_WHEN.match(query.text) and moves_time(newer, older):
        return False
    return not frozenset(query.stems) & unchanged_stems(older, newer)
