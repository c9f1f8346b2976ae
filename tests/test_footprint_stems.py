"""The stems cache keeps at most STEMS_KEPT words however many distinct words a process reads, and a word read
again after it left the cache gets the stem it had."""

from __future__ import annotations

from engram.lang.text import STEMS_KEPT, stem, stems_uncached


def test_stem_cache_stays_bounded_and_stems_do_not_change() -> None:
    stem.cache_clear()
    first = [f"walking{i}s" for i in range(STEMS_KEPT + 4000)]
    stemmed = [stem(w) for w in first]
    assert stem.cache_info().currsize <= STEMS_KEPT
    assert stem.cache_info().currsize < 20_000  # a process reading 20,000 distinct words holds fewer
    assert stemmed == stems_uncached(first)
    assert [stem(w) for w in first[:100]] == stemmed[:100]  # evicted words, stemmed again
