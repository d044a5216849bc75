"""The real program, `belote serve`, in a child process: one room process or several.

:class:`ServeProcess` starts ``python -m belote serve`` on 127.0.0.1 with ``--processes N``
(only when N > 1) on ``N`` consecutive free ports, with bots that play at once and no pace,
and waits until every port answers the lobby page.  :meth:`ServeProcess.stop` ends the
process it started (SIGTERM; the room stops its own processes), and kills what is left of
its process group (its session is its own) if that takes longer than a loaded machine would.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
START_TIMEOUT = 60.0  # seconds: migrations on PostgreSQL and N processes on a loaded machine


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive ports on 127.0.0.1 that are free now."""
    for _attempt in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((HOST, 0))
            first = int(sock.getsockname()[1])
        if first + count > 65535:
            continue
        try:
            with contextlib.ExitStack() as stack:
                for port in range(first, first + count):
                    probe = stack.enter_context(socket.socket(socket.AF_INET,
                                                              socket.SOCK_STREAM))
                    probe.bind((HOST, port))
        except OSError:
            continue
        return first
    raise RuntimeError(f"no {count} consecutive free ports on {HOST}")


class ServeProcess:
    """``belote serve --db DB [--processes N] --port P OPTIONS`` in a child process."""

    def __init__(self, db_url: str, processes: int = 1, options: Sequence[str] = ()) -> None:
        self.db_url = db_url
        self.processes = processes
        self.options = list(options)
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="belote-serve-"))
        self.log_path = self.folder / "serve.log"

    @property
    def ports(self) -> list[int]:
        return list(range(self.port, self.port + self.processes))

    def command(self) -> list[str]:
        several = ["--processes", str(self.processes)] if self.processes > 1 else []
        return [sys.executable, "-m", "belote", "serve", "--host", HOST,
                "--port", str(self.port), "--db", self.db_url, *several,
                "--bot-delay", "0.05", "--bot-workers", "0", "--pace", "0",
                "--takeover", "600", *self.options]

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def start(self) -> ServeProcess:
        self.port = free_ports(self.processes)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command(), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"})
        deadline = time.monotonic() + START_TIMEOUT
        waiting = set(self.ports)
        while waiting and time.monotonic() < deadline and self.process.poll() is None:
            for port in sorted(waiting):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://{HOST}:{port}/", timeout=2).status_code == 200:
                        waiting.discard(port)
            if waiting:
                time.sleep(0.1)
        if waiting:
            self.stop(remove=False)
            output = self.log()[-5000:]
            shutil.rmtree(self.folder, ignore_errors=True)
            raise RuntimeError(f"`belote serve` did not answer on {sorted(waiting)}; "
                               f"its log:\n{output}")
        return self

    def stop(self, remove: bool = True) -> None:
        try:
            self._end()
        finally:
            if remove:
                shutil.rmtree(self.folder, ignore_errors=True)

    def _end(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        # Room processes that outlived their parent: the group is the one started above.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

    def __enter__(self) -> ServeProcess:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
