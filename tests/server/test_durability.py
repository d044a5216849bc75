"""A process killed with SIGKILL mid-hand: every table resumes with nothing lost (issue 5, item 6;
issue 26, item 7).

The real program (`belote serve`) runs in subprocesses.  Two tables are played into the
middle of a hand, and a process is killed with SIGKILL (no shutdown code runs) while a
player's socket is open.  Each player's reconnection must then show exactly the view it had
before, at the same version, and the games go on; the stored logs have no gap.  Three ways:

- the room alone, on a SQLite file: killed, and started again on the same file;
- two processes on PostgreSQL, the one running the tables killed: one table was played
  straight, the other through the other process (relayed); the survivor takes both over
  and the players come back through it;
- two processes, the one that only relayed the players killed: the tables never stopped,
  and the players come back straight to the process running them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.server.cluster_room import ClusterRoom, Player, Process, frame, free_port, send
from tests.server.helpers import first_legal
from tests.server.room_under_test import ensure_running, read_db

NAMES = itertools.count(1)  # the shared processes keep a guest's name while it is signed in


@dataclass(frozen=True)
class Crash:
    victim: int  # the process killed
    played_via: tuple[int, int]  # the process each table is played through before
    back_via: int  # the process the players come back through
    start_again: bool  # the victim is started again before they come back


ALONE = Crash(victim=0, played_via=(0, 0), back_via=0, start_again=True)
OWNER_KILLED = Crash(victim=0, played_via=(0, 1), back_via=1, start_again=False)
RELAY_KILLED = Crash(victim=1, played_via=(1, 1), back_via=0, start_again=False)
TWO = [pytest.mark.postgres, pytest.mark.xdist_group("two_processes")]


@dataclass
class Room:
    processes: list[Process]
    db: str


@pytest.fixture(params=[
    pytest.param(ALONE, id="alone_restarted"),
    pytest.param(OWNER_KILLED, id="two_processes_owner_killed", marks=TWO),
    pytest.param(RELAY_KILLED, id="two_processes_relay_killed", marks=TWO),
])
def crash_room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Room, Crash]]:
    crash: Crash = request.param
    if crash is ALONE:
        db = f"sqlite:///{tmp_path / 'sala.db'}"
        alone = Process(db, free_port(), tmp_path / "room.log", [], cluster=False)
        alone.start()
        try:
            yield Room([alone], db), crash
        finally:
            alone.stop()
        return
    cluster: ClusterRoom = request.getfixturevalue("two_processes")
    ensure_running(cluster)
    failed = request.session.testsfailed
    try:
        yield Room(cluster.processes, cluster.db), crash
    finally:
        if request.session.testsfailed > failed:
            print(f"--- the processes' logs ---\n{cluster.logs()}")
        ensure_running(cluster)  # the shared processes, for the checks after this one


def play_until_mid_hand(ws: ClientConnection, my_cards: int) -> dict[str, Any]:
    """Act as seat 2 until it has played ``my_cards`` cards and it is its turn again."""
    played = 0
    while True:
        found = frame(ws)
        view = found["d"].get("view", {})
        if found["t"] not in ("sync", "update") or not view.get("started"):
            continue
        if view["belote"] and view["turn"] != 2:
            send(ws, "act", a=72)
            continue
        if view["turn"] != 2:
            continue
        if not view["choices"] and played >= my_cards and view["trick"]:
            return found
        action = first_legal(view)
        played += 0 if view["choices"] else 1
        send(ws, "act", a=action)


def runs_in(player: Player, process: Process, table_id: int) -> str:
    """The address of the process running the table, as ``process`` answers its page."""
    page = player.http.get(process.base + f"/table/{table_id}",
                           headers={"Origin": process.base})
    assert page.status_code == 200, page.text
    return str(page.headers.get("x-belote-owner", page.headers["x-belote-process"]))


def seat_and_play(ws: ClientConnection, my_cards: int) -> dict[str, Any]:
    send(ws, "sit", seat=2)
    for seat in (0, 1, 3):
        send(ws, "bot", seat=seat, level="normal")
    send(ws, "start")
    return play_until_mid_hand(ws, my_cards)


@pytest.mark.slow
def test_sigkill_mid_hand_resumes_every_table_exactly(crash_room: tuple[Room, Crash]) -> None:
    room, crash = crash_room
    processes = room.processes
    ada = Player(processes[0], f"Ada{next(NAMES)}")
    try:
        first, last = ada.new_table(processes[0]), ada.new_table(processes[0])
        via_first, via_last = (processes[n] for n in crash.played_via)
        before: dict[int, dict[str, Any]] = {}
        with ada.socket(via_first, first) as ws:
            before[first] = seat_and_play(ws, 2)
        with ada.socket(via_last, last) as ws:
            before[last] = seat_and_play(ws, 5)
            # Its player is at the table, its turn, when the process dies.
            processes[crash.victim].kill()
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=20)
        code = closed.value.rcvd.code if closed.value.rcvd is not None else None
        # A socket relayed by a survivor is told that the table moves (the page says so,
        # once, and connects again); one on the killed process just drops.
        assert code == (None if via_last is processes[crash.victim] else 1012), code
        if crash.start_again:
            processes[crash.victim].start()

        back = processes[crash.back_via]
        for table_id, old in before.items():
            if len(processes) > 1:  # the survivor runs it
                alive = next(p for n, p in enumerate(processes) if n != crash.victim)
                assert runs_in(ada, back, table_id) == f"127.0.0.1:{alive.port}"
            with ada.socket(back, table_id) as ws:
                sync = frame(ws)
                assert sync["t"] == "sync"
                assert sync["v"] == old["v"], "a stored change was lost"
                new = sync["d"]["view"]
                assert new == old["d"]["view"]
                assert new["trick"], "the trick in progress is still on the table"
                send(ws, "act", a=first_legal(new))
                update = frame(ws)
                assert update["t"] == "update" and update["v"] == old["v"] + 1
                assert len(update["d"]["view"]["hand"]) == len(new["hand"]) - 1
            versions = [e.version for e in read_db(room.db, lambda s, t=table_id: s.log(t))]
            assert versions == list(range(1, len(versions) + 1)), "a gap in the log"
            assert len(versions) >= old["v"] + 1
    finally:
        ada.http.close()
