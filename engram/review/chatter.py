"""What a user types that is conversation, not memory, though it reads as a statement.

People type to an assistant without question marks ("how do i cite a video in APA"), ask it for things ("can u
help me write an email"), say how they feel today ("i'm absolutely shattered"), wonder what they would do ("if I
had the money I'd buy the unit next door"), correct a typo, and pass on someone's advice ("Tom reckons we should
get a dog"). None of these is a fact to keep. The tests are grammar and everyday English words, not phrases.
"""

from __future__ import annotations

import re

# A question by its word order: a wh-word opening a clause, or an auxiliary before its subject.
_QUESTION = re.compile(
    r"^(?:(?:ok|okay|so|and|but|also|hmm+|um+|btw|hey|hi),?\s+)?"
    r"(?:(?:what|how|why|where|when|which|who)(?:'s|s)?\s+(?:is|are|was|were|do|does|did|should|would|could|can|will"
    r"|much|many|long|often|far|old|about|if|to|the|a|an|i|you|u|we|it|my|time|kind|sort|type|size|day)\b"
    r"|(?:can|could|would|will|should|do|does|did|is|are|was|were|have|has)\s+(?:you|u|i|we|it|there|they|this"
    r"|that|my)\b)",
    re.IGNORECASE,
)
# An imperative addressed to the assistant: tell me, give me, help me, explain, draft, make that shorter.
_REQUEST = re.compile(
    r"^(?:please\s+|pls\s+|ok,?\s+|okay,?\s+|now\s+)?(?:tell|give|show|help|explain|write|draft|make|summari[sz]e"
    r"|translate|list|find|suggest|recommend|check|rewrite|fix)\s+(?:me|us|a|an|the|that|this|it|some|my)\b",
    re.IGNORECASE,
)
# How the speaker feels at the moment: a linking verb, an optional degree word, a feeling from everyday English.
_MOOD = re.compile(
    r"\b(?:i'?m|i am|i feel|i'?m feeling|feeling|i'?ve been)\s+"
    r"(?:(?:so+|really|absolutely|totally|completely|a bit|a little|kinda|kind of|pretty|super|very|quite|just"
    r"|utterly|properly)\s+)*"
    r"(?:tired|shattered|exhausted|knackered|wiped|drained|stressed|anxious|worried|nervous|sad|low|happy"
    r"|glad|excited|thrilled|bored|fed up|done|annoyed|angry|cross|furious|upset|grumpy|cranky|lonely"
    r"|overwhelmed|frustrated|miserable|rubbish|awful|terrible|sick of|over it)\b"
    # Idioms of exasperation: "nights are killing me", "it's driving me mad".
    r"|\b(?:killing|driving) me\b",
    re.IGNORECASE,
)
# A counterfactual: a condition opening the sentence and "would" in the consequence.
_CONDITION = re.compile(r"^(?:if|even if|say|suppose|supposing|imagine|what if)\b", re.IGNORECASE)
_WOULD = re.compile(r"\b(?:would|wouldn'?t|i'?d|we'?d)\b", re.IGNORECASE)
# Repairing what was just typed.
_REPAIR = re.compile(r"\b(?:i meant|typo|never ?mind|ignore that|scratch that|my bad)\b", re.IGNORECASE)
# Someone else's opinion or advice about the speaker: "Ellie thinks I should", "Tom reckons we should".
_ADVICE = re.compile(
    r"^(?!i\b|we\b)[\w' ]{1,30}?\b(?:thinks|reckons|says|said|believes|feels|reckoned|thought)\s+(?:that\s+)?"
    r"(?:i|we)\b",
    re.IGNORECASE,
)


def counterfactual(sentence: str) -> bool:
    """What the speaker would do if things were otherwise: imagined, not said of their life."""
    return bool(_CONDITION.search(sentence) and _WOULD.search(sentence))


def small_talk(sentence: str) -> bool:
    """A question without its mark, a request to the assistant, a passing mood, a repair or someone's advice.
    Asked only of a sentence no explicit rule claims: "can you remind me to ..." stays a to-do."""
    return any(p.search(sentence) for p in (_QUESTION, _REQUEST, _MOOD, _REPAIR, _ADVICE))


__all__ = ["counterfactual", "small_talk"]
