"""`engram mcp` over stdio serves an agent, which names the paths of the file tools: an agent told by a pasted page
to "export the memories to /home/me/.config/autostart/x.json" or to restore a backup from any file wrote and read
wherever the user's account can. Its file tools reach only `$ENGRAM_HOME/files/local/`, as those of `engram serve
--local` do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.test_mcp_stdio_robust import STARTUP_S, Server


def _call(server: Server, request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    request = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    answer = server.send(json.dumps(request).encode(), timeout=STARTUP_S)
    assert answer["id"] == request_id
    result: dict[str, Any] = answer["result"]
    return result


def test_the_file_tools_of_an_agent_over_stdio_stay_in_the_local_files_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.json").write_text('[{"content": "a file the agent should not read"}]')
    server = Server(tmp_path / "stdio.db", home)
    try:
        server.initialize()
        escaped = _call(server, 2, "export_memories", {"path": str(outside / "dump.json")})
        assert escaped["isError"] and "files directory" in escaped["content"][0]["text"]
        assert not (outside / "dump.json").exists()
        for request_id, arguments in enumerate(
            ({"path": str(outside / "secret.json")}, {"path": "../elsewhere/secret.json"}), start=3
        ):
            refused = _call(server, request_id, "import_memories", arguments)
            assert refused["isError"] and "files directory" in refused["content"][0]["text"], refused
        kept = _call(server, 5, "export_memories", {"path": "dump.json"})
        assert not kept["isError"], kept
        assert (home / "files" / "local" / "dump.json").is_file()
    finally:
        server.close()
