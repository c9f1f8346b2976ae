"""A question among the best candidates lends its reply its score: in a conversation, the answer to what was
asked is the turn after the question, and it rarely says the question's words ("Coconut milk ice cream is at the
top of my list." after "What's your favourite dish?"). Its own match is weak, and the context its question lends
it (one score among several, from either side) kept it below turns of other conversations sharing a word with
the query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engram.model.record import MemoryRecord
from engram.model.results import Scored
from engram.store.values import Facts, Filter

# Where the question may be among the best candidates (each document once). Only the first such question lends:
# where an episode keeps one side of a conversation (the user's turns alone), the turn after a question is no
# reply, and a lend to every question's next turn took the places of answers there.
ASKING = 5
# The share of the question's score its reply takes, if more than its own. Put right after the question, the
# reply found more answers in two-sided conversations but pushed one-sided episodes' answers down a place.
LENT = 0.7


class Conversations(Protocol):
    """What finding a question's reply reads: the turns beside it, and where each sits in its episode."""

    def episode_neighbours(self, ids: Sequence[str], where: Filter) -> dict[str, list[str]]: ...
    def get_many(self, ids: Sequence[str]) -> list[MemoryRecord]: ...


def asks(text: str) -> bool:
    """Whether a turn asks something."""
    return "?" in text


def lend_replies(scored: Sequence[Scored[Facts]], store: Conversations, where: Filter) -> list[Scored[Facts]]:
    """`scored` (best first) with the reply to the first question among its ASKING best memories scoring LENT
    of the question's score, if that is more than its own, and placed by it. Only a turn of an episode (not a
    document's passage) looks for its reply, and only a candidate of this query (in `scored`) is one. Two small
    reads by id, only when such a turn is there."""
    asking: Scored[Facts] | None = None
    owners: set[str] = set()
    for s in scored:
        if len(owners) == ASKING:
            break
        owner = s.record.parent or s.record.id
        if owner in owners:
            continue
        owners.add(owner)
        if s.record.episode is not None and s.record.parent is None and asks(s.record.content):
            asking = s
            break
    if asking is None:
        return list(scored)
    question = asking.record.id
    near = store.episode_neighbours([question], where).get(question, [])
    if not near:
        return list(scored)
    place = {r.id: (r.episode_id, r.sequence_number) for r in store.get_many([question, *near])}
    episode, at = place.get(question, (None, None))
    if at is None:
        return list(scored)
    lent = LENT * asking.score
    out: list[Scored[Facts]] = []
    for s in scored:
        if (
            s.record.id in near
            # a turn, not a passage of a long one: a document answers once, by its best passage
            and s.record.parent is None
            and place.get(s.record.id) == (episode, at + 1)
            and lent > s.score
        ):
            s = Scored(s.record, lent, s.components, "reply", s.confidence, s.passage)
        out.append(s)
    return sorted(out, key=lambda s: -s.score)  # stable: equal scores keep their order
