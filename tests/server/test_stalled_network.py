"""Issue 21, "a stalled network is never noticed": the room on a path that stops passing bytes.

A real ``belote serve`` app (uvicorn, in a child process) is reached through
:class:`~tests.server.stall_proxy.StallProxy`, which can hold every byte without closing
anything, the way a dead Wi-Fi or a suspended mobile link does.  The player's socket goes
through the proxy; a spectator watches directly, to see what the room believes.

- the server lets a silent client go (its heartbeat timeout), counts and logs it, and the seat
  is shown away, so the takeover starts;
- the server beats a ``?heartbeat=1`` socket; a client that never pings but answers the beats
  (a hidden tab, whose timers are slowed) keeps its seat, and one that answers nothing goes.
  Ada's socket here answers the beats whenever the test reads it (:func:`frame`), as the page
  does, so a loaded machine never lets it go before the test stalls it;
- a move sent into the stall is delivered and confirmed exactly once when the client sends it
  again: whether it was lost on the way or only its answer was;
- a move held through the stall that the game has moved past is refused, naming the move;
- the player who comes back hears, once, one sentence of what the bot played for them.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from belote.rules import find_preset
from belote.server import protocol as P
from belote.server.view import away_text
from tests.browser.live import LiveServer
from tests.server import helpers
from tests.server.helpers import first_legal
from tests.server.stall_proxy import StallProxy

HEARTBEAT_TIMEOUT = 2.0  # the server's, in these tests (the room's default is 15 s)
HEARTBEAT_INTERVAL = 0.4  # the server's beats, here (the room's default is 5 s)


class Room:
    """A live room, a stalling proxy in front of it, and a guest who plays at seat 2."""

    def __init__(self, **settings: Any) -> None:
        settings = {"heartbeat_timeout": HEARTBEAT_TIMEOUT,
                    "heartbeat_interval": HEARTBEAT_INTERVAL, **settings}
        self.server = LiveServer(secure_cookies=False, **settings).start()
        self.proxy = StallProxy(self.server.port).start()
        self.http = httpx.Client(base_url=self.server.url, headers={"Origin": self.server.url},
                                 timeout=20)
        self.http.post("/guest", data={"name": "Ada"})
        self.cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        response = self.http.post("/tables", data={"preset": "classic", "flags": "",
                                                   "target": ""}, follow_redirects=False)
        self.table = int(response.headers["location"].rsplit("/", 1)[1])

    def player(self, direct: bool = False) -> ClientConnection:
        """Ada's socket, through the proxy (``direct``: straight to the server), opened as the
        table page opens it (``?heartbeat=1``: the server beats it; :func:`frame` answers)."""
        base = self.server.url if direct else self.proxy.url()
        return ws_connect(f"ws{base.removeprefix('http')}/ws/table/{self.table}?heartbeat=1",
                          additional_headers={"Origin": base, "Cookie": self.cookie},
                          open_timeout=10, legacy=True)

    def spectator(self) -> ClientConnection:
        """Anyone watching, straight to the server (not through the proxy)."""
        return ws_connect(f"ws://127.0.0.1:{self.server.port}/ws/table/{self.table}",
                          additional_headers={"Origin": self.server.url}, legacy=True)

    def log_rows(self) -> list[tuple[int, str, dict[str, Any]]]:
        db = sqlite3.connect(self.server.folder / "sala.db")
        try:
            rows = db.execute("SELECT version, kind, data FROM table_log WHERE table_id = ? "
                              "ORDER BY version", (self.table,)).fetchall()
        finally:
            db.close()
        return [(int(v), str(k), json.loads(d)) for v, k, d in rows]

    def close(self) -> None:
        self.http.close()
        self.proxy.close()
        self.server.stop()


@pytest.fixture
def room_with() -> Iterator[Callable[..., Room]]:
    rooms: list[Room] = []

    def make(**settings: Any) -> Room:
        rooms.append(Room(**settings))
        return rooms[-1]

    yield make
    for room in rooms:
        print(f"--- the room's log ---\n{room.server.log()[-4000:]}")  # shown if it failed
        room.close()


def frame(ws: ClientConnection, timeout: float = 10.0, answer: bool = True) -> dict[str, Any]:
    """The next frame; the server's beats are answered at once, as the page answers them
    (``answer=False``: a client that answers nothing), and never returned."""
    deadline = time.monotonic() + timeout
    while True:
        data: dict[str, Any] = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        if data["t"] != "beat":
            return data
        if answer:
            ws.send(json.dumps({"t": "beat", "d": data["d"]}))


def until(ws: ClientConnection, predicate: Callable[[dict[str, Any]], bool],
          timeout: float = 10.0, what: str = "frame") -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {what} within {timeout} s")
        try:
            found = frame(ws, left)
        except TimeoutError:
            raise AssertionError(f"no {what} within {timeout} s") from None
        if predicate(found):
            return found


def no_frame(ws: ClientConnection, predicate: Callable[[dict[str, Any]], bool],
             seconds: float) -> None:
    """Nothing matching ``predicate`` comes within ``seconds``."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            found = frame(ws, left)
        except TimeoutError:
            return
        assert not predicate(found), found


