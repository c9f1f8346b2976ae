"""Hostile files given to `engram add` (Memory.add_file): bytes that are no text, a NUL, UTF-16, links to
devices and directories. Each is refused with the file named and the problem it has, nothing stored."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import FakeEmbedder, InvalidInput, Memory, Settings


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path / "h")) as memory:
        yield memory


def test_a_nul_in_a_file_is_named_as_such_not_as_a_length(mem: Memory, tmp_path: Path) -> None:
    (tmp_path / "nul.txt").write_bytes(b"hello\x00world\n")
    with pytest.raises(InvalidInput) as caught:
        mem.add_file(tmp_path / "nul.txt")
    assert "nul.txt" in str(caught.value) and "NUL" in str(caught.value)
    assert "MAX_CONTENT_CHARS" not in str(caught.value)  # the length is not what is wrong
    assert mem.count() == 0


@pytest.mark.parametrize(
    "data", [os.urandom(4096), "café crème".encode("latin-1"), "hello world".encode("utf-16")]
)
def test_bytes_that_are_no_utf8_text_are_refused(mem: Memory, tmp_path: Path, data: bytes) -> None:
    (tmp_path / "notes.md").write_bytes(data)
    with pytest.raises(InvalidInput, match="not UTF-8 text"):
        mem.add_file(tmp_path / "notes.md")
    assert mem.count() == 0


@pytest.mark.parametrize("target", ["/dev/zero", "."])
def test_a_link_to_a_device_or_a_folder_is_not_read(mem: Memory, tmp_path: Path, target: str) -> None:
    link = tmp_path / "looks-like.txt"
    link.symlink_to(Path(target) if target.startswith("/") else tmp_path)
    with pytest.raises(InvalidInput, match="is not a file"):
        mem.add_file(link)  # /dev/zero read whole would never end
    assert mem.count() == 0


def test_a_page_nested_200000_deep_is_added_not_hung(mem: Memory, tmp_path: Path) -> None:
    """Reading it once took hours (each break inserted after a block walked down to its last descendant). The
    alarm is a guard that fails the test instead of hanging the suite, far above the seconds it takes."""
    import signal

    depth = 200_000
    page = "<html><head><title>Deep</title></head><body>" + "<div>" * depth + "hello there" + "</div>" * depth
    (tmp_path / "deep.html").write_text(page + "<p>after</p></body></html>", encoding="utf-8")

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("adding a deeply nested page did not finish")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(300)
    try:
        added = mem.add_file(tmp_path / "deep.html")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert added["title"] == "Deep"
    assert mem.get(added["id"]).content == "hello there\n\nafter"
