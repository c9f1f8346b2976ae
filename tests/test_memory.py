from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engram import (
    FakeEmbedder,
    InvalidInput,
    Kind,
    Memory,
    ModelMismatch,
    NotFound,
    RecallMode,
    Settings,
    Status,
)
from engram.recall.query import read_query
from engram.store.values import Filter


def test_exact_duplicate_returns_existing_id_and_says_so(mem: Memory) -> None:
    first = mem.remember("The deploy script lives in tools/deploy.sh")
    again = mem.remember("  The deploy script lives in tools/deploy.sh \n")
    assert again.outcome == "duplicate" and again.id == first.id and not again.created
    assert mem.stats()["memories"] == 1


def test_same_text_in_another_scope_is_a_new_memory(mem: Memory) -> None:
    a = mem.remember("Use four spaces", scope="project", scope_id="a")
    b = mem.remember("Use four spaces", scope="project", scope_id="b")
    assert a.id != b.id and b.created


def test_near_duplicate_merges_with_the_seed_rule(mem: Memory) -> None:
    first = mem.remember("the staging server restarts every night at two", importance=0.8)
    second = mem.remember("The staging server restarts every night at two!", importance=0.3)
    assert second.outcome == "merged" and second.merged_into == first.id
    merged = mem.get(first.id)
    assert merged.content == "The staging server restarts every night at two!"
    assert merged.importance == pytest.approx(0.9 * 0.8 + 0.1 * 0.3)
    assert merged.validity_score == 1.0  # +0.01, capped at 1
    assert mem.stats()["memories"] == 1
    assert mem.store.audit_log(first.id)[0]["action"] == "merge"


def test_a_dated_near_duplicate_dates_the_merge_by_its_own_time(mem: Memory) -> None:
    # A backfill says when each text was written: the merge must not count as written today, or the age
    # scores would rank the merged memory as the newest of all.
    may, june = datetime(2023, 5, 8, tzinfo=UTC), datetime(2023, 6, 1, tzinfo=UTC)
    first = mem.remember("the staging server restarts every night at two", created_at=may)
    merged = mem.remember("The staging server restarts every night at two!", created_at=june)
    assert merged.merged_into == first.id and mem.get(first.id).updated_at == june
    # An older wording still replaces the text (seed 000), but the update time never goes back.
    older = mem.remember("the staging server restarts every night at two.", created_at=may)
    assert older.merged_into == first.id and mem.get(first.id).updated_at == june
    before = datetime.now(UTC)
    undated = mem.remember("The staging server restarts every night at two")
    assert undated.merged_into == first.id and mem.get(first.id).updated_at >= before


def test_defaults(mem: Memory) -> None:
    record = mem.get(mem.remember("plain fact about tides").id)
    assert (record.scope.value, record.importance, record.validity_score, record.is_negative) == (
        "global",
        0.5,
        1.0,
        False,
    )
    assert record.kind_confidence is not None and record.kind_scores


def test_explicit_kind_and_prefix_override_classification(mem: Memory) -> None:
    explicit = mem.get(mem.remember("buy oat milk", kind="reference").id)
    assert (explicit.kind, explicit.kind_method) == (Kind.REFERENCE, "explicit")
    prefixed = mem.get(mem.remember("task: call the plumber").id)
    assert (prefixed.kind, prefixed.kind_method, prefixed.content) == (
        Kind.TASK,
        "prefix",
        "call the plumber",
    )
    unknown_prefix = mem.get(mem.remember("Note to self: weather: sunny").id)
    assert unknown_prefix.content == "Note to self: weather: sunny"


def test_long_content_is_chunked_with_overlap(tmp_path: Path) -> None:
    settings = Settings(chunk_tokens=20, chunk_overlap=5)
    words = [f"w{i}" for i in range(50)]
    with Memory(tmp_path / "c.db", embedder=FakeEmbedder(), settings=settings) as mem:
        result = mem.remember(" ".join(words))
        parent = mem.get(result.id)
        chunks = mem.store.children(result.id)
        assert parent.content == " ".join(words) and parent.token_count == 50
        assert [c.chunk_index for c in chunks] == [0, 1, 2]
        assert [c.token_count for c in chunks] == [20, 20, 20]
        assert chunks[0].content.split()[-5:] == chunks[1].content.split()[:5]  # 5-token overlap
        assert chunks[-1].content.endswith("w49")
        assert all(c.parent_id == result.id for c in chunks)
        hits = mem.recall("w22 w23 w24", mode="ranked", limit=3, touch=False)
        assert hits[0].record.parent_id == result.id and hits[0].record.chunk_index == 1
        assert {h.why for h in hits} >= {"match"}


