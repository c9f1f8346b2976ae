from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engram.config import ModeThresholds, RankingProfile
from engram.model.record import Kind, MemoryRecord
from engram.model.results import Scored
from engram.recall.confidence import confidence_of
from engram.recall.modes import RecallMode, apply_mode, mmr
from engram.recall.scoring import Candidate, Decay, Period, feedback_query, score, shortfall

NOW = datetime(2025, 1, 31, tzinfo=UTC)


def record(content: str, **kw: object) -> MemoryRecord:
    base: dict[str, object] = dict(
        id=content, content=content, content_hash=content, kind=Kind.NOTE, created_at=NOW, updated_at=NOW
    )
    return MemoryRecord.model_validate(base | kw)


def test_seed_000_formula_by_hand() -> None:
    r = record("apple pie recipe", importance=0.8, updated_at=NOW - timedelta(days=30))
    other = record("banana", updated_at=NOW)
    cands = [Candidate(r, cosine=0.5, bm25=2.0), Candidate(other, cosine=-0.2, bm25=4.0)]
    weights = {"appl": 2.0, "pie": 1.0, "tart": 1.0}  # IDF weights of the query's stems
    scored = {s.record.id: s for s in score(cands, weights, RankingProfile(), Decay(), NOW)}
    c = scored["apple pie recipe"].components
    assert c["vector"] == pytest.approx(0.5)
    assert c["lexical"] == pytest.approx(0.5 * (2.0 / 4.0) + 0.5 * 3.0 / 4.0)  # bm25 share + weighted overlap
    assert c["importance"] == pytest.approx(0.8 * 0.99**30, abs=1e-6)
    assert c["recency"] == pytest.approx(0.5, abs=1e-6)  # one half-life
    expected = 0.6 * 0.5 + 0.2 * 0.625 + 0.1 * 0.8 * 0.99**30 + 0.1 * 0.5
    assert scored["apple pie recipe"].score == pytest.approx(expected, abs=1e-5)
    assert scored["banana"].components["vector"] == 0.0  # negative cosine clipped


def test_the_floor_reads_how_much_of_the_whole_question_a_memory_says() -> None:
    # "which bank do I use": no memory has "bank" (IDF 3), two have "use" (IDF 1). By bm25 over the best candidate
    # and the share of the words some memory has, "use" alone was a full match.
    profile = RankingProfile(vector=0.4, lexical=0.3, importance=0.1, recency=0.1, usage=0.1)
    uses = record("Our team uses pnpm", importance=1.0)
    cands = [Candidate(uses, cosine=0.08, bm25=2.0)]
    [alone] = score(cands, {"us": 1.0}, profile, Decay(), NOW)
    [asked] = score(cands, {"us": 1.0}, profile, Decay(), NOW, unseen=3.0)
    assert alone.components["lexical"] == asked.components["lexical"] == 1.0  # the ranking is the same
    assert alone.score == asked.score
    assert asked.components["coverage"] == pytest.approx(0.25)
    assert shortfall(alone, 0.3, profile) is None
    assert "matches the query too little" in (shortfall(asked, 0.3, profile) or "")
    # The words of an expansion stand in for those they expand: k8s for kubernetes.
    k8s = record("Our k8s nodes were upgraded")
    [expanded] = score(
        [Candidate(k8s, 0.1, 2.0)], {"kubernet": 2.0}, profile, Decay(), NOW, alternates={"k8": 2.5}
    )
    assert expanded.components["coverage"] == 1.0 and shortfall(expanded, 0.3, profile) is None


