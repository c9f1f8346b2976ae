"""Token-window chunking: windows of at most `size` model tokens overlapping by at most `overlap`,
counted with the embedding model's own tokenizer, so every chunk fits the model.

A window ends where the text breaks most strongly in its second half (a blank line, a line end, a sentence end,
else between words) rather than at exactly `size` tokens, and the next one starts at the strongest break among the
last `overlap` tokens. Fixed windows cut chunks inside words and most inside sentences, so a chunk returned as
a hit began or ended with a fragment, and an address or a number could be cut in two; a conversation or a note
stored whole is a run of lines and sentences.
A Markdown heading stays with its section (no window ends right after one, and one ends before a heading rather
than at another blank line), and a window that ends at a blank line or a heading is not overlapped: the next one
started with the last sentences, or a fragment of a sentence, of the section before, and a passage returned for
"which plots were sold?" opened with how the stones were weighed.
Chinese and Japanese have no spaces: there a sentence ends at a full stop (\u3002 \uff01 \uff1f) and any two
characters are a word gap, so such text is cut at its sentences too rather than at a fixed count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from engram.lang.text import FULL_STOPS, UNSPACED_RANGES

# How strongly the text breaks before a token, weakest first; a section starts at a Markdown heading.
_IN_CHARACTER, _INSIDE_WORD, _BETWEEN_WORDS, _SENTENCE, _LINE, _PARAGRAPH, _SECTION = range(7)
_HEADING = re.compile(r"#{1,6}\s")
_SENTENCE_ENDS = frozenset(".!?")
_CLOSERS = "\"')]\u201d\u2019\u00bb"  # a sentence ends after them too: 'She said "stop." Then ...'
# Chinese and Japanese run their words together: a sentence ends at a full stop with no space after it, and
# any two characters are closer to a word boundary than two letters of a Latin word.
_CJK = re.compile(f"[{UNSPACED_RANGES}\u3000-\u303f\uff00-\uffef]")  # their letters, punctuation, full widths


@dataclass(frozen=True, slots=True)
class Chunk:
    index: int
    text: str
    token_count: int


def chunk(text: str, offsets: list[tuple[int, int]], size: int, overlap: int) -> list[Chunk]:
    """Split `text` given its token character spans; one chunk (the whole text) when it fits."""
    count = len(offsets)
    if count <= size:
        return [Chunk(0, text, count)]
    strength = _breaks(text, offsets)
    out: list[Chunk] = []
    start = 0
    while True:
        if count - start <= size:
            end = count
        else:  # in the window's second half, so that no chunk but the last is under half the size
            end = _strongest(strength, start + size // 2 + 1, start + size, last=True)
        # The first chunk keeps any leading text, the last any trailing punctuation and spaces.
        begin = offsets[start][0] if start > 0 else 0
        stop = offsets[end - 1][1] if end < count else len(text)
        out.append(Chunk(len(out), text[begin:stop].strip(), end - start))
        if end == count:
            return out
        if overlap <= 0 or strength[end] >= _PARAGRAPH:  # a paragraph or a section is whole: no overlap
            start = end
        else:  # the earliest of the strongest breaks: the most overlap at that strength
            start = _strongest(strength, max(start + 1, end - overlap), end - 1, last=False)


def _breaks(text: str, offsets: list[tuple[int, int]]) -> list[int]:
    """For each token, how strongly the text breaks just before it (the first token: a paragraph)."""
    out = [_PARAGRAPH]
    for (_, prev_end), (begin, _) in pairwise(offsets):
        gap = text[prev_end:begin]
        before = text[max(0, prev_end - 3) : prev_end].rstrip(_CLOSERS)[-1:]
        if "\n" in gap and _HEADING.match(text, text.rfind("\n", 0, prev_end) + 1):
            out.append(_BETWEEN_WORDS)  # right after a heading: the heading stays with its section
        elif gap.count("\n") > 1:
            out.append(_SECTION if _HEADING.match(text, begin) else _PARAGRAPH)
        elif "\n" in gap:
            out.append(_LINE)
        elif begin < prev_end:  # two tokens of one character (a Hangul syllable's letters)
            out.append(_IN_CHARACTER)
        elif before and (before in FULL_STOPS or (gap and before in _SENTENCE_ENDS)):
            out.append(_SENTENCE)
        elif gap or _CJK.match(text, prev_end - 1) or _CJK.match(text, begin):
            out.append(_BETWEEN_WORDS)
        else:
            out.append(_INSIDE_WORD)
    return out


def _strongest(strength: list[int], low: int, high: int, *, last: bool) -> int:
    """The token in low..high (inclusive) with the strongest break before it: the last such token when `last`,
    else the first; `high` (or `low`) when they all tie."""
    span = range(high, low - 1, -1) if last else range(low, high + 1)
    return max(span, key=strength.__getitem__)


# A Markdown heading's line: up to three spaces, one to six #s, a space, then its text to the end of that line.
# Found without backtracking and trimmed after: "(.+?)\s*#*\s*$" took minutes on one line of a few thousand spaces
# and #s, in a file being added and in any stored passage a recall placed.
_HEADING_LINE = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+([^\n]*)", re.MULTILINE)


def headings(text: str, level: int | None = None) -> Iterator[tuple[int, int, str]]:
    """Each Markdown heading of `text` (of that many #s only, given `level`): where its line starts and ends, and
    its text without a closing run of #s (CommonMark's: after a space, so "# C#" is about C#)."""
    for match in _HEADING_LINE.finditer(text):
        if level is not None and len(match.group(1)) != level:
            continue
        title = match.group(2).strip()
        bare = title.rstrip("#")
        if bare != title and (not bare or bare[-1] in " \t"):
            title = bare.rstrip()
        if title:
            yield match.start(), match.end(), title