def test_a_document_answers_once_by_its_best_passage_and_says_where_it_sits(tmp_path: Path) -> None:
    settings = Settings(chunk_tokens=10, chunk_overlap=2)
    text = "# Plan\n" + " ".join(f"alpha{i}" for i in range(12)) + "\n## Later\n"
    text += " ".join(f"beta{i}" for i in range(30))
    with Memory(tmp_path / "s.db", embedder=FakeEmbedder(), settings=settings) as mem:
        doc = mem.remember(text).id
        other = mem.remember("beta7 beta8 beta9 gamma").id
        for mode in ("related", "ranked"):
            hits = mem.recall("beta7 beta8 beta9", mode=mode, limit=10, touch=False)
            owners = [h.record.parent_id or h.record.id for h in hits]
            assert owners.count(doc) == 1 and other in owners  # its other passages take no places
            passage = next(h for h in hits if h.record.parent_id == doc).passage
            assert passage is not None and passage.document == doc
            assert 1 < passage.index <= passage.count == len(mem.chunks(doc))
            assert passage.heading == "Later"


def test_recall_bumps_access_but_not_updated_at(mem: Memory) -> None:
    rid = mem.remember("The cat is called Miso").id
    before = mem.get(rid)
    hits = mem.recall("what is the cat called", mode="related")
    assert hits and hits[0].record.id == rid
    after = mem.get(rid)
    assert after.access_count == before.access_count + 1
    assert after.last_accessed_at is not None and after.updated_at == before.updated_at
    mem.recall("what is the cat called", mode="related", touch=False)
    assert mem.get(rid).access_count == after.access_count


def test_a_time_named_in_the_query_favours_the_memories_of_that_time(mem: Memory) -> None:
    june = mem.remember(
        "standup notes: ship the importer",
        scope="project",
        scope_id="a",
        created_at=datetime(2023, 6, 12, tzinfo=UTC),
    ).id
    july = mem.remember(
        "standup notes: ship the importer",
        scope="project",
        scope_id="b",
        created_at=datetime(2023, 7, 28, tzinfo=UTC),
    ).id
    august = datetime(2023, 8, 1, tzinfo=UTC)
    plain = mem.recall("standup notes", mode="ranked", now=august, touch=False)
    assert {h.record.id for h in plain} == {july, june} and all(h.components["time"] == 0.0 for h in plain)
    # A question about neither a time nor recent events: when each was said makes neither the likelier answer.
    assert plain[0].score == pytest.approx(plain[1].score)
    latest = mem.recall("the latest standup notes", mode="ranked", now=august, touch=False)
    assert [h.record.id for h in latest] == [july, june]  # about recent events: the newer, by recency
    named = mem.recall("standup notes in June 2023", mode="ranked", now=august, touch=False)
    assert [h.record.id for h in named] == [june, july]
    assert named[0].components["time"] == 1.0
    assert named[1].components["time"] == pytest.approx(0.5 ** (27 / 30))  # 27 days past June
    # A profile that does not weigh time (lexical: bm25 and overlap alone) leaves the component at 0.
    lexical = mem.recall(
        "standup notes in June 2023", mode="ranked", now=august, touch=False, profile="lexical"
    )
    assert all(h.components["time"] == 0.0 for h in lexical)


