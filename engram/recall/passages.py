"""Where a passage of a document sits: its place among the document's passages and the heading it falls under."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.model.record import MemoryRecord
from engram.model.results import Passage

# A Markdown heading ("## 7. Testing") or a setext one's text line is the section a passage belongs to.
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def where_in(passage: MemoryRecord, passages: Sequence[MemoryRecord]) -> Passage:
    """`passage`'s place (1-based) among its document's `passages` (in order), and the last heading at or before
    its start: in its own text, else in the passages before it."""
    assert passage.parent_id is not None and passage.chunk_index is not None
    ordered = sorted(passages, key=lambda p: p.chunk_index or 0)
    heading = _first_heading(passage.content)
    if heading is None:
        for earlier in reversed([p for p in ordered if (p.chunk_index or 0) < passage.chunk_index]):
            if (heading := _last_heading(earlier.content)) is not None:
                break
    return Passage(
        passage.parent_id, passage.chunk_index + 1, max(len(ordered), passage.chunk_index + 1), heading
    )


def _first_heading(text: str) -> str | None:
    """The heading a passage opens with, if it opens with one."""
    found = _HEADING.match(text.lstrip("\n"))
    return found.group(1) if found else None


def _last_heading(text: str) -> str | None:
    found = _HEADING.findall(text)
    return found[-1] if found else None
