"""Conversations to ingest, read from files: JSON Lines of messages ({role, content, ts, platform,
conversation_id, message_id, metadata}), a LoCoMo file (both speakers are users talking about themselves) and a
LongMemEval file (its haystack sessions), optionally gzipped."""

from __future__ import annotations

import codecs
import gzip
import json
import zlib
from collections.abc import Generator, Iterable, Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import dateparser  # type: ignore[import-untyped]
import pydantic

from engram.errors import InvalidInput
from engram.interop.files import json_lines, utf8_text
from engram.model.record import invalid_from
from engram.review.extract import Message

T = TypeVar("T")


def parse_message(data: dict[str, Any], index: int) -> Message:
    try:
        return Message.model_validate(data)
    except pydantic.ValidationError as exc:
        err = invalid_from(exc)
        raise InvalidInput(f"messages[{index}].{err.field}", err.problem) from None


@lru_cache(maxsize=4096)  # sessions share dates, and dateparser is slow
def _date(text: str | None) -> datetime | None:
    if not text:
        return None
    parsed: datetime | None = dateparser.parse(
        text, settings={"TIMEZONE": "UTC", "RETURN_AS_TIMEZONE_AWARE": True}
    )
    return parsed


# How far a gzipped conversation file may expand: a 2 MB file can hold 2 GiB of zeros, and decompressing it whole
# took gigabytes of memory before failing. The largest benchmark file (LongMemEval_S) expands to about 280 MB.
MAX_EXPANDED = 512 * 2**20
_PIECE = 2**20
# How many messages (lines, or objects in a JSON file) one file may hold. A JSON Lines file is read a line at a
# time, so this bounds the time one run takes (each message is a transaction), not its memory; a JSON file is
# parsed whole, and within the size above it could hold 16 million tiny objects (more than 5.8 GB). The largest
# benchmark file holds about 280,000 objects.
MAX_MESSAGES = 1_000_000


def expanded(path: Path, cap: int | None = None) -> bytearray:
    """A gzip file's content, read a piece at a time and refused as soon as it passes `cap` bytes (kept as read:
    a copy as bytes doubled the memory a large file takes)."""
    cap = MAX_EXPANDED if cap is None else cap
    out = bytearray()
    try:
        with gzip.open(path, "rb") as stream:
            while piece := stream.read(_PIECE):
                if len(out) + len(piece) > cap:
                    raise InvalidInput(
                        "file",
                        f"expands past {cap / 2**20:,.0f} MiB when decompressed; split it into smaller files",
                    )
                out += piece
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InvalidInput("file", f"is not a readable gzip file ({exc})") from None
    return out


def _checked(path: Path) -> None:
    # A pipe or a device: reading one waited for a writer, or never ended. A missing file is named as missing.
    if path.exists() and not path.is_file():
        raise InvalidInput("file", f"{path.name} is not a file")
    if path.suffix != ".gz" and path.stat().st_size > MAX_EXPANDED:  # read whole, as a gzip file's content is
        limit = f"{MAX_EXPANDED / 2**20:,.0f} MiB"
        raise InvalidInput("file", f"is over {limit}, more than one file is read at once; split it")


def _load(path: Path) -> Any:
    _checked(path)
    raw = expanded(path) if path.suffix == ".gz" else path.read_bytes()
    lines = path.name.endswith((".jsonl", ".jsonl.gz"))
    _few_enough(raw, lines)
    text = utf8_text(raw)
    del raw
    if not lines:
        return json.loads(text)
    rows = []
    for number, line in enumerate(json_lines(text), 1):
        try:
            rows += [json.loads(line)] if line.strip() else []
        except json.JSONDecodeError as exc:  # its own "line 1" is the line's: say which line of the file
            raise InvalidInput("file", f"line {number}, column {exc.colno}: {exc.msg}") from None
    return rows


# The longest line a JSON Lines file may hold: a message, not a file's worth of text (one line of a gzip bomb was
# read whole before its size was known).
MAX_LINE = 64 * 2**20


def _pieces(path: Path) -> Iterator[bytes]:
    """The file's bytes a piece at a time, a gzip file's expanded, refused past MAX_EXPANDED."""
    read = 0
    try:
        with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as stream:
            while piece := stream.read(_PIECE):
                read += len(piece)
                if read > MAX_EXPANDED:
                    raise InvalidInput(
                        "file",
                        f"expands past {MAX_EXPANDED / 2**20:,.0f} MiB when decompressed; split it into "
                        "smaller files",
                    )
                yield piece
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InvalidInput("file", f"is not a readable gzip file ({exc})") from None
    except OSError as exc:
        if path.suffix != ".gz" or isinstance(exc, FileNotFoundError | IsADirectoryError | PermissionError):
            raise
        raise InvalidInput("file", f"is not a readable gzip file ({exc})") from None


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """The file's lines (numbered from 1), cut at line feeds alone as `json_lines` cuts them, none longer than
    MAX_LINE."""
    held: list[bytes] = []
    size = number = 0
    for piece in _pieces(path):
        parts = piece.split(b"\n")
        for part in parts[:-1]:
            number += 1
            yield number, b"".join([*held, part])
            held, size = [], 0
        held.append(parts[-1])
        size += len(parts[-1])
        if size > MAX_LINE:
            raise InvalidInput(
                "file",
                f"line {number + 1} is longer than {MAX_LINE / 2**20:,.0f} MiB: a message is not so long",
            )
    if size:
        yield number + 1, b"".join(held)