def test_recall_keeps_mmr_order_so_a_longer_page_starts_with_the_shorter(mem: Memory) -> None:
    first = mem.remember("tomato seedlings need warm soil and daily water").id
    copy = mem.remember("Tomato seedlings need warm soil and daily water, always").id  # near the first
    other = mem.remember("seedlings: warm soil, daily water").id
    mem.remember("daily water for the lawn")
    query = "tomato seedlings warm soil daily water"
    pages = [[h.record.id for h in mem.recall(query, mode="ranked", limit=n, touch=False)] for n in (2, 3, 4)]
    # MMR picks the other match before the near copy of the first (on SQLite the copy scores higher): a sort by
    # score after MMR would put the copy second on the longer pages only.
    assert pages[1][:2] == pages[0] and pages[2][:3] == pages[1]
    assert pages[0][0] == first and set(pages[1]) == {first, copy, other}
    # A question that counts wants each memory on the topic, however alike: the order is the scores'.
    counting = mem.recall(f"how many times: {query}", mode="ranked", limit=3, touch=False)
    assert [h.score for h in counting] == sorted((h.score for h in counting), reverse=True)


def test_modes_threshold_and_cap(mem: Memory) -> None:
    for i in range(30):
        mem.remember(f"garden note {i}: tomatoes need water and sun number {i}")
    mem.remember("invoices are due on the first monday")
    accurate = mem.recall("tomatoes water sun", mode="accurate", limit=50, touch=False)
    related = mem.recall("tomatoes water sun", mode="related", limit=50, touch=False)
    ranked = mem.recall("tomatoes water sun", mode="ranked", limit=25, touch=False)
    assert 1 <= len(accurate) <= 8 and len(related) <= 12 and len(ranked) == 25
    best = accurate[0].score
    assert all(h.score >= max(0.2, 0.58 * best) for h in accurate[1:])
    assert all(h.score >= max(0.12, 0.35 * related[0].score) for h in related[1:])
    assert len(related) >= len(accurate)


def test_invalidated_and_negative_memories_rank_lower(mem: Memory) -> None:
    good = mem.remember("the office wifi password is on the fridge").id
    stale = mem.remember("the office wifi password is on the whiteboard").id
    neg = mem.remember("the office wifi password is on the door").id
    mem.invalidate(stale)
    mem.invalidate(neg, negative=True)
    hits = {h.record.id: h for h in mem.recall("office wifi password", mode="ranked", limit=3, touch=False)}
    assert hits[stale].score == 0.0 and hits[stale].components["validity"] == 0.0
    assert hits[neg].components["negative_penalty"] == 0.25
    assert hits[good].score > hits[neg].score > hits[stale].score


def test_scope_and_kind_filters(mem: Memory) -> None:
    mem.remember("project alpha uses postgres", scope="project", scope_id="alpha", kind="knowledge")
    mem.remember("project beta uses postgres", scope="project", scope_id="beta", kind="knowledge")
    mem.remember("postgres backup runs nightly", kind="task")
    only_alpha = mem.recall("postgres", scope="project", scope_id="alpha", mode="ranked", touch=False)
    assert [h.record.scope_id for h in only_alpha] == ["alpha"]
    only_tasks = mem.recall("postgres", kind="task", mode="ranked", touch=False)
    assert [h.record.kind for h in only_tasks] == [Kind.TASK]


def test_expired_memories_are_not_recalled(mem: Memory) -> None:
    past = datetime.now(UTC) - timedelta(days=1)
    mem.remember("the promo code SPRING works", expires_at=past)
    mem.remember("the promo code AUTUMN works")
    contents = [h.record.content for h in mem.recall("promo code", mode="ranked", touch=False)]
    assert contents == ["the promo code AUTUMN works"]


def test_forget_deletes_memory_and_chunks(tmp_path: Path) -> None:
    settings = Settings(chunk_tokens=10, chunk_overlap=2)
    with Memory(tmp_path / "f.db", embedder=FakeEmbedder(), settings=settings) as mem:
        rid = mem.remember(" ".join(f"word{i}" for i in range(40))).id
        assert mem.store.children(rid)
        mem.forget(rid)
        with pytest.raises(NotFound):
            mem.get(rid)
        assert mem.store.children(rid) == [] and mem.stats()["chunks"] == 0
        assert mem.recall("word5 word6", mode="ranked", touch=False) == []
        assert mem.store.audit_log(rid)[0]["action"] == "forget"


