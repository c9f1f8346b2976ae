"""Conversation files that are small on disk and many messages once read: 480 MiB of short messages fits in a
1.2 MB gzip file and under the size a file may expand to, and reading it took more than 5.8 GB of memory before
failing with a bare MemoryError. A file is now refused by the messages it may hold, counted from its bytes before
anything is parsed; nested, truncated or foreign archives and other encodings are named as what they are."""

from __future__ import annotations

import gzip
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from engram.errors import InvalidInput
from engram.review import messages
from engram.review.messages import read_messages

LINE = b'{"role": "user", "content": "a"}\n'


@pytest.fixture
def few(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(messages, "MAX_MESSAGES", 1_000)
    return 1_000


def test_a_small_file_of_too_many_lines_is_refused_before_it_is_parsed(tmp_path: Path, few: int) -> None:
    path = tmp_path / "chat.jsonl.gz"
    path.write_bytes(gzip.compress(LINE * 200_000, compresslevel=9))
    assert path.stat().st_size < 20_000
    tracemalloc.start()
    try:
        with pytest.raises(InvalidInput, match="more than 1,000 lines") as refused:
            read_messages(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.field == "file"
    # The expanded bytes (6.6 MB) and no more: parsed, the 200,000 messages took about 200 MB.
    assert peak < 3 * len(LINE) * 200_000


def test_a_json_file_of_too_many_objects_is_refused(tmp_path: Path, few: int) -> None:
    path = tmp_path / "chat.json.gz"
    path.write_bytes(gzip.compress(b"[" + b",".join([LINE.strip()] * 5_000) + b"]"))
    with pytest.raises(InvalidInput, match="more than 1,000 objects") as refused:
        read_messages(path)
    assert refused.value.field == "file"


def test_as_many_messages_as_allowed_are_read(tmp_path: Path, few: int) -> None:
    path = tmp_path / "chat.jsonl.gz"
    path.write_bytes(gzip.compress(LINE * few))
    assert len(read_messages(path)) == few
    plain = tmp_path / "chat.json"
    plain.write_bytes(b"[" + b",".join([LINE.strip()] * (few - 1)) + b"]")
    assert len(read_messages(plain)) == few - 1


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("nested.jsonl.gz", gzip.compress(gzip.compress(LINE)), "is not UTF-8 text"),
        ("latin.jsonl.gz", gzip.compress('{"role": "user", "content": "café"}\n'.encode("latin-1")), "UTF-8"),
        ("wide.jsonl.gz", gzip.compress(LINE.decode().encode("utf-16")), "is not UTF-8 text"),
        ("cut.jsonl.gz", gzip.compress(LINE * 1000)[:40], "not a readable gzip file"),
        ("zip.jsonl.gz", b"", "not a readable gzip file"),
        ("members.jsonl.gz", gzip.compress(LINE) * 500, ""),
    ],
)
def test_odd_archives_are_named_or_read_whole(
    tmp_path: Path, name: str, content: bytes, problem: str
) -> None:
    path = tmp_path / name
    if name.startswith("zip"):
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("../../outside.jsonl", LINE)
        assert not (tmp_path.parent / "outside.jsonl").exists()
    else:
        path.write_bytes(content)
    if not problem:
        assert len(read_messages(path)) == 500  # a file of many gzip members is one text
        return
    with pytest.raises(InvalidInput, match=problem) as refused:
        read_messages(path)
    assert refused.value.field == "file"
