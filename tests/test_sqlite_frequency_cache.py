"""The text search's cache of word frequencies lasts until the full-text index changes, not until any commit:
a served store commits each search's usage counts, which change no word's frequency."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from engram import Memory
from tests.conftest import FakeEmbedder


def _vocab_reads(mem: Memory, words: list[str]) -> tuple[dict[str, int], int]:
    """The frequencies the store's read connection answers, and how many times it read the vocabulary."""
    db = mem.store._reader()  # type: ignore[attr-defined]
    seen: list[str] = []
    db.set_trace_callback(seen.append)
    try:
        return mem.store.document_frequencies(words)[1], sum("memories_vocab" in s for s in seen)
    finally:
        db.set_trace_callback(None)


def test_frequencies_stay_cached_across_usage_commits_and_follow_new_text(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    with Memory(path, embedder=FakeEmbedder()) as mem, Memory(path, embedder=FakeEmbedder()) as other:
        ids = [
            r.id for r in mem.remember_many([{"content": f"chess club meets on day {i}"} for i in range(3)])
        ]
        assert _vocab_reads(mem, ["chess"]) == ({"chess": 3}, 1)
        assert _vocab_reads(mem, ["chess"]) == ({"chess": 3}, 0)
        other.store.touch(ids, datetime.now(UTC))  # another process counts uses: no word changes
        assert _vocab_reads(mem, ["chess"]) == ({"chess": 3}, 0)
        other.remember("chess openings to study")  # another process adds text: the cache must not hide it
        assert _vocab_reads(mem, ["chess"]) == ({"chess": 4}, 1)
        other.forget(ids[0])
        assert _vocab_reads(mem, ["chess"]) == ({"chess": 3}, 1)
