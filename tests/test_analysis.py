"""Content and query analysis, and the tag rules, without the model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.lang import analysis, timewords
from engram.lang.anchors import event_anchor
from engram.recall import intent as intents
from engram.recall import query as questions
from engram.tags.naming import is_abbreviation, kept_apart, key, same_tag

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)  # a Sunday


def day(m: int, d: int, y: int = 2026) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "after", "before"),
    [
        ("what did I do yesterday", day(11, 21), day(11, 22)),
        ("notes from last week", day(11, 9), day(11, 16)),
        ("meetings in March", day(3, 1), day(4, 1)),
        ("anything since Monday", day(11, 16), None),
        ("what happened 2 days ago", day(11, 20), day(11, 21)),
        ("the party a week ago", day(11, 12), day(11, 19)),  # the week around the 15th
        ("who came last Saturday", day(11, 21), day(11, 22)),
        ("the call last Sunday", day(11, 15), day(11, 16)),  # today is a Sunday: the one before
        ("after 2024-01-05", day(1, 6, 2024), None),
        ("before June", None, day(6, 1)),
        ("trips in 2024", day(1, 1, 2024), day(1, 1, 2025)),
        ("on 3 May", day(5, 3), day(5, 4)),
        ("what did I read recently", datetime(2026, 11, 8, 12, tzinfo=UTC), None),
        # A named date is the more specific: "recently" then adds nothing.
        ("the cake she baked recently in May 2022", day(5, 1, 2022), day(6, 1, 2022)),
        ("what he recently watched on October 6, 2022", day(10, 6, 2022), day(10, 7, 2022)),
        # Chinese, read as the same phrases
        ("我昨天说了什么", day(11, 21), day(11, 22)),
        ("上周的会议记录", day(11, 9), day(11, 16)),
        ("上周六谁来了", day(11, 21), day(11, 22)),
        ("两天前发生了什么", day(11, 20), day(11, 21)),
        ("三个月前的体检", day(8, 9), day(9, 8)),
        ("过去两周的开销", datetime(2026, 11, 8, 12, tzinfo=UTC), None),
        ("三月的会议", day(3, 1), day(4, 1)),
        ("十二月以来", day(12, 1, 2025), None),
        ("2024年的旅行", day(1, 1, 2024), day(1, 1, 2025)),
        ("2024年3月5日那天", day(3, 5, 2024), day(3, 6, 2024)),
        ("5月3号之前", None, day(5, 3)),
        ("2024年以前的照片", None, day(1, 1, 2024)),  # before 2024, not 2,024 years ago
    ],
)
def test_time_expressions(query: str, after: datetime | None, before: datetime | None) -> None:
    found = timewords.time_range(query, NOW)
    assert found is not None and (found.after, found.before) == (after, before)
    assert found.phrase in query


@pytest.mark.parametrize(
    "query",
    [
        "May said hello",
        "march on",
        "what is my favourite colour",
        "the second item",
        "附近的天气",
        "三个苹果",
        "十三月",
    ],
)
def test_no_time_where_there_is_none(query: str) -> None:
    assert timewords.time_range(query, NOW) is None


def test_importance_orders_trivial_personal_urgent() -> None:
    trivial = analysis.analyse("ok sure")
    personal = analysis.analyse("I'm allergic to peanuts and shellfish.")
    urgent = analysis.analyse("URGENT: the visa form is due Friday 5pm, don't forget.")
    assert trivial.importance < personal.importance < urgent.importance == 5
    assert "deadline" in urgent.indicators and "urgent" in urgent.context_tags


def test_entities_and_concepts() -> None:
    found = analysis.analyse(
        "Paid $120 to Acme Corp on 2024-05-03; see https://acme.example/invoice and parse_invoice."
    )
    kinds = {(e.text, e.kind) for e in found.entities}
    assert {("$120", "money"), ("2024-05-03", "date"), ("parse_invoice", "code")} <= kinds
    assert any(e.kind == "url" for e in found.entities)
    assert (
        analysis.concepts("The React hooks migration for the billing dashboard")[0]
        .lower()
        .startswith("react")
    )


def test_chinese_concepts_are_its_words() -> None:
    found = analysis.concepts("我们决定用PostgreSQL代替MongoDB做分析系统的数据库。")
    assert {"PostgreSQL", "MongoDB", "数据库"} <= set(found)
    assert all(len(c) <= 4 or c.isascii() for c in found)  # words, not the sentence
    meeting = "我们明天上午九点在北京开会。"
    assert "北京" in analysis.topics(analysis.concepts(meeting), meeting)  # two characters are a word
    assert (
        analysis.analyse("我对花生过敏。").importance > analysis.analyse("好的").importance
    )  # not one "word"


def test_chinese_importance_reads_its_dates_urgency_and_decisions() -> None:
    plain = analysis.analyse("公司的无线网络密码是向日葵42。")
    dated = analysis.analyse("我们明天上午九点在北京开会。")
    urgent = analysis.analyse("紧急 周五之前要把报销单交给财务 别忘了。")
    decided = analysis.analyse("我们决定用PostgreSQL代替MongoDB。")
    assert plain.importance < dated.importance < urgent.importance == 5
    assert {"deadline", "urgent", "explicit-important"} <= set(urgent.indicators)
    assert (
        "decision" in decided.indicators and "personal-fact" in analysis.analyse("我对花生过敏。").indicators
    )
    assert analysis.analyse("我有一点累。").indicators == ()  # 一点 is "a little", not one o'clock
    # A little Chinese in English text leaves the English keyphrases to yake.
    assert analysis.concepts("Meeting Li Wei at the Beijing office about the 北京 launch")[0][0].isascii()


def test_intents_and_event_anchors() -> None:
    assert intents.intent("what do I need to do this week") == "remind"
    assert intents.intent("show me notes similar to this one") == "show_similar"
    assert intents.intent("when did we ship v2") == "timeline"
    assert intents.intent("where is the config") == "find"
    anchor = event_anchor("what did we agree before the launch?")
    assert anchor is not None and (anchor.phrase, anchor.relation) == ("the launch", "before")
    # Phrasal verbs name no event: "looks after our dog" filtered to what was said after a memory about it.
    for query in (
        "Who looks after our pet while we're abroad?",
        "She was named after her aunt",
        "he takes after his father",
    ):
        assert event_anchor(query) is None, query
    assert not intents.asks_for_memories(questions.query_concepts("What did I learn")), "learning is a topic"
    assert intents.asks_for_memories(questions.query_concepts("what did I tell you"))


def test_tag_rules() -> None:
    assert analysis.normalize_tag("React Hooks!") == "react-hooks" and analysis.normalize_tag("C++") == "c++"
    assert key("meetings") == key("meeting") and key("e-mail") == key("email")
    assert is_abbreviation("ml", "machine-learning") and is_abbreviation("js", "javascript")
    assert not is_abbreviation("java", "javascript", {"java"}.__contains__)  # a word of its own
    # A clip is bounded by keeping under half of the word, not by its own length; a skeleton stays short.
    assert is_abbreviation("config", "configuration") and is_abbreviation("configs", "configuration")
    assert not is_abbreviation("cnfgrtn", "configuration")
    assert not is_abbreviation("access", "accessorize")  # "acces" is no clip: a final ss is not a plural
    assert same_tag("kubernetes", "k8s", 0.1) == "abbreviation"
    assert same_tag("java", "prefers-java", 0.95) is None
    assert same_tag("python", "pytorch", 0.4) is None


def test_consolidation_keeps_apart_what_embeddings_only_relate() -> None:
    vocabulary = {"add", "max", "java"}.__contains__  # whole words of the model's vocabulary
    assert (
        same_tag("python", "py", 0.65, vocabulary) == "variant"
    )  # a clip this far only as listed (variants.txt)
    assert same_tag("configuration", "config", 0.88, vocabulary) == "abbreviation"
    assert (
        same_tag("functional", "func", 0.44, vocabulary) is None
    )  # a clip fits many words: the model decides
    assert same_tag("additional", "add", 0.65, vocabulary) is None  # a word of its own, not a clip
    assert same_tag("ending-points", "end", 0.65, vocabulary) is None  # a skeleton stands for one word
    assert same_tag("warm-ocean-currents", "cold-ocean-currents", 0.9) is None  # one word swapped in place
    assert same_tag("microsoft-excel", "google-sheets", 0.85) is None  # no word in common
    assert same_tag("javascript-framework", "js-framework", 0.85) == "abbreviation"
    assert same_tag("marine-conservation-efforts", "supporting-marine-conservation", 0.9) == "similarity"
    assert same_tag("colour", "color", 0.85) == "spelling" and same_tag("car", "cat", 0.85) is None
    assert (
        same_tag("meetings", "meeting", 0.9) == "spelling" and same_tag("digitizing", "digital", 0.46) is None
    )
    # Shared words told apart by others name siblings, however close (pairs an earlier rule set merged).
    assert same_tag("smart-light-bulbs", "non-smart-bulbs", 0.88) is None
    assert same_tag("fabric-like-silk", "fabric-like-cotton", 0.83) is None


def test_a_concept_is_not_filed_under_a_sibling_tag() -> None:
    # Siblings are as close in the model as synonyms (wife / husband 0.87, kids / children 0.89): only spelling,
    # inflection or an abbreviation files a word under another.
    for tag, concept in [
        ("english", "spanish"),
        ("wife", "husband"),
        ("red", "blue"),
        ("sydney", "melbourne"),
        ("production-database-runs", "staging-database-runs"),
        ("medium-sized-spaces", "small-spaces"),
    ]:
        assert kept_apart(tag, concept), (tag, concept)
    for tag, concept in [
        ("colors", "colour"),
        ("center", "centre"),
        ("woman", "women"),
        ("yoga", "aerial-yoga"),
        ("javascript-framework", "js-framework"),
        ("book-shelf", "bookcase"),
    ]:
        assert not kept_apart(tag, concept), (tag, concept)


def test_consolidation_keeps_apart_compounds_prefixes_and_derived_words() -> None:
    # Pairs from real npm keywords that an earlier rule set merged; each pair's cosine as the model has it.
    vocabulary = {"match", "ignore", "events", "types"}.__contains__
    assert same_tag("jsonschema", "json", 0.65, vocabulary) is None  # json + a word: narrower, not a clip
    assert same_tag("npmignore", "npm", 0.61, vocabulary) is None
    assert same_tag("fsevents", "fs", 0.64, vocabulary) is None
    assert same_tag("argparse", "args", 0.65, vocabulary) is None  # "parse" is a dictionary word
    assert same_tag("https", "http", 0.71) is None  # a prefix is no consonant skeleton
    assert same_tag("wsl", "ws", 0.66) is None
    assert same_tag("getprototypeof", "setprototypeof", 0.82) is None  # first letter changed: another word
    assert same_tag("artist", "arts", 0.6) is None  # an inflected word (art) is no coined skeleton
    assert same_tag("javascript", "js", 0.83) == "abbreviation"  # while a coined one is
    assert same_tag("function", "functional", 0.66) is None  # one stem, another word
    assert same_tag("serializer", "serial", 0.73) is None and same_tag("humanize", "human", 0.71) is None
    # What stays: a clip that leaves a fragment, inflections the dictionary knows, and regular endings of
    # words it does not know when the embeddings agree as closely as any merged pair.
    assert same_tag("telecommunications", "telecom", 0.9, vocabulary) == "abbreviation"
    assert (
        same_tag("parsing", "parse", 0.7) == "spelling" and same_tag("retries", "retry", 0.62) == "spelling"
    )
    assert same_tag("args", "arg", 0.91) == "spelling" and same_tag("utils", "util", 0.81) == "spelling"
    # An activity is not the thing its verb is made from: a match is no matching, a bike no biking.
    assert same_tag("match", "matching", 0.7) is None and same_tag("bike", "biking", 0.81) is None


def test_a_concept_is_filed_under_a_broader_tag_never_a_narrower_one_or_another_word() -> None:
    import numpy as np

    from engram.tags.plan import plan_tags
    from engram.tags.vocabulary import Vocabulary

    rng = np.random.default_rng(3)
    base = rng.standard_normal((2, 32)).astype(np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    vocabulary = Vocabulary(["talent-show", "kiwi-crate"], base)
    near = base + 0.05 * rng.standard_normal((2, 32)).astype(np.float32)
    near /= np.linalg.norm(near, axis=1, keepdims=True)
    assert np.all(np.sum(near * base, axis=1) >= 0.7)  # each concept is close enough to map
    plan = plan_tags(["talent", "kiwi-crate-magazine"], near, vocabulary, [])
    # "talent" is not the talent show; the magazine is filed under the topic it belongs to.
    assert plan.tags == ("talent", "kiwi-crate") and plan.mapped == {"kiwi-crate-magazine": "kiwi-crate"}
    assert plan.new == ("talent",)
    # Nor under another word on its stem, which the model finds close from shared word pieces; an inflection of
    # the same word is still that tag.
    vocabulary = Vocabulary(["gluten", "meeting"], base)
    plan = plan_tags(["glutes", "meetings"], near, vocabulary, [])
    assert plan.tags == ("glutes", "meeting") and plan.mapped == {"meetings": "meeting"}


def test_a_large_vocabulary_answers_from_its_packed_copy_like_the_full_product() -> None:
    import numpy as np
    import pytest

    from engram.tags.vocabulary import PACK_AT, Vocabulary

    rng = np.random.default_rng(7)
    rows = rng.standard_normal((PACK_AT + 500, 64)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    names = [f"tag-{i}" for i in range(len(rows))]
    vocabulary = Vocabulary(names, rows)
    queries = rows[[3, 1000, PACK_AT + 10]] + 0.05 * rng.standard_normal((3, 64)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    rough, bound = vocabulary._approximate(queries)
    assert vocabulary._packed[1] == len(rows)  # packed now
    full = queries @ rows.T
    assert np.abs(rough - full).max() > 0 and np.all(np.abs(rough - full) <= bound)  # rounded, within bounds
    closest = vocabulary.closest_many(queries)
    assert [c[0] for c in closest if c] == ["tag-3", "tag-1000", f"tag-{PACK_AT + 10}"]
    assert closest[0] is not None and closest[0][1] == pytest.approx(float(full[0, 3]), abs=1e-6)
    # The k nearest and their cosines are those of the full product, even among near ties.
    ties = np.stack([rows[5], rows[5] + 0.001 * rows[6], rows[5] + 0.002 * rows[7]])
    tied = Vocabulary(
        [*names, "near-a", "near-b"],
        np.vstack([rows, ties[1:] / np.linalg.norm(ties[1:], axis=1, keepdims=True)]),
    )
    for vocab, matrix, qs in ((vocabulary, rows, queries), (tied, tied.matrix, ties[:1])):
        expected = qs @ matrix.T
        for q, near in enumerate(vocab.nearest(qs, 4)):
            top = np.argsort(-expected[q])[:4]
            assert [name for name, _ in near] == [vocab.names[j] for j in top]
            assert [c for _, c in near] == pytest.approx(expected[q, top].tolist(), abs=1e-6)
    # A tag added after packing is read from the full-precision rows.
    extra = rng.standard_normal(64).astype(np.float32)
    extra /= np.linalg.norm(extra)
    vocabulary.add("late-tag", extra)
    found = vocabulary.closest(extra)
    assert found is not None and found[0] == "late-tag" and found[1] == pytest.approx(1.0, abs=1e-6)


def test_consolidation_asks_only_pairs_that_could_merge_and_finds_what_asking_all_pairs_finds() -> None:
    import random
    from datetime import UTC, datetime

    import numpy as np

    from engram import FakeEmbedder
    from engram.store.values import TagRow
    from engram.tags.consolidate import consolidate, named_twice, rank

    words = [
        "machine-learning",
        "machinelearning",
        "ml",
        "k8s",
        "kubernetes",
        "i18n",
        "internationalization",
        "meetings",
        "meeting",
        "colour",
        "color",
        "javascript",
        "js",
        "java",
        "e-mail",
        "email",
        "python",
        "py",
        "python3",
        "db",
        "database",
        "databases",
        "cold-ocean-currents",
        "warm-ocean-currents",
    ]
    rng = random.Random(3)
    tags = words + [f"{rng.choice(words)}-{rng.choice(words)}" for _ in range(60)]
    tags = list(dict.fromkeys(tags))
    vectors = FakeEmbedder(dim=32).embed_batch([t.replace("-", " ") for t in tags])
    now = datetime.now(UTC)
    rows = [TagRow(t, rng.randint(1, 9), now, now, vector=v) for t, v in zip(tags, vectors, strict=True)]
    # Every pair asked, in the same order: the rule as written.
    order = sorted(range(len(rows)), key=lambda i: rank(rows[i]), reverse=True)
    claimed: dict[int, int] = {}
    expected = []
    doubled = named_twice(tags)  # a name opening two tags folds into neither, whichever pairs are asked
    for i in order:
        if i in claimed:
            continue
        claimed[i] = i
        for j in order:
            if j not in claimed:
                reason = same_tag(tags[i], tags[j], float(np.float32(vectors[i] @ vectors[j])))
                if reason is not None and not (reason == "narrower" and doubled(tags[i], tags[j])):
                    claimed[j] = i
                    expected.append((tags[j], tags[i], reason))

    # The same groups (consolidation then keeps a group under its long form rather than an abbreviation).
    def groups(merges: list[tuple[str, str]]) -> set[frozenset[str]]:
        members: dict[str, set[str]] = {}
        for tag, into in merges:
            members.setdefault(into, {into}).add(tag)
        return {frozenset(m) for m in members.values()}

    found = [(m.tag, m.into) for m in consolidate(rows)]
    assert groups(found) == groups([(t, i) for t, i, _ in expected]) and len(found) >= 8


def test_consolidation_keeps_the_long_form_even_when_the_abbreviation_is_used_more() -> None:
    from datetime import UTC, datetime

    import numpy as np

    from engram.store.values import TagRow
    from engram.tags.consolidate import consolidate

    now, same = datetime.now(UTC), np.array([1.0, 0.0], dtype=np.float32)
    rows = [
        TagRow("auth", 40, now, now, vector=same),
        TagRow("authentication", 3, now, now, vector=same),
        TagRow("authentications", 2, now, now, vector=same),
        TagRow("authed", 5, now, now, vector=same),
    ]
    merges = {m.tag: (m.into, m.reason) for m in consolidate(rows)}
    # "auth" is used most and claims the others, but the group is kept under the word it abbreviates.
    assert merges == {
        "auth": ("authentication", "abbreviation"),
        "authentications": ("authentication", "abbreviation"),
        "authed": ("authentication", "spelling"),
    }


def test_matched_concepts_are_whole_words_of_most_of_a_phrase() -> None:
    content = "My sister's email is anna@example.com and her phone is 415-555-0132"
    found = questions.matched_concepts(
        ["sister phone number", "dentist appointment", "email", "phone", "family"],
        content,
        ["family", "contact"],
    )
    assert found == ["email", "family", "phone", "sister phone number"]  # 2 of 3 words; a tag
    assert (
        questions.matched_concepts(["phone", "dentist appointment"], "Call the telephone company", []) == []
    )
    assert questions.matched_concepts(["dentist appointment"], "Booked an appointment", []) == []  # 1 of 2


def test_tags_are_cut_to_words_that_name_a_topic() -> None:
    content = "Wow, I started hiking and we use React daily; renew passport; deep learning is awesome, month after month"
    concepts = [
        "started hiking",
        "awesome",
        "renew passport",
        "React",
        "deep learning",
        "last month",
        "Wow",
        "amazing",
    ]
    # A verb opening a run is left out, an adjective or interjection alone is no tag, nor is a word that only
    # says when; a verb-only word the text writes as a name stays ("react" alone is a verb to the dictionary).
    assert analysis.topics(concepts, content) == ["hiking", "passport", "React", "deep learning"]
    # A word that is only a verb or an adverb ends a run, wherever it stands in it.
    assert analysis.topics(
        ["expenses arise", "turtles always cheer"], "before expenses arise; turtles always cheer"
    ) == ["expenses", "turtles", "cheer"]
    # So does a verb agreeing with the noun before it; a plural noun there names the thing (meeting notes).
    said = "My wife loves hiking; the team meeting notes; Git rebase rewrites history"
    assert analysis.topics(["wife loves hiking", "team meeting notes", "rebase rewrites history"], said) == [
        "wife",
        "hiking",
        "team meeting notes",
        "rebase",
        "history",
    ]
    # A thing and its example are two topics.
    assert analysis.topics(["fabric like silk"], "I need fabric like silk") == ["fabric", "silk"]


def test_names_are_capitalised_words_that_open_no_sentence_turn_or_list_item() -> None:
    assert analysis.named("Joanna: Absolutely, it means a lot, Nate.") == {"nate"}
    assert (
        analysis.named("**Check your car:** If you drove to the party\n* Alternatively, walk\n- Install it")
        == set()
    )
    assert analysis.named("I met Anna in Paris. Then we flew to New York (Svadhisthana)") == {
        "anna",
        "paris",
        "new york",
        "svadhisthana",
    }


def test_a_query_asking_for_things_to_do_names_no_topic() -> None:
    for query in (
        "What do I need to do?",
        "what's due soon",
        "show my reminders",
        "any open tasks?",
        "my to-do list",
    ):
        assert intents.intent(query) == "remind"
        assert intents.names_no_topic(questions.query_concepts(query)), query
    assert not intents.names_no_topic(questions.query_concepts("when is the grant report due"))
    # Asked to recall something, not for things to do.
    assert intents.intent("Can you remind me what Sarah said about the roadmap?") == "find"
    assert intents.intent("What is Melanie's hand-painted bowl a reminder of?") == "find"
    assert intents.intent("remind me to buy milk") == "remind"


def test_a_name_longer_than_a_keyphrase_is_kept_whole() -> None:
    found = analysis.concepts(
        "**Tommy Bahama Island Hopper Bag**: Tommy Bahama is known for their stylish bags."
    )
    # yake's phrases stop at three words; the parts of the name give way to the whole of it.
    assert "Tommy Bahama Island Hopper Bag" in found
    assert not {"Tommy Bahama Island", "Bahama Island Hopper", "Island Hopper Bag"} & set(found)
    assert (
        analysis.whole_name("Double Cash Card", "I use the Citi Double Cash Card's rewards")
        == "Citi Double Cash Card"
    )
    assert analysis.whole_name("African Violets", "Since African Violets need light") == "African Violets"
    assert analysis.whole_name("Nickel Boys", 'and "The Nickel Boys", are') == "Nickel Boys"
    assert (
        analysis.whole_name("machine learning", "Machine Learning Basics and machine learning")
        == "machine learning"
    )


def test_a_question_that_counts_or_sums_is_told_apart() -> None:
    for query in (
        "How many magazine subscriptions do I have?",
        "how often do I go to yoga",
        "What is the total weight of the feed I bought?",
        "what did the trips cost altogether",
    ):
        assert questions.counts(query), query
    for query in ("Where did I buy the feed?", "How much did the bag of feed cost?", "a totally new plan"):
        assert not questions.counts(query), query


def test_urgency_denied_adds_no_importance() -> None:
    said, denied = (
        analysis.analyse("Fix the gutter, urgent."),
        analysis.analyse("Fix the gutter, not urgent."),
    )
    assert said.urgency == ("urgent",) and denied.urgency == ()
    assert denied.importance == said.importance - 1
