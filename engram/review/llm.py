"""An optional LLM extractor for conversation ingestion, through any OpenAI-compatible chat endpoint
(a local Ollama at http://localhost:11434/v1, vLLM, llama.cpp's server, ...). Off by default: set
ENGRAM_LLM_URL. Any failure (network, timeout, a reply that is not the JSON asked for, an unknown kind) raises
`LlmError`, and ingestion falls back to the built-in extractor for that message.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engram.errors import MissingExtra
from engram.review.extract import KINDS, Candidate, Message

PROMPT = (
    "Extract what is worth remembering about the user from their message. Answer with JSON only: "
    '{"memories": [{"kind": <one of '
    + ", ".join(KINDS)
    + '>, "content": <the statement, in the user\'s words>, '
    '"confidence": <0..1>}]}. Use an empty list when nothing is worth remembering (greetings, questions, '
    "chit-chat)."
)


class LlmError(Exception):
    """The LLM endpoint could not give usable candidates; the caller falls back."""


class _Item(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: str
    content: str = Field(min_length=1)
    confidence: float = Field(ge=0, le=1)


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    memories: list[_Item]


class LlmExtractor:
    def __init__(self, url: str, model: str, *, api_key: str | None = None, timeout: float = 20.0) -> None:
        self.url = url.rstrip("/") + "/chat/completions"
        self.model = model
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.timeout = timeout
        try:
            import httpx
        except ModuleNotFoundError:
            raise MissingExtra("the LLM extractor (ENGRAM_LLM_URL)", "llm") from None
        self._http = httpx

    def extract(self, message: Message) -> list[Candidate]:
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [{"role": "system", "content": PROMPT}, {"role": "user", "content": message.content}],
        }
        try:
            response = self._http.post(self.url, json=body, headers=self.headers, timeout=self.timeout)
            response.raise_for_status()
            text = response.json()["choices"][0]["message"]["content"]
            reply = _Reply.model_validate(json.loads(text))
        except (self._http.HTTPError, KeyError, IndexError, TypeError, ValueError, ValidationError) as exc:
            raise LlmError(type(exc).__name__) from None  # the reason's type only: replies may hold user text
        out = []
        for item in reply.memories:
            if item.kind not in KINDS:
                raise LlmError("unknown kind")
            start = message.content.find(item.content)
            span = (start, start + len(item.content)) if start >= 0 else (0, len(message.content))
            out.append(Candidate(item.kind, item.content.strip(), round(item.confidence, 4), "llm", span))
        return out


__all__ = ["PROMPT", "LlmError", "LlmExtractor"]