def test_update_reembeds_new_content(mem: Memory) -> None:
    rid = mem.remember("meeting room is B12").id
    mem.update(rid, content="meeting room is C7", tags=["rooms"])
    hits = mem.recall("C7", mode="ranked", limit=1, touch=False)
    assert hits[0].record.id == rid and hits[0].record.tags == ("rooms",)
    with pytest.raises(InvalidInput) as caught:
        mem.update(rid, importance=4)
    assert caught.value.field == "importance"
    assert mem.get(rid).importance == 0.5


def test_bad_recall_arguments(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match="query"):
        mem.recall("   ")
    with pytest.raises(InvalidInput, match="mode"):
        mem.recall("x", mode="loose")
    with pytest.raises(InvalidInput, match="scope"):
        mem.recall("x", scope="planet")
    with pytest.raises(InvalidInput, match="limit"):
        mem.recall("x", limit=0)


def test_opening_with_another_model_is_an_error_until_reembed(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder=FakeEmbedder(dim=64)) as mem:
        rid = mem.remember("sourdough needs a warm kitchen").id
    with pytest.raises(ModelMismatch, match="reembed"):
        Memory(path, embedder=FakeEmbedder(dim=32, name="other"))
    with Memory(path, embedder=FakeEmbedder(dim=32, name="other"), allow_model_change=True) as mem:
        assert mem.reembed() == 1
        assert mem.recall("sourdough kitchen", mode="ranked", touch=False)[0].record.id == rid
    with Memory(path, embedder=FakeEmbedder(dim=32, name="other")) as mem:
        assert mem.stats()["model"] == "other" and mem.stats()["dim"] == 32


def test_learned_prototypes_are_capped(tmp_path: Path) -> None:
    settings = Settings(kind_learn_above=0.0, kind_fallback_below=0.0, kind_learned_max=3)
    with Memory(tmp_path / "l.db", embedder=FakeEmbedder(), settings=settings) as mem:
        for i in range(6):
            mem.remember(f"distinct memory number {i} about topic {i * 7}")
        learned = [p for p in mem.store.prototypes("kinds") if p.source == "learned"]
        per_kind: dict[str, int] = {}
        for p in learned:
            per_kind[p.label] = per_kind.get(p.label, 0) + 1
        assert learned and max(per_kind.values()) <= 3
        newest = mem.list(limit=1)[0]
        assert any(p.memory_id == newest.id for p in learned)  # oldest dropped first, newest kept


def test_a_batch_keeps_its_learned_prototypes_capped_and_a_failed_batch_keeps_none(tmp_path: Path) -> None:
    settings = Settings(kind_learn_above=0.0, kind_fallback_below=0.0, kind_learned_max=3)
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder(), settings=settings) as mem:
        written = mem.remember_many(
            [{"content": f"distinct memory number {i} about topic {i * 7}"} for i in range(12)]
        )

        def learned() -> list[str]:
            return sorted(p.memory_id or "" for p in mem.store.prototypes("kinds") if p.source == "learned")

        saved = learned()
        per_kind: dict[str, int] = {}
        for p in mem.store.prototypes("kinds"):
            if p.source == "learned":
                per_kind[p.label] = per_kind.get(p.label, 0) + 1
        assert saved and max(per_kind.values()) <= 3
        assert written[-1].id in saved  # oldest dropped first, newest kept
        with pytest.raises(InvalidInput):
            mem.remember_many(
                [{"content": "a fresh memory about kites"}, {"id": written[0].id, "content": "x"}]
            )
        assert learned() == saved  # the failed batch taught nothing that stayed
        in_memory = mem._classifiers.kinds.prototypes().items
        assert sorted(p.memory_id or "" for p in in_memory if p.source == "learned") == saved
        mem.remember("one more distinct memory about rivers")
        assert set(learned()) <= {
            m.id for m in mem.list(limit=100)
        }  # nothing of the failed batch is saved later


def test_ranked_mode_returns_exactly_limit(mem: Memory) -> None:
    mem.remember_many([{"content": f"fact number {i} about rivers"} for i in range(20)])
    assert len(mem.recall("rivers", mode=RecallMode.RANKED, limit=7, touch=False)) == 7


