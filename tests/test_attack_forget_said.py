"""A forget erased the forgotten sentence from the conversation it was drawn from, and nothing else of it. The
personal data it held stayed wherever the conversation said it in other words: the assistant's "your wifi password
is ..." kept the password the user had asked to be forgotten. And a document's path stayed in the store's record
of which memory each added file became, naming the file ("diary-....md") after the memory was gone. Both go now;
what the conversation said besides stays."""

from __future__ import annotations

from pathlib import Path

from engram import FakeEmbedder, Memory, Settings
from engram.model.record import Status
from engram.store.values import Filter
from tests.test_forget_trace import traces

PASSWORD = "zq8vkw2hx91m"
MAIL = "qzvjkwpx4417@example.org"


def test_the_personal_data_a_forgotten_memory_held_leaves_its_conversation(
    db_location: str | Path, settings: Settings
) -> None:
    with Memory(db_location, embedder=FakeEmbedder(), settings=settings) as mem:
        for i in range(5):
            mem.remember(f"note {i} about the garden and the kitchen")
        mem.ingest(
            [
                {
                    "role": "user",
                    "content": f"My wifi password is {PASSWORD}. My sister lives in the old town.",
                },
                {"role": "assistant", "content": f"Got it: your wifi password is {PASSWORD}, noted."},
                {"role": "user", "content": f"My email is {MAIL}, write any time."},
                {"role": "assistant", "content": f"I will write to {MAIL} when the boiler man calls."},
            ]
        )
        every = Filter(statuses=tuple(Status), include_expired=True)
        holding = [
            r.id for r in mem.store.select(every, limit=100) if PASSWORD in r.content or MAIL in r.content
        ]
        assert len(holding) == 2 and traces(mem, db_location, PASSWORD) and traces(mem, db_location, MAIL)
        for memory_id in holding:
            mem.forget(memory_id)
        assert traces(mem, db_location, PASSWORD) == []
        assert traces(mem, db_location, MAIL) == []
        assert traces(
            mem, db_location, "....sister lives in the old town"
        )  # what the conversation said besides is kept
        assert sum(r.content.startswith("note ") for r in mem.list(limit=100)) == 5


def test_a_forgotten_documents_file_name_is_gone_too(tmp_path: Path, settings: Settings) -> None:
    db = tmp_path / "m.db"
    diary = tmp_path / "diary-qzvjkwpx4417.md"
    diary.write_text("# Tuesday\n\nA walk by the river, then soup.")
    with Memory(db, embedder=FakeEmbedder(), settings=settings) as mem:
        memory = mem.add_file(diary)["id"]
        assert traces(mem, db, "diary-qzvjkwpx4417")
        mem.forget(memory)
        assert traces(mem, db, "diary-qzvjkwpx4417") == []
        # Added again, the file is a memory again (nothing took it for one already stored).
        assert mem.add_file(diary)["outcome"] == "created"
