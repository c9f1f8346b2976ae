"""The optional LLM extractor against a local fake OpenAI-compatible server, and the fallback on failure."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI, Request

from engram import FakeEmbedder, Memory, Settings, Status
from engram.store.values import Filter

EVERYTHING = Filter(statuses=tuple(Status), include_expired=True)


def _fake_llm() -> tuple[FastAPI, list[dict[str, Any]]]:
    app = FastAPI()
    seen: list[dict[str, Any]] = []

    @app.post("/good/v1/chat/completions")
    async def good(request: Request) -> dict[str, Any]:
        body = await request.json()
        seen.append(body)
        text = body["messages"][-1]["content"]
        memories = (
            [{"kind": "preference", "content": "I prefer aisle seats", "confidence": 0.9}]
            if "aisle" in text
            else []
        )
        return {
            "choices": [{"message": {"role": "assistant", "content": json.dumps({"memories": memories})}}]
        }

    @app.post("/broken/v1/chat/completions")
    async def broken(request: Request) -> dict[str, Any]:
        return {
            "choices": [{"message": {"role": "assistant", "content": "Sure! Here are your memories: ..."}}]
        }

    return app, seen


@pytest.fixture(scope="module")
def llm() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    app, seen = _fake_llm()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", seen
    server.should_exit = True
    thread.join(10)


def _memory(tmp_path: Path, url: str) -> Memory:
    return Memory(tmp_path / "llm.db", embedder=FakeEmbedder(), settings=Settings(home=tmp_path, llm_url=url))


def test_llm_candidates_are_used_when_the_endpoint_answers(
    tmp_path: Path, llm: tuple[str, list[dict[str, Any]]]
) -> None:
    base, seen = llm
    with _memory(tmp_path, f"{base}/good/v1") as mem:
        report = mem.ingest(
            [
                {
                    "role": "user",
                    "content": "On long flights I prefer aisle seats, honestly.",
                    "conversation_id": "c",
                    "message_id": "1",
                }
            ]
        )
        assert report["candidates"] == 1
        record = mem.store.select(EVERYTHING, limit=5)[0]
        assert record.content == "I prefer aisle seats" and record.status == Status.APPROVED
        assert record.metadata["candidate"]["evidence"]["how"] == "llm"
    assert seen[-1]["response_format"] == {"type": "json_object"} and seen[-1]["model"] == "llama3.1"


@pytest.mark.parametrize("path", ["/broken/v1", "/missing/v1"])
def test_any_failure_falls_back_to_the_built_in_extractor(
    tmp_path: Path, llm: tuple[str, list[dict[str, Any]]], path: str
) -> None:
    with _memory(tmp_path, llm[0] + path) as mem:
        report = mem.ingest(
            [
                {
                    "role": "user",
                    "content": "My name is Ada and I build clocks.",
                    "conversation_id": "c",
                    "message_id": "1",
                }
            ]
        )
        assert report["candidates"] == 1
        record = mem.store.select(EVERYTHING, limit=5)[0]
        assert record.metadata["candidate"]["evidence"]["how"] == "rule"
        assert any(e["action"] == "llm_fallback" for e in mem.store.audit_log())


def test_an_unreachable_endpoint_falls_back_quickly(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once the socket closes
    with _memory(tmp_path, f"http://127.0.0.1:{port}/v1") as mem:
        report = mem.ingest(
            [
                {
                    "role": "user",
                    "content": "I plan to visit Kyoto in April.",
                    "conversation_id": "c",
                    "message_id": "1",
                }
            ]
        )
        assert report["candidates"] == 1
