from __future__ import annotations

import re

from engram.chunk import chunk


def spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


def test_short_text_is_one_chunk() -> None:
    assert [c.text for c in chunk("a b c", spans("a b c"), 220, 40)] == ["a b c"]


def test_windows_of_220_with_40_overlap() -> None:
    text = " ".join(str(i) for i in range(500))
    chunks = chunk(text, spans(text), 220, 40)
    firsts = [int(c.text.split()[0]) for c in chunks]
    assert firsts == [0, 180, 360]
    assert [c.token_count for c in chunks] == [220, 220, 140]
    assert chunks[-1].text.split()[-1] == "499"
    assert all(len(c.text.split()) == c.token_count for c in chunks)