def test_feedback_changes_only_the_vector_component() -> None:
    """The feedback cosines re-order the candidates; lexical, importance and recency are kept. Feedback is asked
    with each candidate's relevance (vector and lexical alone), which is what picks the memories it starts from."""
    a = record("apple pie recipe", importance=0.9, updated_at=NOW - timedelta(days=10))
    b = record("banana bread")
    cands = [Candidate(a, 0.8, 1.0), Candidate(b, 0.2, 0.0)]
    first = score(cands, {"appl": 1.0}, RankingProfile(), Decay(), NOW)
    assert [s.record.id for s in first] == ["apple pie recipe", "banana bread"]
    asked: list[list[float]] = []

    def feedback(records: Sequence[MemoryRecord], relevance: np.ndarray) -> dict[str, float]:
        asked.append(relevance.tolist())
        return {"apple pie recipe": 0.1, "banana bread": 0.9}

    again = {
        s.record.id: s for s in score(cands, {"appl": 1.0}, RankingProfile(), Decay(), NOW, feedback=feedback)
    }
    before = {s.record.id: s for s in first}
    c = before["apple pie recipe"].components
    assert asked == [[(0.6 * 0.8 + 0.2 * c["lexical"]) / 0.8, (0.6 * 0.2) / 0.8]]
    for name in ("lexical", "importance", "recency", "usage"):
        assert again["apple pie recipe"].components[name] == before["apple pie recipe"].components[name]
    assert again["banana bread"].components["vector"] == pytest.approx(0.9)
    assert again["banana bread"].components["cosine"] == pytest.approx(0.2)  # the query as asked
    assert again["apple pie recipe"].score == pytest.approx(
        before["apple pie recipe"].score - 0.6 * (0.8 - 0.1), abs=1e-6
    )
    assert again["banana bread"].score > again["apple pie recipe"].score


def test_validity_multiplies_and_negative_subtracts_with_floor() -> None:
    good = record("a", validity_score=0.5)
    neg = record("b", is_negative=True)
    weak_neg = record("c", is_negative=True, validity_score=0.1)
    out = {
        s.record.id: s
        for s in score(
            [Candidate(good, 1.0), Candidate(neg, 1.0), Candidate(weak_neg, 0.1)],
            {},
            RankingProfile(),
            Decay(),
            NOW,
        )
    }
    assert out["a"].score == pytest.approx(out["a"].components["base"] * 0.5)
    assert out["b"].score == pytest.approx(out["b"].components["base"] - 0.25)
    assert out["c"].score == 0.0


def test_last_access_counts_for_recency_not_creation() -> None:
    old_used = record("x", updated_at=NOW - timedelta(days=300), last_accessed_at=NOW - timedelta(days=1))
    [s] = score([Candidate(old_used, 0.0)], {}, RankingProfile(), Decay(), NOW)
    assert s.components["recency"] == pytest.approx(0.5 ** (1 / 30), abs=1e-6)
    assert s.components["importance"] == pytest.approx(0.5 * 0.99, abs=1e-6)


def test_usage_saturates() -> None:
    rows = [record(str(n), access_count=n) for n in (0, 5, 50)]
    out = {
        s.record.id: s.components["usage"]
        for s in score([Candidate(r, 0) for r in rows], {}, RankingProfile(), Decay(), NOW)
    }
    assert out["0"] == 0 and out["5"] == pytest.approx(1 - np.exp(-1)) and 0.99 < out["50"] < 1


def _pool(
    scores: dict[str, float], vectors: dict[str, list[float]]
) -> tuple[list[Scored[MemoryRecord]], dict[str, np.ndarray]]:
    """A pool of candidates; the unnamed tail sets the low end of its scores, as a real candidate pool does."""
    tail = {f"tail{i}": 0.2 for i in range(5)}
    hits = [Scored(record(k), s) for k, s in (scores | tail).items()]
    v = {k: np.array(x, np.float32) / np.linalg.norm(x) for k, x in vectors.items()}
    return hits, v | {k: np.array([0, 0, 1], np.float32) for k in tail}


def test_mmr_skips_a_near_copy_of_the_first_pick() -> None:
    hits, v = _pool({"a": 0.9, "b": 0.88, "c": 0.85}, {"a": [1, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0]})
    assert [s.record.id for s in mmr(hits, v, 0.75, 3)] == ["a", "c", "b"]
    assert [s.record.id for s in mmr(hits, v, 1.0, 3)] == ["a", "b", "c"]


def test_mmr_keeps_a_similar_close_second_above_what_is_far_less_relevant() -> None:
    # Relevance is scaled within the pool: b (cosine 0.9 to a) is nearly as good as a, c halfway down to the
    # tail. Unscaled, c's 0.29 points less than b would weigh less than b's similarity to a.
    hits, v = _pool({"a": 0.9, "b": 0.85, "c": 0.56}, {"a": [1, 0, 0], "b": [0.9, 0.436, 0], "c": [0, 1, 0]})
    assert [s.record.id for s in mmr(hits, v, 0.75, 3)] == ["a", "b", "c"]


