"""A request for a recommendation ("can you suggest a hotel for my trip?", "any ideas for a cocktail?") is
answered by what the asker said they like, enjoy or are into on its topic, which rarely shares the request's
wording or resembles it as a whole: "I enjoy listening to them during my commute" for "can you suggest some
activities I can do during my commute?" ranked below turns about planning the commute's route."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.model.results import Scored
from engram.store.values import Facts

# A recommendation asked of the one who answers: "can you suggest", "what would you recommend", "any ideas?",
# "which one should I". "What book did Caroline recommend?" asks what was said, not for a recommendation.
_ASKS = re.compile(
    r"\b(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?:suggest|recommend|give\s+me|offer|share|help\s+me\s+(?:find|choose|pick|decide))"
    r"|(?:what|which)\s+(?:would|do)\s+you\s+(?:suggest|recommend)"
    r"|(?:any|some|your)\s+(?:\w+\s+)?(?:suggestions?|recommendations?|ideas|advice|tips)\b"
    r"|(?:what|which)\s+(?:\w+\s+)?should\s+i\b"
    r"|^\s*(?:please\s+)?(?:suggest|recommend)\b)",
    re.IGNORECASE,
)
# A first-person liking: I like / love / enjoy / prefer, I'd love, I'm into / a fan of / interested in, I've been
# enjoying, my favourite.
_LIKES = re.compile(
    r"\b(?:i(?:\s+(?:really|also|absolutely|especially|particularly|do|totally|just|usually|always))?"
    r"\s+(?:like|love|enjoy|prefer|adore)"
    r"|i'?d\s+(?:love|prefer)"
    r"|i'?m\s+(?:(?:really|particularly|very|so|especially|also|quite)\s+)?"
    r"(?:interested\s+in|into|a\s+(?:big\s+|huge\s+)?fan\s+of|passionate\s+about|fond\s+of|obsessed\s+with"
    r"|keen\s+on)"
    r"|i'?ve\s+been\s+(?:really\s+)?(?:into|enjoying|loving|obsessed)"
    r"|my\s+favou?rites?)\b",
    re.IGNORECASE,
)
# How much a liking on the request's topic lifts a memory's score (times 1 + LIFT). At half again, the turn of a
# conversation that says the liking reached the first ten; a third more lifted only the whole conversation.
LIFT = 0.5


def asks_recommendation(text: str) -> bool:
    """Whether a question asks for a recommendation, a suggestion or advice."""
    return _ASKS.search(text.replace("\u2019", "'")) is not None


def states_liking(text: str) -> bool:
    """Whether a text says, in the first person, what its writer likes, enjoys or is into."""
    return _LIKES.search(text.replace("\u2019", "'")) is not None


def liked(scored: Sequence[Scored[Facts]], question: str) -> list[Scored[Facts]]:
    """`scored` (best first) with each memory that states a liking and says some of the question's words scoring
    1 + LIFT times as much, when the question asks for a recommendation; marked `why="liking"`. Any other
    question's ranking is left as it is."""
    if not asks_recommendation(question):
        return list(scored)
    out: list[Scored[Facts]] = []
    for s in scored:
        if s.score > 0 and s.components.get("coverage", 0.0) > 0 and states_liking(s.record.content):
            s = Scored(s.record, s.score * (1 + LIFT), s.components, "liking", s.confidence, s.passage)
        out.append(s)
    return sorted(out, key=lambda s: -s.score)  # stable: equal scores keep their order
