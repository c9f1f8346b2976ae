"""Pseudo-relevance feedback on words (RM3): the words that the best-matching candidates say and the question
does not are taken as more of what it means, and a candidate that says them scores a little higher.

The vector side of pseudo-relevance feedback (Rocchio, `engram.recall.scoring.feedback_query`) moves the query's
embedding toward the best few candidates; this step does the same for its words. From the `docs` candidates whose
own content matches the query best (vector and lexical components, as the profile weighs them), each word stem
they say that the question does not is weighed by how much of each of those candidates it is (relevance model 1:
its share of the candidate's words, times the candidate's match) and by how rare it is among all the candidates
(log((n + 1) / (candidates saying it + 0.5))): a word every candidate says tells none apart. The `TERMS` best are
the feedback words; a candidate's lift is `WEIGHT x lexical weight x` the weighted share of them it says, times
its validity. The lift is kept apart (component `terms`) so that the mode thresholds, which judge a score as the
query was asked, can leave it out as they leave out the vector feedback's.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from engram.config import RankingProfile
from engram.lang.text import STOPWORDS, stem, stems_among, words
from engram.model.results import Scored
from engram.recall.scoring import R, with_term_lift

TERMS = 10  # feedback words kept
WEIGHT = 1.0  # of the profile's lexical weight
SHORTEST = 3  # letters of a stem that can be a feedback word (shorter ones are mostly fragments: "im", "ve")


def term_feedback(
    ranked: Sequence[Scored[R]], asked: Sequence[str], profile: RankingProfile, docs: int
) -> list[Scored[R]]:
    """The candidates (scored, best first) with the feedback words' lift added, best first again. `asked` are
    the question's word stems, `docs` how many of the best-matching candidates stand for what it means."""
    if docs <= 0 or len(ranked) < 2 or profile.lexical <= 0 or WEIGHT <= 0:
        return list(ranked)
    weight = profile.vector + profile.lexical
    match = [
        (profile.vector * s.components["vector"] + profile.lexical * s.components["lexical"]) / weight
        for s in ranked
    ]
    best = sorted(range(len(ranked)), key=lambda i: -match[i])[:docs]
    own = set(asked)
    model: dict[str, float] = {}
    for i in best:
        said = [
            s for w in words(ranked[i].record.content) if w not in STOPWORDS and len(s := stem(w)) >= SHORTEST
        ]
        said = [s for s in said if s not in own]
        for s, n in Counter(said).items():
            model[s] = model.get(s, 0.0) + n / len(said) * match[i]
    if not model:
        return list(ranked)
    # One read of which candidates say which of these words gives both their rarity and each one's share.
    present = stems_among([s.record.content for s in ranked], frozenset(model))
    found: Counter[str] = Counter()
    for p in present:
        found.update(p)
    rarity = math.log(len(ranked) + 1)
    weights = {s: m * (rarity - math.log(found[s] + 0.5)) for s, m in model.items()}
    top = dict(sorted(weights.items(), key=lambda kv: -kv[1])[:TERMS])
    total = sum(w for w in top.values() if w > 0)
    if total <= 0:
        return list(ranked)
    scale = WEIGHT * profile.lexical / total
    lifted = [
        with_term_lift(s, scale * sum(top[t] for t in p if top.get(t, 0) > 0))
        for s, p in zip(ranked, present, strict=True)
    ]
    return sorted(lifted, key=lambda s: -s.score)


__all__ = ["term_feedback"]
