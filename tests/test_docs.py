"""The reference pages (docs/reference) and the README's table of tools are generated from the code and current,
each names everything it documents, and what the pages are generated from is complete: every MCP argument
described, every tool's arguments those of the Memory method it runs."""

from __future__ import annotations

import difflib
import inspect
import re
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from docs import generate
from engram import FakeEmbedder, Memory, Settings
from engram.agent.registry import TOOLS
from engram.interfaces.cli.app import app
from engram.interfaces.mcp.server import build

ROOT = Path(__file__).resolve().parents[1]
FILES = (generate.CLI, generate.REST, generate.MCP_TOOLS, generate.SETTINGS, generate.README)
REFERENCES = FILES[:-1]
# search_memory's options for Python callers (the moment a query is asked, leaving usage untouched): keyword-only,
# never tool arguments.
LIBRARY_ONLY = {"now", "touch"}
# The tools that answer in a shape of their own, through other Memory methods (Memory.remember returns a
# RememberResult, the tool a RememberAnswer).
OWN_ANSWER = {"remember", "recall", "forget"}


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return generate.generate()


def read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def sections(markdown: str) -> dict[str, str]:
    """Each heading's text (from `## ` or deeper) to the text under it."""
    parts = re.split(r"^#{2,6} (.+)$", markdown, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


# ---- current -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES)
def test_each_generated_file_is_current(generated: dict[str, str], path: str) -> None:
    committed = read(path) if (ROOT / path).exists() else ""
    if committed != generated[path]:
        diff = difflib.unified_diff(
            committed.splitlines(), generated[path].splitlines(), "committed", "generated", lineterm="", n=1
        )
        shown = "\n".join(list(diff)[:40])
        pytest.fail(f"{path} is out of date: run python -m docs.generate\n{shown}")


@pytest.mark.parametrize("path", REFERENCES)
def test_each_reference_says_it_is_generated(path: str) -> None:
    first = read(path).splitlines()[0]
    assert "python -m docs.generate" in first and "do not edit" in first, path


def test_generating_twice_gives_the_same_text(generated: dict[str, str]) -> None:
    assert generate.generate() == generated


# ---- complete ------------------------------------------------------------------------------------------------
def cli_commands(group: Any, prefix: str = "engram") -> Iterator[tuple[str, Any]]:
    for name, command in group.commands.items():
        if not command.hidden:
            yield f"{prefix} {name}", command
            if hasattr(command, "commands"):
                yield from cli_commands(command, f"{prefix} {name}")


def test_the_cli_reference_has_every_command_with_its_options_and_example() -> None:
    root = typer.main.get_command(app)
    page = sections(read(generate.CLI))
    commands = dict(cli_commands(root))
    assert {"engram remember", "engram keys create", "engram import shodh"} <= set(commands)
    for path, command in commands.items():
        assert path in page, f"{path}: not in {generate.CLI}"
        for param in command.params:
            if getattr(param, "hidden", False):  # an old spelling kept working, not listed
                continue
            for name in [*param.opts, *param.secondary_opts]:
                shown = f"`{name.upper()}`" if param.param_type_name == "argument" else f"`{name}`"
                assert shown in page[path], f"{path} {name}: not in {generate.CLI}"
        example = (command.help or "").partition("Example:")[2].strip()
        assert " ".join(example.split()) in page[path], f"{path}: its example is not in {generate.CLI}"
    options = page["Global options"]
    assert "`--db`" in options and "`--version`" in options


def test_the_rest_reference_has_every_route() -> None:
    from engram.interfaces.http.api import create_app
    from engram.interfaces.tenants import Tenants

    with tempfile.TemporaryDirectory() as home:
        document = create_app(Tenants(Settings(home=Path(home))), None, require_key=False).openapi()
    page = sections(read(generate.REST))
    methods = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
    routes = [(m.upper(), p) for p, item in document["paths"].items() for m in item if m in methods]
    assert ("POST", "/v1/store") in routes and ("GET", "/api/health") in routes
    for method, path in routes:
        assert f"{method} {path}" in page, f"{method} {path}: not in {generate.REST}"
    assert "application/problem+json" in page["Errors"] and "`field`" in page["Errors"]


def test_the_tools_reference_has_every_tool_and_argument_and_the_instructions() -> None:
    from engram.interfaces.mcp.server import INSTRUCTIONS

    text = read(generate.MCP_TOOLS)
    page = sections(text)
    for tool in TOOLS:
        assert tool.name in page, f"{tool.name}: not in {generate.MCP_TOOLS}"
        section = page[tool.name]
        assert f"**{tool.effect}**" in section and tool.example in section, tool.name
        for name in tool.arguments.model_fields:
            assert f"| `{name}` |" in section, f"{tool.name}({name}): not in {generate.MCP_TOOLS}"
    assert " ".join(INSTRUCTIONS.split()) in text


def test_the_settings_reference_has_every_setting() -> None:
    text = read(generate.SETTINGS)
    for name in Settings.model_fields:
        assert f"| `ENGRAM_{name.upper()}` |" in text, f"ENGRAM_{name.upper()}: not in {generate.SETTINGS}"


def test_the_readme_lists_every_tool_between_its_markers() -> None:
    readme = read(generate.README)
    table = readme.split(generate.TOOLS_START, 1)[1].split(generate.TOOLS_END, 1)[0]
    rows = {
        line.split("|")[1].strip(): line.split("|")[2] for line in table.splitlines() if line.startswith("| ")
    }
    marks = {"read": "", "write": " (w)", "destructive": " (d)"}
    for tool in TOOLS:
        assert f"`{tool.name}`{marks[tool.effect]}" in rows.get(tool.group, ""), (
            f"{tool.name}: not in the README's table of tools, in its group's row, marked by its effect"
        )


# ---- what the pages are generated from -----------------------------------------------------------------------
@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client(tmp_path: Path, settings: Settings) -> AsyncIterator[Any]:
    from mcp import Client

    with Memory(tmp_path / "docs.db", embedder=FakeEmbedder(), settings=settings) as mem:
        async with Client(build(lambda ctx: mem)) as c:
            yield c


def undescribed(schema: dict[str, Any]) -> Iterator[str]:
    """Every property of a tool's input schema, and of the models inside it, with no description."""
    models = {"": schema, **{f"{name}.": d for name, d in schema.get("$defs", {}).items()}}
    for prefix, model in models.items():
        for name, prop in model.get("properties", {}).items():
            if not str(prop.get("description", "")).strip():
                yield prefix + name


@pytest.mark.anyio
async def test_every_mcp_tool_input_is_described(client: Any) -> None:
    tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == {t.name for t in TOOLS}
    missing = [f"{t.name}: {name}" for t in tools for name in undescribed(t.input_schema)]
    missing += [f"{t.name}: the tool itself" for t in tools if not (t.description or "").strip()]
    assert not missing, f"MCP inputs with no description (engram/agent/registry.py, arguments.py): {missing}"


@pytest.mark.parametrize(
    "tool", [t for t in TOOLS if t.name not in OWN_ANSWER and hasattr(Memory, t.name)], ids=lambda t: t.name
)
def test_a_tools_arguments_are_those_of_its_memory_method(tool: Any) -> None:
    where = f"engram/agent/registry.py {tool.arguments.__name__} and Memory.{tool.name}"
    parameters = dict(inspect.signature(getattr(Memory, tool.name)).parameters)
    parameters.pop("self", None)
    parameters.pop("session", None)
    for name in LIBRARY_ONLY & set(parameters):
        library_only = parameters.pop(name)
        assert library_only.kind is inspect.Parameter.KEYWORD_ONLY, f"{where}: {name} must be keyword-only"
        assert library_only.default is not inspect.Parameter.empty, f"{where}: {name} needs a default"
    variadic = [n for n, p in parameters.items() if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert not variadic, f"{where}: takes {variadic}, which the tool's model cannot check"
    fields = tool.arguments.model_fields
    assert set(parameters) == set(fields), (
        f"{where} differ: only the method takes {sorted(set(parameters) - set(fields))}, "
        f"only the tool takes {sorted(set(fields) - set(parameters))}"
    )
    for name, field in fields.items():
        given = parameters[name].default
        if field.is_required():
            assert given is inspect.Parameter.empty, (
                f"{where}: {name} is required by the tool, not the method"
            )
        else:
            default = field.get_default(call_default_factory=True)
            assert given == default, (
                f"{where}: {name} defaults to {given!r} in the method, {default!r} in the tool"
            )
