"""store_memory / search_memory, the advanced tools, operations and rollback, import and export."""

from __future__ import annotations

import calendar
import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tinydb import TinyDB

from engram import Category, FakeEmbedder, InvalidInput, Memory, Settings, Status, StoreError
from engram.agent import registry
from engram.agent.store import importance_1_5
from engram.model.record import utcnow


def test_words_that_only_say_when_make_no_tags(mem: Memory) -> None:
    tags = mem.store_memory("Remind me to call the dentist next Tuesday at 3pm")["analysis"]["generated_tags"]
    assert "dentist" in tags
    assert not [t for t in tags if {"next", "tuesday"} & set(t.split("-"))]
    tags = mem.store_memory("Tomorrow the standup moves to room 4B")["analysis"]["generated_tags"]
    assert "tomorrow" not in tags and "standup" in "-".join(tags)
    # Nor do words that ask for the memory to be kept: they say what to do with it, not what it is about.
    assert not [t for t in tags_of(mem, "Remind me to call the dentist next Tuesday") if "remind" in t]
    tags = tags_of(mem, "Remember to renew the car insurance, don't forget the receipts")
    assert "car-insurance" in tags and not [t for t in tags if {"remember", "forget"} & set(t.split("-"))]


def tags_of(mem: Memory, text: str) -> list[str]:
    return list(mem.store_memory(text)["analysis"]["generated_tags"])


_PERSONAL = "Pay the gym with card 4111 1111 1111 1111, receipts to bob.jones@example.com"


def test_store_memory_reports_personal_data_and_keeps_it_when_redaction_is_off(mem: Memory) -> None:
    out = mem.store_memory(_PERSONAL)
    assert out["analysis"]["pii"] == {"risk": 2, "kinds": ["card", "email"], "redacted": False}
    record = mem.get(out["memory_id"])
    assert record.content == _PERSONAL and record.metadata["pii_found"] == ["card", "email"]
    assert mem.store_memory("Water the plants on Sunday")["analysis"]["pii"]["risk"] == 0


def test_with_redaction_on_no_write_stores_raw_personal_data(
    db_location: str | Path, settings: Settings
) -> None:
    raw = ("4111 1111 1111 1111", "bob.jones@example.com", "bob-jones", "4111")
    with Memory(
        db_location, embedder=FakeEmbedder(), settings=settings.model_copy(update={"redact_pii": True})
    ) as m:
        out = m.store_memory(_PERSONAL)
        assert out["analysis"]["pii"] == {"risk": 1, "kinds": ["card", "email"], "redacted": True}
        record = m.get(out["memory_id"])
        # Nor in the tags, concepts or entities read from the text.
        stored = json.dumps([record.content, list(record.tags), record.metadata, out["analysis"]])
        assert "[REDACTED_CARD]" in record.content and not any(r in stored for r in raw)
        assert record.metadata["pii_redacted"] == ["card", "email"]
        plain = m.remember("Call me on +44 20 7946 0958 after six")
        assert m.get(plain.id).content == "Call me on [REDACTED_PHONE] after six"
        assert m.get(plain.id).metadata["pii_redacted"] == ["phone"]
        m.update(plain.id, content="Call me on +44 20 7946 0959 after seven")
        assert m.get(plain.id).content == "Call me on [REDACTED_PHONE] after seven"
        # A later redaction names its kinds beside the earlier ones, whose markers are still in the text.
        m.update(plain.id, tags=["ann@example.com", "calls"])
        assert m.get(plain.id).metadata["pii_redacted"] == ["phone", "email"]
        assert m.get(plain.id).tags == ("calls",)
        # Text edited without its marker no longer says a phone number was taken out of it.
        m.update(plain.id, content="Call me after seven")
        assert "pii_redacted" not in m.get(plain.id).metadata


def test_store_memory_returns_the_seed_format_and_records_its_decisions(mem: Memory) -> None:
    out = mem.store_memory("URGENT: submit the grant report to the funding board by Friday 5pm.")
    assert out["success"] is True
    analysis = out["analysis"]
    assert set(analysis) >= {
        "detected_category",
        "generated_tags",
        "importance_score",
        "confidence",
        "concepts_extracted",
    }
    assert analysis["importance_score"] >= 4  # urgency and a deadline
    assert "grant-report" in analysis["generated_tags"] and "urgent" in analysis["generated_tags"]
    assert set(out["recommendations"]) >= {"similar_memories", "suggested_merges", "tag_consolidations"}
    record = mem.get(out["memory_id"])
    assert record.metadata["importance_indicators"]
    entry = mem.store.audit_log(record.id)[0]
    assert entry["action"] == "store_memory" and entry["detail"]["tags"]["tags"] == list(record.tags)
    assert {t.tag for t in mem.store.tags()} >= set(record.tags)


def test_every_automatic_field_can_be_forced(mem: Memory) -> None:
    expires = (utcnow() + timedelta(days=3)).isoformat()
    out = mem.store_memory(
        "The wifi password for the studio is on the router label.",
        {
            "force_category": "references",
            "force_importance": 2,
            "additional_tags": ["Studio Wifi"],
            "expires_at": expires,
            "source": "document",
            "user_note": "from the onboarding doc",
        },
    )
    record = mem.get(out["memory_id"])
    assert record.category is Category.REFERENCES and record.category_method == "explicit"
    assert out["analysis"]["importance_score"] == 2
    assert "studio-wifi" in record.tags
    assert record.expires_at is not None and record.metadata["user_note"] == "from the onboarding doc"
    assert set(record.metadata["overridden"]) == {"category", "importance", "expires_at", "tags"}


