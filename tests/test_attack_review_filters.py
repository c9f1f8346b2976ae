"""A bulk review picks pending memories by a filter; a filter given as the wrong type was read as something else.
`below_confidence: true` became 1.0, which every extraction confidence is under: one request meant as a narrow
filter approved the whole queue (REST's /v1/review and the review_memories tool alike). A number or a yes/no given
as text or as the other type is refused, naming the field, in every tool's arguments and every REST body, and
nothing is decided."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

from engram import InvalidInput, Memory
from engram.agent.registry import TOOLS
from engram.interfaces.http.manage import ReviewBody
from engram.interfaces.tenants import LOCAL
from engram.model.record import Status
from tests.clients import api  # noqa: F401 (a fixture)


def _queue(mem: Memory) -> list[str]:
    for confidence, text in ((0.55, "Maybe the lab printer needs toner."), (0.45, "The fridge is ours.")):
        mem.remember(
            text, status="pending", metadata={"candidate": {"kind": "fact", "confidence": confidence}}
        )
    return [r.id for r in mem.pending()]


@pytest.mark.parametrize(
    "body",
    [
        {"action": "approve", "below_confidence": True},
        {"action": "approve", "below_confidence": "0.9"},
        {"action": "reject", "kind": "fact", "limit": True},
        {"action": "reject", "kind": "fact", "limit": "2"},
    ],
)
def test_a_filter_of_the_wrong_type_is_refused_over_rest_and_decides_nothing(
    api: TestClient,  # noqa: F811
    body: dict[str, Any],
) -> None:
    mem = api.app.state.tenants.memory(LOCAL)  # type: ignore[attr-defined]
    waiting = _queue(mem)
    field = next(k for k in body if k not in ("action", "kind"))
    for url, sent in (("/v1/review", body), ("/v1/tools/review_memories", {"arguments": body})):
        refused = api.post(url, json=sent)
        assert refused.status_code == 400, (url, refused.text)
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["field"] == field, refused.json()
    assert {mem.get(i).status for i in waiting} == {Status.PENDING}


def test_the_tool_refuses_it_from_python_too(mem: Memory) -> None:
    waiting = _queue(mem)
    with pytest.raises(InvalidInput) as refused:
        mem.run_tool("review_memories", action="approve", below_confidence=True)
    assert refused.value.field == "below_confidence"
    assert {mem.get(i).status for i in waiting} == {Status.PENDING}
    # A number is still a number: 1 is a confidence, and picks those under it.
    decided = mem.run_tool("review_memories", action="approve", below_confidence=1)
    assert sorted(decided["reviewed"]) == sorted(waiting)


def _scalars(annotation: Any) -> set[type]:
    """The number and yes/no types a field's annotation takes (through Optional and Annotated)."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) in (
        typing.Union,
        typing.Annotated,
    ):
        return {k for arg in typing.get_args(annotation) for k in _scalars(arg)}
    return {annotation} & {bool, int, float}


def _models() -> list[type[BaseModel]]:
    """Every tool's arguments, the objects nested in them, and the REST review body."""
    found: list[type[BaseModel]] = [ReviewBody]
    for tool in TOOLS:
        found.append(tool.arguments)
        for field in tool.arguments.model_fields.values():
            for arg in typing.get_args(field.annotation):
                if isinstance(arg, type) and issubclass(arg, BaseModel):
                    found.append(arg)
    return list(dict.fromkeys(found))


def test_every_number_and_yes_no_argument_refuses_the_other_type() -> None:
    checked = 0
    for model in _models():
        for name, field in model.model_fields.items():
            kinds = _scalars(field.annotation)
            if not kinds:
                continue
            wrong = ["1", 1] if kinds == {bool} else [True, "1"]
            for value in wrong:
                try:
                    model.model_validate({name: value})
                    errors: list[Any] = []
                except Exception as exc:  # a ValidationError, listing every field's problem
                    errors = exc.errors()  # type: ignore[attr-defined]
                assert any(e["loc"][:1] == (name,) for e in errors), (model.__name__, name, value)
                checked += 1
    assert checked > 20
