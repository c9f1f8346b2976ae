"""Where a passage of a document sits: its place among the document's passages and the heading it falls under;
and whom every passage of a document is about: those its opening names."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engram.lang.chunk import headings
from engram.lang.text import stems
from engram.model.record import MemoryRecord
from engram.model.results import Passage

# The characters of a document's opening: its title and the line or two that say what and whom it is for ("Care
# plan for Dad, for the carers"), which its later passages leave unsaid; further on, a document says what its
# passages say, not whom they are about.
OPENING = 300


def where_in(passage: MemoryRecord, passages: Sequence[MemoryRecord], asked: Collection[str] = ()) -> Passage:
    """`passage`'s place (1-based) among its document's `passages`, and the heading of the section of it that
    says most of the question's word stems `asked` (a passage may span two sections); text before the first
    heading of a passage is under the last heading of the passages before it."""
    assert passage.parent_id is not None and passage.chunk_index is not None
    ordered = sorted(passages, key=lambda p: p.chunk_index or 0)
    before: str | None = None
    for earlier in reversed([p for p in ordered if (p.chunk_index or 0) < passage.chunk_index]):
        # A Markdown heading ("## 7. Testing") names the section the text under it belongs to.
        if found := [title for _, _, title in headings(earlier.content)]:
            before = found[-1]
            break
    sections = _sections(passage.content, before)
    wanted = set(asked)
    heading = max(sections, key=lambda s: len(wanted & stems(s[1])))[0] if wanted else sections[0][0]
    count = max(len(ordered), passage.chunk_index + 1)
    return Passage(passage.parent_id, passage.chunk_index + 1, count, heading)


def opening(document: str) -> str:
    """The start of `document`, up to OPENING characters, cut at a word's end."""
    if len(document) <= OPENING:
        return document
    cut = document[:OPENING]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def _sections(text: str, before: str | None) -> list[tuple[str | None, str]]:
    """The text cut at its headings: each section's heading (`before` for the text ahead of the first) and text."""
    out: list[tuple[str | None, str]] = []
    start, heading = 0, before
    for begin, end, title in headings(text):
        if text[start:begin].strip():
            out.append((heading, text[start:begin]))
        start, heading = end, title
    out.append((heading, text[start:]))
    return out
