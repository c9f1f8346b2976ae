"""In a dialogue, a turn and the other speaker's turn beside it are one exchange: a question and its answer, a
piece of news and the follow-up that names what it was about ("Caroline: I went to a support group yesterday" /
"Melanie: That's brave of you! How did the LGBTQ group go?"). Each turn's score takes a share of the better of
its neighbours said by someone else. A log of one speaker's notes (each turn its own statement) is left alone:
its turns name no speakers, or the same one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engram.model.results import Scored
from engram.recall.speakers import speaker
from engram.store.values import Facts

# The share of the better neighbour's score a turn gains. A tenth lifted few answers into the first ten, a quarter
# or more put a strong turn's small-talk neighbours over other answers.
SHARE = 0.2


def exchanged(scored: Sequence[Scored[Facts]], beside: Mapping[str, Sequence[str]]) -> list[Scored[Facts]]:
    """`scored` (best first) with each turn that names its speaker gaining SHARE of the best score among the
    turns beside it (`beside`: a candidate's neighbours in its episode) that another speaker says; best first
    again. Unchanged when no candidate names a speaker."""
    if SHARE <= 0 or not beside:
        return list(scored)
    said = {
        s.record.id: (who, s.score) for s in scored if s.record.episode and (who := speaker(s.record.content))
    }
    if not said:
        return list(scored)
    out: list[Scored[Facts]] = []
    lifted = False
    for s in scored:
        own = said.get(s.record.id)
        gain = 0.0
        if own is not None:
            others = (said.get(n) for n in beside.get(s.record.id, ()))
            gain = max((o[1] for o in others if o is not None and o[0] != own[0]), default=0.0)
        if gain > 0:
            s = Scored(s.record, s.score + SHARE * gain, s.components, s.why, s.confidence, s.passage)
            lifted = True
        out.append(s)
    return sorted(out, key=lambda s: -s.score) if lifted else out  # stable: equal scores keep their order
