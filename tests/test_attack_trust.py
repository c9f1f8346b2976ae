"""An attacker who names things: a scope, user or workspace id with an invisible character or a bidi control in it
(two scopes that show alike and are not, a display reordered around it), a tag written with Cyrillic letters
that looks like a Latin one, an unauthenticated health check that reads other tenants' stores, and a user's own
`metadata.engram` that an export overwrote with Engram's fields."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import FakeEmbedder, InvalidInput, Memory, Settings
from engram.interfaces.http.serve import build_app
from engram.interfaces.tenants import Keys
from tests.clients import api  # noqa: F401 (a fixture)

INVISIBLE = [
    "\u202e",  # right-to-left override: reorders what follows
    "\u200b",  # zero-width space: "team" and "te\u200bam" show alike
    "\u2066",  # left-to-right isolate
    "\u00ad",  # soft hyphen
    "\ufeff",  # byte order mark
    "\u200d",  # zero-width joiner between Latin letters
    "\n",  # a line break: one name shown as two
]
NAMES = ["scope_id", "user_id", "workspace_id"]


@pytest.mark.parametrize("char", INVISIBLE)
@pytest.mark.parametrize("field", NAMES)
def test_an_identifier_with_an_invisible_character_is_refused_naming_it(
    mem: Memory, field: str, char: str
) -> None:
    fields: dict[str, Any] = {"scope": "project", field: f"te{char}am"}
    with pytest.raises(InvalidInput) as written:
        mem.remember("the deploy runs on Fridays", **fields)
    assert written.value.field == field and f"U+{ord(char):04X}" in written.value.problem
    assert mem.stats()["memories"] == 0
    for read in (mem.recall, mem.list):
        with pytest.raises(InvalidInput) as asked:
            read(**({"query": "deploy"} if read == mem.recall else {}), **{field: f"te{char}am"})
        assert asked.value.field == field


def test_an_identifier_that_mixes_latin_and_cyrillic_in_one_word_is_refused(mem: Memory) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.remember("the deploy runs on Fridays", scope="project", scope_id="pr\u043eject")  # Cyrillic o
    assert caught.value.field == "scope_id" and "Cyrillic" in caught.value.problem


@pytest.mark.parametrize("field", NAMES)
def test_an_identifier_in_decomposed_form_is_refused_naming_it(mem: Memory, field: str) -> None:
    """ "cafe" and a combining accent (how macOS gives folder names) shows as the composed "café" but was a second
    scope: what was filed under one escaped a search, a listing and a forget of the other."""
    kept = mem.remember("the deploy runs on Fridays", scope="project", **{field: "caf\u00e9"})
    with pytest.raises(InvalidInput) as written:
        mem.remember("the deploy runs on Mondays", scope="project", **{field: "cafe\u0301"})
    assert written.value.field == field and "NFC" in written.value.problem
    with pytest.raises(InvalidInput) as asked:
        mem.recall("deploy", **{field: "cafe\u0301"})
    assert asked.value.field == field
    assert [h.record.id for h in mem.recall("deploy Fridays", **{field: "caf\u00e9"})] == [kept.id]


@pytest.mark.parametrize(
    "name", ["\u00e9quipe-2", "\u6771\u4eac", "\u043a\u043e\u043c\u0430\u043d\u0434\u0430", "team x/7"]
)
def test_an_identifier_in_any_one_script_is_kept_as_written(mem: Memory, name: str) -> None:
    kept = mem.remember("the deploy runs on Fridays", scope="project", scope_id=name, user_id=name)
    record = mem.get(kept.id)
    assert (record.scope_id, record.user_id) == (name, name)
    assert [h.record.id for h in mem.recall("deploy Fridays", scope_id=name, user_id=name)] == [kept.id]


def test_an_identifier_episode_or_tool_argument_over_the_wire_is_refused_naming_it(
    api: TestClient,  # noqa: F811
) -> None:
    asked = api.post("/v1/recall", json={"query": "deploy", "user_id": "al\u202eice"})
    assert asked.status_code == 400 and asked.json()["field"] == "user_id", asked.text
    shodh = api.post("/api/remember", json={"content": "deploy on Fridays", "episode_id": "ep\u200b1"})
    assert shodh.status_code == 400 and shodh.json()["field"] == "episode_id", shodh.text
    tool = api.post(
        "/v1/tools/remember",
        json={"arguments": {"content": "deploy", "scope": "project", "scope_id": "a\u2066b"}},
    )
    assert tool.status_code == 400 and tool.json()["field"] == "scope_id", tool.text
    listed = api.get("/v1/memories", params={"scope_id": "a\u200bb"})
    assert listed.status_code == 400 and listed.json()["field"] == "scope_id", listed.text
    assert api.get("/v1/memories").json()["memories"] == []


# ---- tags in two scripts ------------------------------------------------------------------------------------
SPOOFED_PAYMENT = "\u0440\u0430yment"  # "payment" with a Cyrillic er and a, then Latin letters


def test_a_tag_mixing_scripts_in_one_word_is_refused_naming_the_scripts(mem: Memory) -> None:
    mem.remember("the invoice is paid", tags=["payment"])
    with pytest.raises(InvalidInput) as caught:
        mem.remember("the refund is sent", tags=[SPOOFED_PAYMENT])
    assert caught.value.field == "tags"
    assert "Cyrillic" in caught.value.problem and "Latin" in caught.value.problem
    assert mem.tag_counts() == {"payment": 1}
    with pytest.raises(InvalidInput):
        mem.store_memory("the refund is sent", {"additional_tags": [SPOOFED_PAYMENT]})
    with pytest.raises(InvalidInput):
        mem.update(mem.list()[0].id, tags=["invoice", SPOOFED_PAYMENT])
    for rename in (mem.rename_tag, lambda **names: mem.run_tool("rename_tag", **names)):
        with pytest.raises(InvalidInput) as renamed:
            rename(old="payment", new=SPOOFED_PAYMENT)
        assert renamed.value.field == "new" and "Cyrillic" in renamed.value.problem
    assert mem.tag_counts() == {"payment": 1}


@pytest.mark.parametrize(
    "tag",
    [
        "\u043e\u043f\u043b\u0430\u0442\u0430",  # Russian "оплата", all Cyrillic
        "\u03c0\u03bb\u03b7\u03c1\u03c9\u03bc\u03ae",  # Greek, all Greek
        "caf\u00e9",
        "\u6771\u4eac-tokyo",  # two scripts, one in each word
        "\u043e\u043f\u043b\u0430\u0442\u0430 payment",  # two words, one script each
    ],
)
def test_a_tag_in_one_script_a_word_is_kept(mem: Memory, tag: str) -> None:
    kept = mem.remember("the invoice is paid", tags=[tag]).id
    assert len(mem.get(kept).tags) == 1


def test_a_text_with_a_mixed_script_word_is_stored_without_that_word_as_a_tag(mem: Memory) -> None:
    answer = mem.store_memory(f"The {SPOOFED_PAYMENT} gateway for the payment system went down on Friday")
    tags = mem.get(answer["memory_id"]).tags
    assert all(SPOOFED_PAYMENT not in t for t in tags), tags


# ---- health --------------------------------------------------------------------------------------------------
@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    settings = Settings(home=tmp_path, maintain_every_minutes=0)
    keys = Keys(tmp_path / "keys.db")
    secrets = {name: keys.create(name)[1] for name in ("alice", "bob")}
    app = build_app(settings, embedder=FakeEmbedder(), require_key=True)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        yield client, secrets


def test_health_without_a_key_reads_no_tenants_store(
    keyed: tuple[TestClient, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, secrets = keyed
    for name, secret in secrets.items():
        stored = client.post(
            "/v1/store", json={"content": f"{name} deploys on Fridays"}, headers={"X-API-Key": secret}
        )
        assert stored.status_code == 200, stored.text
    checked: list[Memory] = []
    bobs = client.app.state.tenants.memory("bob")  # type: ignore[attr-defined]

    def out_of_step(self: Memory) -> bool:
        checked.append(self)
        return self is not bobs  # bob's index disagrees with its rows

    monkeypatch.setattr(Memory, "index_in_step", out_of_step)
    anonymous = client.get("/api/health")
    assert anonymous.status_code == 200 and anonymous.json()["status"] == "healthy"
    assert checked == []  # no tenant's store was read for an unauthenticated caller
    assert set(anonymous.json()) == {"status", "version", "uptime_seconds"}
    # A tenant's own key learns its own store's state, and no other's.
    alice = client.get("/api/health", headers={"X-API-Key": secrets["alice"]}).json()
    bob = client.get("/api/health", headers={"X-API-Key": secrets["bob"]}).json()
    assert (alice["status"], bob["status"]) == ("healthy", "degraded")
    assert len(checked) == 2
    wrong = client.get("/api/health", headers={"X-API-Key": "engram_not-a-key"})
    assert wrong.status_code == 200 and wrong.json()["status"] == "healthy" and len(checked) == 2


# ---- metadata.engram -----------------------------------------------------------------------------------------
def test_a_users_own_metadata_engram_survives_export_and_import(
    mem: Memory, tmp_path: Path, settings: Settings
) -> None:
    own = {"source": "crm", "status": "rejected", "kind": "identity"}
    kept = mem.remember("the invoice is paid", metadata={"engram": own, "team": "billing"}).id
    path = tmp_path / "out.jsonl"
    mem.export_memories(path)
    line = next(json.loads(x) for x in path.read_text().splitlines()[1:] if kept in x)
    assert line["metadata"]["team"] == "billing"
    with Memory(tmp_path / "back.db", embedder=FakeEmbedder(), settings=settings) as back:
        back.import_memories(path)
        record = back.get(kept)
    assert (record.metadata["engram"], record.metadata["team"]) == (own, "billing")
    # Engram's own fields come from Engram, not from what the user wrote under the same name.
    assert record.status.value == "approved" and record.kind == mem.get(kept).kind


def test_user_metadata_cannot_spoof_engrams_fields_over_shodh_rest(api: TestClient) -> None:  # noqa: F811
    sent = {
        "content": "the invoice is paid",
        "metadata": {"engram": {"status": "rejected", "importance": 1.0}},
    }
    made = api.post("/api/remember", json=sent)
    assert made.status_code in (200, 201), made.text
    shown = api.get(f"/api/memories/{made.json()['id']}").json()
    assert shown["metadata"]["engram"]["status"] == "approved"
    assert shown["metadata"]["engram"]["importance"] != 1.0
    listed = api.get("/v1/memories").json()["memories"]
    assert listed[0]["metadata"]["engram"] == {"status": "rejected", "importance": 1.0}


def test_an_import_naming_a_scope_that_shows_as_another_is_refused_naming_it(
    mem: Memory, tmp_path: Path
) -> None:
    mem.remember("the invoice is paid", scope="project", scope_id="billing")
    path = tmp_path / "out.jsonl"
    mem.export_memories(path, with_embeddings=False)
    lines = path.read_text().splitlines()
    crafted = json.loads(lines[1])
    crafted["id"], crafted["content"] = "crafted-1", "the refund is sent"
    crafted["metadata"]["engram"]["scope_id"] = "bil\u200bling"
    path.write_text("\n".join([lines[0], json.dumps(crafted)]) + "\n")
    with pytest.raises(InvalidInput) as caught:
        mem.import_memories(path)
    assert "scope_id" in caught.value.field
    assert [m.content for m in mem.list()] == ["the invoice is paid"]


@pytest.mark.parametrize("field", ["conversation_id", "message_id"])
def test_an_ingested_message_naming_its_conversation_with_a_hidden_character_is_refused(
    mem: Memory, field: str
) -> None:
    message = {"role": "user", "content": "I prefer green tea in the morning.", field: "chat\u202e1"}
    with pytest.raises(InvalidInput) as caught:
        mem.ingest([message])
    assert caught.value.field == f"messages[0].{field}" and "U+202E" in caught.value.problem
    assert mem.stats()["memories"] == 0


def test_a_shodh_listing_asked_with_a_filter_it_does_not_have_is_refused(api: TestClient) -> None:  # noqa: F811
    """`/api/memories?user_id=alice` answered every memory, as if filtered to alice's: a caller who believed it
    had asked for one owner's memories got everyone's. /v1 refuses such a parameter; /api does too."""
    api.post("/api/remember", json={"content": "alice deploys on Fridays"})
    for path, name in (("/api/memories", "user_id"), ("/api/memories", "tags"), ("/api/stats", "user_id")):
        answer = api.get(path, params={name: "alice"})
        assert answer.status_code == 400 and answer.json()["field"] == name, answer.text
    assert api.get("/api/memories", params={"limit": 5, "type": "Observation"}).status_code == 200
    assert api.get("/api/health", params={"ts": "1"}).status_code == 200  # a monitor's cache-buster
