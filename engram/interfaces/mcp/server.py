"""The MCP server (official `mcp` SDK): every tool of the registry (engram.agent.registry), each run through
`Memory.run_tool`, its inputs described as the registry describes them; and the session context (what an agent
should know at a session's start) as a prompt and a resource. `engram mcp` serves stdio; `engram serve` mounts
the same server over streamable HTTP, where the caller's API key picks the tenant. Session scope: a memory
remembered with scope "session" belongs to the MCP session (streamable HTTP's Mcp-Session-Id; one session per
server process on stdio) unless a scope_id is given, and search_memory and recall in other sessions do not see it.
An argument the tool's schema refuses is answered in one sentence naming it ("limit: must be at most 100, got
500"), as Engram's own errors are, not with the validator's report.
"""

from __future__ import annotations

import inspect
import logging
import typing
import uuid
from collections.abc import Callable, Iterable
from typing import Annotated, Any

from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolResult,
    GetPromptResult,
    InputRequiredResult,
    Resource,
    ToolAnnotations,
)
from pydantic import AnyUrl, BaseModel, Field, ValidationError
from pydantic_core import ErrorDetails

import engram
from engram import EngramError, Memory
from engram.agent import refusal
from engram.agent.registry import TOOLS, Tool
from engram.interfaces.mcp import logs
from engram.interfaces.mcp.stdio import UNION_MEMBER
from engram.interfaces.mcp.stdio import serve as guarded_stdio

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
    "discover_memory_tools lists maintenance, analysis, migration and debugging tools. At the start of a "
    "session, session_context (also a prompt and the resource engram://context) gives what to know about the user "
    "and the project."
)
CONTEXT_URI = "engram://context"
CONTEXT_ABOUT = (
    "What to know at the start of a session: who the user is, their preferences, open tasks due soon and recent "
    "decisions (and, given a query, the memories related to it), within max_tokens."
)

# What a stateless HTTP request's session is: none. It is longer than any scope_id a memory may hold (256
# characters), so it matches no memory; a NUL did that on SQLite, but PostgreSQL refused the query that held it.
NO_SESSION = "no MCP session: " + "-" * 256


def session_id(ctx: Context, fallback: str) -> str:
    """The MCP session asking: streamable HTTP's Mcp-Session-Id where the client keeps a session (protocol
    versions before 2026-07-28), none for a stateless HTTP request, and on stdio (no headers: one client per
    process) the server's own. Stateless clients shared the server's one, and saw each other's memories."""
    if ctx.headers is None:
        return fallback
    return ctx.headers.get("mcp-session-id") or NO_SESSION


class _Refused(ToolError):
    """Engram refused a call: its text (the field and the problem) is the whole answer."""


