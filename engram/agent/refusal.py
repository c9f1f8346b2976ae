"""A value the schema refused, as one sentence an agent or a person can act on (the wording is the model's,
`engram.model.refusal`, which the library's own checks use too), and what MCP and REST add to it."""

from __future__ import annotations

import re

from engram.model.refusal import encodable, path, problem, shown

__all__ = ["brief", "misplaced", "path", "problem", "shown"]


def misplaced(tool: str, name: str) -> str:
    """Where an argument a tool does not take belongs when it is one of the tool's options ("" otherwise): a
    search's `limit` is an option, and "limit is not an argument" alone sent the caller looking."""
    from engram.agent.arguments import SearchOptions  # which imports this module

    if tool == "search_memory" and name in SearchOptions.model_fields:
        return f'; it is a search option: give it in "options" (options.{name})'
    return ""


_LONG_RUN = re.compile(r"\S{81,}")


def brief(message: str, longest: int = 500) -> str:
    """An error's text as an answer carries it: a quoted value past 80 characters (an id, a path, a name) cut to
    its start and its length, and the whole at most `longest` characters. An answer never echoes a huge input."""
    said = encodable(message)
    said = _LONG_RUN.sub(lambda m: f"{m.group()[:57]}… ({len(m.group()):,} characters)", said)
    return said if len(said) <= longest else said[: longest - 1] + "…"
