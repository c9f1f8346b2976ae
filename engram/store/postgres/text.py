"""PostgreSQL full text the way the SQLite backend has it: porter stems (FTS5's tokenizer and the ranking's
term weights use the same stemmer), content at weight A and tags at weight B, ranked by BM25.

The store writes each searchable memory's `tsvector` from here and keeps document frequencies and the corpus
length by trigger (engram.store.postgres.schema); a search scores presence of each query stem (content 1, tags 0.5, as SQLite's
bm25(1.0, 0.5)) with BM25's IDF and length normalisation.

A stem of the content alone is kept without a position (a positionless lexeme matches a query of any weight);
a stem of the tags carries `2B`, and `1A` too when the content also holds it. Positions were 4-5 bytes of each
stem, a third of a short memory's tsvector, and only tell the two weights apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.lang.text import idf, stem, stems, words

K1, B = 1.2, 0.75  # BM25's usual constants (FTS5 uses the same)


def indexable(lexeme: str) -> bool:
    """A lexeme is 1..2046 bytes: porter stems some words ("s") to nothing, and a pathological run of letters
    could exceed the limit; neither can be searched for anyway."""
    return 0 < len(lexeme.encode()) <= 2046


def lexeme(term: str, weight: str = "") -> str:
    """A quoted lexeme for a tsvector or tsquery literal, optionally restricted to a weight."""
    quoted = term.replace("'", "''").replace("\\", "\\\\")
    return f"'{quoted}'" + (f":{weight}" if weight else "")


def tsvector(content: str, tags: Sequence[str]) -> str:
    """A tsvector literal: each content stem without a position, each tag stem at `2B` (with `1A` before it when
    the content holds the stem too); ranking counts presence, and memories that are searched are chunk-sized."""
    in_content = {s for s in stems(content) if indexable(s)}
    in_tags = {s for tag in tags for w in words(tag.replace("-", " ")) if indexable(s := stem(w))}
    return " ".join(
        lexeme(s) + ("" if s not in in_tags else ":1A,2B" if s in in_content else ":2B")
        for s in sorted(in_content | in_tags)
    )


def query_stems(terms: Sequence[str]) -> list[str]:
    return sorted({s for t in terms for w in words(t) if indexable(s := stem(w))})


def bm25(
    present: Sequence[str], frequencies: dict[str, int], docs: int, total_length: int
) -> tuple[str, list[Any], str]:
    """(score expression over `m.tsv`, its parameters, the tsquery matching any of `present`)."""
    average = max(1.0, total_length / max(1, docs))
    parts: list[str] = []
    params: list[Any] = []
    for s in present:
        # Most matched rows hold few of the terms: one test for absence spares the weighted ones. A match at C is
        # a positionless stem, the content's alone (1); else a stem at B is the tags' (0.5), and the content's
        # too at A (1.5); else a stem written before positions were dropped, at A alone (1).
        parts.append(
            "CASE WHEN m.tsv @@ %s::tsquery THEN %s::float8 * (CASE WHEN m.tsv @@ %s::tsquery THEN 1::float8 "
            "WHEN m.tsv @@ %s::tsquery THEN (CASE WHEN m.tsv @@ %s::tsquery THEN 1.5::float8 ELSE 0.5::float8 END) "
            "ELSE 1::float8 END) ELSE 0::float8 END"
        )
        params.extend([lexeme(s), idf(docs, frequencies[s]), lexeme(s, "C"), lexeme(s, "B"), lexeme(s, "A")])
    # in double precision throughout: a numeric constant made every product a numeric one, slower per row
    score = (
        f"({' + '.join(parts)}) * {K1 + 1}::float8 / (1::float8 + {K1}::float8 * "
        f"(1::float8 - {B}::float8 + {B}::float8 * length(m.tsv)::float8 / %s::float8))"
    )
    return score, [*params, average], " | ".join(lexeme(s) for s in present)