class EngramMCP(MCPServer):
    """The SDK's server, with a refused call answered in one sentence: the SDK prefixes every tool error with
    "Error executing tool <name>" and shows a refused argument as the validator's report, links included."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult | InputRequiredResult:
        if len(name) > MAX_NAME:
            raise ToolError(f"name: no tool has a name of {len(name):,} characters")
        if long := _long_name(arguments):
            # Refused before validation: the SDK logs every refused argument's name, and writing a 50,000-character
            # one to the terminal took longer than a bad request may wait; the answer would have echoed it too.
            where, size = long
            what = "an argument name" if where == "arguments" else "a field name"
            raise ToolError(f"{where}: {what} of {size:,} characters is not one this tool takes")
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                said, first = readable(exc.__cause__), _first(exc.__cause__)
                if first["type"] == "extra_forbidden" and len(first["loc"]) == 1:
                    said += refusal.misplaced(name, str(first["loc"][0]))
                raise ToolError(said) from exc.__cause__
            if isinstance(exc.__cause__, _Refused):
                raise ToolError(str(exc.__cause__)) from exc.__cause__.__cause__
            raise

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context | None = None
    ) -> GetPromptResult | InputRequiredResult:
        if len(name) > MAX_NAME:
            raise MCPError(INVALID_PARAMS, f"name: no prompt has a name of {len(name):,} characters")
        if long := _long_name(arguments or {}):
            raise MCPError(
                INVALID_PARAMS, f"arguments: no prompt takes an argument name of {long[1]:,} characters"
            )
        return await super().get_prompt(name, arguments, context)

    async def read_resource(
        self, uri: AnyUrl | str, context: Context | None = None
    ) -> Iterable[ReadResourceContents] | InputRequiredResult:
        # Refused as an MCPError: a ResourceError's answer quotes the address whole.
        if len(str(uri)) > MAX_URI:
            raise MCPError(INVALID_PARAMS, f"uri: no resource has an address of {len(str(uri)):,} characters")
        return await super().read_resource(uri, context)

    async def list_resources(self) -> list[Resource]:
        """The session context is a template (it takes options and the request's context) that a client reads
        as engram://context, so it is listed as a resource too."""
        listed = Resource(
            uri=CONTEXT_URI, name="session_context", description=CONTEXT_ABOUT, mime_type="text/markdown"
        )
        return [*await super().list_resources(), listed]


MAX_NAME = 64  # characters of a tool's, a prompt's or an argument's name: no name here is half as long
MAX_URI = 4096  # characters of a resource address: engram://context with its three options is far shorter


def _long_name(arguments: Any) -> tuple[str, int] | None:
    """Where the first object key past MAX_NAME is in the arguments (the path of the object holding it, whose
    own keys are short) and its length, or None."""
    stack: list[tuple[str, Any]] = [("", arguments)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if isinstance(key, str) and len(key) > MAX_NAME:
                    return path or "arguments", len(key)
                stack.append((f"{path}.{key}".lstrip("."), value))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(item))
    return None


def _first(exc: ValidationError) -> ErrorDetails:
    """The problem an answer names first: an argument the tool does not take, else the first."""
    return _errors(exc)[0]


def _errors(exc: ValidationError) -> list[ErrorDetails]:
    """The problems, an argument the tool does not take first, each location once: a value that fits no member
    of a union (a path given as an object) was "path.str: must be text (and 1 more problem)", the member's name
    shown as a field and the other member's refusal counted as a second problem."""
    seen: set[tuple[int | str, ...]] = set()
    out: list[ErrorDetails] = []
    for error in sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden"):
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and UNION_MEMBER.fullmatch(p)))
        if loc not in seen:
            seen.add(loc)
            out.append({**error, "loc": loc})
    return out


def readable(exc: ValidationError) -> str:
    """A refused argument as one sentence: the field, what it must be, and what was given. An argument the tool
    does not take comes first, then the next problem: a misnamed argument ("memory_id" for "id") reads as both
    the name given and the one required, not as "id is required" alone."""
    errors = _errors(exc)
    shown = 2 if len(errors) > 1 and errors[0]["type"] == "extra_forbidden" else 1
    rest = len(errors) - shown
    more = f" (and {rest} more problem{'s' if rest > 1 else ''})" if rest else ""
    return "; ".join(_sentence(e) for e in errors[:shown]) + more


def _sentence(error: ErrorDetails) -> str:
    field, inside = _path(error["loc"]) or "arguments", _path(error["loc"][:-1])
    return f"{field}: {refusal.problem(error, inside, 'an argument this tool takes')}"


_path, _shown = refusal.path, refusal.shown


