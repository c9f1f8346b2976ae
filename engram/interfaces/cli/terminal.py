"""What the command line prints of text it did not write itself (memories, queries, paths, error messages), how
it shortens it for a table, and the progress bar of a long command."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.highlighter import JSONHighlighter
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

# Control characters a terminal acts on (escape sequences, carriage return, backspace) are shown as escapes;
# tab and newline stay.
# So are the bidi controls, which reorder what follows them on the line (an override shows "\u202efdp.exe" as
# "exe.pdf", and the id and columns beside it in reverse).
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_VISIBLE = str.maketrans(
    {c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))}
    | {c: f"\\u{c:04x}" for c in _BIDI}
)
# The same characters as JSON escapes, which keep the JSON valid (outside strings JSON holds none of them).
_JSON_ESCAPES = str.maketrans({c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), *_BIDI)})
# Markdown's marks at the start of a line: a heading, a quote, a list item.
_LINE_MARKS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)")

Step = Callable[[int, int], None]


def plain(text: str) -> Text:
    """`text` as it is: no rich markup read in it (a memory holding "[/x]" stopped `engram list` with a
    MarkupError), and its control characters shown escaped."""
    return Text(text.translate(_VISIBLE))


def json_shown(data: Any) -> Text:
    """`data` as JSON for a terminal: text as written, but the characters `plain` escapes written as JSON escapes
    (rich's own JSON printer wrote them raw, so `list --json` showed a bidi override reordering its line)."""
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str).translate(_JSON_ESCAPES)
    return JSONHighlighter()(Text(text))


def error(console: Console, message: object) -> None:
    """One line: "error:" in red, then the message as plain text."""
    console.print(Text.assemble(("error:", "red"), " ", plain(str(message))), soft_wrap=True)


def shorten(text: str, width: int) -> str:
    """`text` on one line, cut at the last word boundary before `width` with an ellipsis: a table cell cut
    mid-word read as a different word."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    cut = flat[: width - 1]
    space = cut.rfind(" ")
    if (
        space > width // 2
    ):  # else one long word (a URL, a hash): cut inside it rather than show nearly nothing
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "\u2026"


def headline(content: str, title: object = None) -> str:
    """What a listing shows of a memory: its title when it has one (a file added as a document), else its
    first line that holds words, without Markdown's marks; a one-line memory is itself."""
    if isinstance(title, str) and title.strip():
        return title.strip()
    for line in content.splitlines():
        words = _LINE_MARKS.sub("", line).strip()
        if words and set(words) - set("-=*_#`~|"):  # not a rule or a fence
            return words
    return content.strip()


@contextmanager
def progress(console: Console, description: str, total: int | None, *, quiet: bool = False) -> Iterator[Step]:
    """A bar on `console` (stderr) while the block runs; none when `quiet` (--json) or when stderr is not a
    terminal, where a bar is noise in a log or a pipe. Yields the step to call with (done, total)."""
    if quiet or not console.is_terminal:
        yield lambda done, total: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done, total: bar.update(task, completed=done, total=total)


__all__ = ["Step", "error", "headline", "plain", "progress", "shorten"]