def test_neighbouring_chunks_of_a_memory_are_its_context(tmp_path: Path) -> None:
    settings = Settings(chunk_tokens=20, chunk_overlap=5)
    with Memory(tmp_path / "c.db", settings=settings, embedder=FakeEmbedder()) as mem:
        result = mem.remember(" ".join(f"w{i}" for i in range(50)))
        chunks = mem.store.children(result.id)
        near = mem.store.episode_neighbours([c.id for c in chunks], Filter(scope=None))
        assert near[chunks[0].id] == [chunks[1].id]
        assert sorted(near[chunks[1].id]) == sorted([chunks[0].id, chunks[2].id])
        assert near[chunks[2].id] == [chunks[1].id]


def test_episode_neighbours_are_looked_for_only_around_memories_in_an_episode(tmp_path: Path) -> None:
    """A turn that matches nothing itself joins the candidates beside a turn that matches; a recall whose
    candidates are in no episode asks for no neighbours."""
    with Memory(tmp_path / "n.db", embedder=FakeEmbedder()) as mem:
        mem.remember_many([{"content": f"garden note {i}: roses and tulips in bed {i}"} for i in range(80)])
        asked: list[list[str]] = []
        original = mem.store.episode_neighbours

        def spy(ids: Sequence[str], where: Filter) -> dict[str, list[str]]:
            asked.append(list(ids))
            return original(ids, where)

        mem.store.episode_neighbours = spy  # type: ignore[method-assign]
        now = datetime.now(UTC)
        mem._retriever.scored(read_query("roses garden", now, longest=1000), Filter(scope=None), 1, "default")
        assert asked == []
        question, answer = mem.remember_many(
            [
                {"content": "did you plant the roses in the garden", "episode_id": "e", "sequence_number": i}
                if i == 0
                else {"content": "yes, last friday", "episode_id": "e", "sequence_number": i}
                for i in range(2)
            ]
        )
        found = {
            s.record.id: s
            for s in mem._retriever.scored(
                read_query("roses garden", now, longest=1000), Filter(scope=None), 1, "default"
            )[0]
        }
        assert asked == [[question.id]]  # the one candidate in an episode
        assert found[answer.id].components["context"] > 0
        # The reply takes the geometric mean of its own relevance and its episode's best (the question's);
        # garden notes have no episode: each is its own.
        q, a = found[question.id].components, found[answer.id].components
        best, own = ((0.6 * c["vector"] + 0.2 * c["lexical"]) / 0.8 for c in (q, a))
        assert q["episode"] == pytest.approx(best) and best > own
        assert a["episode"] == pytest.approx((best * own) ** 0.5)
        alone = [s.components for i, s in found.items() if i not in (question.id, answer.id)]
        assert alone and all(
            c["episode"] == pytest.approx((0.6 * c["vector"] + 0.2 * c["lexical"]) / 0.8) for c in alone
        )


def test_text_search_runs_beside_the_query_embedding_with_the_same_result(tmp_path: Path) -> None:
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder()) as mem:
        mem.remember_many([{"content": f"the ferry to island {i} leaves at {i} am"} for i in range(30)])
        threads: set[str] = set()
        search = mem.store.text_facts  # SQLite reads the hits' facts with the text search

        def seen(*args: Any) -> Any:
            threads.add(threading.current_thread().name)
            return search(*args)

        mem.store.text_facts = seen  # type: ignore[method-assign]
        now = datetime.now(UTC)
        beside = [(h.record.id, h.score) for h in mem.recall("ferry to island 7", now=now, touch=False)]
        assert threads and all(name.startswith("engram-text-search") for name in threads)
        with mem.store.atomic():  # inside a write transaction only this thread sees what it wrote
            assert not mem.store.reads_anywhere()
            inline = [(h.record.id, h.score) for h in mem.recall("ferry to island 7", now=now, touch=False)]
        assert threading.current_thread().name in threads
        assert beside == inline


