"""Another store's export is read whole and parsed at once, about ten times its size in Python objects: a file of
hundreds of MiB took several GB. A file over the importers' limit is refused naming `path` before it is read, and
nothing stored is touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engram.interop.importers as importers
from engram import Memory
from engram.errors import InvalidInput


@pytest.mark.parametrize("source", ["shodh-json", "mem0"])
def test_an_import_file_over_the_limit_is_refused_before_it_is_read(
    mem: Memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    mem.store_memory("the boiler was serviced in May")
    records = [
        {"id": f"r{i}", "content": f"imported note number {i}", "memory": f"note {i}"} for i in range(40)
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"memories": records, "results": records}))
    monkeypatch.setattr(importers, "MAX_FOREIGN_BYTES", path.stat().st_size - 1)
    read: list[Path] = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self) or b"")
    with pytest.raises(InvalidInput) as refused:
        mem.import_from(source, path)
    assert refused.value.field == "path"
    assert "MiB" in str(refused.value)
    assert read == []
    assert [r["content"] for r in mem.search_memory("boiler")["results"]] == [
        "the boiler was serviced in May"
    ]
