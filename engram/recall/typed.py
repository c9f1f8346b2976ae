"""Memories that hold no answer of the kind a question asks for (engram.lang.answers): "how much did the robot
cost" over "We decided to replace the robot with a Rowa unit", which names no amount. Such a memory is at most a
low-confidence guess, however many of the question's words it says. As for the names a question asks about
(engram.recall.named), only memories standing alone are judged: a turn of a conversation or a passage of a
document leaves the time or the amount to the turns and passages around it (a conversation's date is its
session's)."""

from __future__ import annotations

from collections.abc import Sequence

from engram.lang.answers import asked, gives
from engram.model.results import Scored
from engram.store.values import Facts


def untyped(shown: Sequence[Scored[Facts]], question: str) -> set[str]:
    """The memories of `shown` standing alone that hold no time (or amount) the question asks for."""
    kind = asked(question)
    if kind is None:
        return set()
    return {s.record.id for s in shown if s.record.episode is None and not gives(s.record.content, kind)}