def test_mmr_order_does_not_depend_on_the_scores_level_or_spread() -> None:
    # Importance and recency can lift every candidate alike; MMR's trade stays the same.
    scores = {"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.6}
    vectors = {"a": [1, 0, 0], "b": [0.9, 0.3, 0.1], "c": [0.2, 1, 0], "d": [0.6, 0.6, 0.5]}
    hits, v = _pool(scores, vectors)
    lifted = [Scored(s.record, 0.5 * s.score + 0.3) for s in hits]
    order = [s.record.id for s in mmr(hits, v, 0.75, 6)]
    assert order == [s.record.id for s in mmr(lifted, v, 0.75, 6)]
    assert order[:2] == ["a", "c"]


def test_mmr_counts_two_chunks_of_one_memory_as_that_memory_twice() -> None:
    # a1 and a2 are chunks of one long memory about other things (orthogonal vectors); b is another memory on
    # a1's topic. By embeddings alone a2 looks new and b redundant; a2 is the memory already shown.
    hits, v = _pool({"a1": 0.9, "a2": 0.8, "b": 0.78}, {"a1": [1, 0, 0], "a2": [0, 1, 0], "b": [0.8, 0.6, 0]})
    assert [s.record.id for s in mmr(hits, v, 0.75, 2)] == ["a1", "a2"]
    assert [s.record.id for s in mmr(hits, v, 0.75, 2, {"a1": "a", "a2": "a"})] == ["a1", "b"]

    # Counting: b is another instance of a1's topic, to be counted; a2 is still the memory already shown.
    hits, v = _pool({"a1": 0.9, "a2": 0.85, "b": 0.8}, {"a1": [1, 0, 0], "a2": [1, 0, 0], "b": [1, 0, 0]})
    assert [s.record.id for s in mmr(hits, v, 0.75, 2, {"a1": "a", "a2": "a"})][1] != "b"
    assert [s.record.id for s in mmr(hits, v, 0.75, 2, {"a1": "a", "a2": "a"}, instances=True)] == ["a1", "b"]


def test_mmr_counting_takes_another_episode_before_a_retelling_in_the_same_one() -> None:
    # A question that counts ("how many hikes"): a1 and a2 are turns of one conversation on the topic (the same
    # instance told again), b a turn of another conversation (another instance). Alike by their embeddings, all
    # three count while no episode is known; known, the retelling gives way to the other instance.
    hits, v = _pool({"a1": 0.9, "a2": 0.85, "b": 0.83}, {"a1": [1, 0, 0], "a2": [1, 0, 0], "b": [1, 0, 0]})
    assert [s.record.id for s in mmr(hits, v, 0.75, 2, instances=True)] == ["a1", "a2"]
    episodes = {"a1": "s1", "a2": "s1", "b": "s2"}
    assert [s.record.id for s in mmr(hits, v, 0.75, 2, instances=True, episodes=episodes)] == ["a1", "b"]
    # Only a counting question reads episodes: any other takes b and a2 alike as repeats of a1.
    plain = [s.record.id for s in mmr(hits, v, 0.75, 3)]
    assert [s.record.id for s in mmr(hits, v, 0.75, 3, episodes=episodes)] == plain


def test_modes() -> None:
    sure = [
        Scored(record(str(i)), s, confidence="medium") for i, s in enumerate([0.9, 0.6, 0.5, 0.3, 0.25, 0.1])
    ]
    accurate = apply_mode(sure, RecallMode.ACCURATE, 10, ModeThresholds(floor=0.2, ratio=0.58, cap=8))
    assert [h.score for h in accurate] == [0.9, 0.6]  # cut at 0.522
    related = apply_mode(sure, RecallMode.RELATED, 10, ModeThresholds(floor=0.12, ratio=0.35, cap=12))
    assert [h.score for h in related] == [0.9, 0.6, 0.5]  # cut at 0.315
    assert len(apply_mode(sure, RecallMode.RANKED, 4, None)) == 4


def test_accurate_keeps_its_best_hit_only_when_it_is_at_least_of_medium_confidence() -> None:
    guess = [Scored(record("x"), 0.05, confidence="low")]
    accurate, related = (
        ModeThresholds(floor=0.2, ratio=0.58, cap=8),
        ModeThresholds(floor=0.12, ratio=0.35, cap=12),
    )
    assert apply_mode(guess, RecallMode.ACCURATE, 10, accurate) == []
    assert apply_mode(guess, RecallMode.RELATED, 10, related) == guess  # a best guess, marked low
    likely = [Scored(record("y"), 0.05, confidence="medium")]
    assert apply_mode(likely, RecallMode.ACCURATE, 10, accurate) == likely
    # A low hit scoring above a medium one is still no accurate answer; the medium one is.
    mixed = [Scored(record("a"), 0.9, confidence="low"), Scored(record("b"), 0.6, confidence="high")]
    assert [h.record.id for h in apply_mode(mixed, RecallMode.ACCURATE, 10, accurate)] == ["b"]


def test_confidence_reads_only_how_the_memory_matches_the_question() -> None:
    base = {"cosine": 0.8, "coverage": 1.0, "lexical": 1.0, "importance": 0.0, "recency": 0.0, "usage": 0.0}
    assert confidence_of(base) == "high"
    # Importance, recency, usage and the episode's relevance change nothing.
    assert confidence_of({**base, "importance": 1.0, "recency": 1.0, "usage": 1.0, "episode": 1.0}) == "high"
    assert confidence_of({**base, "cosine": 0.5, "coverage": 0.7, "lexical": 0.8}) == "medium"
    assert confidence_of({**base, "cosine": 0.2, "coverage": 0.1, "lexical": 0.1}) == "low"
    assert confidence_of({**base, "cosine": -0.5, "coverage": 0.0}) == "low"
    assert confidence_of({}) == "low"  # scored by hand: nothing known


def test_an_episode_neighbour_lends_its_relevance() -> None:
    question = record("did you go to the pottery class", episode_id="chat", sequence_number=0)
    reply = record("yes, last friday", episode_id="chat", sequence_number=1)
    stranger = record("yes, it was fun")
    cands = [Candidate(question, 0.8, 3.0), Candidate(reply, 0.2), Candidate(stranger, 0.2)]
    weights = {"potteri": 2.0, "class": 1.0}
    profile = RankingProfile(importance=0, recency=0)
    alone = {s.record.id: s for s in score(cands, weights, profile, Decay(), NOW)}
    beside = {"yes, last friday": ["did you go to the pottery class"]}
    scored = {s.record.id: s for s in score(cands, weights, profile, Decay(), NOW, beside)}
    q = alone["did you go to the pottery class"].components
    match = (0.6 * q["vector"] + 0.2 * q["lexical"]) / 0.8  # the neighbour's relevance on a 0..1 scale
    assert scored["yes, last friday"].components["context"] == pytest.approx(match)
    assert scored["yes, last friday"].score == pytest.approx(alone["yes, last friday"].score + 0.2 * match)
    assert scored["yes, last friday"].score > scored["yes, it was fun"].score
    assert alone["yes, last friday"].score == pytest.approx(alone["yes, it was fun"].score)
    assert scored["did you go to the pottery class"].components["context"] == 0.0  # no neighbour was given


def test_the_episode_that_matches_best_lends_its_turns_its_relevance() -> None:
    """Two equally close turns: the one whose conversation also holds the query's best match ranks first."""
    best = record("we booked the pottery class in kyoto", episode_id="trip", sequence_number=0)
    in_trip = record("it took all afternoon", episode_id="trip", sequence_number=5)
    in_work = record("it took all afternoon!", episode_id="work", sequence_number=5)
    weak = record("the meeting ran late", episode_id="work", sequence_number=0)
    loose = record("an afternoon somewhere")
    cands = [
        Candidate(best, 0.8, 3.0),
        Candidate(in_trip, 0.3),
        Candidate(in_work, 0.3),
        Candidate(weak, 0.4),
        Candidate(loose, 0.3),
    ]
    weights = {"potteri": 2.0, "class": 1.0}
    profile = RankingProfile(importance=0, recency=0)
    episodes = {r.id: str(r.episode_id) for r in (best, in_trip, in_work, weak)}
    alone = {s.record.id: s for s in score(cands, weights, profile, Decay(), NOW)}
    out = {s.record.id: s for s in score(cands, weights, profile, Decay(), NOW, None, episodes)}
    b = alone[best.id].components
    match = (0.6 * b["vector"] + 0.2 * b["lexical"]) / 0.8
    own = 0.6 * 0.3 / 0.8  # the two afternoon turns' own relevance
    # The geometric mean of its own relevance and its episode's best.
    assert out[in_trip.id].components["episode"] == pytest.approx((own * match) ** 0.5)
    assert out[best.id].components["episode"] == pytest.approx(match)  # it is its episode's best
    assert out[in_work.id].components["episode"] == pytest.approx((own * 0.6 * 0.4 / 0.8) ** 0.5)
    # In no episode, it is its own episode: a memory that stands alone is not put under the turns and passages
    # of episodes. It has no neighbours to lend it context.
    assert out[loose.id].components["episode"] == pytest.approx(own)
    assert out[loose.id].components["context"] == 0.0
    assert out[in_trip.id].score == pytest.approx(alone[in_trip.id].score + 0.2 * (own * match) ** 0.5)
    assert alone[in_trip.id].score == pytest.approx(alone[in_work.id].score)
    assert out[in_trip.id].score > out[in_work.id].score
    # With feedback, episodes group the new relevance.
    again = {
        s.record.id: s
        for s in score(cands, weights, profile, Decay(), NOW, None, episodes, lambda r, m: {in_work.id: 0.9})
    }
    assert again[in_work.id].components["episode"] == pytest.approx(0.6 * 0.9 / 0.8)  # now its episode's best
    assert again[weak.id].components["episode"] == 0.0  # no match of its own any more
    off = {
        s.record.id: s for s in score(cands, weights, RankingProfile(episode=0), Decay(), NOW, None, episodes)
    }
    assert off[in_trip.id].score == pytest.approx(off[in_work.id].score)  # weight 0: no effect


def test_period_closeness_by_hand() -> None:
    june = Period(datetime(2023, 6, 1, tzinfo=UTC), datetime(2023, 7, 1, tzinfo=UTC))
    times = [
        datetime(2023, 6, 15, tzinfo=UTC),
        datetime(2023, 7, 2, 12, tzinfo=UTC),
        datetime(2023, 5, 1, tzinfo=UTC),
    ]
    # Inside: 1; outside: half for every 30 days (the period's length) away.
    assert june.closeness(times).tolist() == pytest.approx([1.0, 0.5 ** (1.5 / 30), 0.5 ** (31 / 30)])
    day = Period(datetime(2023, 7, 7, tzinfo=UTC), datetime(2023, 7, 8, tzinfo=UTC))
    assert day.closeness([datetime(2023, 7, 9, tzinfo=UTC)]).tolist() == pytest.approx([0.5])
    since = Period(datetime(2023, 5, 1, tzinfo=UTC), None)  # open: a day's half-life
    assert since.closeness(
        [datetime(2024, 1, 1, tzinfo=UTC), datetime(2023, 4, 29, tzinfo=UTC)]
    ).tolist() == (pytest.approx([1.0, 0.25]))
    before = Period(None, datetime(2023, 8, 3, tzinfo=UTC))
    assert before.closeness(
        [datetime(2023, 8, 2, tzinfo=UTC), datetime(2023, 8, 4, tzinfo=UTC)]
    ).tolist() == (pytest.approx([1.0, 0.5]))


def test_a_named_time_scores_the_memories_of_that_time() -> None:
    june = record("standup notes", created_at=datetime(2023, 6, 12, tzinfo=UTC), updated_at=NOW)
    july = record("standup notes!", created_at=datetime(2023, 7, 31, tzinfo=UTC), updated_at=NOW)
    cands = [Candidate(july, 0.5), Candidate(june, 0.5)]
    period = Period(datetime(2023, 6, 1, tzinfo=UTC), datetime(2023, 7, 1, tzinfo=UTC))
    plain = {s.record.id: s for s in score(cands, {}, RankingProfile(), Decay(), NOW)}
    named = {s.record.id: s for s in score(cands, {}, RankingProfile(), Decay(), NOW, period=period)}
    assert plain[june.id].components["time"] == plain[july.id].components["time"] == 0.0  # no time named
    assert named[june.id].components["time"] == 1.0
    assert named[july.id].components["time"] == pytest.approx(0.5 ** (30 / 30))  # 30 days after June
    assert named[june.id].score == pytest.approx(plain[june.id].score + 0.2)
    assert named[june.id].score > named[july.id].score
    off = score(cands, {}, RankingProfile(time=0), Decay(), NOW, period=period)
    assert [s.components["time"] for s in off] == [0.0, 0.0]  # weight 0: not even computed


def test_stems_among_matches_stemming_every_word() -> None:
    from engram.lang.text import stems, stems_among

    texts = [
        "Relational databases generously normalise happy agreements",
        "She was running; he ran. Ties, ties!",
        "as is us 3s eyed ay",
        "Visibility and ability of the creators\u2019 realizations",
    ]
    wanted = {
        "relat",
        "gener",
        "happi",
        "run",
        "tie",
        "a",
        "ei",
        "visibl",
        "abil",
        "creator",
        "realiz",
        "xyz",
    }
    assert stems_among(texts, wanted) == [set(stems(text)) & wanted for text in texts]
    assert stems_among([], wanted) == []


def test_feedback_query_moves_toward_the_feedback_hits() -> None:
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    hits = [np.array([0.0, 1.0, 0.0], dtype=np.float32), np.array([0.6, 0.8, 0.0], dtype=np.float32)]
    moved = feedback_query(q, hits, 0.5)
    assert np.linalg.norm(moved) == pytest.approx(1.0, abs=1e-6)
    expected = q + 0.5 * np.array([0.3, 0.9, 0.0])
    assert moved == pytest.approx(expected / np.linalg.norm(expected), abs=1e-6)
    assert float(moved @ hits[0]) > float(q @ hits[0])  # closer to what the best hits say
    assert feedback_query(q, hits, 0.0) is q and feedback_query(q, [], 0.5) is q  # off: the query itself


@given(
    texts=st.lists(st.text(alphabet="ab'\u2019_ -\nx\u00e91\u0663北京の", max_size=14), max_size=4),
    wanted=st.frozensets(
        st.sampled_from(["ab", "a", "ba", "bab", "x", "é1", "abb", "1", "北京", "北", "京の"]), min_size=1
    ),
)
@example(texts=["1'1'a"], wanted=frozenset({"a"}))  # the second apostrophe ends "1'1": "a" is a word
@settings(max_examples=300, deadline=None)
def test_stems_among_finds_words_where_the_tokenizer_starts_them(
    texts: list[str], wanted: frozenset[str]
) -> None:
    # Apostrophes, underscores and letters around a prefix: a match inside a word never counts.
    from engram.lang.text import stems, stems_among

    assert stems_among(texts, wanted) == [set(stems(text)) & wanted for text in texts]


def test_a_named_time_lifts_what_matches_the_question() -> None:
    # Of two memories of the named month, the one that barely matches the question gains only part of the time
    # score (its relevance over half the best's): it no longer outranks a matching memory told two months after.
    june = Period(datetime(2023, 6, 1, tzinfo=UTC), datetime(2023, 7, 1, tzinfo=UTC))
    answer = record("the garden plan", created_at=datetime(2023, 6, 10, tzinfo=UTC), updated_at=NOW)
    chatter = record("small talk", created_at=datetime(2023, 6, 20, tzinfo=UTC), updated_at=NOW)
    later = record("the garden plan, again", created_at=datetime(2023, 8, 30, tzinfo=UTC), updated_at=NOW)
    cands = [Candidate(answer, 0.6), Candidate(chatter, 0.1), Candidate(later, 0.3)]
    named = {s.record.id: s for s in score(cands, {}, RankingProfile(), Decay(), NOW, period=june)}
    assert named[answer.id].components["time"] == 1.0  # the best match keeps the full lift
    assert named[chatter.id].components["time"] == pytest.approx(0.1 / (0.5 * 0.6))
    assert named[later.id].components["time"] == pytest.approx(0.5 ** (60 / 30))  # half the best's relevance
    assert named[later.id].score > named[chatter.id].score
