"""A conversation handed in with its messages dated in the future (year 9999): the memories made of them were
created and changed "then", so ranking counted them as used just now forever and the lifecycle never archived
them. Every key holder can ingest a conversation; such a message is refused naming it, and nothing is stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from tests.clients import api  # noqa: F401 (a fixture)


def _ingest(api: TestClient, when: str) -> tuple[int, dict[str, object]]:  # noqa: F811
    said = [
        {"role": "user", "content": "My dentist is Dr Kowalski on Rua Augusta", "timestamp": when},
        {
            "role": "user",
            "content": "I moved to Lisbon in May and my sister Ana lives in Porto",
            "timestamp": when,
        },
    ]
    answer = api.post(
        "/v1/tools/ingest_conversation", json={"arguments": {"conversation_id": "c1", "messages": said}}
    )
    return answer.status_code, answer.json()


def test_a_conversation_dated_in_the_future_is_refused_and_nothing_stored(api: TestClient) -> None:  # noqa: F811
    for when in ("9999-06-01T00:00:00Z", (datetime.now(UTC) + timedelta(days=3)).isoformat()):
        status, body = _ingest(api, when)
        assert status == 400, body
        assert body["field"] == "messages[0].ts" and "future" in str(body["detail"]), body
    assert api.get("/v1/memories", params={"status": "pending"}).json()["memories"] == []


def test_a_conversation_dated_now_or_before_is_ingested(api: TestClient) -> None:  # noqa: F811
    status, body = _ingest(api, (datetime.now(UTC) - timedelta(days=2)).isoformat())
    assert status == 200 and body["messages"] == 2, body
