"""The Chinese characters jieba's part-of-speech tagger has no states for, read as spaces before it segments a
text. Its Viterbi pass weighs every tag of such a character against every tag of the one before (about 2.6 ms a
character of processor time, against a few microseconds for one it knows), so a question or a memory of 20,000
rare characters took about a minute to read for keyphrases. Such a character is no part of a keyphrase jieba could
name: it has no word for it."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.lang.text import HAN


def seen_only(text: str) -> str:
    """`text` with every Chinese character jieba's tagger does not know put as a space."""
    unseen = _unseen()
    return text if unseen is None else unseen.sub(" ", text)


@lru_cache(maxsize=1)
def _unseen() -> re.Pattern[str] | None:
    """One character class of the Chinese characters (engram.lang.text.HAN) outside the tagger's table; None
    without jieba (the chinese extra) or where its table is not where this version keeps it."""
    try:
        import jieba.posseg  # type: ignore[import-untyped]
    except ModuleNotFoundError:
        return None
    known = getattr(jieba.posseg, "char_state_tab_P", None)
    if not isinstance(known, dict) or not known:
        return None
    spans: list[str] = []
    for low, high in ((ord(HAN[i]), ord(HAN[i + 2])) for i in range(0, len(HAN), 3)):
        start = None
        for code in range(low, high + 2):
            outside = code <= high and chr(code) not in known
            if outside and start is None:
                start = code
            elif not outside and start is not None:
                spans.append(f"{chr(start)}-{chr(code - 1)}")
                start = None
    return re.compile(f"[{''.join(spans)}]") if spans else None
