"""The MCP server (official `mcp` SDK): every tool of the registry (engram.agent.registry), each run through
`Memory.run_tool`, its inputs described as the registry describes them. `engram mcp` serves stdio; `engram serve`
mounts the same server over streamable HTTP, where the caller's API key picks the tenant. Session scope: a memory
remembered with scope "session" belongs to the MCP session (streamable HTTP's Mcp-Session-Id; one session per
server process on stdio) unless a scope_id is given, and search_memory and recall in other sessions do not see it.
"""

from __future__ import annotations

import inspect
import typing
import uuid
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import ToolAnnotations
from pydantic import Field

import engram
from engram import EngramError, Memory
from engram.agent.registry import TOOLS, Tool

# Resolves the Memory a call acts on from the request's context.
Resolver = Callable[[Context], Memory]

_ANNOTATIONS = {
    "read": ToolAnnotations(
        readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
    ),
    "write": ToolAnnotations(
        readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False
    ),
    "destructive": ToolAnnotations(
        readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=False
    ),
}
INSTRUCTIONS = (
    "Long-term memory. Call store_memory(content) to keep something worth remembering and "
    "search_memory(query) to find it again; both decide categories, tags and importance themselves. "
    "discover_memory_tools lists maintenance, analysis, migration and debugging tools."
)

# What a stateless HTTP request's session is: none. No stored scope_id can hold a NUL, so it matches no memory.
NO_SESSION = "\x00"


def session_id(ctx: Context, fallback: str) -> str:
    """The MCP session asking: streamable HTTP's Mcp-Session-Id where the client keeps a session (protocol
    versions before 2026-07-28), none for a stateless HTTP request, and on stdio (no headers: one client per
    process) the server's own. Stateless clients shared the server's one, and saw each other's memories."""
    if ctx.headers is None:
        return fallback
    return ctx.headers.get("mcp-session-id") or NO_SESSION


def build(resolve: Resolver) -> MCPServer:
    """The MCP server over whatever Memory `resolve` returns for each call."""
    server: MCPServer = MCPServer("engram", version=engram.__version__, instructions=INSTRUCTIONS)
    process_session = f"local-{uuid.uuid4().hex[:12]}"
    for tool in TOOLS:
        _register(server, tool, resolve, lambda ctx: session_id(ctx, process_session))
    _strict(server)
    return server


def _register(server: MCPServer, tool: Tool, resolve: Resolver, session: Callable[[Context], str]) -> None:
    """One tool with its registry arguments as parameters (so its JSON schema, ranges and descriptions). A tool
    that shows or keeps session memories takes the session asking from the connection, never from the caller."""
    params = []
    for name, field in tool.arguments.model_fields.items():
        annotation: Any = Annotated[field.annotation, *field.metadata, Field(description=field.description)]
        default = inspect.Parameter.empty if field.is_required() else field.default
        params.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
        )
    params.append(inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context))

    def call(**arguments: Any) -> dict[str, Any]:
        ctx = arguments.pop("ctx")
        asking = session(ctx) if tool.session else None
        unnamed = arguments.get("scope") == "session" and arguments.get("scope_id") is None
        if tool.name == "remember" and unnamed and asking == NO_SESSION:
            raise ToolError("scope_id: this connection has no MCP session (stateless HTTP): name one")
        try:
            answer = resolve(ctx).run_tool(tool.name, session=asking, **_given(arguments))
        except EngramError as exc:
            # Engram's own errors reach the agent with their text (the field and the problem); the SDK shows any
            # other exception as a bare "Error executing tool", and logs it as a crash with its traceback.
            raise ToolError(str(exc)) from exc
        return dict(answer)

    call.__name__ = tool.name
    call.__doc__ = tool.description
    call.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in params} | {"return": dict[str, Any]}
    server.tool(name=tool.name, annotations=_ANNOTATIONS[tool.effect])(call)


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments as the plain values the registry's models validate again: a nested model (store_memory's
    context, search_memory's options) as the fields the agent set."""
    return {
        k: v.model_dump(mode="json", exclude_unset=True) if hasattr(v, "model_dump") else v
        for k, v in arguments.items()
    }


def _strict(server: MCPServer) -> None:
    """An argument a tool does not take is an error, as in `options`: the SDK drops unknown arguments, so an
    agent's `search_memory(query, limit=1)` returned ten results and said nothing. The SDK reads a tool's
    argument model and schema afresh on each call (its registry has no public accessor in this version)."""
    for tool in server._tool_manager.list_tools():
        loose = tool.fn_metadata.arg_model
        config = {**loose.model_config, "extra": "forbid"}
        strict = typing.cast(type[ArgModelBase], type(loose.__name__, (loose,), {"model_config": config}))
        tool.fn_metadata.arg_model = strict
        tool.parameters = strict.model_json_schema(by_alias=True)


def stdio(memory: Memory) -> None:
    """Serve one Memory over stdio until the client closes the pipe."""
    build(lambda ctx: memory).run("stdio")


__all__ = ["Resolver", "build", "stdio"]
