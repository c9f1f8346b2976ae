"""A misspelled word of a question is read as the store spells it: searched, and embedded, as the stored word one
edit away; a word some memory holds is never corrected; a store that cannot say which words it holds corrects
none. The fast fake embedder: its vectors say nothing of meaning, so only the words can find the answer."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engram import Memory
from engram.recall.spelling import corrections, respelled, variants

DENTIST = "My dentist is Dr Priya Becker on Castle Street."


def _store(mem: Memory, *texts: str) -> None:
    for text in texts:
        mem.store_memory(text)


def test_the_variants_of_a_word_are_one_edit_away_and_keep_its_first_letter() -> None:
    found = variants("dentsit")
    assert {"dentist", "dentsi", "dentsits", "dentsat"} <= found.keys()  # swapped, dropped, added, replaced
    assert "dentsit" not in found
    assert all(v.startswith("d") for v in found)
    assert "edntsit" not in found
    # The commonest slips first: letters swapped, a double letter written once or twice; then any other edit.
    assert (found["dentist"], found["dentsitt"], found["dentsat"]) == (0, 0, 1)
    assert (variants("lesons")["lessons"], variants("lesons")["lemons"]) == (0, 1)


@pytest.mark.parametrize(
    ("asked", "said"),
    [("which dentsit do I see?", "dentsit"), ("who is Dr Bekcer?", "bekcer"), ("my dentisst", "dentisst")],
)
def test_a_misspelled_word_finds_the_memory_that_spells_it_right(mem: Memory, asked: str, said: str) -> None:
    _store(
        mem, DENTIST, "The boiler is serviced every September.", "Lotte's ballet lessons are on Saturdays."
    )
    result = mem.search_memory(asked)
    assert said in result["query_analysis"]["semantic_expansions"]
    assert result["results"][0]["content"] == DENTIST
    assert mem.recall(asked, mode="ranked")[0].record.content == DENTIST


def test_a_word_some_memory_holds_is_never_corrected(mem: Memory) -> None:
    _store(
        mem, "The drug trial starts in May.", *(f"We walked the coastal trail on day {i}." for i in range(3))
    )
    result = mem.search_memory("when does the trial start?")
    assert result["query_analysis"]["semantic_expansions"] == {}
    assert result["results"][0]["content"] == "The drug trial starts in May."


@pytest.mark.parametrize(("more", "fewer"), [("planet", "planted"), ("planted", "planet")])
def test_of_two_stored_words_one_edit_away_the_more_frequent_is_taken(
    mem: Memory, more: str, fewer: str
) -> None:
    _store(mem, *(f"Note {i} about the {more}." for i in range(3)), f"Note about the {fewer}.")
    expansions = mem.search_memory("the plantet")["query_analysis"]["semantic_expansions"]
    assert expansions == {"plantet": [more]}


def test_short_words_and_words_with_digits_are_not_corrected(mem: Memory) -> None:
    _store(mem, "The cats sleep on the sofa.", "Flight BA1234 leaves at noon.")
    assert mem.search_memory("cots")["query_analysis"]["semantic_expansions"] == {}
    assert mem.search_memory("flight BA1235")["query_analysis"]["semantic_expansions"] == {}


def test_a_word_of_english_the_store_lacks_is_no_typo(mem: Memory) -> None:
    _store(mem, "The meeting lasted an hour.", "The lessons are on Saturdays.")
    assert mem.search_memory("who insures the house?")["query_analysis"]["semantic_expansions"] == {}
    assert mem.search_memory("the cello lesons")["query_analysis"]["semantic_expansions"] == {
        "lesons": ["lessons"]
    }


class _CountsOnly:
    """A store that counts the memories holding a stem but cannot say cheaply which words it holds."""

    def document_frequencies(self, stems: Sequence[str]) -> tuple[int, dict[str, int]]:
        return 1, dict.fromkeys(stems, 1)


def test_a_store_that_cannot_say_which_words_it_holds_corrects_none() -> None:
    assert corrections(["dentsit"], _CountsOnly()) == {}  # type: ignore[arg-type]


def test_the_corrected_word_takes_the_misspelled_ones_place_and_case() -> None:
    assert respelled("Dentsit? my dentsit", {"dentsit": "dentist"}) == "Dentist? my dentist"
    assert respelled("dentsits", {"dentsit": "dentist"}) == "dentsits"


def test_a_hostile_question_reads_few_short_words_for_typos(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 50,000-letter "word" made its variants take gigabytes; a question of many unknown words, one read each.
    import engram.recall.spelling as spelling

    read: list[str] = []

    def counted(word: str) -> dict[str, int]:
        read.append(word)
        return variants(word)

    monkeypatch.setattr(spelling, "variants", counted)
    _store(mem, DENTIST)
    unknown = [f"zq{letter}wvkx" for letter in "abcdefghijkl"]
    result = mem.search_memory(" ".join(["q" + "x" * 40, *unknown]))
    assert result["query_analysis"]["semantic_expansions"] == {}
    assert read and all(len(word) <= spelling.LONGEST for word in read)
    assert len(read) <= spelling.MOST_READ
    assert mem.search_memory("x" * 50_000)["results"] is not None
