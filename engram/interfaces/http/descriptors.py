"""A server's file descriptors are its connections: every slow client holds one for up to the 30 s it is given
(engram.interfaces.http.pacing), so the number a process may open bounds how many clients it serves at once.
`engram serve` raises its soft limit to the hard one (often 1,024 of 524,288 on Linux). Once every descriptor is
taken, asyncio logs each refused accept with its traceback, up to the listening backlog per retry, every second:
hundreds of lines a second for as long as the attack lasts. One such line a minute is kept."""

from __future__ import annotations

import logging
import math
import sys
import time

# asyncio's words when accept() finds no descriptor left (or no memory for one).
_OUT_OF_RESOURCE = "socket.accept() out of system resource"
# How often a refused accept is logged while descriptors stay exhausted.
LOG_EVERY_SECONDS = 60.0
# A ceiling when the hard limit is unlimited: the kernel refuses more than its nr_open (1,048,576 by default).
_MOST = 1 << 20


class OnceAMinute(logging.Filter):
    """Lets asyncio's "out of system resource" through once every LOG_EVERY_SECONDS, and everything else."""

    def __init__(self) -> None:
        super().__init__()
        self.last = -math.inf

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith(_OUT_OF_RESOURCE):
            return True
        now = time.monotonic()
        if now - self.last < LOG_EVERY_SECONDS:
            return False
        self.last = now
        return True


def quiet_exhaustion() -> None:
    """Install OnceAMinute on asyncio's logger (once)."""
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, OnceAMinute) for f in logger.filters):
        logger.addFilter(OnceAMinute())


def most_descriptors() -> int:
    """Raise this process's soft limit on open files to its hard limit; the limit now in force."""
    if sys.platform == "win32":  # no such limit to raise
        return 0
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = _MOST if hard == resource.RLIM_INFINITY else min(hard, _MOST)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # a container may refuse it: the limit stays as it was
            return soft
        return wanted
    return soft


__all__ = ["LOG_EVERY_SECONDS", "OnceAMinute", "most_descriptors", "quiet_exhaustion"]
