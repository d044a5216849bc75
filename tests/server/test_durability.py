"""A server killed with SIGKILL mid-hand resumes every table with nothing lost (issue 5, item 6).

The real program (`belote serve`) runs in a subprocess on a SQLite file.  Two tables are
played into the middle of a hand; the server is killed with SIGKILL (no shutdown code runs),
started again on the same file, and each player's reconnection must show exactly the view
it had before, at the same version; then the games go on.
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

from tests.server.helpers import first_legal


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path, port: int) -> None:
        self.db = db
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "belote", "serve", "--port", str(self.port),
             "--db", f"sqlite:///{self.db}", "--bot-delay", "0.02", "--bot-workers", "0",
             "--takeover", "600", "--insecure-cookies"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def socket(self, cookie: str, table_id: int) -> ClientConnection:
        return ws_connect(f"ws://127.0.0.1:{self.port}/ws/table/{table_id}",
                          additional_headers={"Origin": self.base, "Cookie": cookie})


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "sala.db", _free_port())
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.process.terminate()
        server.process.wait(10)


def _frame(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return frame


def _send(ws: ClientConnection, kind: str, **data: Any) -> None:
    ws.send(json.dumps({"t": kind, "d": data}))


def _play_until_mid_hand(ws: ClientConnection, my_cards: int) -> dict[str, Any]:
    """Act as seat 2 until it has played ``my_cards`` cards and it is its turn again."""
    played = 0
    while True:
        frame = _frame(ws)
        view = frame["d"].get("view", {})
        if frame["t"] not in ("sync", "update") or not view.get("started"):
            continue
        if view["belote"] and view["turn"] != 2:
            _send(ws, "act", a=72)
            continue
        if view["turn"] != 2:
            continue
        if not view["choices"] and played >= my_cards and view["trick"]:
            return frame
        action = first_legal(view)
        played += 0 if view["choices"] else 1
        _send(ws, "act", a=action)


@pytest.mark.slow
def test_sigkill_mid_hand_then_restart_resumes_every_table(server: Server) -> None:
    http = httpx.Client(base_url=server.base, headers={"Origin": server.base})
    http.post("/guest", data={"name": "Ada"})
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    before: dict[int, dict[str, Any]] = {}
    for my_cards in (2, 5):
        response = http.post("/tables", data={"preset": "classic", "flags": "", "target": ""},
                             follow_redirects=False)
        table_id = int(response.headers["location"].rsplit("/", 1)[1])
        with server.socket(cookie, table_id) as ws:
            _send(ws, "sit", seat=2)
            for seat in (0, 1, 3):
                _send(ws, "bot", seat=seat, level="normal")
            _send(ws, "start")
            before[table_id] = _play_until_mid_hand(ws, my_cards)
    assert len(before) == 2

    server.kill()
    server.start()

    for table_id, frame in before.items():
        with server.socket(cookie, table_id) as ws:
            sync = _frame(ws)
            assert sync["t"] == "sync"
            assert sync["v"] == frame["v"], "a stored change was lost"
            old, new = frame["d"]["view"], sync["d"]["view"]
            assert new == old
            assert new["trick"], "the trick in progress is still on the table"
            _send(ws, "act", a=first_legal(new))
            update = _frame(ws)
            assert update["t"] == "update" and update["v"] == frame["v"] + 1
            assert len(update["d"]["view"]["hand"]) == len(new["hand"]) - 1
    http.close()
