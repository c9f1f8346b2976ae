"""A question's tag expansions add candidates to search_memory but never lower a memory that matches the
question as asked: "how big is the invoice_line table ..." expands "invoice" to the tag `invoice-pdfs`, and the
memories carrying that tag must not pull the table's memory below the band recall gives it."""

from __future__ import annotations

from engram import Memory

TABLE = (
    "The application writes to MySQL through the Django ORM, except for the month-end job, which uses about 40 raw SQL"
    " statements. The nightly ledger export is a cron job on a single virtual machine; if that machine is down,"
    " nobody notices until finance asks for the file. Card payments arrive as Stripe webhooks, which are handled"
    " synchronously. Read traffic is about 1,400 queries per second at peak, writes about 220 per second. The largest"
    " table, invoice_line, holds 610 million rows and grows by 11 million a month."
)
# Memories that carry the tag the question's word expands to, and say its words many times.
TAGGED = [
    (
        "Invoice PDFs are rendered with WeasyPrint; the PDFs go to the invoice-pdfs bucket.",
        ["invoice", "invoice-pdfs"],
    ),
    ("Regenerate invoice PDFs after a template change; old PDFs stay archived.", ["invoice-pdfs", "invoice"]),
    (
        "Customers download invoice PDFs from the portal; PDFs older than 7 years are deleted.",
        ["invoice-pdfs"],
    ),
]
# Other memories, so that the words of the question and of the tag are rare, as in any real store.
OTHERS = [
    "My dentist is Dr Okafor on Mill Road; check-ups every six months.",
    "Lena prefers tea to coffee in the afternoon.",
    "The team standup is at 9:30 every weekday in the small meeting room.",
    "Passport renewal costs 88 pounds online.",
    "We use GitHub Actions for CI and deploy with Argo CD.",
    "The cat's vet appointment is next Thursday at 4pm.",
    "Kwame runs the on-call rota for the platform team.",
    "The quarterly business review is with Margaret in the boardroom.",
    "I'm allergic to penicillin.",
    "The ledger_entry table in PostgreSQL is partitioned by month.",
    "How large should the database connection pool be? Eighty per node.",
    "The analytics warehouse is about 2 TB in size and doubles every year.",
    "Size of the orders database: 340 GB on the primary, growing 5 % a month.",
    "Our Kafka cluster has six brokers in two availability zones.",
    "The holiday cottage in Devon sleeps six and allows dogs.",
    "Grafana dashboards for the checkout service live in the payments folder.",
]
QUESTION = "how big is the invoice_line table in the production cluster"


def _store(real: Memory) -> str:
    for text in OTHERS:
        real.store_memory(text)
    for text, tags in TAGGED:
        real.store_memory(text, {"additional_tags": tags})
    return real.store_memory(TABLE)["memory_id"]


def test_expansions_keep_the_band_of_a_memory_matching_as_asked(real: Memory) -> None:
    table = _store(real)
    found = real.search_memory(QUESTION, {"min_confidence": "low"}, touch=False)
    assert "invoice-pdfs" in found["query_analysis"]["semantic_expansions"]["invoice"]
    recalled = {h.record.id: h.confidence for h in real.recall(QUESTION, mode="ranked", touch=False)}
    band = {r["id"]: r["confidence"] for r in found["results"]}
    # Searched as one with the question, the tag's words raised the tagged memories' bm25 three times over the
    # table's, and the table fell from medium to low in search_memory alone.
    assert found["results"][0]["id"] == table
    assert recalled[table] == "medium"
    assert band[table] == recalled[table]


def test_expansions_still_find_memories_matching_through_the_tag_alone(real: Memory) -> None:
    _store(real)
    found = real.search_memory("invoice storage", {"min_confidence": "low"}, touch=False)
    contents = [r["content"] for r in found["results"]]
    assert all(text in contents for text, _ in TAGGED)
