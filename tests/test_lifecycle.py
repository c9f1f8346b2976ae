"""Seed 003's access-based lifecycle: the formulas with hand-computed values, then maintenance end to end."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, Settings
from engram.errors import InvalidInput
from engram.lifecycle.policy import (
    Rules,
    access_recency,
    cluster_bonus,
    decayed_quality,
    lifecycle_category,
    plan,
    priority,
    promoted,
)
from engram.model.record import Category, Kind, MemoryRecord, Scope, Status, Tier

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def record(**fields: object) -> MemoryRecord:
    base: dict[str, object] = {
        "id": "m1",
        "content": "x",
        "content_hash": "h",
        "kind": Kind.NOTE,
        "created_at": NOW - timedelta(days=10),
        "updated_at": NOW - timedelta(days=10),
    }
    return MemoryRecord.model_validate(base | fields)


@pytest.mark.parametrize(("hours", "expected"), [(0, 1.5), (36, 1.0), (72, 0.5), (500, 0.5), (18, 1.25)])
def test_access_recency_is_clamped_between_half_and_one_and_a_half(hours: float, expected: float) -> None:
    assert access_recency(hours) == pytest.approx(expected)


@pytest.mark.parametrize(("size", "expected"), [(0, 1.0), (3, 1.3), (5, 1.5), (12, 1.5)])
def test_cluster_bonus_caps_at_one_and_a_half(size: int, expected: float) -> None:
    assert cluster_bonus(size) == pytest.approx(expected)


def test_priority_formula_by_hand() -> None:
    # 1.0 x (1 + 5/10) x 2.0 (personal) x (1.5 - 24/72) x (1 + 0.1 x 2) = 1.5 x 2 x 1.1667 x 1.2 = 4.2
    r = record(
        category=Category.CONTEXTS, access_count=5, last_accessed_at=NOW - timedelta(hours=24), cluster_size=2
    )
    assert priority(r, NOW) == pytest.approx(4.2)
    # never accessed, one hour old: days = max(1, 1/24) = 1; recency counts from creation: 1.5 - 1/72
    fresh = record(kind=Kind.TASK, created_at=NOW - timedelta(hours=1))
    assert priority(fresh, NOW) == pytest.approx(1.0 * 1 * 1.7 * (1.5 - 1 / 72) * 1.0)
    # marked important doubles; the product is capped at 10
    big = record(
        category=Category.CONTEXTS,
        base_relevance=2.0,
        access_count=50,
        user_marked_important=True,
        last_accessed_at=NOW,
        cluster_size=9,
    )
    assert priority(big, NOW) == 10.0


def test_category_weights_come_from_the_category_then_the_kind() -> None:
    assert lifecycle_category(record(category=Category.CONTEXTS, kind=Kind.TASK)) == "personal"
    assert lifecycle_category(record(category=Category.LEARNINGS)) == "technical"
    assert lifecycle_category(record(category=Category.REMINDERS)) == "project"
    assert lifecycle_category(record(category=Category.INTERACTIONS)) == "casual"
    assert lifecycle_category(record(kind=Kind.IDENTITY)) == "personal"
    assert lifecycle_category(record(kind=Kind.UNCLASSIFIED)) == "general"


def test_promotion_rules() -> None:
    rules = Rules()
    assert promoted(record(access_count=5), rules)
    assert promoted(record(user_marked_important=True), rules)
    assert promoted(record(cluster_size=3), rules)
    assert not promoted(record(access_count=4, cluster_size=2), rules)


def test_quality_decays_only_past_the_idle_allowance() -> None:
    rules = Rules()
    assert decayed_quality(0.8, idle_days=20, elapsed_days=20, rules=rules) == 0.8
    assert decayed_quality(1.0, idle_days=120, elapsed_days=90, rules=rules) == pytest.approx(0.5)
    assert decayed_quality(1.0, idle_days=40, elapsed_days=90, rules=rules) == pytest.approx(0.5 ** (10 / 90))


# ---- maintenance on a store ---------------------------------------------------------------------------------
def test_retrieval_raises_base_relevance_up_to_two(mem: Memory) -> None:
    mid = mem.remember("The quarterly report template lives in the shared drive").id
    mem.recall("quarterly report template", mode="ranked")
    assert mem.get(mid).base_relevance == pytest.approx(1.05)
    for _ in range(20):
        mem.recall("quarterly report template", mode="ranked")
    assert mem.get(mid).base_relevance == 2.0 and mem.get(mid).access_count == 21


def test_repeated_recall_promotes_and_a_second_pass_changes_nothing(mem: Memory) -> None:
    mid = mem.remember("Our on-call rotation switches every Monday at noon").id
    other = mem.remember("The office plants need water on Fridays").id
    for _ in range(5):
        hits = mem.recall("on-call rotation Monday", mode="ranked", limit=1)
        assert hits[0].record.id == mid
    now = datetime.now(UTC)
    report = mem.maintain(now)
    assert report["promoted"] == 1 and report["operation_id"]
    assert mem.get(mid).tier == Tier.LONG and mem.get(other).tier == Tier.MID
    assert mem.get(mid).priority is not None and mem.get(mid).priority > mem.get(other).priority  # type: ignore[operator]
    assert mem.maintain(now)["changed"] == 0
    mem.rollback(report["operation_id"])
    assert mem.get(mid).tier == Tier.MID


def test_short_term_holds_the_last_ten_of_a_session(mem: Memory) -> None:
    start = datetime.now(UTC) - timedelta(hours=2)
    ids = [
        mem.remember(
            f"session message number {i} about topic {i * 7}",
            scope="session",
            scope_id="s1",
            created_at=start + timedelta(minutes=i),
        ).id
        for i in range(12)
    ]
    mem.maintain()
    tiers = [mem.get(i).tier for i in ids]
    assert tiers[:2] == [Tier.MID, Tier.MID] and tiers[2:] == [Tier.SHORT] * 10


def test_persona_pruning_archives_lowest_priority_and_never_a_marked_memory(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", lifecycle_mode="persona")
    with Memory(tmp_path / "p.db", embedder=FakeEmbedder(), settings=settings) as mem:
        topics = [
            "otters",
            "violins",
            "quasars",
            "mangoes",
            "glaciers",
            "sonnets",
            "kayaks",
            "tulips",
            "comets",
            "bagels",
            "lanterns",
            "geysers",
            "falcons",
            "mosaics",
            "pretzels",
            "canyons",
            "harps",
            "lichens",
            "zeppelins",
            "walnuts",
        ]
        # distinct texts (a persona mid-term slot absorbs anything within cosine 0.85)
        ids = [
            mem.remember(f"{t} {i * 7919}", scope="project", scope_id="p").id for i, t in enumerate(topics)
        ]
        marked = ids[:3]  # the oldest, so the first candidates by age
        for i in marked:
            mem.update(i, user_marked_important=True)
        for i in ids[10:]:  # the newest ones get used
            mem.store.touch([i], datetime.now(UTC))
        report = mem.maintain()
        status = {i: mem.get(i).status for i in ids}
        assert all(status[i] == Status.APPROVED for i in marked)
        archived = [i for i in ids if status[i] == Status.ARCHIVED]
        assert report["archived"] == len(archived) == 2  # 17 unmarked in mid-term, pruned down to 15
        assert set(archived) <= set(ids[3:10])  # the unused ones go first
        assert not {h.record.id for h in mem.recall(" ".join(topics), mode="ranked", limit=50)} & set(
            archived
        )
        assert mem.get(archived[0]).content.split()[0] in topics  # archived, not deleted


def test_store_mode_never_prunes_for_room(mem: Memory) -> None:
    for i in range(25):
        mem.remember(f"store mode note {i} on subject {i * 11}", scope="project", scope_id="p")
    assert mem.maintain()["archived"] == 0


def test_unused_memories_lose_quality_and_are_archived_below_a_tenth(mem: Memory) -> None:
    t0 = datetime.now(UTC)
    old = mem.remember("An old recipe for plum jam").id
    kept = mem.remember("Grandma's birthday is 3 May").id
    mem.update(kept, user_marked_important=True)
    mem.maintain(t0 + timedelta(days=200))
    first = 0.5 ** (170 / 90)  # the first pass counts the whole disuse: 200 days, 170 past the allowance
    assert mem.get(old).quality_score == pytest.approx(first)
    mem.maintain(t0 + timedelta(days=290))
    assert mem.get(old).quality_score == pytest.approx(first * 0.5)
    mem.maintain(t0 + timedelta(days=560))
    assert mem.get(old).status == Status.ARCHIVED
    assert mem.get(kept).status == Status.APPROVED and mem.get(kept).quality_score is None
    # an earlier now is no error, and decays nothing again
    assert mem.maintain(t0 + timedelta(days=200))["changed"] == 0


def test_feedback_moves_quality(mem: Memory) -> None:
    mid = mem.remember("Use the blue theme for dashboards").id
    assert mem.feedback(mid, helpful=False).quality_score == pytest.approx(0.9)
    assert mem.feedback(mid, helpful=True).quality_score == pytest.approx(1.0)
    assert mem.feedback(mid, helpful=True).quality_score == 1.0
    # Recall returns a long memory's passages: a thumbs down on one is on its memory, which maintenance reads.
    long = mem.remember(" ".join(f"Paragraph {i} tells of harbour crane {i}." for i in range(300))).id
    passage = mem.store.children(long)[3].id
    assert mem.feedback(passage, helpful=False).id == long
    assert mem.get(long).quality_score == pytest.approx(0.9)
    assert all(c.quality_score == pytest.approx(0.9) for c in mem.store.children(long))  # its passages follow


def test_existing_memories_migrate_with_lifecycle_defaults(mem: Memory) -> None:
    r = mem.get(mem.remember("A memory from before the lifecycle").id)
    assert (r.base_relevance, r.cluster_size, r.priority, r.access_count, r.scope) == (
        1.0,
        0,
        None,
        0,
        Scope.GLOBAL,
    )


def test_persona_mid_term_slot_absorbs_a_similar_memory(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", lifecycle_mode="persona")
    with Memory(tmp_path / "slot.db", embedder=FakeEmbedder(), settings=settings) as mem:
        first = mem.remember("The weekly team meeting is on Tuesday morning in room four").id
        again = mem.remember("The weekly team meeting is on Tuesday morning in room five")  # cosine 0.915
        assert again.merged_into == first
        slot = mem.get(first)
        assert (slot.access_count, slot.cluster_size, slot.priority) == (1, 1, 1.1)
        assert slot.content.endswith("room four")  # the slot keeps its wording; the new text is audited
        assert any(
            e["detail"].get("new_content", "").endswith("room five") for e in mem.store.audit_log(first)
        )
    with Memory(
        tmp_path / "store.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path / "h2")
    ) as mem:
        mem.remember("The weekly team meeting is on Tuesday morning in room four")
        assert mem.remember(
            "The weekly team meeting is on Tuesday morning in room five"
        ).created  # store mode: 0.95


# ---- QA: first pass, idempotence, a fast clock, feedback, bad input -----------------------------------------
def test_the_first_pass_decays_the_whole_idle_time_once(mem: Memory) -> None:
    # Idle 400, 120 and 10 days at t0: stored now, the last two last used later.
    t0 = datetime.now(UTC) + timedelta(days=400)
    ancient = mem.remember("The fax number of the old office").id
    old = mem.remember("The parking garage closes at nine").id
    young = mem.remember("The new printer is on the third floor").id
    mem.store.touch([old], t0 - timedelta(days=120))
    mem.store.touch([young], t0 - timedelta(days=10))
    report = mem.maintain(t0)
    # 400 days idle: 370 past the allowance, 0.5 ** (370 / 90) = 0.058 < 0.1; 120 days: 90 past it, halved
    assert mem.get(ancient).status == Status.ARCHIVED
    assert mem.get(ancient).quality_score == pytest.approx(0.5 ** (370 / 90))
    assert mem.get(old).quality_score == pytest.approx(0.5)
    assert mem.get(young).quality_score is None
    assert report["archived"] == 1 and report["quality_decayed"] == 2
    # the next pass counts only the 90 days since the first
    mem.maintain(t0 + timedelta(days=90))
    assert mem.get(old).quality_score == pytest.approx(0.25)
    assert mem.get(young).quality_score == pytest.approx(0.5 ** (70 / 90))


def test_a_second_pass_at_the_same_moment_changes_nothing_in_persona_mode(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", lifecycle_mode="persona", long_term_capacity=3)
    with Memory(tmp_path / "p.db", embedder=FakeEmbedder(), settings=settings) as mem:
        topics = ["otters", "violins", "quasars", "mangoes", "glaciers", "sonnets"]
        ids = [
            mem.remember(f"{t} {i * 7919}", scope="project", scope_id="p").id for i, t in enumerate(topics)
        ]
        t = datetime.now(UTC)
        for _ in range(5):  # all six promoted by use; room for three
            mem.store.touch(ids, t - timedelta(hours=1))
        mem.remember("An old note about lanterns", created_at=t - timedelta(days=60))
        first = mem.maintain(t)
        assert first["changed"] > 0 and sum(mem.get(i).tier == Tier.LONG for i in ids) == 3
        operations = len(mem.operations()["operations"])
        audit = len(mem.store.audit_log(limit=10_000))
        for _ in range(2):
            again = mem.maintain(t)
            assert (again["changed"], again["promoted"], again["quality_decayed"], again["operation_id"]) == (
                0,
                0,
                0,
                None,
            )
        assert len(mem.operations()["operations"]) == operations
        # only the passes' own entries, none per memory
        assert len(mem.store.audit_log(limit=10_000)) == audit + 2


def test_a_pass_moments_later_reports_only_real_decay(mem: Memory) -> None:
    t0 = datetime.now(UTC) + timedelta(days=40)
    young = mem.remember("The new printer is on the third floor").id
    old = mem.remember("The parking garage closes at nine").id
    mem.store.touch([young], t0 - timedelta(days=10))
    mem.maintain(t0)
    before = mem.get(old).quality_score
    assert before is not None
    report = mem.maintain(t0 + timedelta(days=1))  # decay is counted once a day
    assert mem.get(young).quality_score is None
    assert report["quality_decayed"] == 1 and mem.get(old).quality_score < before  # type: ignore[operator]


def test_a_plan_never_reports_an_unchanged_quality_as_decay() -> None:
    # never decayed (None counts as 1.0), a microsecond since the last pass: 1.0 is no change
    r = record(created_at=NOW - timedelta(days=40), updated_at=NOW - timedelta(days=40), priority=0.5)
    out = plan([r], {}, NOW, Rules(), NOW - timedelta(microseconds=1))
    assert "quality_score" not in out.changes.get(r.id, {}) or out.changes[r.id]["quality_score"] < 1.0


def test_a_pass_dated_before_the_last_one_still_runs_and_decays_nothing_twice(mem: Memory) -> None:
    t0 = datetime.now(UTC)
    old = mem.remember("The parking garage closes at nine").id
    used = mem.remember("The espresso machine needs descaling monthly").id
    mem.maintain(t0 + timedelta(days=120))  # a clock running fast once
    assert mem.get(old).quality_score == pytest.approx(0.5)
    for _ in range(5):
        mem.store.touch([used], t0)
    report = mem.maintain(t0)  # back to the right time: no error, and what needs no elapsed time still runs
    assert report["promoted"] == 1 and mem.get(used).tier == Tier.LONG
    assert mem.get(old).quality_score == pytest.approx(0.5)  # the 90 days are not counted again
    mem.maintain(t0 + timedelta(days=90))
    assert mem.get(old).quality_score == pytest.approx(0.5)
    mem.maintain(t0 + timedelta(days=210))
    assert mem.get(old).quality_score == pytest.approx(0.25)


def test_feedback_below_a_tenth_is_archived_by_maintenance_unless_marked(mem: Memory) -> None:
    bad = mem.remember("The cafeteria serves fish on Tuesdays").id
    marked = mem.remember("My passport expires in March").id
    mem.update(marked, user_marked_important=True)
    for _ in range(12):
        mem.feedback(bad, False)
        mem.feedback(marked, False)
    assert mem.get(bad).quality_score == 0.0
    report = mem.maintain()
    assert report["archived"] == 1 and report["quality_decayed"] == 0
    assert mem.get(bad).status == Status.ARCHIVED and mem.get(marked).status == Status.APPROVED
    assert bad not in {h.record.id for h in mem.recall("cafeteria fish Tuesdays", mode="ranked")}
    assert mem.get(bad).content.startswith("The cafeteria")  # archived, not deleted


@pytest.mark.parametrize("helpful", ["no", "yes", 1, 0, None])
def test_feedback_must_be_a_bool(mem: Memory, helpful: object) -> None:
    mid = mem.remember("Use the blue theme for dashboards").id
    with pytest.raises(InvalidInput) as caught:
        mem.feedback(mid, helpful)  # type: ignore[arg-type]
    assert caught.value.field == "helpful"
    assert mem.get(mid).quality_score is None


@pytest.mark.parametrize("now", ["tomorrow", "2026-01-01T00:00:00", 1767225600, date(2026, 1, 1)])
def test_maintain_refuses_a_now_that_is_no_datetime(mem: Memory, now: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.maintain(now)  # type: ignore[arg-type]
    assert caught.value.field == "now"


def test_clusters_count_without_what_the_same_pass_archives(mem: Memory) -> None:
    t0 = datetime.now(UTC) + timedelta(days=400)
    base = (
        "The weekly team meeting is on Tuesday morning in room"  # the four pairwise within cosine 0.91-0.92
    )
    gone = mem.remember(f"{base} four").id  # unused for 400 days at t0
    rest = [mem.remember(f"{base} {n}").id for n in ("five", "six", "nine")]
    mem.store.touch(rest, t0)
    report = mem.maintain(t0)
    assert mem.get(gone).status == Status.ARCHIVED and report["archived"] == 1
    # two others left in each cluster: not promoted, so the next pass has nothing to take back
    assert [(mem.get(i).cluster_size, mem.get(i).tier) for i in rest] == [(2, Tier.MID)] * 3
    assert mem.maintain(t0)["changed"] == 0


def test_a_pass_records_what_it_did_for_the_history(mem: Memory) -> None:
    t0 = datetime.now(UTC)
    mem.remember("An old recipe for plum jam")
    mem.remember("Grandma's birthday is 3 May")
    done = mem.maintain(t0 + timedelta(days=200))
    history = {op["id"]: op for op in mem.operations()["operations"]}
    summary = history[done["operation_id"]]["summary"]
    # the history page shows these beside the count of changes; an empty summary told a user nothing
    assert summary["quality_decayed"] == done["quality_decayed"] == 2
    assert "archived" not in summary  # nothing archived is not listed
