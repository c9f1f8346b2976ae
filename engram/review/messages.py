"""Conversations to ingest, read from files: JSON Lines of messages ({role, content, ts, platform,
conversation_id, message_id, metadata}), a LoCoMo file (both speakers are users talking about themselves) and a
LongMemEval file (its haystack sessions), optionally gzipped."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import dateparser  # type: ignore[import-untyped]
import pydantic

from engram.errors import InvalidInput
from engram.interop.files import json_lines, utf8_text
from engram.model.record import invalid_from
from engram.review.extract import Message


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
# How many messages (lines, or objects in a JSON file) one file may hold. Within the size above, 480 MiB of short
# messages (a 1.2 MB gzip file) is 16 million of them, and reading them took more than 5.8 GB of memory before
# failing with no word on why; a message read costs about a kilobyte, so this bounds a file to about as much. The
# largest benchmark file holds about 280,000 objects.
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


def _load(path: Path) -> Any:
    # A pipe or a device: reading one waited for a writer, or never ended. A missing file is named as missing.
    if path.exists() and not path.is_file():
        raise InvalidInput("file", f"{path.name} is not a file")
    if path.suffix != ".gz" and path.stat().st_size > MAX_EXPANDED:  # read whole, as a gzip file's content is
        limit = f"{MAX_EXPANDED / 2**20:,.0f} MiB"
        raise InvalidInput("file", f"is over {limit}, more than one file is read at once; split it")
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


def read_messages(path: Path) -> list[Message]:
    """Messages from a JSON Lines file of messages, a LoCoMo file or a LongMemEval file (optionally .gz)."""
    data = _load(path)
    if isinstance(data, list) and data and isinstance(data[0], dict):
        if "conversation" in data[0]:
            return list(locomo_messages(data))
        if "haystack_sessions" in data[0]:
            return list(longmemeval_messages(data))
        return [parse_message(d, i) for i, d in enumerate(data)]
    raise InvalidInput("file", "is not JSON Lines of messages, a LoCoMo file or a LongMemEval file")