@pytest.mark.parametrize(
    ("context", "field"),
    [
        ({"bogus": 1}, "context.bogus"),
        ({"force_importance": 7}, "context.force_importance"),
        ({"force_category": "misc"}, "context.force_category"),
    ],
)
def test_bad_context_names_the_field_and_stores_nothing(
    mem: Memory, context: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.store_memory("A perfectly fine memory about sourdough starters.", context)
    assert caught.value.field == field
    assert mem.stats()["memories"] == 0


def test_store_memory_reports_similar_memories_and_suggests_merging_the_closest(mem: Memory) -> None:
    first = mem.store_memory("The quarterly grant report for the funding board is due on Friday afternoon.")
    other = mem.store_memory("Bake sourdough bread with rye flour this weekend.")
    close = mem.store_memory("The quarterly grant report for the funding board is due this Friday afternoon.")
    related = mem.store_memory("The quarterly grant report for the funding board is due by Friday afternoon.")
    assert close["outcome"] == "created" and related["outcome"] == "created"
    assert first["memory_id"] in close["recommendations"]["similar_memories"]
    assert other["memory_id"] not in close["recommendations"]["similar_memories"]
    assert close["recommendations"]["suggested_merges"][0] == first["memory_id"]
    assert set(related["recommendations"]["similar_memories"][:2]) == {first["memory_id"], close["memory_id"]}
    assert related["recommendations"]["suggested_updates"] == []  # the same day and time: no changed fact
    moved = mem.store_memory("The quarterly grant report for the funding board is due on Friday morning.")
    # Another time of day: an update of the fact, not a copy to merge.
    assert first["memory_id"] in moved["recommendations"]["suggested_updates"]
    assert first["memory_id"] not in moved["recommendations"]["suggested_merges"]
    again = mem.store_memory("The quarterly grant report for the funding board is due on Friday morning.")
    assert again["outcome"] == "duplicate" and again["memory_id"] == moved["memory_id"]
    assert moved["memory_id"] not in again["recommendations"]["similar_memories"]
    assert related["memory_id"] not in related["recommendations"]["similar_memories"]


@pytest.mark.parametrize("content", ["\x00", "fine text with a \x00 inside"])
def test_bad_content_names_the_field_and_stores_nothing(mem: Memory, content: str) -> None:
    mem.store_memory("Something stored before")
    with pytest.raises(InvalidInput) as caught:
        mem.store_memory(content)
    assert caught.value.field == "content"
    assert mem.stats()["memories"] == 1


def test_a_concept_reuses_an_existing_tag_spelled_differently(mem: Memory) -> None:
    mem.store_memory("Notes on team meetings", {"additional_tags": ["meetings"]})
    out = mem.store_memory("The weekly design meeting moved to Thursdays.", {"additional_tags": ["meeting"]})
    assert (
        "meetings" in out["analysis"]["generated_tags"] and "meeting" not in out["analysis"]["generated_tags"]
    )
    assert mem.store.tag("meetings") is not None and mem.store.tag("meetings").usage_count == 2  # type: ignore[union-attr]


def test_search_memory_weighs_time_and_filters_by_window_importance_and_type(mem: Memory) -> None:
    now = utcnow()
    old = mem.remember(
        "Quarterly budget review with finance", created_at=now - timedelta(days=60), importance=0.25
    )
    new = mem.remember(
        "Budget review for the marketing launch", created_at=now - timedelta(days=1), importance=1.0
    )
    both = mem.search_memory("budget review", {"min_relevance": 0.0})
    assert {r["id"] for r in both["results"]} == {old.id, new.id}
    # A time in the query favours that period; the older memory still comes, after.
    recent = mem.search_memory("budget review in the past 2 weeks", {"min_relevance": 0.0})
    assert [r["id"] for r in recent["results"]] == [new.id, old.id]
    assert recent["query_analysis"]["time_range"]["phrase"] == "in the past 2 weeks"
    assert recent["query_analysis"]["time_range"]["applied"] == "boost"
    # The time is read as a time, not as concepts to match and expand.
    concepts = " ".join(recent["query_analysis"]["extracted_concepts"]).lower()
    assert "budget" in concepts and not {"past", "weeks"} & set(concepts.split())
    old_first = mem.search_memory("budget review 60 days ago", {"min_relevance": 0.0})
    assert [r["id"] for r in old_first["results"]] == [old.id, new.id]
    window = {
        "after": (now - timedelta(days=90)).isoformat(),
        "before": (now - timedelta(days=30)).isoformat(),
    }
    windowed = mem.search_memory("budget", {"time_range": window, "min_relevance": 0})
    assert [r["id"] for r in windowed["results"]] == [old.id]
    shown = windowed["query_analysis"]["time_range"]  # the option's range is said, as a filter
    assert (
        shown["applied"] == "filter"
        and shown["after"].startswith(window["after"][:10])
        and shown["phrase"] is None
    )
    important = mem.search_memory("budget review", {"importance_min": 4, "min_relevance": 0.0})
    assert [r["id"] for r in important["results"]] == [new.id]
    assert important["results"][0]["importance"] == 5
    assert mem.get(new.id).access_count == 4  # returned by four searches: usage is tracked


def test_query_expansions_reach_the_text_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engram.agent.understanding import Understanding

    with Memory(tmp_path / "x.db", embedder=FakeEmbedder()) as memory:
        memory.store_memory("The kubernetes cluster runs the payment service.")
        memory.store_memory("Our k8s nodes were upgraded on Monday.")
        searched: list[list[str]] = []

        def expansions(self: Understanding, concepts: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
            return {"kubernetes": ("k8s",)} if "kubernetes" in concepts else {}

        text_facts = memory.store.text_facts  # SQLite reads the hits' facts with the text search

        def spy(words: list[str], k: int, where: object) -> Any:
            searched.append(list(words))
            return text_facts(words, k, where)  # type: ignore[arg-type]

        monkeypatch.setattr(Understanding, "_expansions", expansions)
        monkeypatch.setattr(memory.store, "text_facts", spy)
        # Every result, however sure: the fake embedder's cosines say nothing about how sure a match is.
        found = memory.search_memory("kubernetes", {"min_confidence": "low"})
        assert found["query_analysis"]["semantic_expansions"] == {"kubernetes": ["k8s"]}
        assert "k8s" in searched[-1]  # the expansion was searched for
        assert any("k8s nodes" in r["content"] for r in found["results"])


def test_concurrent_searches_all_finish(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with Memory(tmp_path / "c.db", embedder=FakeEmbedder()) as memory:
        for i in range(30):
            memory.store_memory(f"Note {i}: the kubernetes cluster {i % 4} needs a new node pool")
        with ThreadPoolExecutor(12) as pool:  # more searches at once than the store's read workers
            jobs = [pool.submit(memory.search_memory, f"kubernetes cluster {i % 4}") for i in range(24)]
            found = [job.result(timeout=60) for job in jobs]
        assert all(f["results"] for f in found)


def test_a_question_for_things_to_do_lists_the_reminders(mem: Memory) -> None:
    question = "What do I need to do this week?"
    assert mem.search_memory(question)["query_analysis"]["search_scope"] == "content+tags"  # none yet
    todo = [
        mem.store_memory(text, {"force_category": "reminders"})["memory_id"]
        # Due today, so in "this week" whichever day the test runs (by Friday, said on a Saturday, is next week).
        for text in ("Call mom today for her birthday", "Need to submit the grant report by tonight")
    ]
    other = mem.store_memory("I need a quiet room to do deep work", {"force_category": "contexts"})[
        "memory_id"
    ]
    found = mem.search_memory(question)
    # Each reminder is what was asked for, whatever words it shares with the question; the memory sharing the
    # most words with it is no thing to do.
    assert {r["id"] for r in found["results"]} == set(todo) and other not in {
        r["id"] for r in found["results"]
    }
    assert found["query_analysis"]["intent"] == "remind"
    assert found["query_analysis"]["search_scope"] == "content+tags in reminders"
    assert all(r["relevance_score"] >= 0.3 and r["matched_concepts"] == [] for r in found["results"])
    # A question about something in particular, or asking to recall, searches everything.
    about = mem.search_memory("when is the grant report due", {"min_relevance": 0, "min_confidence": "low"})
    assert about["query_analysis"]["search_scope"] == "content+tags" and other in {
        r["id"] for r in about["results"]
    }
    recall = mem.search_memory("remind me what the quiet room is for", {"min_relevance": 0})
    assert recall["query_analysis"]["intent"] == "find" and recall["results"][0]["id"] == other


def test_things_to_do_come_soonest_due_first_and_only_those_due_on_the_days_asked(mem: Memory) -> None:
    said = utcnow() - timedelta(days=utcnow().weekday())  # this week's Monday
    texts = (
        "Renew the passport before the trip on 2099-03-01",
        "Submit the grant report by Friday",
        "Call the plumber on Wednesday",
        "Sort out the garage",
    )
    ids = [
        mem._store_memory(t, {"force_category": "reminders"}, fields={"created_at": said})["memory_id"]
        for t in texts
    ]
    everything = mem.search_memory("what's due soon", {"min_relevance": 0})
    # The upcoming soonest first, then those missed this week latest first (which depends on today), undated last.
    today = utcnow().date()
    dated = [(ids[2], (said + timedelta(days=2)).date()), (ids[1], (said + timedelta(days=4)).date())]
    ahead = [i for i, day in dated if day >= today]
    missed = [i for i, day in reversed(dated) if day < today]
    assert [r["id"] for r in everything["results"]] == [*ahead, ids[0], *missed, ids[3]]
    assert [r["due"] for r in everything["results"]][3] is None
    week = mem.search_memory("what do I need to do this week?", {"min_relevance": 0})
    assert [r["id"] for r in week["results"]] == [ids[2], ids[1], ids[3]]  # not the passport
    assert week["total_found"] == 3 and week["query_analysis"]["time_range"]["applied"] == "due"
    # Nothing due on the days asked is the answer, not a search of everything else.
    mem.invalidate(ids[3])  # the undated one
    month = calendar.month_name[(said.month + 2) % 12 + 1]  # three months on: no day of this week is in it
    nothing = mem.search_memory(f"what do I need to do in {month}?")
    assert (
        nothing["results"] == [] and nothing["query_analysis"]["search_scope"] == "content+tags in reminders"
    )


def test_search_memory_rejects_unknown_options_and_types(mem: Memory) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.search_memory("anything", {"limt": 3})
    assert caught.value.field == "options.limt"
    with pytest.raises(InvalidInput, match="content_type"):
        mem.search_memory("anything", {"content_type": "gossip"})
    with pytest.raises(InvalidInput, match="after must be earlier than before") as caught:
        mem.search_memory("anything", {"time_range": {"after": "2026-02-01", "before": "2026-01-01"}})
    assert caught.value.field == "options.time_range"
    with pytest.raises(InvalidInput, match="for one day, give the next"):  # before is exclusive
        mem.search_memory("anything", {"time_range": {"after": "2026-01-01", "before": "2026-01-01"}})
    # Numbers and flags as JSON has them: a quoted number is a mistake, not read as the number.
    for wrong in ({"limit": "5"}, {"include_expired": "yes"}, {"importance_min": 2.5}):
        with pytest.raises(InvalidInput) as caught:
            mem.search_memory("anything", wrong)
        assert caught.value.field == f"options.{next(iter(wrong))}"


def test_content_type_takes_a_category_or_its_everyday_name(mem: Memory) -> None:
    a = mem.store_memory("Call the plumber about the leak", {"force_category": "reminders"})["memory_id"]
    mem.store_memory("The plumber's number is 555-0100", {"force_category": "references"})
    for name in ("reminders", "reminder", "todo"):
        found = mem.search_memory("plumber", {"content_type": name, "min_relevance": 0.0})
        assert [r["id"] for r in found["results"]] == [a]


def test_optimize_tags_folds_variants_and_rollback_restores_everything(mem: Memory) -> None:
    a = mem.store_memory("Retro notes", {"additional_tags": ["meeting-notes"]})["memory_id"]
    mem.remember("Standup summary", tags=["meeting-note"])
    b = mem.list()[0].id
    mem.store.use_tags(["meeting-note"], utcnow(), {})
    mem.store.put_tag(
        mem.store.tag("meeting-note").__class__(  # type: ignore[union-attr]
            # the fake embedder knows no plurals: give the variant the vector the model would nearly give it
            "meeting-note",
            1,
            utcnow(),
            utcnow(),
            vector=mem.store.tag("meeting-notes").vector,  # type: ignore[union-attr]
        )
    )
    report = mem.optimize_tags()
    merge = next(m for m in report["merges"] if {m["tag"], m["into"]} == {"meeting-notes", "meeting-note"})
    assert merge["reason"] == "spelling"
    kept, gone = merge["into"], merge["tag"]
    assert all(gone not in mem.get(i).tags and kept in mem.get(i).tags for i in (a, b))
    assert mem.store.tag(gone).status == "merged"  # type: ignore[union-attr]
    assert report["tags_after"] < report["tags_before"]
    undone = mem.rollback(report["operation_id"])
    assert undone["restored"] >= 2
    assert "meeting-notes" in mem.get(a).tags and "meeting-note" in mem.get(b).tags
    assert mem.store.tag(gone).status == "active"  # type: ignore[union-attr]
    with pytest.raises(InvalidInput):
        mem.rollback(report["operation_id"])  # once only


def test_merge_memories_supersedes_and_rolls_back(mem: Memory) -> None:
    a = mem.remember("Prefers aisle seats", tags=["travel"], importance=0.4).id
    b = mem.remember("Likes an aisle seat on long flights", tags=["flights"], importance=0.9).id
    out = mem.merge_memories([a, b])
    merged = mem.get(a)
    assert set(merged.tags) == {"travel", "flights"} and merged.importance == 0.9
    assert mem.get(b).status is Status.SUPERSEDED and mem.get(b).metadata["merged_into"] == a
    with pytest.raises(InvalidInput, match=f"memory {b} is already superseded by {a}"):
        mem.merge_memories([a, b])  # merged twice, one rollback undid what the other still claimed
    mem.rollback(out["operation_id"])
    assert mem.get(a).tags == ("travel",) and mem.get(b).status is Status.APPROVED


def test_export_then_import_is_lossless(tmp_path: Path, mem: Memory) -> None:
    mem.store_memory("Dentist appointment on 3 May at 10am", {"force_importance": 4})
    mem.remember("A long memory. " * 400)  # chunked
    path = tmp_path / "out.jsonl"
    exported = mem.export_memories(path)
    assert exported["exported"] == mem.stats()["memories"] + mem.stats()["chunks"]
    assert (exported["memories"], exported["chunks"]) == (mem.stats()["memories"], mem.stats()["chunks"])
    with Memory(tmp_path / "copy.db", embedder=FakeEmbedder()) as other:
        result = other.import_memories(path)
        assert result["imported"] == mem.export_memories.__self__.stats()["memories"] + mem.stats()["chunks"]
        for batch in mem.store.iter_all():
            for record in batch:
                assert other.get(record.id) == record
        assert other.validate_storage()["ok"]
        again = other.import_memories(path)
        assert again["imported"] == 0 and again["skipped"] == result["imported"]
        other.rollback(result["operation_id"])
        assert other.stats()["memories"] == 0


def test_an_import_with_redaction_on_keeps_no_raw_personal_data(tmp_path: Path, mem: Memory) -> None:
    kept = mem.store_memory(_PERSONAL)["memory_id"]
    plain = mem.remember("Water the ferns on Sundays").id
    path = tmp_path / "out.jsonl"
    mem.export_memories(path)
    redacting = Settings(home=tmp_path / "home", redact_pii=True)
    with Memory(tmp_path / "copy.db", embedder=FakeEmbedder(), settings=redacting) as other:
        other.import_memories(path)
        record = other.get(kept)
        assert "4111" not in record.content and "[REDACTED_CARD]" in record.content
        assert record.metadata["pii_redacted"] == ["card", "email"]
        assert record.content_hash != mem.get(kept).content_hash
        # Embedded again from the redacted text, not the vector of the raw one.
        vector = other.store.vectors([kept])[kept]
        assert np.allclose(vector, other.embedder.embed_batch([record.content])[0], atol=1e-6)
        assert other.get(plain) == mem.get(plain)  # nothing personal: imported as it was
        assert other.validate_storage()["ok"]


def test_import_reports_the_bad_line(tmp_path: Path, mem: Memory) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps({"id": "x", "content": "", "content_hash": "h", "created_at": "2024-01-01T00:00:00Z"})
    )
    with pytest.raises(InvalidInput, match=r"line 1\.content"):
        mem.import_memories(path)


def test_backup_and_restore(tmp_path: Path, mem: Memory) -> None:
    first = mem.remember("Kept in the backup").id
    mem.remember(
        "The harbour crane lifts containers. " * 300
    )  # chunked: its chunks are no memories of their own
    out = mem.backup_restore("backup", tmp_path / "b.db")
    assert out["integrity"] == "ok" and out["memories"] == 2 and out["chunks"] == mem.stats()["chunks"] > 1
    mem.remember("Written after the backup")
    restored = mem.backup_restore("restore", tmp_path / "b.db")
    assert restored["memories"] == 2 and first in [r.id for r in mem.list()] and len(mem.list()) == 2
    assert mem.recall("kept backup", touch=False)[0].record.id == first  # the vector index was rebuilt
    with pytest.raises(Exception, match="exists"):
        mem.backup_restore("backup", tmp_path / "b.db")


def test_validate_finds_and_repair_fixes_a_broken_fts_index(mem: Memory) -> None:
    mem.store_memory("Tomatoes need six hours of sun")
    wipe = {  # how each backend's full-text index can be emptied behind the store's back
        "SQLiteStore": "INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')",
        "PostgresStore": "UPDATE memories SET tsv = NULL",
    }
    with mem.store.atomic() as db:
        db.execute(wipe[type(mem.store).__name__])  # type: ignore[attr-defined]
    report = mem.validate_storage()
    assert not report["ok"] and any(i["check"] == "fts" for i in report["issues"])
    fixed = mem.repair_index()
    assert "rebuilt the full-text index" in fixed["repaired"] and fixed["issues_after"] == []
    assert mem.search_memory("tomatoes", {"min_relevance": 0})["results"]


def test_discover_lists_working_tools_and_health(mem: Memory) -> None:
    mem.store_memory("Learned that interval training improves 5k times")
    found = mem.discover_memory_tools()
    assert found["current_system_state"]["total_memories"] == 1
    assert 0 < found["current_system_state"]["health_score"] <= 1
    for tools in found["advanced_tools"].values():
        for name in tools:
            tool = registry.tool(name)
            assert tool is not None
            if name in {"merge_memories", "export_memories", "import_memories", "backup_restore"} or any(
                field.is_required() for field in tool.arguments.model_fields.values()
            ):
                continue  # need arguments; tested with them
            assert isinstance(mem.run_tool(name), dict)
    trace = mem.run_tool("trace_search", query="interval training")
    assert trace["candidates"][0]["components"]["vector"] >= 0 and trace["candidates"][0]["outcome"]
    timeline = mem.memory_timeline(granularity="day")
    assert timeline["total"] == 1 and timeline["periods"][0]["memories"]
    with pytest.raises(InvalidInput):
        mem.run_tool("format_disk")
    # The seed's wording, counted right: "consolidate 15 duplicate tags", "categorise 1 memory ...".
    from engram.agent.health import _count

    assert (
        _count(1, "memory", "memories") == "1 memory" and _count(15, "duplicate tag") == "15 duplicate tags"
    )


def _tinydb(directory: Path) -> None:
    with TinyDB(directory / "tinydb_memories.json") as db:
        db.table("memories").insert_multiple(
            [
                {
                    "id": "mem_001",
                    "content": "User prefers dark mode in every editor",
                    "created_at": "2024-03-01T10:00:00",
                    "last_modified": "2024-03-02T10:00:00Z",
                    "tags": ["ui"],
                    "category": "preferences",
                    "importance": 4,
                    "expires_at": None,
                    "metadata": {"origin": "chat"},
                },
                {
                    "id": "mem_002",
                    "content": "Correction: the API base URL is api.example.com/v2",
                    "created_at": "2024-04-01T09:00:00+02:00",
                    "last_modified": None,
                    "tags": [],
                    "category": "corrections",
                    "importance": 3,
                },
                {
                    "id": "mem_003",
                    "content": "Renew the domain before it lapses",
                    "created_at": "2024-05-01T00:00:00",
                    "tags": ["admin"],
                    "category": "weird_bucket",
                    "importance": 5,
                },
            ]
        )
    with TinyDB(directory / "tinydb_tags.json") as db:
        db.table("tags").insert_multiple(
            [
                {
                    "tag": "ui",
                    "usage_count": 7,
                    "created_at": "2023-01-01T00:00:00",
                    "last_used_at": "2024-03-01T00:00:00",
                },
                {"tag": "unused-old-tag", "usage_count": 2, "created_at": "2023-01-01T00:00:00"},
            ]
        )
    with TinyDB(directory / "tinydb_categories.json") as db:
        db.table("categories").insert_multiple([{"name": "preferences"}, {"name": "corrections"}])


def test_tinydb_import_keeps_ids_maps_categories_and_rolls_back(tmp_path: Path, mem: Memory) -> None:
    _tinydb(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.glob("tinydb_*.json")}
    out = mem.import_tinydb(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.glob("tinydb_*.json")} == before  # read, not modified
    assert out["outcomes"] == {"created": 3}
    prefs = mem.get("mem_001")
    assert prefs.category is Category.CONTEXTS and "preferences" in prefs.tags and "ui" in prefs.tags
    assert prefs.created_at.isoformat().startswith("2024-03-01T10:00:00")
    assert mem.search_memory("dark mode", {"min_relevance": 0})["results"][0]["importance"] == 4
    assert mem.get("mem_002").category is Category.LEARNINGS
    assert mem.get("mem_003").category_method != "explicit"  # unknown old category: classified
    assert mem.store.tag("unused-old-tag").status == "archived"  # type: ignore[union-attr]
    mem.rollback(out["operation_id"])
    assert mem.stats()["memories"] == 0 and mem.store.tag("ui") is None


def test_tinydb_errors_name_the_document_and_field(tmp_path: Path, mem: Memory) -> None:
    with TinyDB(tmp_path / "tinydb_memories.json") as db:
        db.table("memories").insert({"id": "m1", "content": "ok", "importance": 9})
    with pytest.raises(InvalidInput) as caught:
        mem.import_tinydb(tmp_path)
    assert caught.value.field == "tinydb_memories.json[1].importance"
    with pytest.raises(InvalidInput, match=r"no tinydb_memories\.json"):
        mem.import_tinydb(tmp_path / "nowhere")


def test_validate_counts_orphan_tags_and_repair_archives_them(mem: Memory) -> None:
    from datetime import UTC, datetime

    from engram.store.values import TagRow

    mem.store_memory("Tomatoes need six hours of sun", {"additional_tags": ["gardening"]})
    now = datetime.now(UTC)
    for name in ("unused-one", "unused-two"):  # registered, carried by no memory
        mem.store.put_tag(TagRow(name, 3, now, now))
    orphans = [i for i in mem.validate_storage()["issues"] if "orphan" in i["problem"]]
    assert [i["count"] for i in orphans] == [2]
    mem.repair_index()
    rows = {r.tag: r for r in mem.store.tags(("active", "archived"))}
    assert rows["unused-one"].status == rows["unused-two"].status == "archived"
    assert rows["gardening"].status == "active"
    assert not [i for i in mem.validate_storage()["issues"] if "orphan" in i["problem"]]


def test_a_time_in_the_query_orders_but_does_not_lift_unrelated_memories_over_the_floor(real: Memory) -> None:
    mem, now = real, utcnow()
    priya = mem.remember("Met with Priya about the roadmap", created_at=now - timedelta(days=3))
    mem.remember("I prefer dark mode in every editor", created_at=now - timedelta(days=3))
    found = mem.search_memory("what did Priya say last week", now=now)
    assert found["results"][0]["id"] == priya.id and found["results"][0]["confidence"] in ("medium", "high")
    # The unrelated memory, lifted by the time score as much as the match, may come only as a guess.
    assert [r["confidence"] for r in found["results"][1:]] in ([], ["low"])
    # Asked for every result, both come, the one that matches first; the other one, lifted by the time score
    # as much as the match, is still no answer.
    both = mem.search_memory("what did Priya say last week", {"min_confidence": "low"}, now=now)
    assert both["results"][0]["id"] == priya.id and both["total_found"] == 2
    assert both["results"][1]["confidence"] == "low"


def test_an_important_often_found_memory_does_not_answer_unrelated_questions(real: Memory) -> None:
    # Importance, recency and usage add up to the 0.3 floor, and every search that returns a memory raises two
    # of them: they may rank what matches, not make a memory match.
    mem = real
    grant = mem.store_memory(
        "URGENT: the grant report is due Friday, this is critical", {"force_importance": 5}
    )
    team = mem.store_memory("Our team uses PostgreSQL with pgvector for the analytics service")
    for _ in range(25):
        assert mem.search_memory("grant report deadline")["results"][0]["id"] == grant["memory_id"]
    for question in ("favourite pizza topping", "what database does the team use"):
        found = mem.search_memory(question)
        # At most a guess, marked as one: its priors rank it, they do not make it an answer.
        assert all(r["confidence"] == "low" for r in found["results"] if r["id"] == grant["memory_id"])
        sure = mem.search_memory(question, {"min_confidence": "medium"}, touch=False)
        assert grant["memory_id"] not in [r["id"] for r in sure["results"]], question
    answered = mem.search_memory("what database does the team use")["results"]
    assert answered[0]["id"] == team["memory_id"]


def test_search_memory_finds_a_reply_through_the_question_it_answers(real: Memory) -> None:
    # A turn such as "Yes, last Friday with Anna." carries the answer but none of the question's words or topic:
    # it is found through the turn before it in its conversation, as recall finds it (the context score).
    mem, now = real, utcnow()
    turns = [
        ("chat", "Did you end up going to the pottery class downtown?"),
        ("chat", "Yes, last Friday with Anna."),
        ("chat", "Nice. The weather has been awful all week."),
        ("work", "The quarterly budget review moved to Thursday."),
        ("work", "Yes, the finance team confirmed it."),
    ]
    ids = [
        mem.remember(text, episode_id=episode, sequence_number=i, created_at=now - timedelta(days=2)).id
        for i, (episode, text) in enumerate(turns)
    ]
    found = mem.search_memory("when did I go to the pottery class?", now=now)
    shown = {r["id"] for r in found["results"]}
    assert ids[0] in shown and ids[1] in shown
    assert ids[4] not in shown  # a "yes" of another conversation lends nothing
    trace = {c["id"]: c for c in mem.trace_search("when did I go to the pottery class?")["candidates"]}
    assert trace[ids[1]]["components"]["context"] > 0.5  # the question before it matches


def test_editing_or_forgetting_a_memory_keeps_the_tag_registry_counting_the_memories(mem: Memory) -> None:
    first = mem.store_memory("Renew the TLS certificate", {"additional_tags": ["certs", "ops"]})["memory_id"]
    mem.store_memory("Rotate the deploy keys", {"additional_tags": ["ops"]})
    assert (usage := {t.tag: t.usage_count for t in mem.store.tags()})["certs"] == 1 and usage["ops"] == 2
    mem.update(first, tags=["ops", "security"])
    tag = mem.store.tag("certs")
    # The tag no memory carries now is archived, never deleted; a new one is registered with its embedding.
    assert tag is not None and (tag.usage_count, tag.status) == (0, "archived")
    security = mem.store.tag("security")
    assert security is not None and security.usage_count == 1 and security.vector is not None
    assert {t.tag: t.usage_count for t in mem.store.tags()}["ops"] == 2
    assert mem.validate_storage()["ok"]
    mem.forget(first)
    assert {t.tag: t.usage_count for t in mem.store.tags()}["ops"] == 1
    assert mem.store.tag("security") is None  # carried by the forgotten memory alone: erased with its text
    assert mem.validate_storage()["ok"]


def test_a_long_memory_counts_once_in_a_search(mem: Memory) -> None:
    long = mem.remember(" ".join(f"Paragraph {i} tells of harbour crane {i}." for i in range(300))).id
    short = [mem.store_memory(t)["memory_id"] for t in ("The harbour opens at six", "Cranes need oiling")]
    assert len(mem.store.children(long)) > 3
    listed = mem.search_memory("what did I tell you today?", {"limit": 3}, touch=False)
    assert listed["total_found"] == 3  # memories, not memories and their chunks
    assert {r["id"] for r in listed["results"]} == {long, *short}
    found = mem.search_memory("harbour crane", {"limit": 2, "min_relevance": 0}, touch=False)
    assert len(found["results"]) == 2 and found["results"][0]["id"] != found["results"][1]["id"]


def test_an_edit_that_takes_a_name_out_of_the_text_takes_it_out_of_the_tags(mem: Memory) -> None:
    out = mem.store_memory("Call Maria Lopez about the lease renewal", {"additional_tags": ["housing"]})
    named = [t for t in out["analysis"]["generated_tags"] if "maria" in t]
    assert named
    mem.update(out["memory_id"], content="Call the landlord about the lease renewal")
    record = mem.get(out["memory_id"])
    assert not [t for t in record.tags if "maria" in t] and {"housing", "lease-renewal"} <= set(record.tags)
    assert "Maria Lopez" not in json.dumps(record.metadata)  # nor in the concepts and entities kept with it
    assert [mem.store.tag(t).usage_count for t in named] == [0] * len(named)  # type: ignore[union-attr]
    # A memory not tagged by store_memory keeps its tags: none of them is known to be automatic.
    plain = mem.remember("Water the ferns on Fridays", tags=["plants"]).id
    mem.update(plain, content="Water the orchids on Fridays")
    assert mem.get(plain).tags == ("plants",)
    assert mem.validate_storage()["ok"]


def test_edits_keep_the_analysis_true_to_the_text(mem: Memory) -> None:
    out = mem.store_memory("Lunch with Alice Walker from Stripe about the node pool")
    memory_id = out["memory_id"]
    # Content and tags edited together: the tags are the caller's, the concepts and entities the new text's.
    mem.update(memory_id, content="Use Redis for the caching layer", tags=["infra"])
    record = mem.get(memory_id)
    assert record.tags == ("infra",) and "Walker" not in json.dumps(record.metadata)
    # Metadata edited by hand keeps what the engine knows of the text (its automatic tags among it).
    mem.update(memory_id, content="Order pizza for the team offsite", metadata={"owner": "ops"})
    mem.update(memory_id, metadata={"owner": "infra"})
    record = mem.get(memory_id)
    assert record.metadata["owner"] == "infra" and isinstance(record.metadata["auto_tags"], list)
    assert record.metadata["concepts"]


def test_a_folded_tag_stays_automatic_under_its_new_name(mem: Memory) -> None:
    first = mem.store_memory("The staging cluster needs a new nodepool")["memory_id"]
    for text in ("Scale the pools before the load test", "Drain the old pool first"):
        mem.remember(text, tags=["node-pool"])
    assert "nodepool" in mem.get(first).tags
    mem.optimize_tags()  # nodepool / node-pool: one tag spelled two ways, under the more used spelling
    record = mem.get(first)
    assert "node-pool" in record.tags and "node-pool" in record.metadata["auto_tags"]
    mem.update(first, content="Order pizza for the team offsite")
    assert "node-pool" not in mem.get(first).tags  # replaced with the new text's tags
    assert mem.validate_storage()["ok"]


def test_a_tags_edit_under_redaction_is_an_edit_of_the_text(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    with Memory(path, embedder=FakeEmbedder(), settings=Settings(home=tmp_path)) as plain:
        memory_id = plain.remember("Call Ann at 415-555-0199 about the lease").id
    redacting = Settings(home=tmp_path, redact_pii=True)
    with Memory(path, embedder=FakeEmbedder(), settings=redacting) as mem:
        mem.update(memory_id, tags=["housing"])
        record = mem.get(memory_id)
        assert (
            "555" not in record.content and record.content_hash != "" and "pii_found" not in record.metadata
        )
        assert np.allclose(
            mem.store.vectors([memory_id])[memory_id], mem.embedder.embed_batch([record.content])[0]
        )
        again = mem.remember(record.content)
        assert again.duplicate_of == memory_id  # the stored text is the redacted one, hash and all


def test_import_names_a_record_whose_id_another_memory_holds(tmp_path: Path, mem: Memory) -> None:
    mem.remember("The original text", id="shared-id")
    path = tmp_path / "in.jsonl"
    line = {
        "id": "shared-id",
        "content": "Another text entirely",
        "content_hash": "x",
        "created_at": "2026-01-01T00:00:00Z",
    }
    bad = {**line, "id": "other", "metadata": "oops"}
    path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"line 1\.metadata"):
        mem.import_memories(path)
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = mem.import_memories(path)
    assert out["imported"] == 0 and out["conflicts"] == [
        {"line": 1, "id": "shared-id", "reason": "the id is another memory's, with other content"}
    ]
    assert mem.get("shared-id").content == "The original text"


def test_a_rollback_that_would_undo_later_edits_is_refused(mem: Memory) -> None:
    a = mem.remember("Retro notes", tags=["meeting-notes"]).id
    b = mem.remember("Standup summary", tags=["meeting-note"]).id
    op = mem.merge_memories([a, b])["operation_id"]
    mem.update(a, content="Order pizza for the team offsite")
    with pytest.raises(InvalidInput, match=f"changed after it \\({a}\\)") as caught:
        mem.rollback(op)
    assert caught.value.field == "operation_id"
    assert mem.get(a).content == "Order pizza for the team offsite"  # the later edit stands
    assert mem.get(b).status is Status.SUPERSEDED and mem.validate_storage()["ok"]
    # Forgotten since: a rollback would bring it back.
    op = mem.merge_memories([a, mem.remember("Lunch order list").id])["operation_id"]
    mem.forget(a)
    with pytest.raises(InvalidInput, match="changed after it"):
        mem.rollback(op)


def test_merges_count_the_tags_they_put_on_the_memory_they_keep(mem: Memory) -> None:
    first = mem.remember("the staging server restarts every night at two", tags=["ops"]).id
    second = mem.remember("The staging server restarts every night at two!", tags=["servers"])
    assert second.merged_into == first and set(mem.get(first).tags) == {"ops", "servers"}
    assert mem.store.tag("servers").usage_count == 1  # type: ignore[union-attr]
    other = mem.remember("Backups run at three", tags=["backups"]).id
    op = mem.merge_memories([first, other])["operation_id"]
    # Both carry "backups" now: the one kept and the one superseded (kept, never deleted).
    assert mem.store.tag("backups").usage_count == 2  # type: ignore[union-attr]
    assert mem.validate_storage()["ok"]
    mem.rollback(op)
    assert mem.store.tag("backups").usage_count == 1 and mem.validate_storage()["ok"]  # type: ignore[union-attr]
    # A count that no longer matches the memories is found, and repaired.
    row = mem.store.tag("ops")
    mem.store.put_tag(replace(row, usage_count=7))  # type: ignore[type-var]
    problems = [i["problem"] for i in mem.validate_storage()["issues"]]
    assert any("usage count" in p for p in problems)
    mem.repair_index()
    assert mem.store.tag("ops").usage_count == 1 and mem.validate_storage()["ok"]  # type: ignore[union-attr]


def test_new_text_is_scored_again_unless_its_importance_was_set(mem: Memory) -> None:
    urgent = mem.store_memory("URGENT: send the grant report to the board by Friday 5pm")
    assert urgent["analysis"]["importance_score"] >= 4
    mem.update(urgent["memory_id"], content="The lunch with the team was nice")
    assert importance_1_5(mem.get(urgent["memory_id"]).importance) == 2
    forced = mem.store_memory("The lunch with the board was nice", {"force_importance": 5})["memory_id"]
    mem.update(forced, content="The dinner with the board was nice")
    assert mem.get(forced).importance == 1.0  # forced: kept
    by_hand = mem.store_memory("Water the ferns")["memory_id"]
    mem.update(by_hand, importance=0.9)
    mem.update(by_hand, content="Water the ferns and the orchids")
    record = mem.get(by_hand)
    assert record.importance == 0.9 and "importance" in record.metadata["overridden"]


def test_a_memory_from_another_system_is_written_as_engram_writes_its_own(
    tmp_path: Path, mem: Memory
) -> None:
    long = (
        " ".join(f"Paragraph {i} tells of harbour crane {i}." for i in range(300))
        + " The last line names zeppelins."
    )
    records = [
        {"id": "long-1", "content": long, "content_hash": "x", "created_at": "2026-01-01T00:00:00Z"},
        {
            "id": "mail-1",
            "content": "Reach Ann at ann@example.com",
            "content_hash": "y",
            "created_at": "2026-01-02T00:00:00Z",
        },
    ]
    path = tmp_path / "foreign.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    op = mem.import_memories(path)["operation_id"]
    # Cut into chunks as a long memory is, so its end is found; counted in model tokens; personal data noted.
    assert len(mem.store.children("long-1")) > 3 and mem.get("long-1").token_count > 220
    found = mem.search_memory("zeppelins", {"min_relevance": 0}, touch=False)["results"]
    assert found and found[0]["id"] == "long-1"
    assert mem.get("mail-1").metadata["pii_found"] == ["email"]
    assert mem.validate_storage()["ok"]
    mem.rollback(op)
    assert mem.stats()["memories"] == 0 and mem.stats()["chunks"] == 0


def test_a_restore_from_another_program_s_database_is_refused_before_anything_changes(
    tmp_path: Path, mem: Memory
) -> None:
    import sqlite3

    mem.remember("Kept whatever the restore is given")
    foreign = tmp_path / "foreign.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE memories(id TEXT, content TEXT)")  # as mcp-memory-service's database has
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not an engram database"):
        mem.backup_restore("restore", foreign)
    assert mem.stats()["memories"] == 1 and mem.validate_storage()["ok"]


def test_tag_counts_stay_those_of_the_memories_through_consolidation_and_its_rollback(mem: Memory) -> None:
    mem.remember("Retro notes", tags=["meetingnotes", "meeting-notes"])  # one memory with both spellings
    mem.remember("Standup summary", tags=["meeting-notes"])
    op = mem.optimize_tags()["operation_id"]
    assert mem.store.tag("meeting-notes").usage_count == 2 and mem.validate_storage()["ok"]  # type: ignore[union-attr]
    mem.remember("Planning notes", tags=["meeting-notes"])  # stored after the operation
    mem.rollback(op)
    assert mem.store.tag("meeting-notes").usage_count == 3  # type: ignore[union-attr]
    assert mem.validate_storage()["ok"]


def test_an_approved_memory_is_not_folded_into_one_search_does_not_return(mem: Memory) -> None:
    kept = mem.remember("Backups run at three").id
    rejected = mem.remember("Backups run at four").id
    mem.update(rejected, status="rejected")
    with pytest.raises(InvalidInput, match="merge into an approved memory") as caught:
        mem.merge_memories([kept, rejected], into=rejected)
    assert caught.value.field == "into" and mem.get(kept).status is Status.APPROVED
    mem.merge_memories([kept, rejected])  # into the approved one: the rejected one is superseded
    assert mem.get(rejected).status is Status.SUPERSEDED


def test_an_import_file_that_is_no_utf8_text_is_named_as_such(tmp_path: Path, mem: Memory) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b'{"id": "a", "content": "caf\\xe9"}\n' + bytes([0xFF, 0xFE, 0x00]))
    for call in (mem.import_memories, lambda p: mem.import_from("mem0", p)):
        with pytest.raises(InvalidInput, match="is not UTF-8 text") as caught:
            call(path)
        assert caught.value.field == "file"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InvalidInput, match="is not JSON"):
        mem.import_from("shodh-json", path)
