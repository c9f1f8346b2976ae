"""Words a text says and does not deny: "not urgent", "nothing urgent", "non-urgent" and "isn't an emergency" say
no urgency, though each holds the word."""

from __future__ import annotations

import re

# A word that denies what follows it, with at most one softening word between ("not that urgent").
_DENIED = re.compile(
    r"(?:\b(?:not|no|nothing|never|non)|n['\u2019]t)(?:\W+(?:an?|that|very|really|too|so))?\W*$", re.I
)


def affirmed(pattern: re.Pattern[str], text: str) -> list[str]:
    """What `pattern` finds in `text` that no word just before it denies."""
    return [
        m.group(0)
        for m in pattern.finditer(text)
        if not _DENIED.search(text[max(0, m.start() - 16) : m.start()])
    ]
