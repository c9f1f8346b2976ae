"""A question about a person is answered by what that person said. In a conversation stored turn by turn, each
turn written as "Caroline: ..." is said by Caroline, and "what kind of art does Caroline make?" is answered by her
turns ("I've been painting landscapes"), which rarely say her name, while the other speaker's turns address her
by it ("Caroline, that sounds great!") and share the question's word. The name a turn opens with is its speaker's,
not a word of what was said, so the text search weighs it as little as any word half the turns say."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from engram.model.results import Scored
from engram.model.vectors import Vector
from engram.recall.named import names_asked
from engram.store.values import Facts

# How much a turn said by a person the question names gains (times 1 + LIFT). A tenth lifted too few such turns
# into the first ten. With the name in the question's vector a quarter or more put that person's small talk above
# the other speaker's answers; with the name mostly left out of it (`as_said`) the lift says most of who spoke, and
# a quarter ranks better than a fifth (0.3 more still, but then a person's other turns crowd out a question put
# to them, whose reply answers).
LIFT = 0.25
# A speaker's label: one to three capitalised words opening the text, then a colon and a space ("Joanna: ...",
# "Dr Patel: ..."); not "Note: ..." unless the question names a Note.
_LABEL = re.compile(r"\s*([^\W\d_][\w'\u2019.-]*(?:[ \t][^\W\d_][\w'\u2019.-]*){0,2})[ \t]*:\s")


def speaker(text: str) -> str | None:
    """The speaker a turn's text opens with ("Joanna: Absolutely" -> "joanna"), lower case, or None."""
    label = _LABEL.match(text[:64])
    if label is None or not label.group(1)[0].isupper():
        return None
    return label.group(1).lower()


def said_by_asked(scored: Sequence[Scored[Facts]], question: str) -> list[Scored[Facts]]:
    """`scored` (best first) with each memory said by a person the question names scoring 1 + LIFT times as
    much, best first again. A question that names nobody, or a store whose memories name no speaker, is left as
    it is."""
    names = set(names_asked(question))
    if not names:
        return list(scored)
    out: list[Scored[Facts]] = []
    lifted = False
    for s in scored:
        who = speaker(s.record.content) if s.score > 0 else None
        if who is not None and names.intersection(who.split()):
            s = Scored(s.record, s.score * (1 + LIFT), s.components, s.why, s.confidence, s.passage)
            lifted = True
        out.append(s)
    return sorted(out, key=lambda s: -s.score) if lifted else out  # stable: equal scores keep their order


# The share of the question as asked, name and all, in the vector that compares it with what was said: without
# the name at all, a turn of the other speaker on the same topic ("Maria: is it a martial arts place?") outranked
# the named person's answer.
AS_ASKED = 0.5


# A speaker opens many of the turns a question finds; a heading ("Tokyo: ...", "Instagram: ...") opens a few
# lines of a list, and there the name is the topic the model must compare. A fifth of the candidates: in a
# dialogue of two, each speaker opens about half.
SPOKEN_SHARE = 0.2


def spoken_names(texts: Sequence[str], names: Sequence[str]) -> tuple[str, ...]:
    """Those of `names` (lower case) that speak: a speaker label holding the name opens at least SPOKEN_SHARE of
    `texts`."""
    counts: dict[str, int] = {}
    for text in texts:
        if (who := speaker(text)) is not None:
            for word in set(who.split()):
                counts[word] = counts.get(word, 0) + 1
    least = SPOKEN_SHARE * len(texts)
    return tuple(n for n in names if counts.get(n, 0) >= least and counts.get(n, 0) > 0)


def without_names(text: str, names: Sequence[str]) -> str:
    """`text` without the words `names` (and their possessive 's): what it asks of those speakers, as the model
    should read it. A speaker's name opens each of their turns, so embedded with the question it made every short
    turn of theirs ("Melanie: I love it.") look like the question, over the turns that answer it."""
    for name in names:
        text = re.sub(
            rf"(?<![\w'\u2019]){re.escape(name)}(?:['\u2019]s)?(?![\w'\u2019])", " ", text, flags=re.I
        )
    return " ".join(text.split())


def as_said(nameless: Vector, asked: Vector) -> Vector:
    """The vector of a question about a speaker's turns: the question without the name, with AS_ASKED of the
    question as asked, of unit length."""
    mixed = np.asarray(nameless, dtype=np.float32) + AS_ASKED * np.asarray(asked, dtype=np.float32)
    norm = float(np.linalg.norm(mixed))
    return (mixed / norm).astype(np.float32) if norm > 0 else np.asarray(asked, dtype=np.float32)
