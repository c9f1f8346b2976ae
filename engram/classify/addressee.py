"""Whom a statement is said to, as evidence against the category of instructions to the assistant.

An instruction to the assistant is said to it: worded as a command ("Never share my contact details", "Antworte
mir auf Deutsch") or naming it ("The assistant should ..."). A statement whose subject is the speaker ("I never
take calls before 10am", "We deploy on Tuesdays", "Mein Mann arbeitet ...", "我每天跑步") tells of the speaker or
their team, whatever it shares in topic or wording with an instruction: read without its subject ("never take
..."), such a line opened like a command. How much the speaker's opening weighs is measured on the seeds, never
written: the category's probability is multiplied by the share of its seeds that open with the speaker (one
added to the count and two to the total), and renormalised (docs/design/classification.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engram.classify.prototypes import Decision
from engram.lang.text import first_words

# The category of instructions to the assistant, the one label this evidence weighs.
ADDRESSED = "system"
# The speaker's own words as a subject or its possessive, English and German (closed-class words, not topics).
_SPEAKER_FIRST = frozenset(
    {"i", "i'm", "i've", "i'd", "i'll", "my", "we", "we're", "we've", "we'd", "we'll", "our"}
    | {"ich", "mein", "meine", "meinen", "meinem", "meiner", "wir", "unser", "unsere", "unseren", "unserem"}
)


def speaker_opens(text: str) -> bool:
    """Whether `text` opens with the speaker as its subject or their possessive ("I ...", "Our ...", "Ich ...",
    我 for Chinese, which writes no spaces)."""
    head = text.lstrip()
    if head.startswith("我"):
        return True
    found = first_words(head, 1)
    return bool(found) and found[0].replace("\u2019", "'") in _SPEAKER_FIRST


def addressed_share(seeds: Mapping[str, Sequence[str]]) -> float | None:
    """The share of the addressed category's seeds that open with the speaker, smoothed; None when the
    taxonomy has no such category."""
    texts = seeds.get(ADDRESSED)
    if not texts:
        return None
    return (sum(speaker_opens(t) for t in texts) + 1) / (len(texts) + 2)


def told_by_speaker(decision: Decision, share: float, fallback_below: float) -> Decision:
    """`decision` of a text that opens with the speaker: the addressed category weighed by `share`,
    renormalised and decided again against `fallback_below`. A decision given rather than decided, or without a
    distribution, is kept."""
    probs = decision.probabilities
    if decision.method not in ("auto", "fallback") or not probs or ADDRESSED not in probs:
        return decision
    weighed = {c: p * (share if c == ADDRESSED else 1.0) for c, p in probs.items()}
    total = sum(weighed.values())
    if total <= 0:
        return decision
    out = {c: round(v / total, 4) for c, v in weighed.items()}
    winner = max(out, key=lambda c: out[c])
    decided = out[winner] >= fallback_below
    return replace(
        decision,
        label=winner if decided else "",
        confidence=out[winner],
        method="auto" if decided else "fallback",
        probabilities=out,
        views=decision.views | {"speaker": {ADDRESSED: round(share, 4)}},
    )
