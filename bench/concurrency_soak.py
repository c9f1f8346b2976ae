"""The concurrency tests, run many times in a row while another process keeps every core busy.

    python -m bench.concurrency_soak [--runs 50] [--burners 2] [--load python|yes] [--tests NODEID ...]

Busy-loop processes, one per core (plain Python arithmetic, at the soak's own priority), spin for as long as the
soak lasts, so every writer, reader and subprocess of the tests competes for the CPU as on a loaded machine.
The tests are those that write or read from several threads or processes at once. One pytest session runs them
all `--runs` times, round after round (this module is its plugin: each test is repeated, and the items are
ordered by round), so a round costs the tests' own time and not pytest's start-up; a round passes when each of
its tests passes. Target: 0 failed rounds in 50. Results: bench/results/concurrency.json and concurrency.md,
written after every round, with each round's outcome and duration and, for a failure, the error.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
TESTS = [
    "tests/test_store.py::test_two_processes_writing_at_once_both_succeed",  # SQLite and PostgreSQL
    "tests/test_store.py::test_a_first_write_loads_the_classifiers_before_it_takes_the_write_lock",
    "tests/test_memory.py::test_one_memory_is_safe_to_share_between_threads",
    "tests/test_tools.py::test_concurrent_searches_all_finish",
    "tests/test_attack_concurrency.py",
    "tests/test_attack_races.py",
    "tests/test_attack_settle_close.py",
    "tests/test_forget_hostile.py",
    "tests/test_import_hostile.py::test_two_imports_of_one_file_at_once_store_each_record_once",
    "tests/test_attack_export_snapshot.py::test_an_export_racing_writers_and_forgets_keeps_every_pair_whole",
    "tests/test_attack_export_snapshot.py::test_a_postgres_backup_taken_while_written_is_one_moment",
]
BURN = "import time\nwhile True:\n    sum(i * i for i in range(10_000))\n"
LOADS = {"python": [sys.executable, "-c", BURN], "yes": ["yes"]}  # `yes` spins in C, writing to /dev/null


def start_burners(count: int, load: str = "python") -> list[subprocess.Popen[bytes]]:
    """`count` processes each keeping one core busy."""
    return [subprocess.Popen(LOADS[load], stdout=subprocess.DEVNULL) for _ in range(count)]


# As a pytest plugin (`-p bench.concurrency_soak`, with SOAK_ROUNDS and SOAK_LOG set): every test repeated.
def pytest_generate_tests(metafunc: Any) -> None:
    rounds = int(os.environ.get("SOAK_ROUNDS", "0"))
    if rounds:
        metafunc.fixturenames.append("soak_round")
        metafunc.parametrize("soak_round", range(rounds), ids=lambda i: f"round{i}")


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Round after round: each round runs every test once before the next round starts."""
    if os.environ.get("SOAK_ROUNDS"):
        items.sort(key=_round)


def _round(item: Any) -> int:
    callspec = getattr(item, "callspec", None)
    return int(callspec.params.get("soak_round", 0)) if callspec else 0


def pytest_runtest_logreport(report: Any) -> None:
    log = os.environ.get("SOAK_LOG")
    if log and (report.when == "call" or report.outcome != "passed"):
        record = {"test": report.nodeid, "when": report.when, "outcome": report.outcome}
        record["seconds"] = round(report.duration, 2)
        if report.outcome == "failed":
            record["error"] = str(report.longrepr)[-3000:]
        with open(log, "a") as out:
            out.write(json.dumps(record) + "\n")


def rounds_of(log: Path) -> list[dict[str, Any]]:
    """Each round's outcome from the plugin's log: passed when every test of it passed."""
    by_round: dict[int, dict[str, Any]] = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        record = json.loads(line)
        number = int(record["test"].rsplit("round", 1)[1].rstrip("]").split("-")[0])
        entry = by_round.setdefault(number, {"passed": True, "seconds": 0.0, "tests": 0, "errors": []})
        entry["seconds"] = round(entry["seconds"] + record["seconds"], 1)
        entry["tests"] += record["when"] == "call"
        if record["outcome"] == "failed":
            entry["passed"] = False
            entry["errors"].append({"test": record["test"], "when": record["when"], "error": record["error"]})
    return [by_round[i] for i in sorted(by_round)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument(
        "--burners", type=int, default=os.cpu_count() or 2, help="busy processes (one per core)"
    )
    parser.add_argument("--load", choices=sorted(LOADS), default="python", help="what each busy process runs")
    parser.add_argument("--tests", nargs="*", default=TESTS, help="pytest node ids")
    parser.add_argument("--out", default="concurrency", help="results file name, without extension")
    args = parser.parse_args()
    started = time.monotonic()
    # Stopped early (SIGTERM): the rounds done so far stay recorded, and no burner is left spinning.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    burners = start_burners(args.burners, args.load)
    with tempfile.TemporaryDirectory(prefix="engram-soak-") as tmp:
        log = Path(tmp) / "log.jsonl"
        env = os.environ | {"SOAK_ROUNDS": str(args.runs), "SOAK_LOG": str(log)}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += ["-p", "bench.concurrency_soak"]  # this module's hooks repeat and order the tests
        proc = subprocess.Popen([*command, *args.tests], cwd=ROOT, env=env)
        try:
            seen = 0
            while proc.poll() is None:
                time.sleep(5)
                runs = rounds_of(log)
                if len(runs) > seen:  # a round is whole once the next has begun
                    seen = len(runs)
                    write(args, runs[:-1], started)
            runs = rounds_of(log)
            write(args, runs, started, exit_code=proc.returncode)
        finally:
            if proc.poll() is None:
                proc.terminate()
                proc.wait()
                write(args, rounds_of(log)[:-1], started, exit_code=proc.returncode)
            for burner in burners:
                burner.kill()
                burner.wait()


def write(
    args: argparse.Namespace, runs: list[dict[str, Any]], started: float, exit_code: int | None = None
) -> None:
    report = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "burners": args.burners,
        "load": args.load,
        "tests": args.tests,
        "runs_asked": args.runs,
        "runs_done": len(runs),
        "failed": sum(1 for r in runs if not r["passed"]),
        "pytest_exit_code": exit_code,
        "seconds": round(time.monotonic() - started, 1),
        "runs": runs,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / f"{args.out}.md").write_text(render(report))


def render(report: dict[str, Any]) -> str:
    runs = report["runs"]
    seconds = sorted(r["seconds"] for r in runs)
    lines = [
        "# Concurrency tests under CPU load",
        "",
        f"{report['date']}, {report['machine']}, {report['burners']} busy processes (`{report['load']}`) beside the tests "
        f"(load average {report['load_average_at_end'][0]} at the end), {report['seconds']} s in all. "
        "`python -m bench.concurrency_soak` (see its docstring).",
        "",
        "Tests, each run once per round:",
        "",
        *[f"- `{t}`" for t in report["tests"]],
        "",
        "| rounds asked | rounds done | failed rounds | tests' time per round, median | max |",
        "|---:|---:|---:|---:|---:|",
        f"| {report['runs_asked']} | {report['runs_done']} | {report['failed']} | "
        f"{seconds[len(seconds) // 2] if seconds else '-'} s | {seconds[-1] if seconds else '-'} s |",
        "",
    ]
    failures = [(i + 1, r) for i, r in enumerate(runs) if not r["passed"]]
    for number, run in failures[:5]:
        for error in run["errors"][:2]:
            lines += [f"## Round {number}: {error['test']} failed ({error['when']})", "", "```"]
            lines += [error["error"][-1500:], "```", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
