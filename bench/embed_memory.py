"""The default embedder's memory and speed, before and after a change, in one interleaved run:
`python -m bench.embed_memory [--rounds N]`.

Each setup lives in its own process (memory does not leak between them); the driver asks them for one round in
turn, alternating the order, so a change in the machine's load falls on all of them alike. A round is ten single
queries, ten memories embedded with their tag phrases and openings (the store_memory call) and two 32-text bulk
batches back to back, all of LoCoMo turns made unique by the round's number (no cache helps). Reported: resident memory after
load and the highest seen after the rounds, p50 of each kind of call, and the largest difference between the
setups' vectors over a few hundred texts, embedded alone and in groups.

Setups: `current` is `MiniLM` as it is (the shipped graph, which gathers a text's rows of the int8 word-embedding
table before dequantising them); `export-as-is` is the previous setup, the same two sessions on the int8 export as
it ships (every weight folded to float32); `one-session` is `MiniLM` without its single-thread session (the groups
of a batch run side by side on the multi-thread one). Call times are wall-clock and, less disturbed by other work
on the machine, the process's CPU time.

Results go to bench/results/embed_memory.json and .md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.minilm import MiniLM
from engram.model.vectors import Matrix

RESULTS_DIR = Path(__file__).resolve().parent / "results"
DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "locomo_dev.json.gz"
SETUPS = ("export-as-is", "current", "one-session")
CHECK_TEXTS = 300
IDLE_S = 3.0


class ExportAsIs(MiniLM):
    """The previous setup: the int8 export loaded as it ships, so each session holds the word-embedding table
    (and every other weight) in float32."""

    def __init__(self, threads: int = 2) -> None:
        from engram.embed import minilm

        def as_is(export: Any) -> tuple[str | bytes, dict[str, str]]:
            return str(export.model_path()), {}

        shipped = minilm._model
        minilm._model = as_is
        try:
            super().__init__(threads=threads)
        finally:
            minilm._model = shipped


class OneSession(MiniLM):
    """Without the single-thread session: the groups of a batch run side by side on the multi-thread one."""

    def __init__(self, threads: int = 2) -> None:
        super().__init__(threads=threads)
        self._single = self._session


def turns() -> list[str]:
    data = json.loads(gzip.decompress(DATA.read_bytes()))
    return [
        turn["text"]
        for sample in data
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]


def with_phrases(text: str, rng: random.Random) -> list[str]:
    """A memory with what store_memory embeds beside it: its two opening words and a few short phrases."""
    words = text.split()
    picks = rng.sample(range(len(words)), min(len(words), rng.randint(3, 6)))
    return [text, " ".join(words[:2]).lower(), *(" ".join(words[i : i + 2]).lower() for i in picks)]


def _rss_mb() -> float:
    """The process's resident memory now (Linux)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024


