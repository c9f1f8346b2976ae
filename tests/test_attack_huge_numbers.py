"""A number of thousands of digits where a tool takes a small one: refused naming the argument, on the Python API
and over MCP, as any wrong number is. Python will not write such an integer as text (its 4,300-digit limit), and
the refusal that quoted the value given failed with that error instead."""

from __future__ import annotations

from typing import Any

import pytest

from engram import InvalidInput, Memory
from tests.clients import anyio_backend, client  # noqa: F401 (fixtures)

HUGE = 10**5000


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("recall", {"query": "deploy", "limit": HUGE}, "limit"),
        ("concept_network", {"limit": HUGE}, "limit"),
        ("remember", {"content": "deploy", "importance": HUGE}, "importance"),
    ],
)
def test_a_number_python_cannot_write_is_refused_naming_it(
    mem: Memory, tool: str, arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.run_tool(tool, **arguments)
    assert caught.value.field == field and "digits" in caught.value.problem
    assert mem.stats()["memories"] == 0


@pytest.mark.anyio
async def test_over_mcp_too(client: Any) -> None:  # noqa: F811
    answer = await client.call_tool("recall", {"query": "deploy", "limit": HUGE})
    assert answer.is_error and "limit" in answer.content[0].text
