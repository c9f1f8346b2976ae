"""How surely a hit answers the query, read from how well the memory itself matches what was asked: its cosine
to the query as asked (before pseudo-relevance feedback moved it) and the share of the question's words it says.
A memory beside a match in its episode (a reply after the question) takes a little less than the match's
strength. A memory whose cosine leads every other candidate memory's by a clear margin is what the question is
about: at least medium, whatever words it shares. Importance, recency and usage never count: they say what to
show first, not whether a memory answers. The bands are calibrated on labelled questions (docs/design/recall.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np

Confidence = Literal["high", "medium", "low"]
LEVELS: tuple[Confidence, ...] = ("low", "medium", "high")

# The match strength at which a hit is a likely (medium) and an almost certain (high) answer.
MEDIUM = 0.46
HIGH = 0.56
# A memory whose cosine to the query as asked is at least LEAD_FLOOR and leads every other memory's by LEAD is
# what the question is about: at least medium, whatever words it shares (a paraphrase shares few).
LEAD = 0.2
LEAD_FLOOR = 0.35
COSINE_WEIGHT = 0.5  # of the strength; the rest is the share of the question's words the memory says
# A memory beside a match in its episode is likely its answer or its question, less surely than the match.
NEIGHBOUR_SHARE = 0.85


def strengths(cosine: np.ndarray, coverage: np.ndarray) -> np.ndarray:
    """How well each memory's own content matches the query, 0..1, from its cosine to the query as asked and
    the share of the question's words it says."""
    return np.asarray(COSINE_WEIGHT * np.maximum(cosine, 0.0) + (1 - COSINE_WEIGHT) * coverage)


def strength(components: Mapping[str, float]) -> float:
    """How surely a memory answers: its own match, or a little less than its best neighbour's in its episode."""
    if "cosine" not in components:
        return 0.0
    cosine, coverage = max(0.0, components["cosine"]), components.get("coverage", 0.0)
    own = COSINE_WEIGHT * cosine + (1 - COSINE_WEIGHT) * coverage
    return max(own, NEIGHBOUR_SHARE * components.get("neighbour", 0.0))


def confidence_of(components: Mapping[str, float]) -> Confidence:
    """high, medium or low."""
    found = strength(components)
    if found >= HIGH:
        return "high"
    return "medium" if found >= MEDIUM or stands_out(components) else "low"


def stands_out(components: Mapping[str, float]) -> bool:
    """Whether the question is clearly about this memory: its cosine to the query as asked is fair and leads
    every other candidate memory's by a clear margin. A paraphrase that shares no word with its answer ("can I
    have dairy" for "I'm lactose intolerant") is rated by its cosine alone, at half weight, below medium;
    but when nothing else stored comes near, the one memory that does is the likely answer."""
    return components.get("cosine", 0.0) >= LEAD_FLOOR and components.get("lead", 0.0) >= LEAD


def at_least(confidence: str | None, level: Confidence) -> bool:
    """Whether `confidence` is `level` or surer (a hit without one counts as low)."""
    return LEVELS.index(confidence if confidence in LEVELS else "low") >= LEVELS.index(level)


def leads(cosine: np.ndarray, owners: Sequence[str]) -> np.ndarray:
    """Each candidate's cosine over the best cosine of the candidates of every other memory (`owners`: the
    memory each candidate is, or is a passage of); 0 when there is no other."""
    if len(cosine) == 0:
        return np.zeros(0)
    top = int(np.argmax(cosine))
    first = owners[top]
    # Only the best memory's candidates have a rival other than the best: the best of the rest.
    same = np.fromiter((o == first for o in owners), dtype=bool, count=len(owners))
    if same.all():
        return np.zeros(len(cosine))
    rival = np.where(same, cosine[~same].max(), cosine[top])
    return np.asarray(cosine - rival)
