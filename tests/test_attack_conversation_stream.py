"""A conversation file of many messages is read a line at a time: read into a list first, a million short
messages took 1.4 GB before the first was stored. It is still checked whole before anything is stored."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

from engram import Memory
from engram.errors import InvalidInput
from engram.review import messages
from engram.review.messages import read_messages


def _chat(path: Path, count: int, *, last: str | None = None) -> Path:
    with gzip.open(path, "wt", compresslevel=1) as file:
        for i in range(count):
            role = "user" if i % 50 == 0 else "assistant"
            file.write(
                json.dumps({"role": role, "content": f"note {i} on the garden", "message_id": f"m{i}"})
            )
            file.write("\n")
        if last is not None:
            file.write(last)
    return path


def _peak(run: object) -> int:
    tracemalloc.start()
    try:
        assert callable(run)
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_reading_a_long_conversation_holds_one_piece_of_it(tmp_path: Path) -> None:
    path = _chat(tmp_path / "chat.jsonl.gz", 60_000)
    seen: list[int] = []

    def read() -> None:
        found = read_messages(path)
        seen.append(len(found))
        seen.append(sum(1 for _ in found))

    peak = _peak(read)
    assert seen == [60_000, 60_000]
    # Held as a list, the 60,000 messages took about 60 MB; a pass holds a piece of the file (1 MiB) and a message.
    assert peak < 8 * 2**20, peak


def test_a_bad_last_line_refuses_the_file_before_anything_is_stored(tmp_path: Path) -> None:
    path = _chat(tmp_path / "chat.jsonl.gz", 2_000, last='{"role": "user", "content": oops}\n')
    with pytest.raises(InvalidInput, match="line 2001, column 29") as refused:
        read_messages(path)
    assert refused.value.field == "file"
    path = _chat(tmp_path / "roles.jsonl.gz", 2_000, last='{"content": "no role"}\n')
    with pytest.raises(InvalidInput, match=r"messages\[2000\]\.role"):
        read_messages(path)


def test_a_line_longer_than_a_message_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(messages, "MAX_LINE", 2**20)
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"role": "user", "content": "' + b"a" * 40 * 2**20, compresslevel=9))

    def read() -> None:
        with pytest.raises(InvalidInput, match="line 1 is longer than 1 MiB") as refused:
            read_messages(path)
        assert refused.value.field == "file"

    # Read whole, the 40 MiB line took more than 40 MB before it was refused.
    assert _peak(read) < 8 * 2**20


def test_ingesting_a_file_reads_only_the_sources_it_is_about_to_add(tmp_path: Path, mem: Memory) -> None:
    first = mem.ingest(read_messages(_chat(tmp_path / "chat.jsonl.gz", 1_200)))
    assert first["messages"] == 1_200 and "messages_already_ingested" not in first
    looked: list[int] = []
    kept = mem.store.kept_sources

    def counted(keys: list[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        looked.append(len(keys))
        return kept(keys)

    mem.store.kept_sources = counted  # type: ignore[method-assign]
    again = mem.ingest(read_messages(_chat(tmp_path / "more.jsonl.gz", 1_300)))
    assert again["messages_already_ingested"] == 1_200 and again["messages"] == 1_300
    assert len(mem.store.sources("", limit=5_000)) == 1_300
    # A batch at a time, never the conversation's every stored message at once.
    assert max(looked) <= 256 and sum(looked) == 1_300
