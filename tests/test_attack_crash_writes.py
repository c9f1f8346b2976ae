"""A process killed (SIGKILL, nothing runs after it) in the middle of a bulk write, an import, a maintenance pass
or a forget, on SQLite and on PostgreSQL: every write it acknowledged is there when the store is opened again, every
memory whose forget it acknowledged is gone with no trace of its text, the storage checks (integrity, full-text
and vector index against the rows) find nothing to repair, and the interrupted work runs to its end when asked
again. A worker prints each acknowledgement only after the call returned; the kill lands at a drawn moment."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engram import FakeEmbedder, Memory, NotFound, Settings
from tests.test_forget_trace import traces

ROUNDS = int(os.environ.get("ENGRAM_CRASH_ROUNDS", "1"))

WORKER = r"""
import json, random, sys
from pathlib import Path
from engram import FakeEmbedder, Memory, Settings

location, mode, home, given = sys.argv[1], sys.argv[2], Path(sys.argv[3]), json.loads(sys.argv[4])
db = location if "://" in location else Path(location)

def ack(*parts):
    print(json.dumps(parts), flush=True)

with Memory(db, embedder=FakeEmbedder(), settings=Settings(home=home)) as mem:
    ack("ready")
    if mode == "bulk":
        for batch in range(10_000):
            # Words of their own throughout: notes alike but for a number merge as near duplicates.
            draw = random.Random(f"{given['tag']} {batch}")
            texts = [
                " ".join("".join(draw.choice("bcdfghjklmnpqrstvwxz") for _ in range(10)) for _ in range(4))
                for _ in range(32)
            ]
            for text, result in zip(texts, mem.remember_many([{"content": t} for t in texts])):
                ack("wrote", result.id, text)
    elif mode == "import":
        for name in given["files"]:
            answer = mem.import_memories(name)
            ack("imported", name, answer["imported"] + answer["skipped"])
    elif mode == "maintain":
        for step in range(10_000):
            text = f"maintained note {given['tag']} {step} on the boiler service"
            ack("wrote", mem.remember(text).id, text)
            mem.maintain()
            ack("maintained", step)
    elif mode == "forget":
        for memory_id, word in given["ids"]:
            mem.forget(memory_id)
            ack("forgot", memory_id, word)
"""


def _store(location: str | Path, home: Path) -> Memory:
    return Memory(location, embedder=FakeEmbedder(), settings=Settings(home=home))


# How many acknowledgements a worker gives at most before the kill: each drawn count lands in the middle of the work.
MOST = {"bulk": 320, "import": 5, "maintain": 20, "forget": 60}


def _killed(
    location: str | Path, mode: str, home: Path, given: dict[str, object], seed: int
) -> list[list[str]]:
    """Run the worker, kill it once it has acknowledged a drawn count of steps (with a drawn few milliseconds
    more, so the kill lands inside the next step, not always at its start), and return its acknowledgements.
    Waiting on the worker's own progress keeps the kill inside the work however loaded the machine is."""
    draw = random.Random(seed)
    wanted = draw.randint(0, MOST[mode])
    out = home / f"{mode}-{seed}.out"
    env = os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with out.open("w") as sink:
        worker = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(location), mode, str(home), json.dumps(given)],
            stdout=sink,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    try:
        deadline = time.monotonic() + 300
        while (seen := out.read_text().count("\n")) < 1 + wanted and worker.poll() is None:
            assert time.monotonic() < deadline, f"the {mode} worker acknowledged {seen - 1} of {wanted} steps"
            time.sleep(0.005)
        assert seen or worker.poll() is None, f"the {mode} worker ended before it was ready"
        time.sleep(draw.uniform(0, 0.03))
        os.kill(worker.pid, signal.SIGKILL)
    finally:
        worker.kill()
        worker.wait(30)
    lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return [line for line in lines if line and line[0] != "ready"]


