"""``belote serve --processes N``: N room processes on ports PORT .. PORT+N-1, kept running.

Each process is a whole room (``belote serve --cluster`` on its own port) sharing the
PostgreSQL database; any of them answers any page and any socket (belote/server/cluster).
The supervisor starts them, starts again one that exits (after a second; logged and
counted), and on SIGHUP restarts them one at a time (a rolling restart: each is stopped
with SIGTERM, so its tables' sockets are told the tables move and another process takes
them over, then started again and waited for before the next goes).  SIGTERM or SIGINT
stops them all.
"""

from __future__ import annotations

import logging
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from types import FrameType

log = logging.getLogger(__name__)

RESTART_PAUSE = 1.0  # seconds before a process that exited is started again
READY_SECONDS = 60.0  # a process restarted in a rolling restart must listen within this
STOP_SECONDS = 20.0  # a process told to stop is killed after this


def child_args(argv: Sequence[str], port: int) -> list[str]:
    """``belote serve``'s arguments for one process: without ``--processes`` and
    ``--port``, with this process's port and ``--cluster``."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in ("--processes", "--port"):
            skip = "=" not in arg
            continue
        out.append(arg)
    return [*out, "--port", str(port), "--cluster"]


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


class Supervisor:
    def __init__(self, argv: Sequence[str], host: str, port: int, count: int) -> None:
        self.host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        self.ports = [port + n for n in range(count)]
        self.argv = list(argv)
        self.children: dict[int, subprocess.Popen[bytes]] = {}
        self.restarts = 0  # processes started again after they exited (each logged)
        self._stopping = False
        self._rolling = False

    def _start(self, port: int) -> None:
        command = [sys.executable, "-m", "belote", "serve", *child_args(self.argv, port)]
        self.children[port] = subprocess.Popen(command)
        log.info("room process on port %d started (pid %d)", port,
                 self.children[port].pid)

    def _stop(self, port: int) -> None:
        child = self.children[port]
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                log.error("room process on port %d did not stop: killed", port)
                child.kill()
                child.wait()

    def rolling_restart(self) -> None:
        for port in self.ports:
            if self._stopping:
                return
            log.info("rolling restart: process on port %d", port)
            self._stop(port)
            self._start(port)
            deadline = time.monotonic() + READY_SECONDS
            while not _listening(self.host, port) and time.monotonic() < deadline:
                time.sleep(0.2)
        log.info("rolling restart done")

    def run(self) -> int:
        def stop(_signum: int, _frame: FrameType | None) -> None:
            self._stopping = True

        def roll(_signum: int, _frame: FrameType | None) -> None:
            self._rolling = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGHUP, roll)
        for port in self.ports:
            self._start(port)
        while not self._stopping:
            time.sleep(0.2)
            if self._rolling:
                self._rolling = False
                self.rolling_restart()
            for port, child in list(self.children.items()):
                if child.poll() is not None and not self._stopping:
                    self.restarts += 1
                    log.error("room process on port %d exited (code %s): starting it again "
                              "(%d restarts)", port, child.returncode, self.restarts)
                    time.sleep(RESTART_PAUSE)
                    self._start(port)
        for port in self.ports:
            self._stop(port)
        return 0
