"""Security (issue 5, item 7): origins, bad frames, acting for others, logins, cookies.

The checks of what a client may send run on the room as one process, then as two (issue 26,
item 7: tests/server/room_under_test.py), where the table runs in process 0 and the client
reaches it through process 1: the relay carries, the owner checks.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from argon2 import extract_parameters
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from belote.server.app import create_app
from belote.server.auth.passwords import HASHERS, PasswordHasherPool
from belote.server.config import Settings
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import (
    first_legal,
    read_store,
    send,
    until,
)
from tests.server.room_under_test import Sala, sala

__all__ = ["sala"]  # the fixture: the room as one process, then as two
OWNER, RELAYED = 0, 1  # through the process running the table, or through the other


def _seated_table(sala: Sala, name: str = "Ada") -> int:
    """A table of process 0 where ``name`` sits South with three bots, seated by forms
    posted through process 1."""
    sala.guest(name)
    table_id = sala.create_table(name)
    for seat, what in ((2, "sit"), (0, "bot"), (1, "bot"), (3, "bot")):
        response = sala.http(name, RELAYED).post(f"/tables/{table_id}/{what}",
                                                 data={"seat": seat}, follow_redirects=False)
        assert response.status_code == 303
    return table_id


def test_websocket_from_another_origin_is_refused(sala: Sala) -> None:
    table_id = _seated_table(sala)
    for origin in ("https://evil.example", "null", "https://testserver.evil.example"):
        with (pytest.raises(WebSocketDisconnect) as refused,
              sala.connect("Ada", table_id, RELAYED, origin=origin) as ws):
            ws.receive_text()
        assert refused.value.code == 1008


def test_cross_origin_form_posts_are_refused(sala: Sala) -> None:
    evil = {"origin": "https://evil.example"}
    response = sala.http("Mallory", RELAYED).post("/guest", data={"name": "Mallory"},
                                                  headers=evil)
    assert response.status_code == 403
    assert "sala" not in sala.http("Mallory").cookies
    # A table's form, relayed to its process, is refused there all the same.
    table_id = _seated_table(sala)
    response = sala.http("Ada", RELAYED).post(f"/tables/{table_id}/stand", headers=evil,
                                              follow_redirects=False)
    assert response.status_code == 403
    with sala.connect("Ada", table_id, RELAYED) as ws:
        seats = until(ws, lambda f: f["t"] == "sync")["d"]["view"]["seats"]
        assert seats[2]["you"] and not seats[2]["standin"]


@pytest.mark.parametrize("frame", [
    "not json at all", '{"t": "act", "d": {"a": "x"}}', '{"t": "warp"}',
    json.dumps({"t": "chat", "d": {"text": "x" * 5000}}),
])
def test_malformed_or_oversized_frames_get_an_error_and_change_nothing(
        sala: Sala, frame: str) -> None:
    table_id = _seated_table(sala)
    with sala.connect("Ada", table_id, RELAYED) as ws:
        sync = until(ws, lambda f: f["t"] == "sync")
        ws.send_text(frame)
        error = until(ws, lambda f: f["t"] == "error")
        assert error["d"]["text"] and error["v"] == sync["v"]
        send(ws, "ping")
        pong = until(ws, lambda f: f["t"] == "pong")
        assert pong["v"] == sync["v"]  # nothing was stored or applied


def test_binary_frames_get_an_error(sala: Sala) -> None:
    table_id = _seated_table(sala)
    with sala.connect("Ada", table_id, RELAYED) as ws:
        until(ws, lambda f: f["t"] == "sync")
        ws.send_bytes(b"\x00\x01")
        assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "binary"


def _turn_frame(ws: Any, seat: int) -> dict[str, Any]:
    return until(ws, lambda f: f["t"] in ("sync", "update") and f["d"]["view"].get("started")
                 and f["d"]["view"]["turn"] == seat)


def test_a_player_cannot_act_out_of_turn_or_for_another_seat(sala: Sala) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    sala.guest("Bea", RELAYED)
    with sala.connect("Ada", table_id, OWNER) as ada, \
            sala.connect("Bea", table_id, RELAYED) as bea:
        send(ada, "sit", seat=0)
        send(bea, "sit", seat=1)
        send(ada, "bot", seat=2, level="normal")
        send(ada, "bot", seat=3, level="normal")
        send(ada, "start")
        frame = until(ada, lambda f: f["t"] == "update" and f["d"]["view"].get("started")
                      and f["d"]["view"]["turn"] in (0, 1))
        view = frame["d"]["view"]
        if view["turn"] == 0:  # Ada's frame is already read; catch Bea up to it
            waiting, mover_view = bea, view
            until(bea, lambda f: f["v"] >= frame["v"])
        else:
            waiting, mover_view = ada, _turn_frame(bea, 1)["d"]["view"]
        action = first_legal(mover_view)
        send(waiting, "act", a=action)  # the mover's own legal action, sent by the other
        error = until(waiting, lambda f: f["t"] == "error")
        assert error["d"]["code"] == "not_your_turn"
        assert error["v"] == frame["v"]


def test_a_spectator_cannot_act(sala: Sala) -> None:
    table_id = _seated_table(sala)
    with sala.connect("watcher", table_id, RELAYED) as ws:
        until(ws, lambda f: f["t"] == "sync")
        for kind, data in (("act", {"a": 64}), ("start", {}), ("bot", {"seat": 1, "level":
                                                                        "easy"})):
            send(ws, kind, **data)
            assert until(ws, lambda f: f["t"] == "error")["d"]["code"] in (
                "not_seated", "not_playing", "seat_taken")


def test_an_illegal_card_is_refused_with_the_reason(sala: Sala) -> None:
    table_id = _seated_table(sala)
    with sala.connect("Ada", table_id, RELAYED) as ws:
        send(ws, "start")
        while True:
            frame = _turn_frame(ws, 2)
            view = frame["d"]["view"]
            if view["choices"]:
                send(ws, "act", a=view["choices"][0]["action"])
                continue
            if view["trick"] and not all(c["playable"] for c in view["hand"]):
                break
            playable = next(c for c in view["hand"] if c["playable"])
            from belote.notation import parse_card

            send(ws, "act", a=parse_card(playable["code"]))
        bad = next(c for c in view["hand"] if not c["playable"])
        from belote.notation import parse_card

        send(ws, "act", a=parse_card(bad["code"]))
        error = until(ws, lambda f: f["t"] == "error")
        assert error["d"]["code"] == "illegal"
        assert "cannot play" in error["d"]["detail"]
        assert error["v"] == frame["v"]


def test_passwords_are_argon2_hashes_and_logins_are_rate_limited(tmp_path: Any) -> None:
    app = create_app(make_settings(tmp_path, login_attempts=3, login_window=60.0))
    with client_for(app) as client:
        response = client.post("/register", data={"name": "Carla", "password": "briscola!"},
                               follow_redirects=False)
        assert response.status_code == 303
        found = read_store(app, lambda store: store.user("Carla"))
        assert found is not None and found[1].startswith("$argon2id$")
        assert "briscola!" not in found[1]
        client.cookies.clear()
        for _ in range(3):
            wrong = client.post("/login", data={"name": "Carla", "password": "wrong-one"})
            assert wrong.status_code == 401
        blocked = client.post("/login", data={"name": "Carla", "password": "briscola!"})
        assert blocked.status_code == 429
        assert "sala" not in client.cookies


def test_rooms_hash_at_the_strong_cost_and_a_test_cost_hash_is_made_again(
        tmp_path: Any) -> None:
    # The suite's rooms hash cheaply (password_cost "test", tests/server/conftest.py); every
    # other room, `belote serve` included, at argon2-cffi's strong defaults.
    assert Settings().password_cost == "strong"
    strong = HASHERS["strong"]
    assert (strong.time_cost, strong.memory_cost, strong.parallelism) == (3, 65536, 4)
    assert PasswordHasherPool(1).hasher is strong
    cheap = make_settings(tmp_path)
    assert cheap.password_cost == "test"
    with client_for(create_app(cheap)) as client:
        assert client.post("/register", data={"name": "Carla", "password": "briscola!"},
                           follow_redirects=False).status_code == 303
    with client_for(create_app(replace(cheap, password_cost="strong"))) as client:
        assert client.post("/login", data={"name": "Carla", "password": "briscola!"},
                           follow_redirects=False).status_code == 303
        found = read_store(client.app, lambda store: store.user("Carla"))
    assert found is not None
    made = extract_parameters(found[1])
    assert (made.time_cost, made.memory_cost, made.parallelism) == (3, 65536, 4)
    with pytest.raises(ValueError, match="password cost"):
        PasswordHasherPool(1, "weak")  # type: ignore[arg-type]


def test_a_good_login_works_and_a_guest_cannot_take_a_registered_name(
        client: TestClient) -> None:
    client.post("/register", data={"name": "Dario", "password": "settebello"})
    client.cookies.clear()
    response = client.post("/guest", data={"name": "Dario"}, follow_redirects=True)
    assert "That name belongs to an account" in response.text
    response = client.post("/login", data={"name": "Dario", "password": "settebello"},
                           follow_redirects=True)
    assert "Signed in as Dario" in response.text


def test_the_session_cookie_is_signed_httponly_secure_and_samesite(client: TestClient) -> None:
    response = client.post("/guest", data={"name": "Ada"}, follow_redirects=False)
    cookie = response.headers["set-cookie"].lower()
    assert cookie.startswith("sala=")
    for flag in ("httponly", "secure", "samesite=lax"):
        assert flag in cookie
    genuine = client.cookies.get("sala", "")
    assert "Signed in as Ada" in client.get("/").text
    client.cookies.clear()
    forged = genuine[:-4] + ("AAAA" if not genuine.endswith("AAAA") else "BBBB")
    assert "Signed in as" not in client.get("/", headers={"cookie": f"sala={forged}"}).text


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x"])
def test_forms_never_redirect_to_another_site(sala: Sala, target: str) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    for path, data in (("/preferences", {"lang": "it", "next": target}),
                       (f"/tables/{table_id}/sit", {"seat": "7", "next": target}),
                       (f"/tables/{table_id}/stand", {"next": target})):
        response = sala.http("Ada", RELAYED).post(path, data=data, follow_redirects=False)
        assert response.headers["location"] == "/", path