def test_feedback_lifts_a_memory_like_the_best_match(tmp_path: Path) -> None:
    """Pseudo-relevance feedback: a memory sharing no word with the query but much with its best match rises
    above one that merely resembles the query a little; the best match stays first."""

    def ranked(feedback: int) -> list[str]:
        settings = Settings(home=tmp_path / "home", feedback_docs=feedback, feedback_weight=1.0)
        with Memory(":memory:", embedder=FakeEmbedder(), settings=settings) as m:
            for text in (
                "the harbour festival had lantern boats and drummers",
                "lantern boats and drummers filled the night",
                "the ferry timetable changed",
                "my dentist appointment is on tuesday",
            ):
                m.remember(text)
            hits = m.recall("harbour festival", mode="ranked", limit=4, profile="timeless", touch=False)
            # By score: MMR's order would put the memory like the best match behind, for that likeness.
            return [h.record.content for h in sorted(hits, key=lambda h: -h.score)]

    without, with_feedback = ranked(0), ranked(1)
    assert without[0] == with_feedback[0] == "the harbour festival had lantern boats and drummers"
    assert without.index("lantern boats and drummers filled the night") == 3
    assert with_feedback.index("lantern boats and drummers filled the night") == 1
    assert with_feedback.index("the ferry timetable changed") == 2


def test_an_empty_embedder_cache_is_still_the_embedder_used(tmp_path: Path) -> None:
    class EmptyCache(FakeEmbedder):
        """An embedder with a length (vectors it holds), empty so far: falsy, but given."""

        def __init__(self) -> None:
            super().__init__()
            self.calls = 0

        def __len__(self) -> int:
            return 0

        def embed_batch(self, texts: Sequence[str]) -> Any:
            self.calls += 1
            return super().embed_batch(texts)

    given = EmptyCache()
    with Memory(tmp_path / "e.db", embedder=given) as mem:
        mem.remember("the release train leaves on Thursdays")
        assert mem.embedder is given and given.calls >= 1


def test_a_new_memorys_own_tags_are_counted_in_the_tag_registry(mem: Memory) -> None:
    first = mem.remember("Deploy with make release", tags=["deploy", "release"])
    mem.remember("Deploys need a green build", tags=["deploy"])
    assert mem.validate_storage()["ok"], mem.validate_storage()["issues"]
    deploy = mem.store.tag("deploy")
    assert deploy is not None and deploy.usage_count == 2 and deploy.vector is not None
    assert mem.optimize_tags(dry_run=True)["tags_before"] == 2
    mem.forget(first.id)
    # A tag only the forgotten memory carried is erased with it (its name may be the text's words); the others
    # count one memory less.
    assert mem.store.tag("release") is None and mem.validate_storage()["ok"]
    assert mem.store.tag("deploy").usage_count == 1  # type: ignore[union-attr]


def test_a_scope_id_alone_narrows_listing_and_recall(mem: Memory) -> None:
    mem.remember("Billing deploys on Thursdays", scope="project", scope_id="billing")
    mem.remember("Search deploys on Mondays", scope="project", scope_id="search")
    assert [r.content for r in mem.list(scope_id="billing")] == ["Billing deploys on Thursdays"]
    hits = mem.recall("deploys", scope_id="search", mode="ranked", touch=False)
    assert [h.record.content for h in hits] == ["Search deploys on Mondays"]


def test_a_long_memorys_chunks_follow_it_when_it_is_set_aside_or_changed(mem: Memory) -> None:
    long = " ".join(f"Paragraph {i} tells of harbour crane {i} and the ships it loads." for i in range(300))
    parent = mem.remember(long).id
    chunks = mem.store.children(parent)
    assert len(chunks) > 1

    def found() -> set[str]:
        hits = mem.recall("harbour crane ships", mode="ranked", touch=False)
        return {h.record.parent_id or h.record.id for h in hits}

    assert parent in found()
    mem.update(parent, status="rejected")  # a rejected memory was still found through its chunks
    assert parent not in found()
    assert mem.search_memory("harbour crane ships", {"min_relevance": 0})["results"] == []
    mem.update(parent, status="approved", importance=0.9, scope="project", scope_id="port")
    assert {(c.status.value, c.importance, c.scope_id) for c in mem.store.children(parent)} == {
        ("approved", 0.9, "port")
    }
    assert parent in found()


