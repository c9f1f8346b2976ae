"""The command line under a hostile environment: an ENGRAM_* variable holding what its setting cannot take."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from engram.interfaces.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("ENGRAM_MAINTAIN_EVERY_MINUTES", "nan"),
        ("ENGRAM_REDACT_PII", "maybe"),
        ("ENGRAM_TAG_ON_TOPIC", "1e999"),
    ],
)
@pytest.mark.parametrize("command", [["stats"], ["keys", "list"], ["recall", "deploy"]])
def test_a_variable_no_setting_takes_is_named_with_its_value(
    variable: str, value: str, command: list[str]
) -> None:
    result = runner.invoke(app, command, env={variable: value})
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{variable}:" in result.output and repr(value) in result.output
    assert "Traceback" not in result.output and "pydantic" not in result.output
