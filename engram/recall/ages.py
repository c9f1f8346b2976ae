"""A question about the asker's own age ("how old was I when Alex was born?", "how many years older am I than when
I graduated?") is answered by what the asker said of their age ("I just turned 32 last month", "which I completed
at the age of 25"), which is said in passing and rarely shares the question's other words: the event the age is
tied to is named elsewhere, or not at all."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.model.results import Scored
from engram.store.values import Facts

# How much a statement of the writer's age lifts a memory's score (times 1 + LIFT) for a question about the asker's
# age. Such statements are few in a store and the question has no answer without one; at half again, as a liking is
# lifted, the turn that says it was still taken for a repeat of the topic's other turns.
LIFT = 1.0

# The asker's own age, asked: how old am / was / will I be, at what age did I, how many years older am I, my age.
_ASKS = re.compile(
    r"\bhow\s+old\s+(?:am|was|were|will|would)\s+i\b|\bhow\s+old\s+i\s+(?:am|was|will\s+be)\b"
    r"|\b(?:what|which)\s+age\s+(?:am|was|were|will|would|did|do)\s+i\b"
    r"|\bhow\s+many\s+years\s+(?:older|younger)\s+(?:am|was|will|would)\s+i\b|\bmy\s+(?:own\s+|current\s+)?age\b",
    re.IGNORECASE,
)
_AGE = r"(?:\d{1,3}|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-\w+)?"
# An age the writer states of themselves: "I turned 32", "I'm 45 years old", "I'm 32." (a number and no unit after
# it: "I'm 5 minutes away" is no age), "as a 32-year-old", "at the age of 25" in a sentence in the first person,
# "my 40th birthday".
_STATES = re.compile(
    rf"\bi(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|only\s+)?turned\s+{_AGE}\b"
    rf"|\bi(?:'m|\s+am|\s+was|'ll\s+be|\s+will\s+be)\s+(?:just\s+|now\s+|only\s+|almost\s+|nearly\s+|about\s+)?"
    rf"{_AGE}(?:\s+years?\s+old\b|\s*(?=[.,;!?)]|$))"
    rf"|\b(?:i'm|i\s+am|i\s+was|as)\s+an?\s+{_AGE}[- ]years?[- ]old\b"
    rf"|\bi\b[^.!?\n]*\bat\s+(?:the\s+)?age\s+of\s+{_AGE}\b"
    r"|\bmy\s+\d{1,3}(?:st|nd|rd|th)\s+birthday\b",
    re.IGNORECASE,
)


def asks_own_age(text: str) -> bool:
    """Whether a question asks how old the asker is, was or will be."""
    return _ASKS.search(text.replace("\u2019", "'")) is not None


def states_own_age(text: str) -> bool:
    """Whether a text says, in the first person, how old its writer is or was."""
    return _STATES.search(text.replace("\u2019", "'")) is not None


def aged(scored: Sequence[Scored[Facts]], question: str) -> list[Scored[Facts]]:
    """`scored` (best first) with each memory that states the writer's own age scoring 1 + LIFT times as much,
    when the question asks the asker's age; marked `why="age"`. Any other question's ranking is left as it is."""
    if not asks_own_age(question):
        return list(scored)
    out: list[Scored[Facts]] = []
    for s in scored:
        if s.score > 0 and states_own_age(s.record.content):
            s = Scored(s.record, s.score * (1 + LIFT), s.components, "age", s.confidence, s.passage)
        out.append(s)
    return sorted(out, key=lambda s: -s.score)  # stable: equal scores keep their order
