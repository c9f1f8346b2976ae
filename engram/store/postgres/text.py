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

from engram.lang.text import stem, stems, words

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


def bm25(stems: Sequence[str], rows_scored: int) -> tuple[str, str, list[Any], list[Any]]:
    """(the CTE `searched`, the score expression over `m.tsv` and `s` = searched, the parameters of each).

    The term statistics are read in the statement that ranks, not by a round trip before it: `searched` is one
    row holding each query stem's IDF (NULL for a stem no memory holds or one left out by the row budget), the
    average length, and the tsquery matching any stem scored. The stems scored are those from the rarest on (ties
    in `stems`' order) while the memories holding them number at most `rows_scored`, the rarest always. Every
    figure is the double precision arithmetic of BM25's formula (engram.lang.text.idf) on the same counts."""
    kept = f"(h.n = 1 OR h.held <= {int(rows_scored)})"
    # `searched` materialised: inlined, each reference to one of its columns was planned as a subquery of its own.
    idfs = "".join(
        f"max(h.idf) FILTER (WHERE h.at = {i} AND {kept}) AS idf{i}, " for i in range(1, len(stems) + 1)
    )
    cte = (
        "held AS (SELECT q.at, q.lit, sum(l.df) OVER w AS held, row_number() OVER w AS n, "
        "ln(((c.docs - l.df)::float8 + 0.5::float8) / (l.df::float8 + 0.5::float8) + 1::float8) AS idf "
        "FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS q(term, lit, at) "
        "JOIN lexicon l ON l.term = q.term AND l.df > 0 CROSS JOIN corpus c WINDOW w AS (ORDER BY l.df, q.at)), "
        f"searched AS MATERIALIZED (SELECT {idfs}"
        f"(string_agg(h.lit, ' | ' ORDER BY h.at) FILTER (WHERE {kept}))::tsquery AS match, "
        "(SELECT greatest(1::float8, c.total_len::float8 / greatest(1, c.docs)::float8) FROM corpus c) AS average "
        "FROM held h)"
    )
    parts: list[str] = []
    params: list[Any] = []
    for i, s in enumerate(stems, start=1):
        # Most matched rows hold few of the terms: one test for absence spares the weighted ones. A match at C is
        # a positionless stem, the content's alone (1); else a stem at B is the tags' (0.5), and the content's
        # too at A (1.5); else a stem written before positions were dropped, at A alone (1). A stem not scored
        # adds 0, which leaves the sum of the others as it was.
        parts.append(
            f"CASE WHEN s.idf{i} IS NOT NULL AND m.tsv @@ %s::tsquery THEN s.idf{i} * (CASE WHEN m.tsv @@ "
            "%s::tsquery THEN 1::float8 WHEN m.tsv @@ %s::tsquery THEN (CASE WHEN m.tsv @@ %s::tsquery "
            "THEN 1.5::float8 ELSE 0.5::float8 END) ELSE 1::float8 END) ELSE 0::float8 END"
        )
        params.extend([lexeme(s), lexeme(s, "C"), lexeme(s, "B"), lexeme(s, "A")])
    # in double precision throughout: a numeric constant made every product a numeric one, slower per row
    score = (
        f"({' + '.join(parts)}) * {K1 + 1}::float8 / (1::float8 + {K1}::float8 * "
        f"(1::float8 - {B}::float8 + {B}::float8 * length(m.tsv)::float8 / s.average))"
    )
    return cte, score, [list(stems), [lexeme(s) for s in stems]], params