def worker(setup: str) -> None:
    """Serve rounds over stdin/stdout: a seed in, one round's timings and the RSS out."""
    pool = turns()
    embedder = {"export-as-is": ExportAsIs, "one-session": OneSession}.get(setup, MiniLM)()
    embedder.embed_batch(["warm up"])
    print(json.dumps({"rss_load": _rss_mb()}), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        if "check" in command:  # vectors of the check texts, alone and in groups of a memory and its phrases
            rng = random.Random(1)
            texts = pool[:CHECK_TEXTS]
            alone = np.vstack([embedder.embed_batch([t]) for t in texts])
            grouped = np.vstack([embedder.embed_batch(with_phrases(t, rng))[:1] for t in texts])
            bulk = embedder.embed_batch(texts)
            np.save(command["check"], np.stack([alone, grouped, bulk]))
            print("{}", flush=True)
            continue
        if "idle" in command:  # the resident memory once the process has been idle for a while
            time.sleep(command["idle"])
            print(json.dumps({"rss": _rss_mb()}), flush=True)
            continue
        seed = command["seed"]
        rng = random.Random(seed)
        times: dict[str, list[float]] = {}

        def timed(kind: str, texts: list[str], times: dict[str, list[float]] = times) -> None:
            started, cpu = time.perf_counter(), time.process_time()
            embedder.embed_batch(texts)
            times.setdefault(kind, []).append(time.perf_counter() - started)
            times.setdefault(f"{kind}_cpu", []).append(time.process_time() - cpu)

        for i in range(10):
            timed("query", [f"{rng.choice(pool)} {seed} {i}"])
            timed("with_phrases", with_phrases(f"{rng.choice(pool)} {seed} {i}", rng))
        for part in range(2):  # back to back, as in a bulk load
            timed("bulk32", [f"{text} {seed} {part}" for text in rng.sample(pool, 32)])
        print(json.dumps({"times": times, "rss": _rss_mb()}), flush=True)


def run(rounds: int) -> dict[str, Any]:
    procs = {
        setup: subprocess.Popen(
            [sys.executable, "-m", "bench.embed_memory", "--worker", setup],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for setup in SETUPS
    }

    def ask(setup: str, command: dict[str, Any]) -> dict[str, Any]:
        proc = procs[setup]
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(command) + "\n")
        proc.stdin.flush()
        answer: dict[str, Any] = json.loads(proc.stdout.readline())
        return answer

    found: dict[str, dict[str, Any]] = {}
    for setup, proc in procs.items():
        assert proc.stdout is not None
        found[setup] = json.loads(proc.stdout.readline()) | {"rss_max": 0.0, "times": {}}
    for round_ in range(rounds):
        for setup in SETUPS if round_ % 2 == 0 else tuple(reversed(SETUPS)):
            answer = ask(setup, {"seed": round_})
            found[setup]["rss_max"] = max(found[setup]["rss_max"], answer["rss"])
            for kind, values in answer["times"].items():
                found[setup]["times"].setdefault(kind, []).extend(values)
    for setup in SETUPS:
        found[setup]["rss_idle"] = ask(setup, {"idle": IDLE_S})["rss"]
    with tempfile.TemporaryDirectory() as folder:
        vectors = {}
        for setup in SETUPS:
            path = str(Path(folder) / f"{setup}.npy")
            ask(setup, {"check": path})
            vectors[setup] = np.load(path)
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    before, after, one = vectors[SETUPS[0]], vectors[SETUPS[1]], vectors[SETUPS[2]]

    def lowest_cosine(a: Matrix, b: Matrix) -> float:
        return float((a * b).sum(axis=-1).min())

    return {
        "date": datetime.now().isoformat(timespec="minutes"),
        "rounds": rounds,
        "setups": {
            setup: {
                "rss_after_load_mb": round(entry["rss_load"]),
                "rss_after_rounds_mb": round(entry["rss_max"]),
                "rss_idle_mb": round(entry["rss_idle"]),
            }
            | {f"{kind}_p50_ms": round(statistics.median(v) * 1000, 2) for kind, v in entry["times"].items()}
            for setup, entry in found.items()
        },
        "max_abs_difference": {
            "alone": float(np.abs(before[0] - after[0]).max()),
            "with_phrases": float(np.abs(before[1] - after[1]).max()),
            "bulk": float(np.abs(before[2] - after[2]).max()),
            "current_alone_vs_grouped": float(np.abs(after[0] - after[1]).max()),
            "one_session_vs_previous": float(np.abs(before - one).max()),
        },
        "lowest_cosine": {
            "current_vs_previous": lowest_cosine(before, after),
            "one_session_vs_previous": lowest_cosine(before, one),
        },
        "texts_compared": CHECK_TEXTS,
    }


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "# The default embedder's memory and speed",
        "",
        f"Generated by `python -m bench.embed_memory` ({result['date']}, {result['rounds']} interleaved rounds,",
        "each setup in its own process).",
        "",
        "Call times: p50 wall-clock ms (p50 CPU ms of the process).",
        "",
        "| setup | RSS after load MB | RSS after the rounds MB (highest) | RSS after 3 s idle MB | query "
        "| text + phrases | 32-text batch |",
        "|---|---|---|---|---|---|---|",
    ]
    for setup, s in result["setups"].items():
        calls = " | ".join(
            f"{s[f'{k}_p50_ms']} ({s[f'{k}_cpu_p50_ms']})" for k in ("query", "with_phrases", "bulk32")
        )
        lines.append(
            f"| {setup} | {s['rss_after_load_mb']} | {s['rss_after_rounds_mb']} | {s['rss_idle_mb']} | {calls} |"
        )
    lines += [
        "",
        f"Largest difference between the setups' vectors over {result['texts_compared']} LoCoMo turns:",
        "",
    ]
    lines += ["| compared | max abs difference |", "|---|---|"]
    lines += [f"| {k} | {v:.2e} |" for k, v in result["max_abs_difference"].items()]
    lines += ["", "| compared | lowest cosine |", "|---|---|"]
    lines += [f"| {k} | {v:.7f} |" for k, v in result["lowest_cosine"].items()]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.embed_memory", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--worker", choices=SETUPS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return
    result = run(args.rounds)
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "embed_memory.json").write_text(json.dumps(result, indent=2) + "\n")
    (RESULTS_DIR / "embed_memory.md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
