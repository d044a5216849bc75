"""Jobs the heavy-work tests hand to a real heavy-work process (tests/server/test_limits.py).

A process unpickles a job by importing its module: this one imports nothing of the room, so
that a job's first run costs milliseconds, not the seconds of importing a test module (which
a 1.5 s time limit would take for a hung process, on a loaded machine).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def die() -> str:
    os._exit(3)


def stop() -> str:
    os.kill(os.getpid(), signal.SIGSTOP)
    return "never"


def nap(text: str) -> str:
    time.sleep(0.4)
    return text


def echo(text: str) -> str:
    return text


def say_and_stop(path: str) -> str:
    Path(path).write_text(str(os.getpid()))
    return stop()


def trickle(seconds: float) -> str:
    """A job that gets a fifth of a core for ``seconds``: a process starved by its niceness
    on a busy machine, as the heavy-work process sees it (some CPU, little)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        busy = time.monotonic() + 0.01
        while time.monotonic() < busy:
            pass
        time.sleep(0.04)
    return "trickled"


def spin(seconds: float) -> str:
    """A job in a busy loop (bounded, so that a test that fails ends)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "spun"
