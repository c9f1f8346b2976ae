"""bench/fuzz.py with --workers N sums its workers' reports into one: a stdio server that exited of itself in any
worker must still show in the sum (the run's table says so), and the counts add up."""

from __future__ import annotations

from typing import Any

from bench.fuzz import merge, render


def _worker(lines: int, unanswered: int, *, exited: bool, error: str | None = None) -> dict[str, Any]:
    stdio: dict[str, Any] = {
        "lines": lines,
        "unanswered_within_1s": unanswered,
        "samples": [f"line {lines}"] if unanswered else [],
        "exited": exited,
    }
    if error:
        stdio["error"] = error
    return {
        "rest": {
            "requests": 10,
            "server_errors": 0,
            "failures": 1,
            "seconds": 2.0,
            "statuses": {"200": 9, "422": 1},
        },
        "mcp_http": {
            "calls": 5,
            "server_errors": 0,
            "unanswered": 0,
            "over_1s": 0,
            "p50_ms": 2.0,
            "max_ms": 9.0,
            "statuses": {"200": 5},
        },
        "mcp_stdio": stdio,
        "python": {"calls": 4, "crashes": 0, "by_type": {"ValidationError": 2}},
    }


def _shown(merged: dict[str, Any]) -> str:
    report = merged | {
        "date": "2026-01-01",
        "machine": "x",
        "seed": 0,
        "seconds": 1,
        "budget_seconds": 1,
        "asked": {"rest": 20, "mcp": 10, "stdio": 30, "python": 8},
    }
    return render(report)


def test_a_stdio_server_that_exited_in_one_worker_shows_in_the_sum() -> None:
    merged = merge([_worker(20, 0, exited=False), _worker(7, 1, exited=True)])
    stdio = merged["mcp_stdio"]
    assert stdio["exited"] is True
    assert (stdio["lines"], stdio["unanswered_within_1s"], stdio["samples"]) == (27, 1, ["line 7"])
    assert "the server exited" in _shown(merged)


def test_no_worker_exited_no_exit_is_said() -> None:
    merged = merge(
        [_worker(20, 0, exited=False), _worker(20, 0, exited=False, error="no answer to initialize")]
    )
    assert merged["mcp_stdio"]["exited"] is False
    assert merged["mcp_stdio"]["error"] == "no answer to initialize"
    shown = _shown(merged)
    assert "the server exited" not in shown and "no answer to initialize" in shown
    assert merged["rest"]["requests"] == 20 and merged["python"]["by_type"] == {"ValidationError": 4}
