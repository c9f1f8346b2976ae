"""The MCP server (official `mcp` SDK): a thin adapter over `Memory`.

Tools: seed 002's `store_memory`, `search_memory` and `discover_memory_tools`, every advanced tool that
discover_memory_tools lists, and seed 000's `remember` / `recall`. Return values are the `Memory` methods'
own, field for field. `engram mcp` serves stdio; `engram serve` mounts the same server over streamable HTTP,
where the caller's API key picks the tenant. Session scope: a memory remembered with scope "session" belongs
to the MCP session (streamable HTTP's Mcp-Session-Id; one session per server process on stdio) unless a
scope_id is given, and search_memory and recall in other sessions do not see it.
"""

from __future__ import annotations

import functools
import inspect
import threading
import typing
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import ToolAnnotations
from pydantic import Field

import engram
from engram.agent import advanced as maintenance
from engram.agent.advanced import READ_ONLY, TOOLS
from engram.agent.search import SearchOptions, StoreContext
from engram.errors import EngramError, InvalidInput
from engram.lang import pii
from engram.memory import Memory
from engram.model.record import Kind

P = ParamSpec("P")
T = TypeVar("T")

# Resolves the Memory a call acts on (and the lock its writes take) from the request's context.
Resolver = Callable[[Context], tuple[Memory, threading.RLock]]

_READ = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
_WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False)
_REWRITE = ToolAnnotations(
    readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=False
)
# The advanced tools by effect: destructive ones change or fold existing memories (each can be rolled back).
_DESTRUCTIVE = frozenset({"optimize_tags", "merge_memories", "backup_restore", "rollback"})


_EXAMPLES = {
    "memory_stats": "memory_stats()",
    "optimize_tags": "optimize_tags(dry_run=True) -> the merges and archives it would make, nothing changed",
    "merge_memories": 'merge_memories(ids=["<id-1>", "<id-2>"]) -> one memory; rollback(operation_id) undoes it',
    "memory_timeline": 'memory_timeline(granularity="month", examples=2)',
    "concept_network": "concept_network(min_cooccurrence=2, similarity=0.6, limit=50)",
    "usage_patterns": "usage_patterns(top=5)",
    "export_memories": 'export_memories(path="/tmp/memories.jsonl")',
    "import_memories": 'import_memories(path="/tmp/memories.jsonl")',
    "backup_restore": 'backup_restore(action="backup", path="/tmp/engram-backup.db")',
    "trace_search": 'trace_search(query="deploy schedule")',
    "validate_storage": "validate_storage()",
    "repair_index": "repair_index()",
    "rollback": 'rollback(operation_id="<operation_id of optimize_tags, merge_memories or an import>")',
    "operations": "operations(limit=10) -> the latest bulk operations, each with its operation_id",
}


def answered(fn: Callable[P, T]) -> Callable[P, T]:
    """Engram's own errors reach the agent with their text (the field and the problem). The SDK shows any
    other exception as a bare "Error executing tool", and logs it as a crash with its traceback."""

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except EngramError as exc:
            raise ToolError(str(exc)) from exc

    return call


def _given(model: StoreContext | SearchOptions | None) -> dict[str, Any] | None:
    """The fields the agent set, as the plain values the `Memory` method validates again."""
    return None if model is None else model.model_dump(mode="json", exclude_unset=True)


