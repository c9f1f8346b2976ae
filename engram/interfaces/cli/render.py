"""Results as a person reads them: a table of a result's fields, of a list of records, or a panel of a memory.
Scripts ask for `--json` and get the result itself."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from engram import MemoryRecord
from engram.interfaces.cli.terminal import headline, plain, shorten

CELL = 60  # characters of a memory's text in a table cell


def value_text(value: Any, width: int = CELL) -> Text:
    """One cell: a list or a mapping on one line, a long text cut at a word."""
    if isinstance(value, Mapping):
        shown = ", ".join(f"{k} {_short(v)}" for k, v in value.items()) or "none"
    elif isinstance(value, list | tuple):
        between = " · " if any(isinstance(v, Mapping) for v in value) else ", "  # records hold commas
        shown = between.join(_short(v) for v in value) or "none"
    elif value is None:
        shown = "-"
    elif isinstance(value, float):
        shown = f"{value:.3g}"
    else:
        shown = str(value)
    return plain(shorten(shown, width))


# What names a record inside a cell (a timeline's memories, a network's concepts), in this order: its JSON was
# unreadable there.
_NAMES = ("content", "name", "tag", "title", "concept", "id")


def _short(value: Any) -> str:
    if isinstance(value, Mapping):
        name = next((value[k] for k in _NAMES if isinstance(value.get(k), str) and value[k].strip()), None)
        return headline(name) if name is not None else json.dumps(value, default=str)
    if isinstance(value, list | tuple):
        return json.dumps(value, default=str)
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def fields_table(data: Mapping[str, Any], title: str | None = None, width: int = CELL) -> Table:
    """A result's fields, one a row; a field holding a list of records becomes its own table below."""
    table = Table(show_header=False, title=title, title_justify="left", box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for key, value in data.items():
        table.add_row(key.replace("_", " "), value_text(value, width))
    return table


def rows_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], title: str | None = None) -> Table:
    """Records as rows, the given columns only."""
    table = Table(*(c.replace("_", " ") for c in columns), title=title, title_justify="left")
    for row in rows:
        table.add_row(*(value_text(row.get(c)) for c in columns))
    return table


NARROW = 32  # fewer characters than this left for the text column: each row's text goes on lines of its own


def text_rows(
    width: int, columns: Sequence[str], rows: Sequence[tuple[Sequence[str], Text]], title: str | None = None
) -> RenderableType:
    """Rows of short fields and a text, as a table with the text last; where the fields and borders would leave
    the text too narrow a column to read (an 80-column terminal, a pipe), each row as a line of its fields with
    its text on the full width below it."""
    fixed = [max(len(c), *(len(r[0][i]) for r in rows)) for i, c in enumerate(columns[:-1])]
    if width - sum(fixed) - 3 * len(columns) - 1 >= NARROW:
        table = Table(*columns, title=title, title_justify="left")
        for fields, text in rows:
            table.add_row(*fields, text)
        return table

    def line(fields: Sequence[str]) -> str:
        return "  ".join(f.ljust(w) for f, w in zip(fields, fixed, strict=True)).rstrip()

    lines: list[RenderableType] = [Text(title, style="bold")] if title else []
    lines.append(Text(line(columns[:-1]), style="dim"))
    for fields, text in rows:
        lines.extend((Text(line(fields), style="bold"), Padding(text, (0, 0, 0, 2), expand=False)))
    return Group(*lines)


def show_result(console: Console, data: Any, empty: str = "nothing to show") -> None:
    """Any tool's result: its scalar fields as a table, each list of records as a table of its own."""
    if isinstance(data, list):
        if not data:
            console.print(empty)
        elif all(isinstance(r, Mapping) for r in data):
            console.print(rows_table(data, list(data[0])[:6]))
        else:
            console.print(value_text(data, 200))
        return
    if not isinstance(data, Mapping):
        console.print(plain(str(data)))
        return
    scalars = {k: v for k, v in data.items() if not _records(v)}
    if scalars:
        console.print(fields_table(scalars))
    for key, value in data.items():
        if _records(value):
            console.print(rows_table(value, list(value[0])[:6], title=key.replace("_", " ")))


def _records(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def memory_panel(record: MemoryRecord, chunks: int) -> Panel:
    """One memory: its text, then its fields."""
    fields = {
        "id": record.id,
        "kind": record.kind.value,
        "scope": " ".join(filter(None, (record.scope.value, record.scope_id))),
        "status": record.status.value,
        "importance": record.importance,
        "tags": list(record.tags),
        "created": record.created_at.strftime("%Y-%m-%d %H:%M"),
        "recalled": f"{record.access_count} times",
    }
    if chunks:
        fields["passages"] = chunks
    if source := record.metadata.get("source_path"):
        fields["source"] = source
    body = Table.grid(padding=(0, 2))
    text = record.content  # a long document: its beginning, cut at a word
    if len(text) > 2000:
        text = text[:2000].rsplit(maxsplit=1)[0] + "\u2026"
    body.add_row(plain(text))
    body.add_row(fields_table(fields, width=200))
    title = headline(record.content, record.metadata.get("title"))
    return Panel(body, title=plain(shorten(title, 60)), title_align="left")


__all__ = ["CELL", "fields_table", "memory_panel", "rows_table", "show_result", "text_rows", "value_text"]
