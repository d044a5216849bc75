"""A scripted player for the room's tests: a session, a WebSocket, and a simple policy."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient
from starlette.testclient import WebSocketTestSession as Socket

from tests.server.conftest import ORIGIN


def guest(client: TestClient, name: str) -> None:
    response = client.post("/guest", data={"name": name}, follow_redirects=False)
    assert response.status_code == 303, response.text


def create_table(client: TestClient, preset: str = "classic", target: int | None = 300,
                 flags: str = "") -> int:
    data = {"preset": preset, "flags": flags, "target": "" if target is None else str(target)}
    response = client.post("/tables", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("/table/"), location
    return int(location.rsplit("/", 1)[1])


def connect(client: TestClient, table_id: int) -> Socket:
    # wss: the session cookie is Secure, so the client only sends it over a secure scheme.
    return client.websocket_connect(f"wss://testserver/ws/table/{table_id}",
                                    headers={"origin": ORIGIN})


def send(ws: Socket, kind: str, **data: Any) -> None:
    ws.send_text(json.dumps({"t": kind, "d": data}))


FRAME_TIMEOUT = 20.0  # seconds: a frame that never comes fails the test instead of hanging it


def receive(ws: Socket | Any, timeout: float = FRAME_TIMEOUT) -> dict[str, Any]:
    import anyio

    if not isinstance(ws, Socket):  # a real socket (tests/server/room_under_test.py)
        real: dict[str, Any] = ws.receive_frame(timeout)
        return real

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        raise AssertionError(f"no frame within {timeout} s") from None
    ws._raise_on_close(message)
    frame: dict[str, Any] = json.loads(message["text"])
    return frame


def until(ws: Socket, predicate: Any, limit: int = 2000) -> dict[str, Any]:
    """Read frames until one satisfies ``predicate``."""
    for _ in range(limit):
        frame = receive(ws)
        if predicate(frame):
            return frame
    raise AssertionError("no such frame")


def my_turn(frame: dict[str, Any]) -> bool:
    view = frame["d"].get("view", {})
    return bool(view.get("started")) and (
        view.get("finished") or (view.get("turn") == view.get("seat") and view.get("seat")
                                 is not None) or view.get("belote"))


def first_legal(view: dict[str, Any]) -> int:
    """A legal action from the view alone: the first choice, or the first playable card."""
    if view["choices"]:
        return int(view["choices"][0]["action"])
    for card in view["hand"]:
        if card["playable"]:
            return card_id(card["code"])
    raise AssertionError(f"nothing to do in {view}")


def ask_info(ws: Socket) -> dict[str, str]:
    """The answers to the information keys (T, O, P, W, Y, U), asked one by one as the table
    page asks when a key is pressed (frames do not carry them)."""
    from belote.i18n.table_info import INFO_QUESTIONS

    answers: dict[str, str] = {}
    for key in INFO_QUESTIONS:
        send(ws, "info", key=key)
        frame = until(ws, lambda f, key=key: f["t"] == "info" and f["d"]["key"] == key)
        answers[key] = str(frame["d"]["text"])
    return answers


def card_id(code: str) -> int:
    from belote.notation import parse_card

    return parse_card(code)


class Identities:
    """Several people on one test client: each name keeps its own session cookie.

    One TestClient (one event loop, one room) serves them all; switching swaps the cookie jar
    before a request or a WebSocket handshake.
    """

    def __init__(self, client: TestClient) -> None:
        self.client = client
        # The test client's own cookie class (Starlette's client is built on httpx2).
        self._jar_type = type(client.cookies)
        self._jars: dict[str, Any] = {}

    def use(self, who: str) -> TestClient:
        self.client.cookies = self._jars.setdefault(who, self._jar_type())
        return self.client

    def guest(self, who: str) -> TestClient:
        client = self.use(who)
        guest(client, who)
        self._jars[who] = client.cookies
        return client

    def connect(self, who: str, table_id: int) -> Socket:
        return connect(self.use(who), table_id)


def sit_with_bots(ws: Socket, seat: int = 2, level: str = "normal", start: bool = True,
                  players: int = 4) -> None:
    """Take ``seat``, fill the other seats with bots of ``level``, and start the match."""
    send(ws, "sit", seat=seat)
    for other in range(players):
        if other != seat:
            send(ws, "bot", seat=other, level=level)
    if start:
        send(ws, "start")


def play_to_the_end(ws: Socket) -> tuple[dict[str, Any], int]:
    """Play the first legal action at every turn (and announce every belote) until the match
    is over; returns the final view and how many actions this seat made."""
    moves = 0
    while True:
        view = until(ws, lambda f: f["t"] == "update" and my_turn(f))["d"]["view"]
        if view["finished"]:
            return view, moves
        if view["belote"] and view["turn"] != view["seat"]:
            send(ws, "act", a=72)
        else:
            send(ws, "act", a=first_legal(view))
        moves += 1


def read_store(app: Any, query: Any) -> Any:
    """``await query(store)`` on the room's database, through a store of its own (the test's
    event loop is not the room's)."""
    import asyncio

    from belote.server.persistence import Store

    async def run() -> Any:
        store = Store(app.state.room.settings.db_url)
        try:
            return await query(store)
        finally:
            await store.close()

    return asyncio.run(run())


def sign_up_over_http(http: Any, name: str) -> None:
    """Sign ``name`` up on a live room through ``http`` (an ``httpx.Client`` whose base URL is
    the room's): the room's cookies are Secure, so the plain-http client keeps copies without
    the flag to send them back."""
    answer = http.post("/register", data={"name": name, "password": "correct horse battery"})
    assert answer.status_code in (200, 303), answer.text
    for cookie in list(http.cookies.jar):
        http.cookies.set(cookie.name, cookie.value or "")
