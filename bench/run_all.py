"""Every benchmark in turn: `python -m bench.run_all` (long: the 100k speed run alone takes tens of minutes)."""

from __future__ import annotations

import subprocess
import sys

MODULES = ("classification", "vector_index", "retrieval", "speed", "redesign", "server", "ingest")


def main() -> None:
    for name in MODULES:
        print(f"== bench.{name}", flush=True)
        subprocess.run([sys.executable, "-m", f"bench.{name}"], check=True)


if __name__ == "__main__":
    main()
