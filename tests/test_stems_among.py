# ruff: noqa: RUF001  (curly apostrophes and Chinese punctuation, as people write them)
"""`stems_among` (engram.lang.text) against the implementation it replaced, kept here as the reference: the
faster search must find, for every text, exactly what the earlier one found on varied texts, and always what
stemming every word of the text finds (`stems(text) & wanted`, the rule the function stands for)."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Collection, Sequence

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engram.lang.text import _WORD, bare, stem, stems, stems_among, unspaced, words


def _reference_pattern(wanted: frozenset[str]) -> re.Pattern[str]:
    prefixes = sorted(
        {s[: max(1, len(s) - 2)] for s in wanted if s and not unspaced(s)}, key=len, reverse=True
    )
    alternatives = "|".join(re.escape(p) for p in prefixes) or "(?!)"
    return re.compile(rf"(?:{alternatives})[^\W_]*(['’][^\W_]+)?", re.UNICODE)


def _word_starts_at(text: str, at: int) -> bool:
    start = at
    while start and (text[start - 1].isalnum() or text[start - 1] in "'’"):
        start -= 1
    return any(m.start() == at for m in _WORD.finditer(text, start, at + 1))


def reference(texts: Sequence[str], wanted: Collection[str]) -> list[set[str]]:
    """The earlier `stems_among`, unchanged: every prefix match, inside words too, read in a Python loop."""
    want = frozenset(wanted)
    lowered = [t.lower() for t in texts]
    starts = list(itertools.accumulate((len(t) + 1 for t in lowered[:-1]), initial=0))
    joined = "\n".join(lowered)
    out: list[set[str]] = [set() for _ in texts]
    pattern = _reference_pattern(want)
    exact: set[int] = set()
    for match in pattern.finditer(joined):
        at = match.start()
        before = joined[at - 1] if at else ""
        found = match.group()
        if not (before.isascii() and found.isascii()) and (unspaced(before) or unspaced(found)):
            exact.add(bisect.bisect_right(starts, at) - 1)
            continue
        if at and (before.isalnum() or (before in "'’" and not _word_starts_at(joined, at))):
            after = match.start(1) + 1
            if (
                after
                and _word_starts_at(joined, after)
                and (tail := pattern.match(joined, after)) is not None
            ):
                match, at = tail, after
            else:
                continue
        s = stem(bare(match.group().replace("’", "'")))
        if s in want:
            out[bisect.bisect_right(starts, at) - 1].add(s)
    paired = {w for w in want if unspaced(w)}
    if not (exact or paired):
        return out
    for i, text in enumerate(texts):
        if i in exact:
            out[i] = set(stems(text) & want)
        elif paired and unspaced(text):
            out[i] |= stems(text) & paired
    return out


TEXTS = [
    "It's my dad's birthday; we're going to the lake-house, aren't we?",
    "She said ‘don’t’ — the creators’ realizations weren't theirs'.",
    "x1'1'able o'clock rock'n'roll ’tis 'quoted' words'",
    "E-mail, wi-fi and the re-run of the well-known co-op meeting",
    "snake_case_names and __dunder__ parts, v2.0.1, 3rd place, 10km runs, 1990s",
    "Die Straße führt über Brücken; Mädchen spielen Fußball in München",
    "我们在北京开会，用PostgreSQL代替mongodb存储数据。",
    "東京で会議があります。カタカナのテストとひらがな",
    "mixed 北京meeting and running代替mongodb in one line",
    "Party 🎉 time!! 🥳🥳 emojis between run🏃running and dad👨",
    "Numbers 42, 3.14, 1,000,000 and the 2nd run at 5pm on 12/03",
    "Line one runs\nline two: running\r\nline three\tran",
    "İstanbul'da ΚΑΛΗΜΈΡΑ Σοφία, Ǆemal and the ﬁnal ﬂight",
    "",
    "'",
    "runs' runner's running’s",
]
# What recall looks for: the stems of a question's words.
ASKED = [
    "Its dad birthday parties at the lake, the creators realizations, rock tis run",
    "email wi fi co op known meetings e",
    "snake case dunder parts v2 3rd 10km 1990s place names",
    "Straße Brücken Mädchen Fußball München führt",
    "北京开会 PostgreSQL mongodb 東京 会議 カタカナ meeting runs",
    "party time emojis running dad",
    "42 3 14 1 000 2nd 5pm 12 03 numbers",
    "line one two three ran runs",
    "İstanbul'da ΚΑΛΗΜΈΡΑ Σοφία Ǆemal ﬁnal ﬂight istanbul",
    "a s t it's runner o'clock x1'1 able",
]
WANTED = [frozenset(stem(w) for w in words(asked)) for asked in ASKED]


def test_same_as_before_on_varied_texts() -> None:
    for wanted in WANTED:
        found = stems_among(TEXTS, wanted)
        assert found == reference(TEXTS, wanted)
        assert found == [set(stems(t)) & wanted for t in TEXTS]
    # Words are found at all: the comparison is not of empty answers only.
    assert stems_among(TEXTS, WANTED[0])[0] >= {stem("dad"), stem("lake")}
    assert stems_among(TEXTS, WANTED[4])[6] >= {"北京", "开会", "postgresql", "mongodb"}


def test_each_text_alone_answers_as_among_others() -> None:
    wanted = frozenset().union(*WANTED)
    together = stems_among(TEXTS, wanted)
    assert together == [stems_among([t], wanted)[0] for t in TEXTS]
    assert stems_among([], wanted) == []


_PIECES = [
    "run", "running", "runner's", "dad", "dad's", "it's", "don’t", "'", "’", "_", "-", " ", "\n", "e-mail",
    "北京", "开会", "東京", "の", "mongodb", "Straße", "🎉", "42", "3rd", "x1'1", "İ", "ﬁ", "ab", "'ab", "ba",
]  # fmt: skip


@given(
    texts=st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join), max_size=6),
    picked=st.lists(st.sampled_from(_PIECES), min_size=1, max_size=5),
)
# A word between apostrophes after a joined word, before Chinese: `words` reads "ab" as a word, and so does
# `stems_among`; the earlier implementation did not, so the rule the function stands for is what is compared.
@example(texts=["it'srun'ab'北京"], picked=["run"])
@settings(max_examples=300, deadline=None)
def test_same_as_stemming_every_word_on_words_put_together(texts: list[str], picked: list[str]) -> None:
    wanted = frozenset(stem(w) for p in picked for w in words(p)) | {"ab", "a", "b"}
    assert stems_among(texts, wanted) == [set(stems(t)) & wanted for t in texts]
