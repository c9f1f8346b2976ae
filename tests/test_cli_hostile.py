"""The command line under a hostile environment and hostile files: an ENGRAM_* variable holding what its setting
cannot take, a named pipe given as a conversation file, a file of gigabytes given to `ingest` or `add`."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engram import InvalidInput, read_messages
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


def test_a_conversation_file_that_is_a_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    """`engram ingest` given a named pipe waited forever for a writer (`add` and `import` refused it)."""
    pipe = tmp_path / "chat.jsonl"
    os.mkfifo(pipe)
    said: list[BaseException] = []
    reading = threading.Thread(target=_refusal, args=(pipe, said), daemon=True)
    reading.start()
    reading.join(60)
    if reading.is_alive():  # let the reader go before failing
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a named pipe waited for a writer")
    assert isinstance(said[0], InvalidInput) and said[0].field == "file", said


def _refusal(path: Path, said: list[BaseException]) -> None:
    try:
        read_messages(path)
    except BaseException as exc:  # the test reads what was raised
        said.append(exc)


def test_a_conversation_file_larger_than_a_gzipped_one_may_expand_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.review import messages

    monkeypatch.setattr(messages, "MAX_EXPANDED", 2**20)
    big = tmp_path / "chat.jsonl"
    with big.open("wb") as file:  # sparse: two MiB of zeros that take no disk
        file.truncate(2 * 2**20)
    monkeypatch.setattr(Path, "read_bytes", _unread)
    with pytest.raises(InvalidInput) as caught:
        read_messages(big)
    assert caught.value.field == "file" and "MiB" in caught.value.problem


@pytest.mark.parametrize("suffix", [".md", ".txt", ".html", ".pdf"])
def test_a_document_larger_than_any_memory_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    from engram.interop import documents

    monkeypatch.setattr(documents, "MAX_DOCUMENT_BYTES", 2**20)
    big = tmp_path / f"notes{suffix}"
    with big.open("wb") as file:
        file.truncate(2 * 2**20)
    monkeypatch.setattr(Path, "read_bytes", _unread)
    with pytest.raises(InvalidInput) as caught:
        documents.read_document(big)
    assert caught.value.field == "path" and "notes" in caught.value.problem and "MiB" in caught.value.problem


def _unread(self: Path) -> bytes:
    raise AssertionError(f"{self.name} was read whole")