def _sound(mem: Memory) -> None:
    answer = mem.validate_storage()
    assert answer["issues"] == [], answer


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_bulk_write_killed_keeps_what_it_acknowledged(
    db_location: str | Path, home: Path, round_: int
) -> None:
    acks = _killed(db_location, "bulk", home, {"tag": f"r{round_}"}, seed=round_)
    with _store(db_location, home) as mem:
        for _, memory_id, text in acks:
            assert mem.get(memory_id).content == text
        _sound(mem)
        mem.remember_many([{"content": f"after the crash {i}"} for i in range(5)])
        _sound(mem)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_import_killed_keeps_what_it_acknowledged_and_completes_when_run_again(
    db_location: str | Path, home: Path, tmp_path: Path, round_: int
) -> None:
    files, ids = _exports(tmp_path, home, parts=6, each=40)
    acks = _killed(db_location, "import", home, {"files": [str(f) for f in files]}, seed=100 + round_)
    with _store(db_location, home) as mem:
        done = {name for _, name, _ in acks}
        for file, file_ids in zip(files, ids, strict=True):
            if str(file) in done:
                assert all(mem.get(i) for i in file_ids)
        _sound(mem)
        for file in files:
            mem.import_memories(file)
        for file_ids in ids:
            assert all(mem.get(i) for i in file_ids)
        _sound(mem)


def _exports(tmp_path: Path, home: Path, parts: int, each: int) -> tuple[list[Path], list[list[str]]]:
    """`parts` export files of `each` memories apiece, all different."""
    with _store(tmp_path / "source.db", home) as source:
        for part in range(parts):
            source.remember_many(
                [{"content": f"imported fact {part} {i} on the tram timetable"} for i in range(each)]
            )
        whole = tmp_path / "whole.jsonl"
        source.export_memories(whole, with_embeddings=True)
    header, *records = whole.read_text().splitlines()
    files, ids = [], []
    for part in range(parts):
        chosen = records[part * each : (part + 1) * each]
        file = tmp_path / f"part{part}.jsonl"
        file.write_text("\n".join([header, *chosen]) + "\n")
        files.append(file)
        ids.append([json.loads(r)["id"] for r in chosen])
    return files, ids


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_maintenance_killed_keeps_every_memory_and_runs_again(
    db_location: str | Path, home: Path, round_: int
) -> None:
    with _store(db_location, home) as mem:
        stored = mem.remember_many(
            [{"content": f"old reminder {i} to water the ferns on the balcony"} for i in range(150)]
        )
    acks = _killed(db_location, "maintain", home, {"tag": f"r{round_}"}, seed=200 + round_)
    with _store(db_location, home) as mem:
        for memory_id in [r.id for r in stored] + [a[1] for a in acks if a[0] == "wrote"]:
            mem.get(memory_id)  # nothing automatic deletes a memory
        _sound(mem)
        mem.maintain()
        _sound(mem)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_forget_killed_leaves_no_acknowledged_text_behind(
    db_location: str | Path, home: Path, round_: int
) -> None:
    draw = random.Random(300 + round_)

    def word() -> str:
        return "zq" + "".join(draw.choice("bcdfghjklmnpqrstvwxz") for _ in range(10))

    words = [word() for _ in range(80)]
    with _store(db_location, home) as mem:
        # Words of their own throughout, so that no two are near duplicates merged into one.
        results = mem.remember_many([{"content": f"{w} {word()} {word()} {word()}"} for w in words])
        assert len({r.id for r in results}) == len(words)
    given = {"ids": [[r.id, w] for r, w in zip(results, words, strict=True)]}
    acks = _killed(db_location, "forget", home, given, seed=300 + round_)
    with _store(db_location, home) as mem:
        for _, memory_id, word in acks:
            with pytest.raises(NotFound):
                mem.get(memory_id)
            assert not mem.recall(word, touch=False) or all(
                word not in hit.record.content for hit in mem.recall(word, touch=False)
            )
        _sound(mem)
        for r in results[len(acks) + 1 :]:  # those it had not reached are still there
            mem.get(r.id)
        mem.remember("one write after the crash settles the log")
    with _store(db_location, home) as mem:
        for _, _, word in acks:
            assert traces(mem, db_location, word) == [], word
