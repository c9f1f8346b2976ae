"""lemminflect's inflection table kept as its text (engram.lang.lemmas) answers exactly as the library's own
loaded dict, for every lemma it holds and for words it does not."""

from __future__ import annotations

import pytest
from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec
from lemminflect.core.Inflections import Inflections

from engram.lang.lemmas import InflectionTable, getInflection

Table = dict[str, dict[str, tuple[str, ...]]]
MISSES = ["", "zzzzzz", "hello world", "éclair", "'", "aaaaaaa", "zzzzzzzzzzzzzzzzzzzz"]
TAGS = ["VB", "VBD", "VBN", "VBG", "VBZ", "VBP", "NN", "NNS", "NNP", "NNPS", "JJR", "JJS", "RBR", "RBS"]


@pytest.fixture(scope="module")
def full() -> Table:
    loaded: Table = InflectionLUCodec.load(Inflections().infl_lu_fn)
    return loaded


def test_the_compact_inflection_table_holds_every_entry_of_lemminflects(full: Table) -> None:
    table = InflectionTable(Inflections().infl_lu_fn)
    assert len(table) == len(full)
    assert sorted(table) == sorted(full)
    for word, forms in full.items():
        assert table[word] == forms and list(table[word]) == list(forms), word
    assert table["be"]["VBD"] == ("was", "were") and table["can"] == {"VB": ("can",), "VBD": ("could",)}
    for word in MISSES:
        assert table.get(word) is None and word not in table


def test_get_inflection_reads_the_compact_table_and_answers_as_lemminflect(full: Table) -> None:
    inflections = Inflections()
    assert isinstance(inflections.infl_dict, InflectionTable)
    words = [*list(full)[::7], *MISSES[1:], "Run", "PARIS", "be", "can", "replace", "meet"]
    asks = [(w, t) for i, w in enumerate(words) for t in TAGS[i % 3 :: 3]]
    compact = [getInflection(w, t) for w, t in asks]
    table, inflections.infl_dict = inflections.infl_dict, full
    try:
        loaded = [getInflection(w, t) for w, t in asks]
    finally:
        inflections.infl_dict = table
    assert compact == loaded
    assert getInflection("replace", "VBD") == ("replaced",) and getInflection("meet", "VBD") == ("met",)
