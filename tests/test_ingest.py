"""Conversation ingestion (seed 001): sources, candidates by rule and by classifier, status, review, PII."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram import InvalidInput, Memory, Status
from engram.interfaces.cli.app import app
from engram.review.extract import ASKED_TODO, CONFIDENCE, Message, by_rule, explicit_kind
from engram.review.messages import read_messages
from engram.store.values import Filter

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"

EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("My name is Lena Fischer and I work as a pharmacist.", "profile"),
        ("我叫王伟，在上海工作。", "profile"),
        ("I really like long walks by the river.", "preference"),
        ("我不喜欢吃辣的东西。", "preference"),
        ("I plan to learn the cello next year.", "goal"),
        ("我计划明年去日本旅行。", "goal"),
        ("We decided to move the launch to June.", "decision"),
        ("The API must not store card numbers.", "constraint"),
        ("你必须在周五之前提交报告。", "constraint"),
        ("Remind me to call the dentist on Monday.", "todo"),
        ("帮我记一下明天下午三点开会。", "todo"),
        ("I'm working on a compiler for a toy language.", "project"),
        ("I think the leak is in the connection pool.", "hypothesis"),
        ("Keywords: retrieval, ranking, memory", "keyword_set"),
        ("Note: the spare key is under the blue pot.", "note"),
        ("Please always answer me in British English.", "preference"),  # an instruction to the assistant
        ("From now on, reply in bullet points.", "preference"),
        ("以后请用中文回答我。", "preference"),
        ("Never deploy on Fridays after 2pm.", "constraint"),  # a rule of the work, not of the assistant
    ],
)
def test_explicit_statements_in_english_and_chinese(sentence: str, kind: str) -> None:
    assert explicit_kind(sentence) == kind
    found, _ = by_rule(Message(role="user", content=sentence))
    # Both to-dos here are asked for in so many words: explicit, above the approval line.
    confidence = ASKED_TODO if kind == "todo" else CONFIDENCE[kind]
    assert [(c.kind, c.confidence, c.how) for c in found] == [(kind, confidence, "rule")]


@pytest.mark.parametrize(
    "sentence",
    [
        "By the way my phone number is +49 151 23456789",
        "You can reach me at +44 7700 900123.",
        "My work email is k.osei@example.com.",
        "Don't forget my number is +49 151 23456789",
    ],
)
def test_contact_details_are_who_the_user_is_never_a_task(sentence: str) -> None:
    found, rest = by_rule(Message(role="user", content=sentence))
    assert [(c.kind, c.confidence) for c in found] == [("profile", CONFIDENCE["profile"])] and rest == []


def test_a_to_do_asked_for_clears_the_approval_line_and_an_inferred_one_waits() -> None:
    asked, _ = by_rule(Message(role="user", content="Remind me to book the MOT for the car next week."))
    inferred, _ = by_rule(Message(role="user", content="I need to call the bank about the new card."))
    assert [(c.kind, c.approved) for c in asked] == [("todo", True)]
    assert [(c.kind, c.confidence, c.approved) for c in inferred] == [("todo", CONFIDENCE["todo"], False)]


def test_questions_greetings_and_remarks_about_others_are_not_candidates() -> None:
    found, rest = by_rule(
        Message(role="user", content="Hey Mel! How have you been? That must have been tough for you.")
    )
    assert found == [] and rest == []


def test_seed_confidences() -> None:
    assert CONFIDENCE == {
        "profile": 0.85,
        "preference": 0.72,
        "goal": 0.68,
        "project": 0.70,
        "fact": 0.65,
        "decision": 0.70,
        "constraint": 0.62,
        "todo": 0.58,
        "hypothesis": 0.50,
        "keyword_set": 0.75,
        "note": 0.60,
    }


def _chat() -> list[dict[str, object]]:
    at = datetime(2026, 3, 1, 9, tzinfo=UTC)
    lines = [
        ("user", "Hi! My name is Tomas and I teach physics in Lisbon."),
        ("assistant", "Nice to meet you Tomas! My name is Assistant and I love physics too."),
        ("user", "Remind me to order lab goggles before Friday."),
        ("user", "My email is tomas.lima@example.pt if the order is late."),
        ("user", "I think the old projector is broken."),
    ]
    return [
        {
            "role": r,
            "content": c,
            "ts": (at + timedelta(minutes=i)).isoformat(),
            "platform": "test",
            "conversation_id": "c1",
            "message_id": f"m{i}",
        }
        for i, (r, c) in enumerate(lines)
    ]


def test_ingest_keeps_sources_and_decides_status_by_confidence_and_pii(mem: Memory) -> None:
    report = mem.ingest(_chat())
    assert report["messages"] == 5 and len(mem.store.sources("c1")) == 5
    stored = {r.content: r for r in mem.store.select(EVERYTHING, limit=100)}
    profile = stored["My name is Tomas and I teach physics in Lisbon."]
    assert profile.status == Status.APPROVED and profile.metadata["candidate"]["kind"] == "profile"
    assert profile.metadata["candidate"]["evidence"]["message_id"] == "m0"
    assert profile.created_at == datetime(2026, 3, 1, 9, tzinfo=UTC) and profile.scope_id == "c1"
    # asked for in so many words: approved (an inferred to-do starts at 0.58, under the 0.60 line)
    assert stored["Remind me to order lab goggles before Friday."].status == Status.APPROVED
    email = next(r for c, r in stored.items() if "tomas.lima@example.pt" in c)
    assert email.status == Status.PENDING and email.metadata["pii"]["risk"] == 2
    assert stored["I think the old projector is broken."].status == Status.PENDING  # hypothesis 0.50
    assert not any("Assistant" in c for c in stored)  # assistant messages are sources, not memories
    assert mem.ingest(_chat())["messages_already_ingested"] == 5


def test_redaction_on_store(mem: Memory) -> None:
    mem.ingest(_chat(), redact=True)
    contents = [r.content for r in mem.store.select(EVERYTHING, limit=100)]
    assert not any("example.pt" in c for c in contents)
    assert any("[REDACTED_EMAIL]" in c for c in contents)


def test_review_queue_and_recall_of_approved_only(mem: Memory) -> None:
    mem.ingest(_chat())
    pending = {r.content: r for r in mem.pending()}
    hunch = pending["I think the old projector is broken."]
    asked = datetime(2026, 3, 2, tzinfo=UTC)
    assert hunch.id not in [h.record.id for h in mem.recall("old projector", mode="ranked", now=asked)]
    mem.review(hunch.id, "approve")
    assert hunch.id in [h.record.id for h in mem.recall("old projector", mode="ranked", now=asked)]
    todo = next(r for r in mem.list() if r.content == "Remind me to order lab goggles before Friday.")
    assert mem.review(todo.id, "reject").status == Status.REJECTED
    assert todo.id not in [h.record.id for h in mem.recall("order lab goggles", mode="ranked", now=asked)]
    email = next(r for c, r in pending.items() if "@" in c)
    edited = mem.review(email.id, "edit", content="Tomas can be reached by email about late orders.")
    assert edited.status == Status.APPROVED and "@" not in edited.content
    with pytest.raises(ValueError, match="action"):
        mem.review(todo.id, "shrug")


def test_supersede_keeps_both_in_history(mem: Memory) -> None:
    old = mem.remember("Tomas lives in Lisbon", scope="project", scope_id="c1").id
    new = mem.supersede(old, "Tomas moved to Porto in May").id
    assert mem.get(old).status == Status.SUPERSEDED and mem.get(old).metadata["superseded_by"] == new
    assert mem.get(new).metadata["supersedes_id"] == old
    assert [
        h.record.id
        for h in mem.recall("where does Tomas live", mode="ranked", scope="project", scope_id="c1")
    ] == [new]
    # Superseding the old one again would leave two current versions: the newest is the one to supersede.
    with pytest.raises(InvalidInput, match=f"already superseded by {new}"):
        mem.supersede(old, "Tomas moved to Braga")
    assert [r.content for r in mem.list(status="approved")] == ["Tomas moved to Porto in May"]


def test_bad_messages_name_the_field(mem: Memory, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"messages\[0\]\.role"):
        mem.ingest([{"content": "no role"}])
    with pytest.raises(
        InvalidInput, match=r"messages\[0\]\.when: is not a message field \(role, content, ts"
    ):
        mem.ingest([{"role": "user", "content": "hi", "when": "today"}])
    said = mem.ingest([{"role": "user", "content": "I live in Porto", "timestamp": "2026-03-01T10:00:00Z"}])
    assert said["messages"] == 1  # a chat export's "timestamp" is the message's time
    broken = tmp_path / "chat.jsonl"
    broken.write_text('{"role": "user", "content": "fine"}\n\n{"role": "user", "content": oops}\n')
    with pytest.raises(InvalidInput, match="line 3, column 29: Expecting value"):
        read_messages(broken)
    broken.write_bytes(b'{"role": "user", "content": "caf\xe9"}\n')
    with pytest.raises(InvalidInput, match="is not UTF-8 text"):
        read_messages(broken)


def test_cli_ingest_and_review(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in _chat()))
    runner = CliRunner()
    db = str(tmp_path / "cli.db")
    done = runner.invoke(app, ["--db", db, "ingest", str(path), "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["messages"] == 5
    listed = runner.invoke(app, ["--db", db, "review"])
    assert listed.exit_code == 0 and "hypothesis" in listed.output
    with Memory(db) as mem:
        target = mem.pending()[0].id
    decided = runner.invoke(app, ["--db", db, "review", "reject", target])
    assert decided.exit_code == 0 and "rejected" in decided.output


@pytest.mark.skipif(not (SHARED / "locomo_dev.json.gz").exists(), reason="benchmark data not present")
def test_ingest_a_locomo_conversation_with_the_real_model(real: Memory) -> None:
    messages = [m for m in read_messages(SHARED / "locomo_dev.json.gz") if m.conversation_id == "conv-26"][
        :120
    ]
    report = real.ingest(messages)
    assert report["messages"] == 120 and report["candidates"] > 20
    assert report.get("approved", 0) > 0 and report.get("pending", 0) > 0
    assert {m["metadata"]["speaker"] for m in real.store.sources("conv-26")} == {"Caroline", "Melanie"}
    hits = real.recall(
        "What is Caroline's identity?", mode="ranked", limit=5, scope="project", scope_id="conv-26"
    )
    assert hits and all(h.record.status == Status.APPROVED for h in hits)


def test_isolation_by_user_then_workspace_and_shared_memories(mem: Memory) -> None:
    alice = mem.remember("Alice keeps her passport in the blue drawer", user_id="alice").id
    bob = mem.remember("Bob keeps his passport in the red drawer", user_id="bob", workspace_id="w1").id
    shared = mem.remember("Passports must be renewed every ten years").id
    same_text = mem.remember("Alice keeps her passport in the blue drawer", user_id="bob")
    assert same_text.created  # another user's identical text is theirs, not a duplicate of Alice's

    def seen(user_id: str | None = None, workspace_id: str | None = None) -> set[str]:
        found = mem.recall(
            "passport drawer renewed", mode="ranked", limit=20, user_id=user_id, workspace_id=workspace_id
        )
        return {h.record.id for h in found}

    assert alice in seen(user_id="alice") and shared in seen(user_id="alice")
    assert bob not in seen(user_id="alice") and same_text.id not in seen(user_id="alice")
    assert bob in seen(user_id="bob", workspace_id="w1") and bob not in seen(user_id="bob", workspace_id="w2")
    assert {alice, bob, shared, same_text.id} <= seen()  # no owner given: a global view
    assert {r.id for r in mem.list(user_id="alice")} == {alice, shared}


def test_todos_are_time_bound_and_expired_ones_stay_stored(mem: Memory) -> None:
    said = datetime(2026, 3, 2, 9, tzinfo=UTC)  # a Monday
    mem.ingest(
        [
            {
                "role": "user",
                "content": "Remind me to renew the parking permit by Friday.",
                "ts": said.isoformat(),
                "conversation_id": "c2",
                "message_id": "t1",
            }
        ]
    )
    todo = next(r for r in mem.store.select(EVERYTHING, limit=10) if "parking permit" in r.content)
    assert todo.expires_at == datetime(2026, 3, 7, tzinfo=UTC)  # the end of Friday 6 March
    assert "parking-permit" in todo.tags and "todo" not in todo.tags  # a topic, not the extractor's label
    mem.review(todo.id, "approve")
    before = mem.recall("parking permit", mode="ranked", now=datetime(2026, 3, 5, tzinfo=UTC), touch=False)
    after = mem.recall("parking permit", mode="ranked", now=datetime(2026, 3, 8, tzinfo=UTC), touch=False)
    assert todo.id in [h.record.id for h in before] and todo.id not in [h.record.id for h in after]
    assert mem.get(todo.id).content == todo.content  # expired, still stored


@pytest.mark.skipif(not (SHARED / "longmemeval_s_dev.json.gz").exists(), reason="benchmark data not present")
def test_longmemeval_sessions_read_as_messages() -> None:
    messages = read_messages(SHARED / "longmemeval_s_dev.json.gz")
    assert {m.role for m in messages} == {"user", "assistant"} and all(
        m.platform == "longmemeval" for m in messages
    )
    first = messages[0]
    assert first.ts is not None and first.message_id == f"{first.conversation_id}:0"
    assert len({(m.conversation_id, m.message_id) for m in messages}) == len(messages)  # each session once


def test_every_change_is_audited(mem: Memory) -> None:
    mem.ingest(_chat())
    pending = mem.pending()[0]
    mem.review(pending.id, "approve")
    actions = [e["action"] for e in mem.store.audit_log(pending.id)]
    assert "create" in actions and "review" in actions and "update" in actions
    assert any(e["action"] == "ingest" for e in mem.store.audit_log())


def test_messages_without_ids_are_told_apart_by_what_they_say(mem: Memory) -> None:
    first = mem.ingest([{"role": "user", "content": "My name is Tomas and I teach physics in Lisbon."}])
    second = mem.ingest([{"role": "user", "content": "My name is Ana and I teach chemistry in Porto."}])
    assert "messages_already_ingested" not in first and "messages_already_ingested" not in second
    contents = {r.content for r in mem.store.select(EVERYTHING, limit=100)}
    assert {
        "My name is Tomas and I teach physics in Lisbon.",
        "My name is Ana and I teach chemistry in Porto.",
    } <= (contents)
    again = mem.ingest([{"role": "user", "content": "My name is Ana and I teach chemistry in Porto."}])
    assert again["messages_already_ingested"] == 1


def test_editing_the_personal_data_out_in_review_clears_what_the_metadata_says(mem: Memory) -> None:
    mem.ingest(_chat())
    email = next(r for r in mem.store.select(EVERYTHING, limit=100) if "tomas.lima@example.pt" in r.content)
    assert email.metadata["pii"]["risk"] == 2
    edited = mem.review(email.id, "edit", content="My work email is on my business card.")
    assert edited.metadata["pii"]["risk"] == 0 and edited.metadata["pii"]["kinds"] == []
    assert "pii_found" not in edited.metadata and edited.status == Status.APPROVED


_RAW = ("4111 1111 1111 1111", "536-22-8726", "Hunter2!xyz", "tomas.lima@example.pt")


def _personal_chat(ids: bool) -> list[dict[str, object]]:
    """Messages holding a card number, an SSN, a password and an email, in the text and in the metadata."""
    lines = [
        ("user", "My card is 4111 1111 1111 1111 and my SSN is 536-22-8726."),
        ("assistant", "Noted. Please never share DB_PASSWORD=Hunter2!xyz here."),
        ("user", "My email is tomas.lima@example.pt if the order is late."),
    ]
    return [
        {
            "role": r,
            "content": c,
            "conversation_id": "p1",
            "metadata": {"speaker": "tomas.lima@example.pt", "note": {"said": ["call 536-22-8726"]}},
            **({"message_id": f"p{i}"} if ids else {}),
        }
        for i, (r, c) in enumerate(lines)
    ]


@pytest.mark.parametrize("ids", [True, False])
def test_redaction_keeps_no_raw_personal_data_in_the_sources_either(mem: Memory, ids: bool) -> None:
    report = mem.ingest(_personal_chat(ids), redact=True)
    assert report["messages"] == 3 and "messages_already_ingested" not in report
    sources = mem.store.sources("p1")
    memories = [r.model_dump(mode="json") for r in mem.store.select(EVERYTHING, limit=100)]
    kept = json.dumps(sources) + json.dumps(memories)
    assert len(sources) == 3 and not [raw for raw in _RAW if raw in kept]
    assert sources[0]["content"] == "My card is [REDACTED_CARD] and my SSN is [REDACTED_SSN]."
    assert sources[1]["content"] == "Noted. Please never share DB_PASSWORD=[REDACTED_SECRET] here."
    assert sources[2]["metadata"]["speaker"] == "[REDACTED_EMAIL]"
    assert sources[2]["metadata"]["note"] == {"said": ["call [REDACTED_SSN]"]}
    assert sources[0]["metadata"]["pii_redacted"] == ["card", "ssn", "email"]  # the kinds, never the values
    # The key of a message without an id is read from the text as kept: the same file is known again.
    assert mem.ingest(_personal_chat(ids), redact=True)["messages_already_ingested"] == 3
    assert len(mem.store.sources("p1")) == 3


def test_without_redaction_the_sources_keep_the_messages_as_said(mem: Memory) -> None:
    mem.ingest(_personal_chat(False))
    assert [s["content"] for s in mem.store.sources("p1")] == [m["content"] for m in _personal_chat(False)]


def test_the_redact_setting_redacts_the_sources_of_cli_ingest(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in _personal_chat(False)))
    db = tmp_path / "cli.db"
    done = CliRunner().invoke(app, ["--db", str(db), "ingest", str(path)], env={"ENGRAM_REDACT_PII": "true"})
    assert done.exit_code == 0, done.output
    with Memory(db) as mem:
        assert not [raw for raw in _RAW if raw in json.dumps(mem.store.sources("p1"))]


def test_a_failed_ingest_leaves_the_failed_message_and_the_rest_to_a_retry(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mem.settings, "max_content_chars", 50)  # message 3's statement is 55 characters
    with pytest.raises(ValueError, match="is 55 characters") as failed:
        mem.ingest(_chat())
    assert [s["message_id"] for s in mem.store.sources("c1")] == ["m0", "m1", "m2"]
    assert str(failed.value).startswith("messages[3].content: ")  # the message, not one of its statements
    monkeypatch.setattr(mem.settings, "max_content_chars", 100_000)
    retry = mem.ingest(_chat())
    assert retry["messages_already_ingested"] == 3 and retry["created"] == 2
    assert len(mem.store.sources("c1")) == 5
    contents = {r.content for r in mem.store.select(EVERYTHING, limit=100)}
    assert "My email is tomas.lima@example.pt if the order is late." in contents
    assert "I think the old projector is broken." in contents


def test_a_message_given_twice_in_one_ingest_is_kept_once(mem: Memory) -> None:
    chat = _chat()
    report = mem.ingest([*chat, chat[0]])
    assert report["messages"] == 6 and report["messages_already_ingested"] == 1
    assert len(mem.store.sources("c1")) == 5


def test_cli_ingest_retried_after_an_error_stores_what_the_failed_run_did_not(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in _chat()))
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    failed = runner.invoke(app, ["--db", db, "ingest", str(path)], env={"ENGRAM_MAX_CONTENT_CHARS": "50"})
    assert failed.exit_code != 0 and failed.output.startswith("error: ")
    assert "is 55 characters" in failed.output
    retried = runner.invoke(app, ["--db", db, "ingest", str(path), "--json"])
    assert retried.exit_code == 0, retried.output
    report = json.loads(retried.output)
    assert report["messages_already_ingested"] == 3 and report["created"] == 2
    assert "messages[3].content" in failed.output
