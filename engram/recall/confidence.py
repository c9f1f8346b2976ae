"""How surely a hit answers the query: the probability, fitted by logistic regression, that a hit holding these
query-match signals is a right answer (engram.recall.calibrated, refitted by `python -m bench.confidence_fit`).
The signals read only how the memory itself matches what was asked: its cosine to the query as asked (before
pseudo-relevance feedback moved it), the share of the question's words it says, how far its cosine leads every
other memory's, and its exact-match score; a memory beside a match in its episode takes a share of the match's.
Importance, recency and usage never count: they say what to show first, not whether a memory answers. The bands
are the probabilities under which 9 in 10 (medium) and 99 in 100 (high) of the best hits of questions nothing
answers stay. A memory the question is clearly about (`stands_out`), or that it clearly means without sharing
its words (`meant`), is at least medium, as is a passage of a document that leads every other memory by cosine
(`passage_leads`). docs/design/recall.md says how they were fitted and what they measured."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from engram.recall import calibrated

Confidence = Literal["high", "medium", "low"]
LEVELS: tuple[Confidence, ...] = ("low", "medium", "high")

# The signals the calibrator reads, in the order of its weights (`features`).
FEATURES = calibrated.FEATURES
MEDIUM = calibrated.MEDIUM  # the probability at which a hit is a likely answer
HIGH = calibrated.HIGH  # and an almost certain one
LEAD_CLIP = 0.3  # a lead (or lag) beyond this says no more: the rank gap is what counts
# A memory whose cosine to the query as asked is at least LEAD_FLOOR and leads every other memory's by LEAD is
# what the question is about: at least medium, whatever words it shares (a paraphrase shares few).
LEAD = 0.2
LEAD_FLOOR = 0.35
# A memory standing alone that leads every other's cosine by MEANT_LEAD is what the question means when its cosine,
# less SHARED x the share of the question's words it says, is at least MEANT: the model's cosine rises with the
# words a text shares, so a near miss that shares a name and a topic ("my blood sugar level" over "Blood pressure
# at my last GP visit was 118/76") reaches a cosine a paraphrase reaches with none of the words. The three are chosen
# on the user-level sets but one and measured on that one (`python -m bench.meant_fit --across`).
MEANT = 0.38
MEANT_LEAD = 0.1
SHARED = 0.5
# A passage of a document whose cosine to the query as asked is at least PASSAGE_FLOOR and leads every other
# memory's by PASSAGE_LEAD is what the question is about: a passage says many things, so a question about one of
# them matches it less closely than a short memory, and its many words lend it a coverage that near misses share.
# Chosen with each user-level set left out in turn (docs/design/recall.md).
PASSAGE_FLOOR = 0.3
PASSAGE_LEAD = 0.15
# A memory beside a match in its episode (a reply after the question) is likely its answer, less surely than the
# match: it takes this share of the match's probability. The calibrator does not read the neighbour itself: given
# a turn's own match, a well-matched neighbour made it less likely to be the evidence, while a reply ("yes, last
# Friday") that carries none of the question's words is found only through it.
NEIGHBOUR_SHARE = 0.85


def strengths(cosine: np.ndarray, coverage: np.ndarray, lead: np.ndarray, lexical: np.ndarray) -> np.ndarray:
    """The calibrated probability of each of many memories by its own match (`strength`), as arrays: what a
    memory lends the memories beside it (engram.recall.scoring's `neighbour`)."""
    columns = {"cosine": np.maximum(cosine, 0.0), "coverage": coverage, "lexical": lexical}
    columns["lead"] = np.clip(lead, -LEAD_CLIP, LEAD_CLIP)
    return _probability(sum(w * columns[n] for n, w in zip(FEATURES, calibrated.WEIGHTS, strict=True)))


def features(components: Mapping[str, float], names: Sequence[str] = FEATURES) -> np.ndarray:
    """The calibrator's inputs (`names`, by default those it was fitted on) from a hit's components: the cosine
    floored at 0 and the lead clipped, any other component as it is (0 if the hit has none)."""
    shaped = {
        "cosine": max(0.0, components.get("cosine", 0.0)),
        "lead": min(max(components.get("lead", 0.0), -LEAD_CLIP), LEAD_CLIP),
    }
    return np.array([shaped.get(n, components.get(n, 0.0)) for n in names], dtype=np.float64)


def strength(components: Mapping[str, float]) -> float:
    """The probability that the memory answers the query, 0..1 (0 when its match is unknown): by its own match,
    or a share of its best neighbour's in its episode."""
    if "cosine" not in components:
        return 0.0
    own = float(_probability(features(components) @ np.asarray(calibrated.WEIGHTS)))
    return max(own, NEIGHBOUR_SHARE * components.get("neighbour", 0.0))


def _probability(weighted: Any) -> np.ndarray:
    """The calibrator's logistic function of the weighted signals (one value or an array of them)."""
    return np.asarray(1.0 / (1.0 + np.exp(-(calibrated.INTERCEPT + weighted))))


def confidence_of(
    components: Mapping[str, float], *, by_meaning: bool = False, in_document: bool = False
) -> Confidence:
    """high, medium or low. `by_meaning`: whether the cosine may speak for a memory alone (`meant`): for a memory
    standing alone, asked in a language the model reads; `in_document`: whether the hit is a passage of a
    document (`passage_leads`)."""
    found = strength(components)
    if found >= HIGH:
        return "high"
    sure = found >= MEDIUM or stands_out(components) or (by_meaning and meant(components))
    return "medium" if sure or (in_document and passage_leads(components)) else "low"


def passage_leads(components: Mapping[str, float]) -> bool:
    """Whether the question is about this passage of a document: its cosine to the query as asked is fair for a
    passage and leads every other memory's. The calibrator learnt from conversation turns, short and on one
    topic; a passage of a care plan or a building quote says a dozen things, so "how much is the chimney work?"
    matches the passage holding the price less closely than a one-line memory would, and nothing else comes near."""
    return components.get("cosine", 0.0) >= PASSAGE_FLOOR and components.get("lead", 0.0) >= PASSAGE_LEAD


def meant(components: Mapping[str, float]) -> bool:
    """Whether the question means this memory though it says little of its words: its cosine to the query as
    asked, discounted by the words it shares, is fair, and it leads every other memory's. A paraphrase ("what
    gives me headaches" for "Red wine gives me migraines") shares no word and is rated by its cosine alone, low,
    by the calibrator, which learnt from conversation turns that share one topic."""
    cosine = components.get("cosine", 0.0) - SHARED * components.get("coverage", 0.0)
    return cosine >= MEANT and components.get("lead", 0.0) >= MEANT_LEAD


def stands_out(components: Mapping[str, float]) -> bool:
    """Whether the question is clearly about this memory: its cosine to the query as asked is fair and leads
    every other candidate memory's by a clear margin. The calibrator learnt from conversations, whose turns
    share one topic and rarely lead each other, and rates a paraphrase that shares no word with its answer
    ("can I have dairy" for "I'm lactose intolerant") by its cosine, low; but when nothing else stored comes
    near, the one memory that does is the likely answer."""
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
