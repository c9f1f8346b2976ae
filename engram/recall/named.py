"""The names a question asks about. "What is Tomás's shoe size" is about Tomás: a memory that gives a shoe size
without naming him answers someone else's, however well its other words match, while another memory does name
him. Such a memory is at most a low-confidence guess. Only memories that stand alone are judged so: a turn of a
conversation or a passage of a document leaves the names to the turns and passages around it ("I researched
adoption agencies", said by the person asked about)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.lang.text import STOPWORDS
from engram.model.results import Scored
from engram.store.values import Facts

# A capitalised word of any alphabet, with its possessive.
_CAPITALISED = re.compile(r"(?<![^\W_])([^\W\d_][\w'\u2019-]*?)(?:['\u2019]s)?(?![\w'\u2019])")


def names_asked(question: str) -> tuple[str, ...]:
    """The names a question says: its capitalised words after the first, not an acronym ("PR", "API": said
    otherwise as often as not), not "I" and no stopword; lower case."""
    found = [m.group(1) for m in _CAPITALISED.finditer(question)]
    return tuple(
        dict.fromkeys(
            w.lower()
            for w in found[1:]
            if w[0].isupper() and not w.isupper() and w.lower() not in STOPWORDS and len(w) > 1
        )
    )


def unnamed(scored: Sequence[Scored[Facts]], names: Sequence[str]) -> set[str]:
    """The memories standing alone (in no episode and no document) that do not say a name of the question that
    another candidate says."""
    if not names:
        return set()
    says = {n: _pattern(n) for n in names}
    said = [n for n in names if any(says[n].search(s.record.content) for s in scored)]
    return {
        s.record.id
        for s in scored
        if said and s.record.episode is None and any(says[n].search(s.record.content) is None for n in said)
    }


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])", re.IGNORECASE)