def test_a_long_memory_can_be_edited_and_its_chunks_are_written_again(mem: Memory) -> None:
    long = " ".join(f"Paragraph {i} tells of harbour crane {i} and the ships it loads." for i in range(300))
    parent = mem.remember(long + " Call Ana on +351 912 345 678.").id
    before = mem.store.children(parent)
    with pytest.raises(InvalidInput, match=f"of memory {parent}; update that memory instead"):
        mem.update(before[0].id, status="rejected")  # a chunk's fields are its memory's
    edited = mem.update(parent, content=long + " Call Ana.")  # the phone number cut out of a long text
    after = mem.store.children(parent)
    assert edited.content.endswith("Call Ana.") and len(after) == len(before)
    assert not {c.id for c in after} & {c.id for c in before}
    assert "+351" not in " ".join(c.content for c in after) and after[-1].content.endswith("Call Ana.")
    hits = mem.recall("harbour crane 57 ships", mode="ranked", touch=False)
    assert hits[0].record.parent_id == parent
    short = mem.update(parent, content="The harbour crane is fixed.")  # short again: no chunks left
    assert mem.store.children(parent) == [] and short.token_count < 20
    assert mem.recall("harbour crane fixed", mode="ranked", touch=False)[0].record.id == parent
    assert mem.stats()["memories"] == 1


def test_another_sessions_session_memories_are_not_seen(mem: Memory) -> None:
    mine = mem.remember("Scratch notes go in the wip-parser branch", scope="session", scope_id="s1").id
    shared = mem.remember("The parser branch is protected", scope="project", scope_id="parser").id
    for session, sees in (
        ("s1", True),
        ("s2", False),
        (None, True),
    ):  # no session asking: the library sees all
        hits = {h.record.id for h in mem.recall("parser branch", mode="ranked", touch=False, session=session)}
        found = {
            r["id"]
            for r in mem.search_memory("parser branch", {"min_relevance": 0}, session=session)["results"]
        }
        assert shared in hits and shared in found
        assert (mine in hits, mine in found) == (sees, sees), session
    named = mem.recall("parser branch", mode="ranked", scope_id="s1", session="s2", touch=False)
    assert [h.record.id for h in named] == [mine]


def test_listing_by_tag_reads_the_tag_as_tags_are_stored(mem: Memory) -> None:
    mem.remember("The quarterly numbers are in", tags=["Two Words"])
    assert [r.tags for r in mem.list(tag="Two Words")] == [("two-words",)]
    assert len(mem.list(tag="TWO-WORDS")) == 1


def test_metadata_json_cannot_hold_is_refused_by_name(mem: Memory) -> None:
    for bad in ({"when": datetime.now(UTC)}, {"ratio": float("nan")}):
        with pytest.raises(InvalidInput) as err:
            mem.remember("a memory with odd metadata", metadata=bad)
        assert err.value.field == "metadata" and "JSON" in err.value.problem
    assert mem.stats()["memories"] == 0


def test_remembering_a_set_aside_text_again_makes_it_live(mem: Memory) -> None:
    first = mem.remember("I prefer dark mode in every editor I use")
    mem.update(first.id, status="rejected")
    assert mem.recall("dark mode editor", touch=False) == []
    again = mem.remember("I prefer dark mode in every editor I use")
    assert again.duplicate_of == first.id and mem.get(first.id).status == Status.APPROVED
    assert [h.record.id for h in mem.recall("dark mode editor", touch=False)] == [first.id]
    assert mem.store.audit_log(first.id)[0]["action"] == "revive"


def test_a_pending_candidate_never_rewrites_an_approved_memory(mem: Memory) -> None:
    kept = mem.remember("the staging server restarts every night at two")
    pending = mem.remember("The staging server restarts every night at two!", status="pending")
    assert pending.created and pending.id != kept.id
    assert mem.get(kept.id).content == "the staging server restarts every night at two"
    assert mem.get(kept.id).status == Status.APPROVED and mem.get(pending.id).status == Status.PENDING


