"""How surely a hit answers the query, read from how well the memory itself matches what was asked: its cosine
to the query as asked (before pseudo-relevance feedback moved it) and the share of the question's words it says.
A memory beside a match in its episode (a reply after the question) takes a little less than the match's
strength. Importance, recency and usage never count: they say what to show first, not whether a memory answers. The bands are calibrated on labelled questions (docs/design/recall.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import numpy as np

Confidence = Literal["high", "medium", "low"]
LEVELS: tuple[Confidence, ...] = ("low", "medium", "high")

# The match strength at which a hit is a likely (medium) and an almost certain (high) answer.
MEDIUM = 0.46
HIGH = 0.56
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
    return "high" if found >= HIGH else "medium" if found >= MEDIUM else "low"


def at_least(confidence: str | None, level: Confidence) -> bool:
    """Whether `confidence` is `level` or surer (a hit without one counts as low)."""
    return LEVELS.index(confidence if confidence in LEVELS else "low") >= LEVELS.index(level)
