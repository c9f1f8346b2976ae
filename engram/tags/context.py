"""Context tags: what kind of memory it is rather than what it is about (urgent, deadline, decision, how-to), each
only when the text says so in as many words. A calm text that merely says "must" or "important" is not urgent,
"due to" is no deadline, and "I run 5k" is no how-to."""

from __future__ import annotations

import re

from engram.lang.denied import affirmed
from engram.lang.due import standing
from engram.lang.timewords import DAYS, MONTHS, SHORT_MONTHS

_URGENT = re.compile(
    r"\b(urgent(?:ly)?|asap|emergency|immediately|right away|as soon as possible|top priority)\b"
    r"|紧急|尽快|马上|立刻|立即|赶紧",
    re.I,
)
# A number is a day or a time, not an amount ("well before 90%" is no deadline).
_WHEN = rf"(?:{DAYS}|{MONTHS}|(?:{SHORT_MONTHS})\b\.?|tomorrow|tonight|today|noon|midnight|eod|\d(?![\d.,]*\s*(?:%|percent)))"
_DEADLINE = re.compile(
    rf"\b(?:deadlines?|due (?:on |by |date|{_WHEN})|is due\b|are due\b|(?:by|before|until|no later than) "
    rf"(?:the )?(?:end of|next |this )?{_WHEN}|by (?:the )?end of)"
    r"|截止|到期",
    re.I,
)
_DECISION = re.compile(
    r"\b(decided|decision|we(?:'ll| will)? go with|chose|agreed to|settled on)\b|决定|选择了|定下", re.I
)
_HOWTO = re.compile(r"\bhow to\b|\bsteps?\s*(?:\d|:)|^[^\S\n]*(?:step\s*)?[2-9][.)]\s", re.I | re.M)

CONTEXT_TAGS = ("urgent", "deadline", "decision", "how-to")


def context_tags(text: str) -> tuple[str, ...]:
    """The context tags `text` earns, in the order of CONTEXT_TAGS."""
    # A rule or a habit has no deadline ("no meetings before 10am on Mondays", "on weekdays I finish by 5").
    deadline = None if standing(text) else _DEADLINE.search(text)
    said = (affirmed(_URGENT, text), deadline, _DECISION.search(text), _HOWTO.search(text))
    return tuple(tag for tag, found in zip(CONTEXT_TAGS, said, strict=True) if found)