def send(ws: ClientConnection, kind: str, version: int | None = None, **data: Any) -> None:
    message: dict[str, Any] = {"t": kind, "d": data}
    if version is not None:
        message["v"] = version
    ws.send(json.dumps(message))


def view_of(found: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = found["d"].get("view", {})
    return view


def my_turn(found: dict[str, Any]) -> bool:
    view = view_of(found)
    return (found["t"] in ("sync", "update") and bool(view.get("started"))
            and view.get("turn") == 2 and not view.get("finished"))


def seated_with_bots(room: Room, start: bool = True) -> ClientConnection:
    ws = room.player()
    assert frame(ws)["t"] == "sync"
    send(ws, "sit", seat=2)
    for seat in (0, 1, 3):
        send(ws, "bot", seat=seat, level="normal")
    if start:
        send(ws, "start")
    send(ws, "ping", n=1)  # this client keeps a heartbeat (the table page does)
    until(ws, lambda f: f["t"] == "pong", what="pong")
    return ws


@pytest.mark.slow
def test_stalled_network_the_server_lets_a_silent_client_go_and_shows_the_seat_away(
        room_with: Callable[..., Room]) -> None:
    room = room_with(takeover_seconds=600.0)
    ws = seated_with_bots(room, start=False)
    watcher = room.spectator()
    until(watcher, lambda f: f["t"] == "sync")
    # Ada's silence is timed from her last frame: one just now, so that the watcher's start
    # (slow on a busy machine) is not counted in what the stall is measured against
    send(ws, "ping", n=2)
    until(ws, lambda f: f["t"] == "pong", what="pong")
    stalled_at = time.monotonic()
    room.proxy.stall()  # nothing passes, nothing is closed
    seen = until(watcher, lambda f: view_of(f).get("seats", [{}] * 4)[2].get("away") is True,
                 timeout=HEARTBEAT_TIMEOUT + 4, what="the seat shown away")
    waited = time.monotonic() - stalled_at
    assert HEARTBEAT_TIMEOUT - 0.5 <= waited <= HEARTBEAT_TIMEOUT + 4, waited
    assert view_of(seen)["seats"][2]["name"] == "Ada"
    # Counted and logged, with whose socket it was.
    log = room.server.log()
    assert "socket of Ada stalled: nothing heard for 2 s; let go (1 stalled so far)" in log, log
    room.proxy.sever()
    ws.close()
    watcher.close()


def listen(ws: ClientConnection, seconds: float, answer: bool) -> int:
    """Read Ada's socket for ``seconds`` without ever pinging; the server's beats are
    answered (``answer``) or not.  Returns how many beats came."""
    beats = 0
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            found = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            break
        except ConnectionClosed:
            break
        if found["t"] == "beat":
            beats += 1
            if answer:
                ws.send(json.dumps({"t": "beat", "d": found["d"]}))
    return beats


def seated_silently(room: Room) -> ClientConnection:
    """Ada seated among bots, on a socket opened as the page opens it, that never pings."""
    ws = room.player(direct=True)
    assert frame(ws, answer=False)["t"] == "sync"
    send(ws, "sit", seat=2)
    for seat in (0, 1, 3):
        send(ws, "bot", seat=seat, level="normal")
    return ws


@pytest.mark.slow
def test_a_hidden_tab_loses_its_seat_to_a_bot_a_client_that_only_answers_the_servers_beats_keeps_it(
        room_with: Callable[..., Room]) -> None:
    """Review of issue 21: the room let a socket go when the page's own pings stopped, and a
    hidden tab's timers (so its pings) may come once a minute (Chrome's intensive throttling).
    The server now beats the socket and the page answers from its message handler (never
    slowed): a client that never pings but answers the beats keeps its seat."""
    room = room_with(takeover_seconds=0.5)
    ws = seated_silently(room)
    watcher = room.spectator()
    assert frame(watcher)["t"] == "sync"
    beats = listen(ws, 3 * HEARTBEAT_TIMEOUT, answer=True)
    assert beats >= 3 * HEARTBEAT_TIMEOUT / HEARTBEAT_INTERVAL / 2, beats
    no_frame(watcher, lambda f: any(s.get("away") or s.get("standin")
                                    for s in view_of(f).get("seats", [])), 0.5)
    assert "stalled" not in room.server.log()
    send(ws, "hello")  # still open, still heard
    assert until(ws, lambda f: f["t"] == "sync", what="a sync")["d"]["view"]["seat"] == 2
    ws.close()
    watcher.close()


@pytest.mark.slow
def test_a_hidden_tab_loses_its_seat_to_a_bot_a_client_that_answers_nothing_is_let_go(
        room_with: Callable[..., Room]) -> None:
    room = room_with(takeover_seconds=600.0)
    ws = seated_silently(room)
    watcher = room.spectator()
    assert frame(watcher)["t"] == "sync"
    beats = listen(ws, HEARTBEAT_TIMEOUT + 1.5, answer=False)
    assert beats >= 2, beats  # beaten, and never answered
    until(watcher, lambda f: view_of(f).get("seats", [{}] * 4)[2].get("away") is True,
          timeout=4, what="the seat shown away")
    assert "socket of Ada stalled: nothing heard for 2 s" in room.server.log()
    ws.close()
    watcher.close()


@pytest.mark.parametrize("lost", ["the move", "its answer"])
def test_stalled_network_a_move_sent_into_the_stall_is_confirmed_once_after_reconnecting(
        room_with: Callable[..., Room], lost: str) -> None:
    room = room_with(takeover_seconds=600.0, bot_delay=0.05)
    ws = seated_with_bots(room)
    turn = until(ws, my_turn, what="Ada's turn")
    view, version = view_of(turn), turn["v"]
    action = first_legal(view)
    if lost == "the move":
        room.proxy.stall()  # the move waits in the stall, and the path dies with it
    else:
        room.proxy.stall(up=False)  # the move arrives; the answers wait and die
    send(ws, "act", version, a=action, m=4242)
    if lost == "its answer":
        watcher = room.spectator()
        until(watcher, lambda f: f["v"] > version, what="the move played")
        watcher.close()
    room.proxy.sever()
    room.proxy.resume()
    # The page connects again and sends its unanswered move again, as it was chosen.
    ws2 = room.player()
    sync = frame(ws2)
    assert sync["t"] == "sync"
    send(ws2, "act", version, a=action, m=4242)
    done = until(ws2, lambda f: f["t"] in ("done", "error"), what="an answer to the move")
    assert done["t"] == "done", done
    assert done["d"] == {"move": 4242, "already": lost == "its answer"}
    # Played once: one stored action of Ada's at the version after the one she saw.
    acts = [(v, d) for v, kind, d in room.log_rows() if kind == "act" and v > version]
    assert acts[0] == (version + 1, {"seat": 2, "action": action, "move": 4242})
    assert sum(1 for v, d in acts if d["seat"] == 2 and v <= done["v"]) == 1, acts
    ws.close()
    ws2.close()


@pytest.mark.slow
def test_stalled_network_a_move_played_just_before_a_restart_is_confirmed_when_sent_again(
        room_with: Callable[..., Room]) -> None:
    room = room_with(takeover_seconds=600.0, bot_delay=0.05)
    ws = seated_with_bots(room)
    turn = until(ws, my_turn, what="Ada's turn")
    version, action = turn["v"], first_legal(view_of(turn))
    room.proxy.stall(up=False)  # the move arrives, its answers do not
    send(ws, "act", version, a=action, m=31337)
    watcher = room.spectator()
    until(watcher, lambda f: f["v"] > version, what="the move played")
    watcher.close()
    room.proxy.sever()
    room.server.stop(remove=False)  # the room restarts from its log
    room.server.start()
    ws2 = room.player(direct=True)
    assert frame(ws2)["t"] == "sync"
    send(ws2, "act", version, a=action, m=31337)
    done = until(ws2, lambda f: f["t"] in ("done", "error"), what="an answer to the move")
    assert done["d"] == {"move": 31337, "already": True}, done
    ws2.close()
    ws.close()


@pytest.mark.slow
def test_stalled_network_a_held_move_is_refused_by_name_and_the_player_hears_what_the_bot_played(
        room_with: Callable[..., Room]) -> None:
    room = room_with(takeover_seconds=0.5, bot_delay=0.3)
    ws = seated_with_bots(room)
    turn = until(ws, my_turn, what="Ada's turn")
    version = turn["v"]
    action = first_legal(view_of(turn))
    watcher = room.spectator()
    until(watcher, lambda f: f["t"] == "sync")
    room.proxy.stall()
    send(ws, "act", version, a=action, m=77)  # pressed during the stall: held in the path
    # The server lets the silent socket go, a bot takes the seat and plays for Ada.
    until(watcher, lambda f: view_of(f).get("seats", [{}] * 4)[2].get("standin") is True,
          timeout=HEARTBEAT_TIMEOUT + 5, what="the bot standing in")
    until(watcher, lambda f: f["v"] > version + 1 and view_of(f).get("turn") != 2,
          timeout=10, what="the bot's move for Ada")
    room.proxy.sever()
    room.proxy.resume()

    ws2 = room.player()
    sync = frame(ws2)
    assert sync["t"] == "sync"
    away = [e for e in sync["d"]["events"] if e["kind"] == "away_summary"]
    # What the bot played for Ada: her stored actions while the bot stood in.
    rows = room.log_rows()
    standin_from = next(v for v, kind, d in rows if kind == "seats" and d["seats"][2]["standin"])
    back_at = max(v for v, kind, d in rows if kind == "seats" and not d["seats"][2]["standin"])
    played = [d["action"] for v, kind, d in rows
              if kind == "act" and d["seat"] == 2 and standin_from < v < back_at]
    assert played, "the bot played nothing for Ada"
    assert away == [{"kind": "away_summary",
                     "text": away_text(played, "en", find_preset("classic"))}], away
    assert away[0]["text"].startswith("While you were away the bot played for you: ")
    # The held move, sent again, is refused with its id and a reason (never in silence).
    send(ws2, "act", version, a=action, m=77)
    refused = until(ws2, lambda f: f["t"] in ("done", "error"), what="an answer to the move")
    assert refused["t"] == "error" and refused["d"]["move"] == 77, refused
    assert refused["d"]["code"] in ("stale", "not_your_turn", "illegal"), refused
    assert refused["d"]["text"]
    # Said once: connecting again does not repeat it.
    ws2.close()
    ws3 = room.player()
    again = frame(ws3)
    assert again["t"] == "sync"
    assert not [e for e in again["d"]["events"] if e["kind"] == "away_summary"]
    ws3.close()
    ws.close()
    watcher.close()


def test_stalled_network_the_heartbeat_and_the_moves_are_typed_messages() -> None:
    assert P.decode('{"t":"ping","d":{"n":7}}') == P.Ping(7)
    assert P.decode('{"t":"ping"}') == P.Ping(0)  # the lobby's and older clients' pings
    assert P.decode('{"t":"beat","d":{"n":4}}') == P.BeatAnswer(4)  # the page's answer
    assert json.loads(P.encode_message(P.Beat(4), 3)) == {"t": "beat", "d": {"n": 4}, "v": 3}
    assert json.loads(P.encode_message(P.Pong(7), 3)) == {"t": "pong", "d": {"n": 7}, "v": 3}
    assert P.decode('{"t":"act","d":{"a":5,"m":99},"v":12}') == P.Act(5, 12, 99)
    assert P.decode('{"t":"bid","d":{"text":"passo","m":3}}') == P.BidText("passo", 3)
    for bad in ('{"t":"ping","d":{"n":-1}}', '{"t":"act","d":{"a":5,"m":"x"}}',
                '{"t":"act","d":{"a":5,"m":2147483648}}'):
        with pytest.raises(P.ProtocolError):
            P.decode(bad)
    assert json.loads(P.encode_message(P.Done(99), 4)) == {
        "t": "done", "d": {"move": 99, "already": False}, "v": 4}
    refused = json.loads(P.encode_message(P.Error("stale", "moved on", move=99), 4))
    assert refused["d"] == {"code": "stale", "text": "moved on", "move": 99}
    assert "move" not in json.loads(P.encode_message(P.Error("stale", "moved on"), 4))["d"]


def test_stalled_network_the_away_summary_is_one_short_sentence_in_each_language() -> None:
    rules = find_preset("classic")
    few = [3, 12]  # two cards
    many = list(range(0, 16))  # a long absence: counted, the last six named
    for lang in ("it", "es", "fr", "en"):
        short = away_text(few, lang, rules)
        long = away_text(many, lang, rules)
        assert short.count(".") == 1 and short.endswith("."), short
        assert "16" in long and len(long.split()) < 45, long
    assert away_text(few, "en", rules) == (
        "While you were away the bot played for you: ten of hearts, jack of diamonds.")
    assert away_text(few, "it", rules).startswith("Mentre eri via il bot ha giocato per te: ")


def test_stalled_network_a_typed_bid_sent_again_is_read_on_the_game_it_was_typed_on(
        client: TestClient) -> None:
    helpers.guest(client, "Ada")
    # A target no two or three hands reach: bots taking before Ada in the first deals once
    # ended a match to 300 before her first bid (ci55).
    table = helpers.create_table(client, target=2000)
    with helpers.connect(client, table) as ws:
        helpers.sit_with_bots(ws)
        while True:  # to Ada's first bid (someone may take before her: then the next deal)
            turn = helpers.until(ws, lambda f: f["t"] == "update" and helpers.my_turn(f))
            view = turn["d"]["view"]
            assert not view["finished"]
            if view["turn"] == 2 and view["phase"] == "bidding" and view["choices"]:
                break
            helpers.send(ws, "act", a=72 if view["turn"] != 2 else helpers.first_legal(view))
        version = turn["v"]
        ws.send_text(json.dumps({"t": "bid", "d": {"text": "pass", "m": 5}, "v": version}))
        done = helpers.until(ws, lambda f: f["t"] in ("done", "error"))
        assert done["d"] == {"move": 5, "already": False}, done
        # The same words typed on that game, arriving again (a new id: a new press), are
        # refused as stale, naming the move, not read on whatever the game is now.
        ws.send_text(json.dumps({"t": "bid", "d": {"text": "pass", "m": 6}, "v": version}))
        refused = helpers.until(ws, lambda f: f["t"] in ("done", "error"))
        assert refused["d"]["code"] == "stale" and refused["d"]["move"] == 6, refused
