"""Issue 21, tournament day: what a real tournament found (each test named after a finding).

Identity by seat code, never by a typed name; the scorer's undo stops at the result; a
fixed-deals concours takes real-card results; the substitution in the console; both teams'
declarations typed; a big draw holds the event loop no longer than 50 ms; limits; the CSV
export neutralises formulas and is the organisers'; names through the chat's text checks.
"""

from __future__ import annotations

import asyncio
import csv
import io
import threading
import time
from typing import Any

from starlette.testclient import TestClient

from belote.tournament.events import Event
from tests.server.helpers import Identities
from tests.server.test_tournament_http import create, enter_hand, post, register, tournament

STALL_LIMIT = 0.050  # issue 21: "No request can hold the event loop more than 50 ms"
PROBE_PERIOD = 0.002


def pinasca(people: Identities, **changes: str) -> int:
    """Two neighbourhoods (four pairs), round 1 drawn: games 1 and 2."""
    org = register(people, "Organiser")
    tid = create(org, **{"target": "1500", **changes})
    for n in range(2):
        post(people.use("Organiser"), f"/tournaments/{tid}/do/register", club=f"Q{n}",
             a_player1=f"Anna{n}", a_player2=f"Bruno{n}", b_player1=f"Carla{n}",
             b_player2=f"Dino{n}")
    post(people.use("Organiser"), f"/tournaments/{tid}/do/draw")
    return tid


class LoopProbe:
    """A task in the room's own event loop that sleeps ``PROBE_PERIOD`` again and again and
    records how late each wake-up is: the longest lateness is the longest time the loop was
    held by something else (a request's work on the loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.lateness: list[float] = []
        self._stop = threading.Event()
        self._started = threading.Event()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        self._started.set()
        while not self._stop.is_set():
            before = loop.time()
            await asyncio.sleep(PROBE_PERIOD)
            self.lateness.append(loop.time() - before - PROBE_PERIOD)

    def __enter__(self) -> LoopProbe:
        portal = self.client.portal  # type: ignore[attr-defined]
        self._future = portal.start_task_soon(self._run)
        assert self._started.wait(5)
        time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        time.sleep(0.05)
        self._stop.set()
        self._future.result(5)

    @property
    def worst(self) -> float:
        return max(self.lateness, default=0.0)


def melee_of(client: TestClient, people: Identities, players: int) -> int:
    """A mêlée with ``players`` checked-in players, registered in one change (as the CLI's
    CSV does), by the account "Organiser" (registered already)."""
    org = people.use("Organiser")
    tid = create(org, name="Mêlée", format="melee", preset="classic", rounds="3",
                 target="1000")
    service = client.app.state.room.tournaments.service  # type: ignore[attr-defined]
    entrants = [{"name": f"Player {n}", "players": [f"Player {n}"], "checked_in": True}
                for n in range(players)]
    client.portal.call(service.change, tid, "registered",  # type: ignore[attr-defined]
                       {"entrants": entrants}, "Organiser")
    return tid


def least_worst_stall(client: TestClient, action: Any, attempts: int = 3,
                      prepare: Any = None) -> float:
    """The least of up to ``attempts`` runs' worst loop stall (each run under a fresh probe,
    stopping at the first within the limit): a stall that the request causes shows in every
    run, a busy machine's noise (two cores shared by many processes) rarely in all."""
    worst = float("inf")
    for attempt in range(attempts):
        ready = prepare() if prepare is not None else None
        with LoopProbe(client) as probe:
            action(ready)
        worst = min(worst, probe.worst)
        if worst <= STALL_LIMIT:
            break
    return worst


# --------------------------------------------------------------------------- item 7
def test_a_melee_of_1024_players_draw_does_not_freeze_the_room(client: TestClient) -> None:
    """Issue 21: "a mêlée of 1,024 players, Draw (pairing and the projection rewrite run on
    the event loop)" froze every table for 7 s.  A probe in the room's loop measures it."""
    people = Identities(client)
    org = register(people, "Organiser")
    tids: list[int] = []

    def prepare() -> int:
        tid = melee_of(client, people, 1024)  # a fresh tournament: a round draws once
        tids.append(tid)
        return tid

    def draw(tid: int) -> None:
        started = time.monotonic()
        response = org.post(f"/tournaments/{tid}/do/draw", follow_redirects=False)
        print(f"draw of 1,024: {time.monotonic() - started:.2f} s")
        assert response.status_code == 303

    stall = least_worst_stall(client, draw, prepare=prepare)
    print(f"draw of 1,024: worst loop stall {stall * 1000:.1f} ms")
    assert stall <= STALL_LIMIT, stall
    t = tournament(client, tids[-1])
    assert t.current is not None and len(t.current.games) == 256
    # The console and the standings of such a tournament do not hold the loop either.
    for path in (f"/tournaments/{tids[-1]}", f"/tournaments/{tids[-1]}/standings"):
        stall = least_worst_stall(client, lambda _: org.get(path))
        print(f"{path}: worst loop stall {stall * 1000:.1f} ms")
        assert stall <= STALL_LIMIT, (path, stall)
