"""The int8 word table, which onnxruntime maps from the model's export, goes back after each batch: its pages do not
pile up in the process's resident set as texts read new rows, and the vectors are those the mapped table gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engram.embed.minilm import MiniLM
from engram.embed.pages import MIN_BYTES, MappedFile, mappings

TEXTS = [
    f"{word} number {i}: the {other} was moved to {place} on day {i % 28 + 1}"
    for i, (word, other, place) in enumerate(
        zip(
            ["Dentist", "Invoice", "Passport", "Garden", "Piano", "Server", "Recipe", "Flight"] * 25,
            ["meeting", "backup", "concert", "appointment", "deadline", "lecture", "party", "review"] * 25,
            ["Lisbon", "Porto", "Kyoto", "Nairobi", "Oslo", "Quito", "Hanoi", "Perth"] * 25,
            strict=True,
        )
    )
]


def _smaps(path: Path) -> dict[str, int]:
    """Rss and Anonymous (private copies of pages) of this process's large mappings of `path` (the word table's),
    in kB."""
    out = {"Rss": 0, "Anonymous": 0}
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and ":" not in head[0]:
            start, end = (int(x, 16) for x in head[0].split("-"))
            inside = len(head) >= 6 and head[5] == str(path) and end - start >= MIN_BYTES
        elif inside and head and head[0].rstrip(":") in out:
            out[head[0].rstrip(":")] += int(head[1])
    return out


@pytest.fixture(scope="module")
def model() -> MiniLM:
    if not Path("/proc/self/smaps").exists():
        pytest.skip("reads /proc")
    return MiniLM()


def test_the_word_table_is_mapped_and_its_pages_go_back_after_each_batch(model: MiniLM) -> None:
    table = model._table
    assert table.ranges, "the export's word table is mapped by the session"
    for start in range(0, len(TEXTS), 10):
        model.embed_batch(TEXTS[start : start + 10])
    # 200 texts read rows on most of the table's pages (about 8 MB of them when left mapped)
    used = _smaps(table.path)
    assert used["Rss"] < 256
    assert used["Anonymous"] == 0  # onnxruntime wrote to none of its pages: dropping them loses nothing


def test_vectors_are_the_same_with_the_pages_dropped_or_kept(model: MiniLM) -> None:
    dropped = np.stack([model.embed_batch([t])[0] for t in TEXTS[:40]])
    ranges, model._table.ranges = model._table.ranges, set()
    try:
        kept = np.stack([model.embed_batch([t])[0] for t in TEXTS[:40]])
        assert _smaps(model._table.path)["Rss"] > 1024  # kept: the rows' pages stay mapped
    finally:
        model._table.ranges = ranges
    assert np.array_equal(dropped, kept)


def test_the_second_session_maps_the_table_again_and_it_is_dropped_too(model: MiniLM) -> None:
    before = set(model._table.ranges)
    model.embed_batch([f"{t} {t}" for t in TEXTS[:40]])  # more than a full text's tokens: the second session
    assert model._side is not None and model._side is not model._session
    assert model._table.ranges > before
    assert _smaps(model._table.path)["Rss"] < 256


def test_mappings_reads_only_the_files_large_ranges(tmp_path: Path) -> None:
    model = tmp_path / "model.onnx"
    big = f"{0x7F0000000000:x}-{0x7F0000000000 + 4 * MIN_BYTES:x}"
    small = f"{0x7F1000000000:x}-{0x7F1000000000 + 4096:x}"
    proc = tmp_path / "maps"
    proc.write_text(
        f"{big} rw-p 00000000 00:2a 123 {model}\n"
        f"{small} rw-p 00000000 00:2a 123 {model}\n"
        f"{big} r--p 00000000 00:2a 124 {model}.other\n"
        f"{big} rw-p 00000000 00:00 0 \n"
    )
    assert mappings(model, proc) == {(0x7F0000000000, 4 * MIN_BYTES)}
    assert mappings(model, tmp_path / "missing") == set()


def test_a_file_it_never_saw_loaded_is_never_touched(tmp_path: Path) -> None:
    table = MappedFile(tmp_path / "model.onnx")
    table.loading(before=set())  # nothing of that file is mapped
    assert table.ranges == set()
    assert table.drop() == 0
