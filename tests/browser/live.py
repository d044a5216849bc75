"""A real La Sala for the browser tests (and scripts/screenshots.py): server and Chromium.

:class:`LiveServer` runs ``create_app(Settings(...))`` under uvicorn in a child process (its
own warnings, threads and event loop stay out of pytest's), on 127.0.0.1 and a free port, with
a throwaway SQLite file.  :func:`launch_chromium` starts Debian's Chromium through Playwright
(``playwright install`` is never used); without it the caller fails with a message naming
``scripts/system-deps.sh``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
MISSING_CHROMIUM = (f"Chromium not found at {CHROMIUM}: run scripts/system-deps.sh (installs "
                    "Debian's chromium package) first; the browser tests never skip")
ROOT = Path(__file__).resolve().parents[2]

# Run in the child: the settings come as JSON in argv[1], the port in argv[2].
_SERVE = """
import json, sys
import uvicorn
from belote.server.app import create_app
from belote.server.config import Settings
values = json.loads(sys.argv[1])
uvicorn.run(create_app(Settings(**values)), host="127.0.0.1", port=int(sys.argv[2]),
            log_level="warning", ws_max_size=64 * 1024)
"""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """The room in a child process; use as a context manager (or :meth:`start`/:meth:`stop`)."""

    def __init__(self, **settings: Any) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="belote-browser-"))
        values: dict[str, Any] = {
            "db_url": f"sqlite:///{self.folder / 'sala.db'}", "bot_delay": 0.05,
            "bot_workers": 0, "takeover_seconds": 30.0,
            # The pages hear every move at once unless a test sets a pace (the room's
            # default pace is for people; test_pace.py checks it).
            "default_pace": 0.0,
            # The suite creates many tables from 127.0.0.1 (test_abuse.py checks the limits).
            "tables_per_address_burst": 1000, "waiting_tables_per_user": 1000,
            # Cheap password hashes, as in tests/server/conftest.py (test_loop_stalls.py
            # asks for the strong ones).
            "password_cost": "test",
        }
        values.update(settings)
        self.settings = values
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = self.folder / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> LiveServer:
        for _attempt in range(3):  # a free port may be taken before the child binds it
            self.port = free_port()
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-c", _SERVE, json.dumps(self.settings), str(self.port)],
                    cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                    env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"})
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                try:
                    with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                        if response.status == 200:
                            return self
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.05)
            self.stop(remove=False)
        raise RuntimeError(f"the room did not start; its log:\n{self.log()}")

    def favour(self) -> bool:
        """Run the room favoured, for a probe socket (tests/server/loop_probe.py says why);
        False where the priority cannot be raised."""
        from tests.server.loop_probe import favour

        return self.process is not None and favour(self.process.pid)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, remove: bool = True) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None
        if remove:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def chromium_missing() -> bool:
    return not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK))


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium, headless; raises RuntimeError naming system-deps.sh if absent."""
    if chromium_missing():
        raise RuntimeError(MISSING_CHROMIUM)
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_ARGS)
