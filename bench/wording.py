"""Recall when a question is worded unlike the memory: `python -m bench.wording [--misses]`.

A second user's memories and questions (bench/data/wording, see its README), written by using the product by
hand and kept apart from bench/data/userlevel: questions by another word (synonym), by a category ("anything about
my health"), by kin ("my mother" for "Mum"), sharing no word (paraphrase), by spelling, by time, and details
deep in a long document, with some that nothing answers. Built and asked exactly as `bench.userlevel` builds and
asks (store_memory with the clock at each memory's day, questions at the same fixed now, recall and
search_memory with their defaults). Results: bench/results/wording.json and wording.md.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench.userlevel import SURFACES, score_folder, surface_tables

DATA = Path(__file__).resolve().parent / "data" / "wording"
RESULTS_DIR = Path(__file__).resolve().parent / "results"
_COLUMNS = ("hit@1", "hit@3", "hit@1_passage", "empty_when_answerable", "results_when_unanswerable")


def markdown(results: Mapping[str, Any]) -> str:
    """The tables of wording.json."""
    return surface_tables("Recall by other words", results, _COLUMNS)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.wording", description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="print the questions missed at hit@1")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where wording.json/.md go")
    args = parser.parse_args(argv)
    results = score_folder(DATA)
    for surface in SURFACES:
        row = results[surface]
        print(f"{surface}: " + ", ".join(f"{k} {row[k]}" for k in _COLUMNS))
        if args.misses:
            for miss in row["misses"]:
                print(f"  {surface} miss [{miss['type']}] {miss['q']!r} -> {miss['returned']}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "wording.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    (args.out / "wording.md").write_text(markdown(results))


if __name__ == "__main__":
    main()
