"""What the command line prints of text it did not write itself: memories, queries, paths, error messages."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

# Control characters a terminal acts on (escape sequences, carriage return, backspace) are shown as escapes;
# tab and newline stay.
_VISIBLE = str.maketrans(
    {c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))}
)


def plain(text: str) -> Text:
    """`text` as it is: no rich markup read in it (a memory holding "[/x]" stopped `engram list` with a
    MarkupError), and its control characters shown escaped."""
    return Text(text.translate(_VISIBLE))


def error(console: Console, message: object) -> None:
    """One line: "error:" in red, then the message as plain text."""
    console.print(Text.assemble(("error:", "red"), " ", plain(str(message))))


__all__ = ["error", "plain"]
