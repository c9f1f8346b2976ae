"""Recall as a user meets it, with the real model: a paraphrase is answered, a question nothing answers gets no
answer above low confidence, a long document answers once, and a word split by a hyphen is the word."""

from __future__ import annotations

from engram import Memory

JWT = "We decided to use JWT tokens with 24h expiry for the mobile app"


def _document() -> str:
    """A long design document: twenty sections of one topic each, the schedule deep inside."""
    sections = [
        f"## {i}. {title}\n\n" + " ".join([body] * 6)
        for i, (title, body) in enumerate(
            [
                ("Background", "The billing platform grew from one service into many over five years."),
                ("Goals", "The migration keeps invoices correct and lets finance close the month sooner."),
                ("Non-goals", "Invoice templates and the payment provider integration stay as they are."),
                ("Current state", "Month-end runs take six hours and overlap with the statement export."),
                ("Data model", "Accounts, subscriptions, usage records and invoices keep their identifiers."),
                ("Change capture", "Debezium streams row changes into Kafka topics during the cutover."),
                ("Reconciliation", "The nightly reconciliation job runs at 02:30 UTC and compares totals."),
                ("Testing", "Unit tests cover conversions and a shadow run compares whole invoices."),
                ("Rollout", "Tenants move in three waves, smallest first, with a week between waves."),
                ("Rollback", "Each wave can be rolled back within an hour by switching the read path."),
                ("Monitoring", "Dashboards show lag, mismatches and error rates for every wave."),
                ("Security", "Personal data is masked in every log line the migration writes."),
                ("Costs", "The extra Kafka topics add about three hundred pounds a month."),
                ("Risks", "A slow wave could overlap with month end; waves avoid the last three days."),
                ("Open questions", "Whether credit notes move with their invoices or in a later wave."),
            ],
            1,
        )
    ]
    return "# Billing platform migration: design document\n\n" + "\n\n".join(sections)


def test_a_paraphrase_is_answered_and_an_unrelated_question_gets_no_sure_answer(real: Memory) -> None:
    for text in (
        JWT,
        "Lena prefers tea to coffee in the evening",
        "My email is jane.doe@example.com",
        "Our cat Miso is scared of the vacuum cleaner",
    ):
        real.store_memory(text)
    for question in ("what did we decide about auth", "authentication decision"):
        found = real.search_memory(question, touch=False)["results"]
        assert found and found[0]["content"] == JWT, question
    for question in ("quantum chromodynamics lattice", "Riemann hypothesis proof sketch"):
        found = real.search_memory(question, touch=False)["results"]
        assert found and all(r["confidence"] == "low" for r in found), question
        assert not any("jane.doe" in r["content"] for r in found), question  # no personal data as a guess
        assert real.recall(question, touch=False) == [], question  # no personal data as a best guess
        assert real.search_memory(question, {"min_confidence": "medium"}, touch=False)["results"] == []


def test_a_hyphenated_word_finds_the_word_written_whole(real: Memory) -> None:
    email = real.store_memory("My work email is sam.okafor@fernbank.io")["memory_id"]
    real.store_memory("Home wifi is called Otter-5G")
    for question in ("what is my e-mail?", "what is my email?"):
        found = real.search_memory(question, touch=False)
        assert found["results"][0]["id"] == email and found["results"][0]["confidence"] != "low", question
        assert real.recall(question, touch=False)[0].record.id == email, question


def test_a_long_document_answers_once_and_a_short_answer_is_not_buried(real: Memory) -> None:
    doc = real.store_memory(_document())["memory_id"]
    short = real.store_memory("We're moving the billing system to PostgreSQL 16 next quarter")["memory_id"]
    real.store_memory("I like chamomile tea in the evening")
    assert len(real.chunks(doc)) >= 5
    found = real.search_memory("which database are we moving the billing system to?", touch=False)["results"]
    ids = [r["id"] for r in found]
    assert ids[0] == short and ids.count(doc) <= 1
    hits = real.recall("when does the nightly reconciliation job run", mode="related", touch=False)
    owners = [h.record.parent_id or h.record.id for h in hits]
    assert owners[0] == doc and owners.count(doc) == 1
    first = hits[0]
    assert "02:30" in first.record.content and first.passage is not None
    assert first.passage.heading is not None and "Reconciliation" in first.passage.heading
    answer = real.run_tool("recall", query="when does the nightly reconciliation job run", mode="related")
    assert answer["results"][0]["id"] == doc and answer["results"][0]["passage"]["document"] == doc


def test_asking_for_memories_with_no_time_gives_guesses_without_personal_data(real: Memory) -> None:
    """ "What did I tell you?" names neither a topic nor a time: the plain search runs, with its confidence cut,
    so it is no list of everything ranked by chance and no guess holding an e-mail address."""
    for text in ("My email is jane.doe@example.com", "Our cat Miso is scared of the vacuum cleaner", JWT):
        real.store_memory(text)
    found = real.search_memory("what did I tell you", touch=False)["results"]
    assert found, "guesses, marked as such, rather than nothing"
    assert all(r["confidence"] == "low" for r in found)
    assert not any("jane.doe" in r["content"] for r in found)
