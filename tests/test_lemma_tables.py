"""The dictionaries kept compact (engram.lang.lemmas) answer exactly as the libraries' own loaded tables."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
import simplemma
from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec
from lemminflect.core.Lemmatizer import Lemmatizer

from engram.lang.lemmas import LemmaTable, dictionary_form, getAllLemmas, is_dictionary_word

MISSES = ["", "zzzzzz", "hello world", "éclair", "'", "aaaaaaa", "zzzzzzzzzzzzzzzzzzzz"]


@pytest.fixture(scope="module")
def full() -> dict[str, dict[str, tuple[str, ...]]]:
    loaded: dict[str, dict[str, tuple[str, ...]]] = LemmaLUCodec.load(Lemmatizer().lemma_lu_fn)
    return loaded


def test_the_compact_lemma_table_holds_every_entry_of_lemminflects(
    full: dict[str, dict[str, tuple[str, ...]]],
) -> None:
    table = LemmaTable(Lemmatizer().lemma_lu_fn)
    assert len(table) == len(full)
    assert list(table) == list(full)
    for word, readings in full.items():
        assert table[word] == readings and list(table[word]) == list(readings), word
    for word in MISSES:
        assert table.get(word) is None and word not in table


def test_get_all_lemmas_reads_the_compact_table_and_answers_as_lemminflect(
    full: dict[str, dict[str, tuple[str, ...]]],
) -> None:
    lemmatizer = Lemmatizer()
    assert isinstance(lemmatizer.lemma_dict, LemmaTable)
    words = [*list(full)[::13], *MISSES, "Running", "PARIS", "Hiking", "better"]
    compact = [getAllLemmas(w) for w in words] + [getAllLemmas(w, "VERB") for w in words[::5]]
    table, lemmatizer.lemma_dict = lemmatizer.lemma_dict, full
    try:
        loaded = [getAllLemmas(w) for w in words] + [getAllLemmas(w, "VERB") for w in words[::5]]
    finally:
        lemmatizer.lemma_dict = table
    assert compact == loaded
    assert getAllLemmas("running")["VERB"] == ("run",)


def test_dictionary_forms_are_simplemmas_own(full: dict[str, dict[str, tuple[str, ...]]]) -> None:
    words = [*list(full)[::17], *(w + "s" for w in list(full)[::29]), *MISSES[1:], "URLs", "pull-requests"]
    assert [dictionary_form(w) for w in words] == [simplemma.lemmatize(w, lang="en") for w in words]
    assert [is_dictionary_word(w) for w in words] == [simplemma.is_known(w, lang="en") for w in words]
    assert dictionary_form("meetings") == "meeting"


def test_an_unsorted_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lemmas.csv.gz"
    path.write_bytes(gzip.compress(b"walked,verb,walk\nran,verb,run\n"))
    with pytest.raises(ValueError, match="not sorted"):
        len(LemmaTable(str(path)))
