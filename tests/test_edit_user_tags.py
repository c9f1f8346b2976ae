"""Tags a user set stay as set when the content is edited afterwards: the text's own tags no longer replace
them (recorded as `auto_tags` in the metadata's `overridden`)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from engram import FakeEmbedder, Memory, Settings
from engram.interfaces.http.serve import build_app

TEXT = "The electricity bill for the flat is due on the 14th; set up the direct debit."
EDITED = "The electricity bill for the flat is due on the 20th; the landlord pays the water bill."


def test_a_content_edit_keeps_the_tags_the_user_set(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, tag_on_topic=-1.0)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings) as mem:
        memory = mem.store_memory(TEXT)["memory_id"]
        assert mem.get(memory).tags != ("bills", "home")
        assert mem.update(memory, tags=["bills", "home"]).tags == ("bills", "home")
        edited = mem.update(memory, content=EDITED)
        assert edited.content == EDITED and edited.tags == ("bills", "home")
        assert "landlord" in edited.metadata["concepts"]  # the new text is still read
        assert mem.tag_counts().keys() == {"bills", "home"}


def test_tags_sent_back_unchanged_still_follow_the_content(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, tag_on_topic=-1.0)
    with Memory(tmp_path / "t.db", embedder=FakeEmbedder(), settings=settings) as mem:
        memory = mem.store_memory(TEXT)["memory_id"]
        tags = mem.get(memory).tags
        mem.update(memory, tags=list(tags), importance=0.9)  # a form sending every field back
        edited = mem.update(memory, content="Book the dentist appointment for Clara next week.")
        assert "clara" in edited.tags and not set(tags) & set(edited.tags)


def test_rest_content_edit_keeps_the_tags_the_user_set(tmp_path: Path) -> None:
    app = build_app(
        Settings(home=tmp_path, maintain_every_minutes=0, tag_on_topic=-1.0),
        db=tmp_path / "local.db",
        embedder=FakeEmbedder(),
        require_key=False,
    )
    with TestClient(app, base_url="http://127.0.0.1:8765") as api:
        stored = api.post("/v1/tools/store_memory", json={"arguments": {"content": TEXT}}).json()
        memory = stored["memory_id"]
        assert api.patch(f"/v1/memories/{memory}", json={"tags": ["bills", "home"]}).json()["tags"] == [
            "bills",
            "home",
        ]
        answer = api.patch(f"/v1/memories/{memory}", json={"content": EDITED})
        assert answer.status_code == 200, answer.text
        assert answer.json()["tags"] == ["bills", "home"]
        assert api.get(f"/v1/memories/{memory}").json()["tags"] == ["bills", "home"]
