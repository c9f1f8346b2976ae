"""Personal data in a metadata key: with redaction on, the values of the metadata were redacted and the keys kept
as written, so {"ada@example.com": "landlord"} stored the address. Keys are redacted as values are, and two keys
redacted alike both stay."""

from __future__ import annotations

import json
from pathlib import Path

from engram import FakeEmbedder, Memory, Settings


def test_personal_data_in_a_metadata_key_is_redacted(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", tag_on_topic=-1, redact_pii=True)
    metadata = {
        "ada@example.com": "landlord",
        "bob@example.com": "plumber",
        "contacts": {"call +44 7700 900123": "evenings"},
        "plain": "kept",
    }
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), settings=settings) as mem:
        stored = mem.get(mem.remember("who to call about the flat", metadata=metadata).id)
    shown = json.dumps(stored.metadata, ensure_ascii=False)
    assert "example.com" not in shown and "7700" not in shown, shown
    assert sorted(v for v in stored.metadata.values() if isinstance(v, str)) == [
        "kept",
        "landlord",
        "plumber",
    ]
    assert stored.metadata["contacts"] == {"call [REDACTED_PHONE]": "evenings"}
    assert {"email", "phone"} <= set(stored.metadata["pii_redacted"])
