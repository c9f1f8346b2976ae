"""What the `engram` command and a server import before anyone asks for help or a rendered page: not typer's rich
help (rich's Markdown and tracebacks), markdown-it, pygments or tomlkit, which only help, a page showing a memory
and `engram setup` use."""

from __future__ import annotations

import json
import subprocess
import sys

from engram.interfaces.http.manage import render_markdown

HELP_ONLY = ("typer.rich_utils", "rich.markdown", "rich.syntax", "markdown_it", "pygments", "tomlkit")


def test_the_command_and_the_server_load_no_help_renderer_markdown_or_highlighter() -> None:
    script = (
        "import json, sys\n"
        "import engram.interfaces.cli.app, engram.interfaces.cli.server, engram.interfaces.http.serve\n"
        f"print(json.dumps([m for m in {HELP_ONLY!r} if m in sys.modules]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_markdown_still_renders_when_first_asked() -> None:
    html = render_markdown("**bold** <script>x</script>\n\n| a |\n|:-:|\n| b |")
    assert "<strong>bold</strong>" in html and "<script>" not in html and 'class="align-center"' in html
