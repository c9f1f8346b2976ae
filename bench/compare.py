"""Speed of this tree against an earlier commit, measured in one run: `python -m bench.compare --baseline REF`.

Each tree (the baseline commit and the working tree, each copied to a scratch directory so that their benchmarks
write their own results) runs its own `bench.speed` (ingest throughput, recall latency at `--size` memories) and
`bench.redesign --parts speed` (store_memory and search_memory latency at `--size` memories), in alternating
rounds (baseline, current, baseline, current, ...) so that load on a shared machine falls on both alike. Reported:
the median over rounds of each figure, and the ratio current / baseline (latency: below 1 is faster; throughput:
above 1 is faster). Results: bench/results/compare.json and compare.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.datasets import data_dir

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
# (benchmark, path in its results json, label, True when lower is better)
FIGURES = [
    ("speed", ("ingest", "ingest_texts_per_s"), "ingest texts/s (write path)", False),
    ("speed", ("ingest", "ratio"), "ingest / raw embedding", False),
    ("speed", ("scale", "{size}", "search_p50_ms"), "recall p50 ms", True),
    ("speed", ("scale", "{size}", "search_p95_ms"), "recall p95 ms", True),
    ("speed", ("scale", "{size}", "search_minus_embed_p50_ms"), "recall minus query embedding p50 ms", True),
    ("redesign", ("speed", "store_p50_ms"), "store_memory p50 ms", True),
    ("redesign", ("speed", "store_p95_ms"), "store_memory p95 ms", True),
    ("redesign", ("speed", "search_p50_ms"), "search_memory p50 ms", True),
    ("redesign", ("speed", "search_p95_ms"), "search_memory p95 ms", True),
]


def _tree(ref: str | None, into: Path) -> Path:
    """A copy of commit `ref` (None: the working tree, uncommitted changes included) in `into`."""
    if ref is None:
        shutil.copytree(ROOT, into, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", ".cache"))
    else:
        into.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    cache = ROOT / "bench" / ".cache"
    if cache.exists():  # the embedding cache of the benchmark data: both trees read the same vectors
        (into / "bench" / ".cache").symlink_to(cache, target_is_directory=True)
    return into


def _run(tree: Path, args: list[str]) -> None:
    # The benchmark data lies beside this checkout, not beside the scratch copies.
    env = {**os.environ, "PYTHONPATH": str(tree), "ENGRAM_BENCH_DATA": str(data_dir())}
    subprocess.run([sys.executable, "-m", *args], cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)


def _figure(results: dict[str, Any], path: tuple[str, ...], size: int) -> float | None:
    value: Any = results
    for part in path:
        value = value.get(part.format(size=size)) if isinstance(value, dict) else None
    return float(value) if isinstance(value, int | float) else None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", help="the commit to compare with (a ref or hash)")
    parser.add_argument("--render", action="store_true", help="only write compare.md from compare.json")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--size", type=int, default=10_000, help="memories in the stores searched")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--ingest", type=int, default=1000)
    args = parser.parse_args()
    if args.render:
        render(json.loads((RESULTS / "compare.json").read_text()))
        return
    if not args.baseline:
        parser.error("--baseline is required")
    base = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
    with tempfile.TemporaryDirectory() as scratch:
        trees = {
            "baseline": _tree(args.baseline, Path(scratch) / "baseline"),
            "current": _tree(None, Path(scratch) / "current"),
        }
        for round_ in range(args.rounds):
            for name, tree in trees.items():
                print(f"round {round_ + 1}: {name}", flush=True)
                speed = ["bench.speed", "--ingest", str(args.ingest), "--sizes", str(args.size)]
                _run(tree, [*speed, "--queries", str(args.queries)])
                _run(
                    tree,
                    [
                        "bench.redesign",
                        "--parts",
                        "speed",
                        "--size",
                        str(args.size),
                        "--calls",
                        str(args.calls),
                    ],
                )
                runs[name].append(
                    {
                        "speed": json.loads((tree / "bench" / "results" / "speed.json").read_text()),
                        "redesign": json.loads((tree / "bench" / "results" / "redesign.json").read_text()),
                    }
                )
    rows = []
    for bench, path, label, lower in FIGURES:
        medians = {}
        for name, results in runs.items():
            values = [v for r in results if (v := _figure(r[bench], path, args.size)) is not None]
            medians[name] = round(statistics.median(values), 3) if values else None
        old, new = medians["baseline"], medians["current"]
        ratio = round(new / old, 3) if old and new else None
        rows.append(
            {"figure": label, "baseline": old, "current": new, "ratio": ratio, "lower_is_better": lower}
        )
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {len(os.sched_getaffinity(0))} cpus",
        "baseline": base,
        "rounds": args.rounds,
        "size": args.size,
        "figures": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "compare.json").write_text(json.dumps(result, indent=2) + "\n")
    render(result)


def render(result: dict[str, Any]) -> None:
    """compare.md from a comparison's results."""
    lines = [
        "# Speed against an earlier commit",
        "",
        f"Generated by `python -m bench.compare --baseline {result['baseline']}` on {result['date']} "
        f"({result['machine']}): {result['rounds']} alternating rounds of each tree's own `bench.speed` and "
        f"`bench.redesign --parts speed` at {result['size']:,} memories; medians over rounds. Ratio: current / "
        "baseline (latency below 1 and throughput above 1 are faster). One run on a shared, noisy machine: "
        "differences of a few percent are noise.",
        "",
        "| figure | baseline | current | ratio |",
        "|---|---|---|---|",
        *(
            f"| {r['figure']} | {r['baseline']:.2f} | {r['current']:.2f} | {r['ratio']:.2f} |"
            for r in result["figures"]
            if r["baseline"] is not None and r["current"] is not None
        ),
        "",
    ]
    (RESULTS / "compare.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
