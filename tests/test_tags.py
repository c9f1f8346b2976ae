"""Tags that name topics (noun phrases and names read with a part-of-speech tagger), context tags only when the
text says so, consolidation of what users create, and renaming a tag."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput, NotFound
from engram.store.values import TagRow
from engram.tags.consolidate import consolidate
from engram.tags.context import context_tags
from engram.tags.naming import same_tag
from engram.tags.phrases import _nlp, topics
from engram.tags.variants import class_repeat, initials, listed_together


def _last_word_is_a_verb(phrase: str, text: str) -> bool:
    doc = _nlp()(text)
    last = phrase.split()[-1]
    return any(t.text == last and t.tag_.startswith("VB") and t.tag_ != "VBG" for t in doc)


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        ("My sister Clara lives in Lyon and teaches piano.", {"sister", "Clara", "Lyon", "piano"}, {"lives"}),
        (
            "The staging database runs on Postgres 15; production stays on 14 until the migration.",
            {"staging database", "Postgres", "migration"},
            {"runs", "stays"},
        ),
        ("Send the signed contract to the landlord before Friday.", {"contract", "landlord"}, {"Friday"}),
        ("Our neighbour Ingrid waters the plants while we are away.", {"Ingrid", "plants"}, {"waters"}),
        (
            "Our staging cluster runs on k3s in the Hetzner Falkenstein region",
            {"staging cluster", "k3s", "Hetzner Falkenstein"},
            {"staging cluster runs"},
        ),
        ("I prefer aisle seats on long flights.", {"aisle seats", "flights"}, {"aisle"}),
        ("The gym membership costs 45 euros a month.", {"gym membership"}, {"costs", "euros", "month"}),
        ("Reply to the recruiter by Wednesday.", {"recruiter"}, {"Reply"}),
        ("Met Dr. Okafor at the conference, she works on protein folding.", {"protein folding"}, {"Met"}),
        ("The Wi-Fi password at the cabin is pinecone2024.", {"Wi-Fi", "cabin"}, {"pinecone2024"}),
        ("Grandma's pancake recipe: 250 ml milk, 125 g flour.", {"milk", "flour"}, {"ml milk", "g flour"}),
    ],
)
def test_topics_are_noun_phrases_and_names(text: str, wanted: set[str], unwanted: set[str]) -> None:
    found = set(topics(text))
    assert wanted <= found, found
    assert not unwanted & found, found
    assert not any(_last_word_is_a_verb(p, text) for p in found), found


def test_a_text_of_no_topic_gets_no_topic_tags() -> None:
    assert topics("I run 5k every Tuesday.") == ()  # a verb, an amount and a day: nothing to file it under
    assert topics("Thanks, that sounds great!") == ()


def test_chinese_text_still_gets_keywords() -> None:
    pytest.importorskip("jieba")
    found = topics("我们决定下周在北京召开产品发布会，需要准备演示文稿。")  # noqa: RUF001
    assert found and all(not t.isascii() for t in found)


def test_context_tags_only_when_the_text_says_so() -> None:
    assert context_tags("URGENT: submit the grant report by Friday 5pm.") == ("urgent", "deadline")
    calm = (
        "Design document for the sync service: the server must batch writes; it is important that retries back "
        "off, due to rate limits upstream."
    )
    assert context_tags(calm) == ()  # must, important and "due to" are no urgency and no deadline
    assert context_tags("I run 5k every Tuesday.") == ()  # no how-to
    assert context_tags("How to reset the router: hold the button.") == ("how-to",)
    assert context_tags("The tax return is due on 31 January.") == ("deadline",)
    assert context_tags("We decided to use Postgres.") == ("decision",)
    assert context_tags("User dislikes meetings before 10am.") == ()  # a liking, no deadline


def test_urgency_denied_is_no_urgency() -> None:
    for calm in (
        "The sash window sticks; needs a joiner before spring, not urgent, but it must not be left to snap.",
        "Nothing urgent, just check the gutter when you can.",
        "A non-urgent repair: the curtain pole is loose.",
        "It isn't an emergency, but the tap drips.",
        "Not that urgent.",
    ):
        assert "urgent" not in context_tags(calm), calm
    assert "urgent" in context_tags("Not sure what it is, but it's urgent: the boiler is leaking.")
    assert "urgent" in context_tags("The window is not urgent. The boiler leak is an emergency.")


def test_store_memory_gives_topic_tags_within_bounds(tmp_path: Path) -> None:
    # The fake embedder relates nothing, so the on-topic floor is off: the count and the cut are what is tested.
    settings = Settings(home=tmp_path, tag_on_topic=-1.0)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings) as mem:
        out = mem.store_memory("My sister Clara lives in Lyon and teaches piano at the conservatory.")
        tags = out["analysis"]["generated_tags"]
        assert {"clara", "lyon", "piano"} <= set(tags) and not any("lives" in t for t in tags)
        long = mem.store_memory(
            "Meeting notes: the marketing team wants the launch moved; engineering says the payments integration "
            "needs three more weeks; legal reviews the terms of service; finance asks about the budget, the "
            "pricing page, the onboarding emails, the analytics dashboard and the support rota."
        )
        assert 2 <= len(long["analysis"]["generated_tags"]) <= 6
        given = mem.store_memory("Buy oat milk", {"additional_tags": ["a", "b", "c", "d", "e", "f"]})
        assert {"a", "b", "c", "d", "e", "f"} <= set(given["analysis"]["generated_tags"])  # never cut


def test_a_listed_variant_is_filed_under_the_tag_in_use(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, tag_on_topic=-1.0)
    with Memory(tmp_path / "v.db", embedder=FakeEmbedder(), settings=settings) as mem:
        mem.store_memory("The children start swimming lessons in May.")
        later = mem.store_memory("The kids loved the aquarium.")["analysis"]["generated_tags"]
        assert "children" in later and "kids" not in later


@pytest.mark.parametrize(
    ("keep", "other", "similarity", "reason"),
    [
        ("machine-learning", "ml", 0.37, "abbreviation"),  # initials, however far the model reads them
        ("user-experience", "ux", 0.42, "abbreviation"),  # x for a word starting "ex"
        ("mongodb", "mongo", 0.82, "spelling"),  # a software name and its suffix
        ("postgresql", "postgres-database", 0.89, "repeat"),  # the name with its class
        ("figma", "figma-app", 0.76, "repeat"),
        ("grey", "gray", 0.97, "spelling"),
        ("theatre", "theater", 0.95, "spelling"),
        ("catalogue", "catalog", 0.85, "spelling"),
        ("children", "kids", 0.89, "variant"),
        ("application", "apps", 0.68, "variant"),
        ("documentation", "docs", 0.5, "variant"),
    ],
)
def test_consolidation_finds_what_users_create(keep: str, other: str, similarity: float, reason: str) -> None:
    assert same_tag(keep, other, similarity) == reason


@pytest.mark.parametrize(
    ("a", "b", "similarity"),
    [
        ("car-insurance", "ci", 0.17),  # initials the model does not relate at all
        ("maximum", "mm", 0.32),  # two letters fit many words
        ("staging", "staging-database", 0.75),  # a common word with a class is narrower
        ("grandma", "grandpa", 0.9),  # one letter for another is another word
        ("bike", "biking", 0.81),  # a thing and the activity
        ("wife", "husband", 0.87),
        ("python2", "python3", 0.95),
        ("functional", "func", 0.44),  # a clip far in meaning
        ("core", "core-js", 0.64),  # a package named after a word
        ("java", "javascript", 0.41),
        ("ui", "ux", 0.39),
    ],
)
def test_consolidation_keeps_apart_what_only_looks_alike(a: str, b: str, similarity: float) -> None:
    assert same_tag(a, b, similarity) is None and same_tag(b, a, similarity) is None


def test_variant_rules() -> None:
    assert initials("user-experience") == {"ue", "ux"} and initials("python") == frozenset()
    assert class_repeat("postgres-database") == "postgres" and class_repeat("python") is None
    assert listed_together("pull-requests", "pr") and not listed_together("pull-request", "pdf")


def _rows(similar: dict[tuple[str, str], float], tags: list[str]) -> list[TagRow]:
    """Tag rows whose embeddings have the given cosines (others near zero), built on orthogonal axes."""
    dim = 64
    rng = np.random.default_rng(0)
    vectors = {t: np.zeros(dim, dtype=np.float32) for t in tags}
    for i, t in enumerate(tags):
        vectors[t][i] = 1.0
    for (a, b), cos in similar.items():  # b leans towards a
        vectors[b] = cos * vectors[a] + np.sqrt(1 - cos**2) * vectors[b]
    now = datetime.now(UTC)
    assert rng is not None
    return [TagRow(t, 10 - i, now, now, vector=vectors[t].astype(np.float32)) for i, t in enumerate(tags)]


def test_consolidate_links_abbreviations_far_below_the_similarity_scan() -> None:
    tags = ["machine-learning", "car-insurance", "continuous-integration", "ml", "ci", "kids", "children"]
    rows = _rows({("machine-learning", "ml"): 0.37, ("continuous-integration", "ci"): 0.39}, tags)
    merges = {(m.tag, m.into) for m in consolidate(rows)}
    assert ("ml", "machine-learning") in merges
    assert not any("ci" in pair for pair in merges)  # the initials of two tags: car-insurance too
    assert ("kids", "children") in merges or ("children", "kids") in merges  # listed as one thing
    assert not any("car-insurance" in pair for pair in merges)
    plan = consolidate(rows)
    assert all(m.why and m.tag in m.why and m.into in m.why for m in plan)


def test_initials_standing_for_two_tags_fold_into_neither() -> None:
    tags = ["press-release", "public-relations", "pr", "angular", "angularjs"]
    rows = _rows(
        {("press-release", "pr"): 0.45, ("public-relations", "pr"): 0.4, ("angular", "angularjs"): 0.85}, tags
    )
    merges = {(m.tag, m.into) for m in consolidate(rows)}
    assert not any("pr" in pair for pair in merges)  # the list does not say which
    assert ("angularjs", "angular") not in merges  # two frameworks: "js" is no suffix of the same name


def test_rename_tag_renames_merges_and_rolls_back(tmp_path: Path) -> None:
    with Memory(tmp_path / "r.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        a = mem.remember("The k8s cluster needs more nodes", tags=["k8s", "ops"]).id
        b = mem.remember("Kubernetes upgrade on Friday", tags=["kubernetes"]).id
        merged = mem.rename_tag("k8s", "Kubernetes")
        assert merged["new"] == "kubernetes" and merged["merged"] and merged["memories"] == 1
        assert mem.get(a).tags == ("kubernetes", "ops") and mem.get(b).tags == ("kubernetes",)
        rows = {r.tag: r for r in mem.store.tags(("active", "merged", "archived"))}
        assert rows["k8s"].status == "merged" and rows["k8s"].merged_into == "kubernetes"
        assert rows["kubernetes"].usage_count == 2
        renamed = mem.run_tool("rename_tag", old="ops", new="operations")
        assert not renamed["merged"] and mem.get(a).tags == ("kubernetes", "operations")
        mem.rollback(renamed["operation_id"])
        assert mem.get(a).tags == ("kubernetes", "ops") and mem.store.tag("operations") is None
        mem.rollback(merged["operation_id"])
        assert mem.get(a).tags == ("k8s", "ops") and mem.store.tag("k8s").status == "active"  # type: ignore[union-attr]


def test_rename_tag_keeps_automatic_tags_automatic(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        out = mem.store_memory("The conservatory in Lyon hired a new piano teacher.")
        tag = out["analysis"]["generated_tags"][0]
        mem.rename_tag(tag, "music-school")
        record = mem.get(out["memory_id"])
        assert "music-school" in record.tags and "music-school" in record.metadata["auto_tags"]


def test_rename_tag_refuses_bad_input_and_changes_nothing(tmp_path: Path) -> None:
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as mem:
        kept = mem.remember("Budget review", tags=["budget"]).id
        with pytest.raises(NotFound):
            mem.rename_tag("nothing-like-it", "budget")
        with pytest.raises(InvalidInput) as empty:
            mem.rename_tag("budget", "!!!")
        assert empty.value.field == "new"
        with pytest.raises(InvalidInput) as same:
            mem.rename_tag("budget", "Budget")
        assert same.value.field == "new"
        with pytest.raises(InvalidInput) as long:  # cut to 64 letters it would be another name than asked
            mem.rename_tag("budget", "quarterly-" * 8)
        assert long.value.field == "new" and "64" in str(long.value)
        assert mem.rename_tag("budget", "b" * 64)["new"] == "b" * 64  # the longest a tag may be still renames
        mem.rename_tag("b" * 64, "budget")
        with pytest.raises(InvalidInput):
            mem.run_tool("rename_tag", old="budget")  # new is required
        # only the two allowed renames ran
        assert mem.get(kept).tags == ("budget",) and len(mem.store.operations()) == 2