def _annotation(name: str) -> ToolAnnotations:
    # export_memories only reads the store, but it writes a file.
    return _READ if name in (READ_ONLY | {"operations"}) - {"export_memories"} else (
        _REWRITE if name in _DESTRUCTIVE else _WRITE
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
    server: MCPServer = MCPServer(
        "engram",
        version=engram.__version__,
        instructions=(
            "Long-term memory. Call store_memory(content) to keep something worth remembering and "
            "search_memory(query) to find it again; both decide categories, tags and importance themselves. "
            "discover_memory_tools lists maintenance, analysis, migration and debugging tools."
        ),
    )
    process_session = f"local-{uuid.uuid4().hex[:12]}"

    def write(ctx: Context, call: Callable[[Memory], dict[str, Any]]) -> dict[str, Any]:
        mem, lock = resolve(ctx)
        with lock:
            return call(mem)

    @server.tool(annotations=_WRITE)
    @answered
    def store_memory(content: str, ctx: Context, context: StoreContext | None = None) -> dict[str, Any]:
        """Store a memory; category, tags, importance and kind are decided for you.

        `context` may force any of them: force_category, force_importance (1-5), expires_at (ISO date),
        additional_tags, source ("conversation", "document", "web"), user_note. Personal data found (card,
        email, phone, ...) is reported in analysis.pii, and stored as [REDACTED_*] markers when redaction is on.
        recommendations.suggested_updates lists older memories this one seems to update (another date, number or
        a "not"): merge_memories([new_id, old_id], into=new_id) marks the old one superseded.
        Example: store_memory("Team standup moved to 9:30 on Mondays", {"additional_tags": ["team"]})
        """
        return write(ctx, lambda m: m.store_memory(content, _given(context)))

    @server.tool(annotations=_READ)
    @answered
    def search_memory(query: str, ctx: Context, options: SearchOptions | None = None) -> dict[str, Any]:
        """Search memories in natural language; time phrases ("last week", "in March") rank memories from that
        period first, and options.time_range filters by date.

        options: limit (10), min_relevance (0.3), time_range {after, before}, importance_min (1-5),
        content_type (a category or kind), include_expired (false).
        Example: search_memory("what did we decide about the database last week")
        """
        mem, _ = resolve(ctx)
        return mem.search_memory(query, _given(options), session=session_id(ctx, process_session))

    @server.tool(annotations=_READ)
    @answered
    def discover_memory_tools(ctx: Context) -> dict[str, Any]:
        """The advanced tools by group (maintenance, analysis, migration, debugging) and the store's health.

        Example: discover_memory_tools() -> {"advanced_tools": {...}, "current_system_state": {...}}
        """
        mem, _ = resolve(ctx)
        return mem.discover_memory_tools()

    @server.tool(annotations=_WRITE)
    @answered
    def remember(
        content: str,
        ctx: Context,
        kind: Kind | None = None,
        scope: Literal["global", "project", "session"] = "global",
        scope_id: str | None = None,
        tags: list[str] | None = None,
        importance: Annotated[float | None, Field(ge=0, le=1, description="0..1 (not store_memory's 1-5)")] = None,
    ) -> dict[str, Any]:
        """Seed 000's remember: store one memory (kind classified unless given; near-duplicates merge).

        A "session" scope without scope_id belongs to this MCP session.
        Example: remember("Deploys go out on Thursdays", scope="project", scope_id="billing")
        """
        fields: dict[str, Any] = {"scope": scope, "tags": tags or []}
        if scope == "session" and scope_id is None:
            scope_id = session_id(ctx, process_session)
            if scope_id == NO_SESSION:
                raise InvalidInput("scope_id", "this connection has no MCP session (stateless HTTP): name one")
        for name, value in (("kind", kind), ("scope_id", scope_id), ("importance", importance)):
            if value is not None:
                fields[name] = value

        def call(mem: Memory) -> dict[str, Any]:
            r = mem.remember(content, **fields)
            return {"id": r.id, "outcome": r.outcome, "kind": None if r.kind is None else r.kind.value,
                    "confidence": r.confidence, "duplicate_of": r.duplicate_of, "merged_into": r.merged_into,
                    "pii": pii.scan(content).summary(mem.settings.redact_pii)}  # fmt: skip

        return write(ctx, call)

    @server.tool(annotations=_READ)
    @answered
    def recall(
        query: str,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=1000, strict=True)] = 10,
        mode: Literal["accurate", "related", "ranked"] = "accurate",
        kind: Kind | None = None,
        scope: Literal["global", "project", "session"] | None = None,
        scope_id: str | None = None,
    ) -> dict[str, Any]:
        """Seed 000's recall: hybrid search, each hit with its score and the components behind it. Modes:
        accurate (few, confident hits), related (more, looser), ranked (exactly the best `limit`).

        Example: recall("deploy schedule", limit=5)
        """
        mem, _ = resolve(ctx)
        session = session_id(ctx, process_session)
        if scope == "session" and scope_id is None:
            scope_id = session
        hits = mem.recall(
            query, limit=limit, mode=mode, kind=kind, scope=scope, scope_id=scope_id, session=session
        )
        return {
            "results": [
                {
                    "id": h.record.id,
                    "content": h.record.content,
                    "kind": h.record.kind.value,
                    "score": round(h.score, 4),
                    "components": {k: round(v, 4) for k, v in h.components.items()},
                }
                for h in hits
            ],
            "count": len(hits),
        }

    @server.tool(annotations=_REWRITE)
    @answered
    def forget(id: str, ctx: Context) -> dict[str, Any]:
        """Delete a memory and its chunks for good, when the user asks for it (it cannot be rolled back).

        Example: forget(id="<memory id>") -> {"deleted": true, "id": "<memory id>"}
        """

        def call(mem: Memory) -> dict[str, Any]:
            mem.forget(id)
            return {"deleted": True, "id": id}

        return write(ctx, call)

    # rollback and operations undo and list the bulk operations of the advanced tools.
    for name in [*(t for group in TOOLS.values() for t in group), "rollback", "operations"]:
        _register_advanced(server, name, resolve, lambda ctx: session_id(ctx, process_session))
    _strict(server)
    return server


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


def _register_advanced(
    server: MCPServer, name: str, resolve: Resolver, session: Callable[[Context], str]
) -> None:
    """One advanced tool with the `Memory` method's own parameters (so its JSON schema) and docstring. A tool
    that shows memories takes the `session` asking from the connection, never from the caller."""
    method = getattr(Memory, name)
    hints = typing.get_type_hints(method, include_extras=True)  # with the ranges (Annotated) of each argument
    own = inspect.signature(method).parameters
    params = [
        inspect.Parameter(
            p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=hints.get(p.name, Any)
        )
        for p in own.values()
        if p.name not in ("self", "session")
    ]
    params.append(inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context))

    @answered
    def tool(**arguments: Any) -> dict[str, Any]:
        ctx = arguments.pop("ctx")
        if "session" in own:
            arguments["session"] = session(ctx)
        mem, lock = resolve(ctx)
        with lock:
            return mem.run_tool(name, **arguments)

    tool.__name__ = name
    # The Memory wrapper's docstring, else the function behind it (engram.maintenance).
    doc = method.__doc__ or getattr(maintenance, name, None).__doc__ or name
    tool.__doc__ = f"{doc.strip()}\n\nExample: {_EXAMPLES.get(name, name + '()')}"
    tool.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    tool.__annotations__ = {p.name: p.annotation for p in params} | {"return": dict[str, Any]}
    server.tool(name=name, annotations=_annotation(name))(tool)


def stdio(memory: Memory) -> None:
    """Serve one Memory over stdio until the client closes the pipe."""
    lock = threading.RLock()
    build(lambda ctx: (memory, lock)).run("stdio")


__all__ = ["Resolver", "build", "stdio"]
