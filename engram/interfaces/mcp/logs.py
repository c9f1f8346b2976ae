"""The server's log lines: plain and cut short. The MCP SDK installs a rich terminal handler on the root logger,
which wraps a message into a narrow column; an error quoting a 50,000-character prompt name took most of a minute
to write there, and the request waited for it. Plain lines of at most LONGEST characters cost microseconds."""

from __future__ import annotations

import logging
import sys

LONGEST = 2000  # characters of one log line, traceback included


class Brief(logging.Formatter):
    """A formatter whose lines are at most LONGEST characters: a log never holds a huge input whole."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text if len(text) <= LONGEST else f"{text[:LONGEST]}… ({len(text):,} characters)"


def plain() -> None:
    """Replace the SDK's rich handler on the root logger with one plain, bounded line writer on stderr (once)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if type(handler).__name__ == "RichHandler":
            root.removeHandler(handler)
    if not any(getattr(h, "engram_plain", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(Brief("%(asctime)s %(levelname)s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"))
        handler.engram_plain = True  # type: ignore[attr-defined]
        root.addHandler(handler)


__all__ = ["LONGEST", "Brief", "plain"]