def build(resolve: Resolver) -> MCPServer:
    """The MCP server over whatever Memory `resolve` returns for each call."""
    server: MCPServer = EngramMCP("engram", version=engram.__version__, instructions=INSTRUCTIONS)
    logs.plain()  # the SDK's constructor installed its rich handler
    process_session = f"local-{uuid.uuid4().hex[:12]}"

    def asking(ctx: Context) -> str:
        return session_id(ctx, process_session)

    for tool in TOOLS:
        _register(server, tool, resolve, asking)
    _strict(server)
    _context(server, resolve, asking)
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
        if tool.name in ("remember", "ingest_conversation") and unnamed and asking == NO_SESSION:
            raise _Refused("scope_id: this connection has no MCP session (stateless HTTP): name one")
        given = _given(arguments)
        if (nul := next((k for k, v in given.items() if _holds_nul(v)), None)) is not None:
            # No stored text, id, tag or name holds one, and PostgreSQL refuses one in any query.
            raise _Refused(
                f"{nul}: holds a NUL character (U+0000), which no stored text, id, tag or name holds"
            )
        try:
            answer = resolve(ctx).run_tool(tool.name, session=asking, **given)
        except EngramError as exc:
            # Engram's own errors reach the agent with their text (the field and the problem); the SDK shows any
            # other exception as a bare "Error executing tool", and logs it as a crash with its traceback.
            raise _Refused(refusal.brief(str(exc))) from exc
        return dict(answer)

    call.__name__ = tool.name
    call.__doc__ = tool.description
    call.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in params} | {"return": dict[str, Any]}
    server.tool(name=tool.name, annotations=_ANNOTATIONS[tool.effect])(call)


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    return isinstance(value, list) and any(_holds_nul(v) for v in value)


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments as the plain values the registry's models validate again: a nested model (store_memory's
    context, search_memory's options, each of ingest_conversation's messages) as the fields the agent set."""

    def plain(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return value.model_dump(mode="json", exclude_unset=True)
        return [plain(v) for v in value] if isinstance(value, list) else value

    return {k: plain(v) for k, v in arguments.items()}


def _context(server: MCPServer, resolve: Resolver, asking: Callable[[Context], str]) -> None:
    """session_context as a prompt (a client offers it to start a conversation with) and as the resource
    engram://context, both taking max_tokens, query and scope_id. Their arguments arrive as text."""

    def context(ctx: Context, max_tokens: str | None, query: str | None, scope_id: str | None) -> str:
        budget: Any = 1500
        if max_tokens is not None and max_tokens.strip():
            digits = max_tokens.strip()
            if digits.isdigit() and len(digits) > 9:  # past what int() reads quickly, and any budget
                raise MCPError(INVALID_PARAMS, f"max_tokens: must be at most 20000, got {_shown(digits)}")
            budget = int(digits) if digits.isdigit() else max_tokens
            if not isinstance(budget, int):
                raise MCPError(
                    INVALID_PARAMS, f"max_tokens: must be a whole number, got {_shown(max_tokens)}"
                )
        try:
            answer = resolve(ctx).session_context(
                max_tokens=budget, scope_id=scope_id or None, query=query or None, session=asking(ctx)
            )
        except EngramError as exc:
            raise MCPError(INVALID_PARAMS, refusal.brief(str(exc))) from exc
        return answer["text"] or "Nothing is remembered yet about the user or this project."

    @server.prompt(name="session_context", title="Session context", description=CONTEXT_ABOUT)
    def prompt(
        ctx: Context, max_tokens: str | None = None, query: str | None = None, scope_id: str | None = None
    ) -> str:
        text = context(ctx, max_tokens, query, scope_id)
        return f"What you remember that matters for this session (from long-term memory):\n\n{text}"

    @server.resource(
        CONTEXT_URI + "{?max_tokens,query,scope_id}",
        name="session_context",
        description=CONTEXT_ABOUT,
        mime_type="text/markdown",
    )
    def resource(
        ctx: Context, max_tokens: str | None = None, query: str | None = None, scope_id: str | None = None
    ) -> str:
        return context(ctx, max_tokens, query, scope_id)


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


def stdio(memory: Memory, started_by: int | None = None) -> None:
    """Serve one Memory over stdio until the client closes the pipe (or `started_by`, the client's pid, ends)."""
    logging.getLogger("mcp").setLevel(logging.WARNING)  # as `engram serve`: the SDK logs each call at INFO
    guarded_stdio(build(lambda ctx: memory), started_by)  # each bad line answered with a JSON-RPC error


__all__ = ["Resolver", "build", "stdio"]