def _rows(path: Path) -> Generator[Any, None, None]:
    """Each non-empty line of a JSON Lines file as the value it holds, refused naming its line."""
    for number, raw in _lines(path):
        start = len(codecs.BOM_UTF8) if number == 1 and raw.startswith(codecs.BOM_UTF8) else 0
        try:
            line = str(memoryview(raw)[start:], "utf-8").removesuffix("\r")
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                "file", f"is not UTF-8 text (line {number}, byte {exc.start + start})"
            ) from None
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:  # its own "line 1" is the line's: say which line of the file
            raise InvalidInput("file", f"line {number}, column {exc.colno}: {exc.msg}") from None
        except RecursionError:
            raise InvalidInput("file", f"line {number}: nested too deeply to be a message") from None


class MessageFile:
    """A JSON Lines file of messages read a line at a time: checked whole when opened (every line a message, at
    most MAX_MESSAGES of them), so a bad line refuses the file before anything is stored, then read again on each
    pass. Read into a list, a million short messages took gigabytes; a pass holds one line."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._count = sum(1 for _ in self)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Message]:
        for index, row in enumerate(_rows(self._path)):
            if index >= MAX_MESSAGES:
                raise InvalidInput(
                    "file",
                    f"holds more than {MAX_MESSAGES:,} lines, more than one file is read at once; split it",
                )
            yield parse_message(row, index)


def _few_enough(raw: bytes | bytearray, lines: bool) -> None:
    """Refuse a file holding more than MAX_MESSAGES messages before it is parsed, counted from its bytes: its
    lines, or the objects and lists a JSON file may open (a bracket inside a text counts too: more, never fewer)."""
    if lines:
        count, what = raw.count(b"\n") + 1 - raw.endswith(b"\n"), "lines"
    else:
        count, what = raw.count(b"{") + raw.count(b"["), "objects and lists"
    if count > MAX_MESSAGES:
        raise InvalidInput(
            "file", f"holds more than {MAX_MESSAGES:,} {what}, more than one file is read at once; split it"
        )


def enumerate_batches(items: Iterable[T], size: int) -> Iterator[tuple[int, list[T]]]:
    """The items `size` at a time, each batch with the position of its first."""
    batch: list[T] = []
    done = 0
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield done, batch
            done, batch = done + size, []
    if batch:
        yield done, batch


def locomo_messages(samples: Sequence[dict[str, Any]]) -> Iterator[Message]:
    for sample in samples:
        conv = sample["conversation"]
        n = 1
        while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
            turns = conv.get(f"session_{n}") or []
            when = _date(conv.get(f"session_{n}_date_time"))
            for turn in turns if isinstance(turns, list) else []:
                text = turn.get("text", "")
                if turn.get("blip_caption"):
                    text = f"{text} [shares {turn['blip_caption']}]"
                yield Message(
                    role="user",
                    content=text,
                    ts=when,
                    platform="locomo",
                    conversation_id=str(sample.get("sample_id", "")),
                    message_id=str(turn.get("dia_id", "")),
                    metadata={"speaker": turn.get("speaker")},
                )
            n += 1


def longmemeval_messages(questions: Sequence[dict[str, Any]]) -> Iterator[Message]:
    seen: set[str] = set()
    for q in questions:
        for sid, date, session in zip(
            q["haystack_session_ids"], q["haystack_dates"], q["haystack_sessions"], strict=False
        ):
            if sid in seen:
                continue
            seen.add(sid)
            when = _date(str(date).split(" (")[0])
            for i, turn in enumerate(session):
                yield Message(
                    role=turn["role"],
                    content=turn["content"],
                    ts=when,
                    platform="longmemeval",
                    conversation_id=str(sid),
                    message_id=f"{sid}:{i}",
                )


def read_messages(path: Path) -> list[Message] | MessageFile:
    """Messages from a JSON Lines file of messages, a LoCoMo file or a LongMemEval file (optionally .gz). A JSON
    Lines file of messages is read as it is used (`MessageFile`); the others are one JSON value, read whole."""
    if path.name.endswith((".jsonl", ".jsonl.gz")):
        _checked(path)
        rows = _rows(path)
        try:
            first = next(rows, None)
        finally:
            rows.close()
        if isinstance(first, dict) and not ("conversation" in first or "haystack_sessions" in first):
            return MessageFile(path)
    data = _load(path)
    if isinstance(data, list) and data and isinstance(data[0], dict):
        if "conversation" in data[0]:
            return list(locomo_messages(data))
        if "haystack_sessions" in data[0]:
            return list(longmemeval_messages(data))
        return [parse_message(d, i) for i, d in enumerate(data)]
    raise InvalidInput("file", "is not JSON Lines of messages, a LoCoMo file or a LongMemEval file")