def test_a_superseded_memory_is_not_one_to_review(mem: Memory) -> None:
    old = mem.remember("Tomas lives in Lisbon").id
    mem.supersede(old, "Tomas moved to Porto in May")
    with pytest.raises(InvalidInput, match="is superseded, not a memory to review"):
        mem.review(old, "approve")  # it would be live beside the memory that replaced it
    assert mem.get(old).status == Status.SUPERSEDED


def test_a_long_memory_s_chunks_carry_its_tags_as_they_are_edited(mem: Memory) -> None:
    long = mem.remember(
        " ".join(f"Paragraph {i} tells of harbour crane {i}." for i in range(300)), tags=["zeppelin"]
    )
    chunks = {c.id for c in mem.store.children(long.id)}
    assert chunks and {i for i, _ in mem.store.text_search(["zeppelin"], 50, Filter())} <= chunks
    mem.update(long.id, tags=["blimp"])
    assert {c.tags for c in mem.store.children(long.id)} == {("blimp",)}
    assert mem.store.text_search(["zeppelin"], 50, Filter()) == []  # found by its tags as they are now
    assert {i for i, _ in mem.store.text_search(["blimp"], 50, Filter())} == chunks
    assert mem.validate_storage()["ok"]


def test_an_edit_that_names_its_kind_by_prefix_is_read_as_a_new_write_is(mem: Memory) -> None:
    memory_id = mem.remember("the sky is blue").id
    mem.update(memory_id, content="task: repaint the fence")
    record = mem.get(memory_id)
    assert (record.content, record.kind.value, record.kind_method) == ("repaint the fence", "task", "prefix")
    mem.update(memory_id, content="repaint the fence and the gate")  # said once: the kind stays
    assert mem.get(memory_id).kind.value == "task"


def test_a_memory_said_again_after_it_expired_holds_again(mem: Memory) -> None:
    from datetime import timedelta

    from engram.model.record import utcnow

    first = mem.remember("Parking spot B12 is reserved for me", expires_at=utcnow() + timedelta(seconds=1))
    with mem.store.atomic():  # as time passing leaves it: expired
        mem.store.update(mem.get(first.id).model_copy(update={"expires_at": utcnow() - timedelta(days=1)}))
    assert mem.recall("parking spot", mode="ranked", touch=False) == []
    again = mem.remember("Parking spot B12 is reserved for me")
    assert again.duplicate_of == first.id and mem.get(first.id).expires_at is None
    assert [h.record.id for h in mem.recall("parking spot", mode="ranked", touch=False)] == [first.id]
    assert mem.store.audit_log(first.id)[0]["action"] == "renew"


def test_a_superseded_memory_is_not_made_live_again_by_an_edit_of_its_status(mem: Memory) -> None:
    old = mem.remember("The office is on the third floor").id
    new = mem.supersede(old, "The office moved to the fifth floor").id
    with pytest.raises(InvalidInput, match=f"superseded by {new}") as caught:
        mem.update(old, status="approved")
    assert caught.value.field == "status" and mem.get(old).status is Status.SUPERSEDED


def test_one_memory_is_safe_to_share_between_threads(tmp_path: Path) -> None:
    """Writers and readers on many threads, one Memory and no lock of the caller's: every write lands once, every
    read answers, the tag registry counts each memory's tags."""
    from concurrent.futures import ThreadPoolExecutor

    with Memory(tmp_path / "shared.db", embedder=FakeEmbedder()) as mem:

        def write(i: int) -> str:
            return mem.store_memory(f"note {i}: the garden bed {i % 7} needs water and compost")["memory_id"]

        def read(i: int) -> int:
            return len(mem.search_memory(f"garden bed {i % 7}", {"min_relevance": 0})["results"])

        with ThreadPoolExecutor(8) as pool:
            written = list(pool.map(write, range(40)))
            found = list(pool.map(read, range(40)))
            more = list(pool.map(lambda i: mem.remember(f"fact {i} about tomatoes").id, range(20)))
        assert len(set(written)) == 40 and len(set(more)) == 20 and all(found)
        assert mem.stats()["memories"] == 60
        assert mem.validate_storage()["ok"], mem.validate_storage()["issues"]
