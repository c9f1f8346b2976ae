"""How surely a hit answers the query, read from how well the memory itself matches what was asked: its cosine
to the query as asked (before pseudo-relevance feedback moved it), the share of the question's words it says and
how far its cosine stands above the other candidates' (an answer stands out; a near miss resembles many).
A memory beside a match in its episode (a reply after the question) takes a little less than the match's
strength. Importance, recency and usage never count: they say what to show first, not whether a memory answers. The bands are calibrated on labelled questions (docs/design/recall.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import numpy as np

Confidence = Literal["high", "medium", "low"]
LEVELS: tuple[Confidence, ...] = ("low", "medium", "high")

# The match strength at which a hit is a likely (medium) and an almost certain (high) answer.
MEDIUM = 0.58
HIGH = 0.70
COSINE_WEIGHT = 0.5  # of the strength; the rest is the share of the question's words the memory says
# Of how far a memory's cosine stands above the median of the candidates' best: an answer stands out from the
# store, a near miss resembles many memories about as much.
STANDOUT_WEIGHT = 0.5
# A memory beside a match in its episode is likely its answer or its question, less surely than the match.
NEIGHBOUR_SHARE = 0.85


def strengths(cosine: np.ndarray, coverage: np.ndarray, standout: np.ndarray) -> np.ndarray:
    """How well each memory's own content matches the query, from its cosine to the query as asked, the share
    of the question's words it says and how far its cosine stands above the other candidates'."""
    own = COSINE_WEIGHT * np.maximum(cosine, 0.0) + (1 - COSINE_WEIGHT) * coverage
    return np.asarray(own + STANDOUT_WEIGHT * standout)


def strength(components: Mapping[str, float]) -> float:
    """How surely a memory answers: its own match, or a little less than its best neighbour's in its episode."""
    if "cosine" not in components:
        return 0.0
    cosine, coverage = max(0.0, components["cosine"]), components.get("coverage", 0.0)
    own = (
        COSINE_WEIGHT * cosine
        + (1 - COSINE_WEIGHT) * coverage
        + STANDOUT_WEIGHT * components.get("standout", 0.0)
    )
    return max(own, NEIGHBOUR_SHARE * components.get("neighbour", 0.0))


def confidence_of(components: Mapping[str, float]) -> Confidence:
    """high, medium or low."""
    found = strength(components)
    return "high" if found >= HIGH else "medium" if found >= MEDIUM else "low"


def at_least(confidence: str | None, level: Confidence) -> bool:
    """Whether `confidence` is `level` or surer (a hit without one counts as low)."""
    return LEVELS.index(confidence if confidence in LEVELS else "low") >= LEVELS.index(level)
