"""A rolling restart of every process loses no event and no table (issue 26, item 4).

The real program, ``belote serve --processes 2`` (its supervisor and two room processes on
one PostgreSQL database), while tables of bots play and a scripted player plays at a table
of her own.  SIGHUP to the supervisor restarts the processes one at a time: each stopped
(its tables' sockets told that the tables move, its leases freed), the other taking its
tables over, then started again.  Afterwards:

- every table's stored log has no gap (versions 1..n), none is broken, each is open and
  running somewhere (its bots play on) or finished;
- the player's socket was told the table moved each time it was (close code 1012, never a
  silent drop), she came back (through either process) to a sync at the version she had
  seen or later, and played on;
- nothing she was sent is contradicted by the log: the hand of every frame she got is the
  hand the stored log gives her seat at that frame's version.
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from belote.engine.state import Game
from belote.notation import parse_card
from belote.rules import Rules
from belote.server.persistence import LogEntry
from tests.server.helpers import first_legal, my_turn
from tests.server.postgres import fresh_database
from tests.server.room_under_test import read_db, stored_rules
from tests.server.serve_process import HOST, ServeProcess

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

SEAT = 2
ROLLED_WITHIN = 120.0  # seconds: two processes stopped and started on a loaded machine
BACK_WITHIN = 60.0  # seconds the player keeps trying to reconnect before the test fails
MOVES_AFTER = 3  # moves the player makes after the restart, to show the game goes on


@pytest.fixture
def room(postgres_url: str) -> Iterator[ServeProcess]:
    with ServeProcess(fresh_database(postgres_url), processes=2,
                      options=["--insecure-cookies"]) as serving:
        try:
            yield serving
        finally:
            print(f"--- the room's log ---\n{serving.log()[-6000:]}")  # shown on a failure


def base(port: int) -> str:
    return f"http://{HOST}:{port}"


def signed_in(port: int, name: str) -> httpx.Client:
    http = httpx.Client(timeout=30, headers={"Origin": base(port)})
    answer = http.post(base(port) + "/guest", data={"name": name})
    assert answer.status_code in (200, 303), answer.text
    return http


def new_table(http: httpx.Client, port: int, target: int) -> int:
    answer = http.post(base(port) + "/tables", headers={"Origin": base(port)},
                       data={"preset": "classic", "flags": "", "target": str(target)})
    assert answer.status_code == 303, answer.text
    return int(answer.headers["location"].rsplit("/", 1)[1])


def socket(http: httpx.Client, port: int, table_id: int) -> ClientConnection:
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    return ws_connect(f"ws://{HOST}:{port}/ws/table/{table_id}", open_timeout=10,
                      additional_headers={"Origin": base(port), "Cookie": cookie})


def send(ws: ClientConnection, kind: str, **data: Any) -> None:
    ws.send(json.dumps({"t": kind, "d": data}))


class Player(threading.Thread):
    """Bea at her table: she plays each turn, and when her socket closes she connects again
    through the other process, then the first, and so on, until one answers."""

    def __init__(self, http: httpx.Client, ports: list[int], table_id: int) -> None:
        super().__init__(name="bea", daemon=True)
        self.http = http
        self.ports = ports
        self.table_id = table_id
        self.frames: list[dict[str, Any]] = []  # every sync and update she got
        self.closes: list[int | None] = []  # the close code of each socket that ended
        self.syncs: list[tuple[int, int]] = []  # (the version she had seen, the sync's)
        self.moves = 0  # her actions the table took (a newer version came after each)
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as error:  # raised in the test by check()
            self.error = error

    def _back(self, n: int) -> tuple[ClientConnection, dict[str, Any]]:
        """A socket through process ``n`` (or the next, and so on), and its first frame."""
        deadline = time.monotonic() + BACK_WITHIN
        while True:
            try:
                ws = socket(self.http, self.ports[n % len(self.ports)], self.table_id)
                ws.__enter__()  # closed by _play (websockets wants a context manager)
                first: dict[str, Any] = json.loads(ws.recv(timeout=30))
                return ws, first
            except ConnectionClosed as closed:  # accepted, then closed: the table moves
                self.closes.append(closed.rcvd.code if closed.rcvd is not None else None)
                ws.close()
            except (OSError, TimeoutError, WebSocketException):
                pass  # that process is stopped, or still starting
            assert time.monotonic() < deadline, f"no way back to the table in {BACK_WITHIN} s"
            n += 1
            time.sleep(0.2)

    def _play(self) -> None:
        n = 0
        ws, found = self._back(n)
        acted_at = -1  # the version at which she last acted
        while not self.stop.is_set():
            if not found:
                try:
                    found = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                except ConnectionClosed as closed:
                    self.closes.append(closed.rcvd.code if closed.rcvd is not None else None)
                    ws.close()
                    n += 1  # the other process first: this one may be stopping
                    ws, found = self._back(n)
                    seen = self.frames[-1]["v"] if self.frames else 0
                    assert found["t"] == "sync", found["t"]
                    self.syncs.append((seen, found["v"]))
                    acted_at = -1  # an action sent into the closing socket is sent again
            frame, found = found, {}
            if frame["t"] not in ("sync", "update"):
                continue
            if 0 <= acted_at < frame["v"]:
                self.moves += 1
                acted_at = -1
            self.frames.append(frame)
            view = frame["d"]["view"]
            if view.get("finished") or not my_turn(frame) or acted_at == frame["v"]:
                continue
            acted_at = frame["v"]
            belote = view["belote"] and view["turn"] != view["seat"]
            with contextlib.suppress(ConnectionClosed):  # the next recv says it closed
                send(ws, "act", a=72 if belote else first_legal(view))
        ws.close()

    def check(self) -> bool:
        if self.error is not None:
            raise self.error
        return False


def hands_by_version(entries: list[LogEntry], rules: Rules, seat: int) -> dict[int, int]:
    """The seat's hand (a card mask) after each version of the table's log."""
    game: Game | None = None
    hands: dict[int, int] = {}
    for entry in entries:
        if entry.kind == "start":
            game = Game(rules, entry.data["first_dealer"])
        elif entry.kind == "deal" and game is not None:
            game.deal(entry.data["deck"])
        elif entry.kind == "act" and game is not None:
            game.apply(entry.data["action"], entry.data["seat"])
        hands[entry.version] = game.hands[seat] if game is not None else 0
    return hands


def play_by_bots(ws: ClientConnection) -> None:
    """Sit, seat three bots, start, and stand: a bot plays the seat left (a host must sit to
    seat bots)."""
    send(ws, "sit", seat=0)
    for seat in (1, 2, 3):
        send(ws, "bot", seat=seat, level="normal")
    send(ws, "start")
    send(ws, "stand")
    while True:
        view = json.loads(ws.recv(timeout=30))["d"].get("view", {})
        if view.get("started") and view["seats"][0]["standin"]:
            return


def wait_for(condition: Any, within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {within} s"
        time.sleep(0.2)


def test_a_rolling_restart_of_every_process_loses_no_event_and_no_table(
        room: ServeProcess) -> None:
    first = room.ports[0]
    ada = signed_in(first, "Ada")
    bots = []
    for n in range(4):  # tables of bots alone, on both processes
        port = room.ports[n % 2]
        table_id = new_table(ada, port, 2000)
        with socket(ada, port, table_id) as ws:
            play_by_bots(ws)
        bots.append(table_id)
    bea = signed_in(first, "Bea")
    hers = new_table(bea, first, 2000)
    with socket(bea, first, hers) as ws:
        send(ws, "sit", seat=SEAT)
        for seat in (0, 1, 3):
            send(ws, "bot", seat=seat, level="normal")
        send(ws, "start")
        while not json.loads(ws.recv(timeout=30))["d"].get("view", {}).get("started"):
            pass
    player = Player(bea, room.ports, hers)
    player.start()
    try:
        wait_for(lambda: player.check() or player.moves >= 2, 60, "Bea's first moves")

        assert room.process is not None
        room.process.send_signal(signal.SIGHUP)
        wait_for(lambda: "rolling restart done" in room.log(), ROLLED_WITHIN,
                 "the rolling restart")
        moves = player.moves
        wait_for(lambda: player.check() or player.moves >= moves + MOVES_AFTER, 60,
                 "Bea's moves after the restart")
        rolled = {t: len(read_db(room.db_url, lambda s, t=t: s.log(t))) for t in bots}
        for table_id in bots:  # the bots play on wherever their table went
            wait_for(lambda t=table_id: finished(room, t) or len(read_db(
                room.db_url, lambda s, t=t: s.log(t))) > rolled[t], 30,
                f"table {table_id} after the restart")
    finally:
        player.stop.set()
        player.join(30)
        ada.close()
        bea.close()
    player.check()

    assert "starting it again" not in room.log(), "a process exited during the restart"
    # Each process was stopped once, and Bea's table moved each time: she was told so.
    assert len(player.closes) >= 2 and set(player.closes) == {1012}, player.closes
    assert all(synced >= seen for seen, synced in player.syncs), player.syncs
    for table_id in [*bots, hers]:
        entries = read_db(room.db_url, lambda s, t=table_id: s.log(t))
        versions = [e.version for e in entries]
        assert versions == list(range(1, len(versions) + 1)), f"table {table_id}: a gap"
        row = read_db(room.db_url, lambda s, t=table_id: s.table(t))
        assert row is not None and row.status in ("open", "finished"), (table_id, row)
    entries = read_db(room.db_url, lambda s: s.log(hers))
    hands = hands_by_version(entries, stored_rules(room.db_url, hers), SEAT)
    for found in player.frames:
        assert found["v"] <= entries[-1].version, "a version she saw is not stored"
        view = found["d"]["view"]
        if view.get("started") and view.get("hand") is not None:
            shown = sum(1 << parse_card(card["code"]) for card in view["hand"])
            assert shown == hands[found["v"]], (found["v"], view["hand"])


def finished(room: ServeProcess, table_id: int) -> bool:
    row = read_db(room.db_url, lambda s: s.table(table_id))
    return row is not None and row.status == "finished"
