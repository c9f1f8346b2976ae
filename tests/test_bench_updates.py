"""bench.updates writes each data file's figures under its own name: a new set never overwrites the hand set's."""

from __future__ import annotations

import json
from pathlib import Path

from bench.updates import DATA, main, results_name


def test_the_hand_set_keeps_its_results_name_and_another_set_is_named_after_its_file() -> None:
    assert results_name(DATA) == "updates"
    assert results_name(Path("elsewhere") / DATA.name) == "updates"
    assert results_name(Path("bench/data/updates_apart.jsonl")) == "updates_apart"


def test_a_run_on_another_set_writes_its_own_files_and_leaves_the_hand_sets_alone(tmp_path: Path) -> None:
    data = tmp_path / "updates_mine.jsonl"
    pair = {
        "key": "m01",
        "older": "My dentist is Dr Hale.",
        "newer": "My dentist is Dr Moss now.",
        "update": True,
    }
    data.write_text(json.dumps(pair) + "\n")
    out = tmp_path / "results"
    out.mkdir()
    (out / "updates.json").write_text("hand figures\n")
    main(["--data", str(data), "--out", str(out)])
    result = json.loads((out / "updates_mine.json").read_text())
    assert (result["pairs"], result["updates"], result["look_alikes"]) == (1, 1, 0)
    assert "updates_mine.jsonl" in (out / "updates_mine.md").read_text()
    assert (out / "updates.json").read_text() == "hand figures\n"
    assert not (out / "updates.md").exists()
