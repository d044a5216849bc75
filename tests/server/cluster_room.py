"""A room of several real processes on one PostgreSQL database, for the tests (issue 26).

:class:`ClusterRoom` starts ``belote serve --cluster`` processes (each on its own port, as
``--processes N`` does), kills or stops any of them, and starts it again; a guest's
:class:`Player` reaches any process by HTTP and WebSocket.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from tests.server.postgres import fresh_database


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measured() -> list[str]:
    """``-m coverage run ...`` when this test run measures coverage: the room's processes
    are measured too, into data files the run combines at its end (the cluster's code runs
    only there).  A process killed with SIGKILL leaves no data; one stopped does."""
    current = sys.modules["coverage"].Coverage.current() if "coverage" in sys.modules else None
    if current is None:
        return []
    return ["-m", "coverage", "run", "--parallel-mode", "--source=belote",
            f"--data-file={current.config.data_file}"]


class Process:
    """``belote serve --cluster`` on ``port`` (``cluster=False``: the room alone, on any
    database)."""

    def __init__(self, db: str, port: int, log: Path, extra: list[str],
                 cluster: bool = True) -> None:
        self.db = db
        self.cluster = cluster
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        self.extra = extra
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self, wait: bool = True) -> None:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                [sys.executable, *measured(), "-m", "belote", "serve",
                 *(["--cluster"] * self.cluster),
                 "--port", str(self.port), "--db", self.db, "--bot-delay", "0.02",
                 "--bot-workers", "0", "--takeover", "600", "--insecure-cookies", *self.extra],
                stdout=out, stderr=subprocess.STDOUT)
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.popen is not None and self.popen.poll() is None, self.tail()
            try:
                with httpx.Client(timeout=2) as client:
                    if client.get(self.base + "/").status_code == 200:
                        return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError(f"process {self.port} did not start\n{self.tail()}")

    def kill(self) -> None:
        assert self.popen is not None
        os.kill(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(30)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(10)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


class ClusterRoom:
    def __init__(self, db: str, folder: Path, count: int, extra: list[str] | None = None
                 ) -> None:
        self.db = db
        self.processes = [Process(db, free_port(), folder / f"room{n}.log", extra or [])
                          for n in range(count)]
        self.players: list[Player] = []

    def player(self, process: Process, name: str) -> Player:
        """A guest signed in on ``process`` (closed with the room)."""
        self.players.append(Player(process, name))
        return self.players[-1]

    def start(self) -> None:
        # The first creates the schema alone (the migrations), then the others start.
        self.processes[0].start()
        for process in self.processes[1:]:
            process.start(wait=False)
        for process in self.processes[1:]:
            process.wait_ready()

    def stop(self) -> None:
        for player in self.players:
            player.http.close()
        for process in self.processes:
            process.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {p.port}\n{p.tail()}" for p in self.processes)


@pytest.fixture
def cluster_room(postgres_url: str, tmp_path: Path) -> Iterator[ClusterRoom]:
    room = ClusterRoom(fresh_database(postgres_url), tmp_path, 2)
    room.start()
    try:
        yield room
    finally:
        room.stop()


class Player:
    """A guest, signed in on one process (the session is the room's: any process knows it)."""

    def __init__(self, process: Process, name: str) -> None:
        self.http = httpx.Client(base_url=process.base, headers={"Origin": process.base},
                                 timeout=20)
        answer = self.http.post("/guest", data={"name": name})
        assert answer.status_code in (200, 303), answer.text
        self.cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    def new_table(self, process: Process, preset: str = "classic", target: str = "") -> int:
        answer = self.http.post(process.base + "/tables",
                                data={"preset": preset, "flags": "", "target": target},
                                headers={"Origin": process.base}, follow_redirects=False)
        assert answer.status_code == 303, answer.text
        return int(answer.headers["location"].rsplit("/", 1)[1])

    def socket(self, process: Process, table_id: int) -> ClientConnection:
        return ws_connect(f"ws://127.0.0.1:{process.port}/ws/table/{table_id}",
                          additional_headers={"Origin": process.base, "Cookie": self.cookie},
                          open_timeout=20)


def frame(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return found


def send(ws: ClientConnection, kind: str, **data: Any) -> None:
    ws.send(json.dumps({"t": kind, "d": data}))
