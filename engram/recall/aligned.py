"""A memory that answers a question in other words, told from a near miss by what it lacks: each content word of
the question is matched to the memory's closest word by the model (each word embedded alone), and the memory
counts as meant when even the question's worst-matched word has a fair match in it and it leads every other
memory by cosine. "what do I do for exercise?" over "My running goal is a sub-25 minute 5k" matches exercise to
running; "who is my dentist's receptionist?" over the dentist's memory matches receptionist to nothing it says.
The calibrator and `meant` read the whole question's cosine and its shared words, which rate both the same.
Only the first hit is read, only when no hit is surer than low, and only a memory standing alone (a turn or a
passage leaves what it lacks to the turns and passages around it): the words are embedded then, and no other
question pays for it."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from engram.embed.embedder import Embedder
from engram.lang.text import STOPWORDS, stems_uncached
from engram.model.results import Scored
from engram.recall.query import FRAMING
from engram.store.values import Facts

# The worst-matched question word's best cosine to a word of the memory, and the memory's cosine lead over every
# other memory, at which the memory is meant: chosen across the user-level sets, each measured with the setting
# chosen on the others (`python -m bench.aligned_fit`).
ALIGNED = 0.45
ALIGNED_LEAD = 0.06
# Words that ask rather than name what is asked about.
_ASKING = frozenset(
    {"what", "who", "where", "when", "which", "how", "why", "whose", "whom", "does", "do", "did"}
)
_ASKING |= {"is", "are", "was", "my", "our", "i", "me", "we"}
_MOST_WORDS = 40  # a long memory's words past these are not read: the model embeds each one


# A word, hyphenated words as one ("brother-in-law": its "law" alone matches nothing a memory says of him).
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")


def content(text: str) -> list[str]:
    """The distinct content words of a text, in order: no stopword, no word that frames or asks a question."""
    found = (w for w in _WORD.findall(text.lower()) if len(w) > 1)
    kept = (w for w in found if w not in STOPWORDS and w not in FRAMING and w not in _ASKING)
    return list(dict.fromkeys(kept))


def worst_match(question: str, memory: str, embedder: Embedder) -> float:
    """The best cosine to a word of `memory` of the question's worst-matched content word (1 for a word the
    memory says; 0 when either has no content word)."""
    asked, said = content(question), content(memory)[:_MOST_WORDS]
    # A word the memory says in another form ("insures", "insurance") is said.
    stemmed = frozenset(stems_uncached(said))
    missing = [w for w, stem in zip(asked, stems_uncached(asked), strict=True) if stem not in stemmed]
    if not asked or not said:
        return 0.0
    if not missing:
        return 1.0
    vectors = np.asarray(embedder.embed_batch([*missing, *said]))
    similarity = vectors[: len(missing)] @ vectors[len(missing) :].T
    return float(similarity.max(axis=1).min())


def meant_by_words(
    judged: Sequence[Scored[Facts]], question: str, embedder: Embedder, doubtful: set[str]
) -> set[str]:
    """The first of `judged` (hits with their confidence) when every one is low, it stands alone, is not
    `doubtful` (lowered for what it lacks), leads every other memory by cosine, and the question's every content
    word has a fair match among its words; else nothing."""
    if not judged or any(s.confidence != "low" for s in judged):
        return set()
    first = judged[0]
    alone = first.record.episode is None and first.record.parent is None and first.record.id not in doubtful
    if not alone or first.components.get("lead", 0.0) < ALIGNED_LEAD:
        return set()
    return {first.record.id} if worst_match(question, first.record.content, embedder) >= ALIGNED else set()
