"""A kin word reaches the name the memories give that person, and a memory that does not name whom a question asks
about is no sure answer to it. The rules on their own, then with the real model on memories a person writes."""

from __future__ import annotations

from datetime import UTC, datetime

from engram import Memory
from engram.model.results import Scored
from engram.recall.kin import by_name, kin_words, names_in, searched
from engram.recall.named import names_asked, unnamed
from engram.store.values import Facts

NOTES = (
    "Sophie and I got married in Lisbon in 2015.",
    "Sophie works as an architect at a practice in Clerkenwell.",
    "My sister Chioma lives in Toronto with her wife Priya.",
    "Priya works for a bank in Toronto.",
    "Dad (Emeka) loves old jazz records.",
    "Emeka's surgery went well; he is home from hospital.",
    "Shoe size EU 42, in case anyone asks.",
    "Lucas is my nephew; he turns six in May.",
    "I work from home on Mondays and Fridays.",
)


def test_kin_words_are_read_with_the_words_that_state_them_and_an_in_law_is_not_its_first_word() -> None:
    assert set(kin_words("where does my husband work")) == {"husband"}
    assert "father" in kin_words("how is Dad's knee")["dad"]  # Dad's: the possessive is the word
    assert kin_words("what does my brother-in-law do") == {}
    assert kin_words("what is the capital of France") == {}
    assert "married" in searched(kin_words("what's my spouse's job"))
    assert "married" not in searched(kin_words("where does my sister live"))


def test_names_are_the_askers_own_relations_only() -> None:
    texts = [
        "My sister Chioma lives in Toronto with her wife Priya.",
        "Tomás and I got married in 2018.",
        "Dad (Emeka) turns 70.",
        "Mum, Helen, lives in Leeds.",
        "Ada is our daughter.",
    ]
    assert names_in(kin_words("my wife")["wife"], texts) == ("Tomás",)  # not the sister's wife
    assert names_in(kin_words("my sister")["sister"], texts) == ("Chioma",)
    assert names_in(kin_words("dad")["dad"], texts) == ("Emeka",)
    assert names_in(kin_words("mum")["mum"], texts) == ("Helen",)
    assert names_in(kin_words("my daughter")["daughter"], texts) == ("Ada",)
    assert names_in(kin_words("my husband and I")["husband"], ["My husband and I met at work."]) == ()
    # Only a title opens a sentence with a name: a partner portal is no partner.
    assert names_in(kin_words("my partner")["partner"], ["Partner Portal launches in May."]) == ()
    assert names_in(kin_words("my uncle")["uncle"], ["Uncle Chidi died in August."]) == ("Chidi",)


def test_the_name_stands_for_the_kin_word_in_the_text_embedded() -> None:
    assert (
        by_name("what does my husband do for work", [("husband", ("Tomás",))])
        == "what does Tomás do for work"
    )
    assert by_name("when is Dad's birthday", [("dad", ("Emeka",))]) == "when is Emeka's birthday"
    assert by_name("where is the dadaist museum", [("dad", ("Emeka",))]) == "where is the dadaist museum"


def _facts(memory_id: str, content: str, episode: str | None = None) -> Scored[Facts]:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    facts = Facts(memory_id, content, 0.5, at, at, None, 0, 1.0, False, episode=episode)
    return Scored(facts, 0.5)


def test_a_memory_alone_that_does_not_name_whom_the_question_asks_about_is_doubtful() -> None:
    assert names_asked("what is Lucas's shoe size") == ("lucas",)
    assert names_asked("how many reviews does a PR need") == ()  # an acronym is no name
    assert names_asked("Lucas") == ()  # the first word may be capitalised for the sentence alone
    scored = [
        _facts("size", "Shoe size EU 42."),
        _facts("nephew", "Lucas is my nephew."),
        _facts("turn", "My shoe size is 38.", episode="chat"),  # a turn leaves names to its conversation
    ]
    assert unnamed(scored, scored, names_asked("what is Lucas's shoe size")) == {"size"}
    # A name no candidate says tells none of them apart.
    assert unnamed(scored, scored, names_asked("what is Marta's shoe size")) == set()
    assert unnamed(scored[1:], scored, names_asked("what is Lucas's shoe size")) == set()  # only those shown


def test_a_kin_word_finds_the_person_by_name(notes: Memory) -> None:
    for question in ("where does my wife work", "what does my spouse do for a living"):
        found = notes.search_memory(question, {"min_confidence": "low"}, touch=False)["results"]
        top = [r["content"] for r in found[:2]]
        assert any("architect" in t for t in top), (question, top)
        assert not any(t.startswith("Priya works") for t in top), question  # the sister's wife is not mine
    hits = notes.recall("how is my father after his operation", touch=False, mode="ranked", limit=3)
    assert "surgery went well" in hits[0].record.content


def test_a_memory_that_names_someone_else_is_no_sure_answer(notes: Memory) -> None:
    found = notes.search_memory("what is Lucas's shoe size", {"min_confidence": "low"}, touch=False)[
        "results"
    ]
    sizes = [r for r in found if r["content"].startswith("Shoe size")]
    assert sizes and all(r["confidence"] == "low" for r in sizes)
    # Accurate recall keeps no guess: the shoe size is not said to be his.
    assert all(
        "Shoe size" not in h.record.content for h in notes.recall("what is Lucas's shoe size", touch=False)
    )


def test_the_kin_link_reads_each_store(mem: Memory) -> None:
    """On SQLite and PostgreSQL alike, the name found for "husband" is searched: a memory that names him only
    is found, with no word of the question in it."""
    mem.remember("Tomás and I got married in Porto.")
    mem.remember("Tomás teaches chemistry at Fairfield High.")
    mem.remember("The boiler was serviced in March.")
    hits = mem.recall("what does my husband do", mode="ranked", limit=3, touch=False)
    assert any("chemistry" in h.record.content for h in hits)
    found = next(h for h in hits if "chemistry" in h.record.content)
    assert found.components["coverage"] > 0  # it says "husband" by his name


def test_a_partner_called_otherwise_or_together_with_me_is_found() -> None:
    assert kin_words("what does my other half eat on Sundays?")["partner"][0] == "partner"
    assert set(kin_words("is my hubby free on Friday?")) == {"husband"}
    assert "half" not in kin_words("what does my other half eat on Sundays?")
    texts = ["Becky and me have been together since 2011, never got round to getting married."]
    assert names_in(kin_words("my partner")["partner"], texts) == ("Becky",)
    named = [("partner", ("Becky",))]
    assert by_name("what does my other half eat on Sundays?", named) == "what does Becky eat on Sundays?"


def test_someone_elses_kin_is_not_the_askers_and_a_dash_states_a_relation() -> None:
    assert kin_words("what's the name of the Hennessys' dog?") == {}
    assert kin_words("what is Sarah's husband called?") == {}
    assert set(kin_words("how is my sister's dog?")) == {"sister"}
    assert set(kin_words("what's Dad's address?")) == {"dad"}  # "what's" is no one's
    texts = ["Bruno - our staffie, 4 in January. chip 977200009812443."]
    assert names_in(kin_words("what about the dog?")["dog"], texts) == ("Bruno",)


def test_mama_is_a_word_for_a_mother_said_as_a_title() -> None:
    said = kin_words("what's my mum's name?")["mum"]
    assert names_in(said, ["Mama (Halina) and Papa still live in Poznan."]) == ("Halina",)
    assert names_in(
        kin_words("when is my mother's birthday?")["mother"], ["My mama, Rosa, turns 70 in May."]
    ) == ("Rosa",)
