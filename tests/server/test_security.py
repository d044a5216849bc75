"""Security (issue 5, item 7): origins, bad frames, acting for others, logins, cookies."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from belote.server.app import create_app
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import (
    Identities,
    connect,
    create_table,
    first_legal,
    guest,
    read_store,
    send,
    until,
)


def _seated_table(client: TestClient, name: str = "Ada") -> int:
    guest(client, name)
    table_id = create_table(client)
    for seat, what in ((2, "sit"), (0, "bot"), (1, "bot"), (3, "bot")):
        response = client.post(f"/tables/{table_id}/{what}", data={"seat": seat},
                               follow_redirects=False)
        assert response.status_code == 303
    return table_id


def test_websocket_from_another_origin_is_refused(client: TestClient) -> None:
    table_id = _seated_table(client)
    for origin in ("https://evil.example", "null", "https://testserver.evil.example"):
        headers = {"origin": origin}
        with (pytest.raises(WebSocketDisconnect) as refused,
              client.websocket_connect(f"/ws/table/{table_id}", headers=headers) as ws):
            ws.receive_text()
        assert refused.value.code == 1008


def test_cross_origin_form_posts_are_refused(client: TestClient) -> None:
    response = client.post("/guest", data={"name": "Mallory"},
                           headers={"origin": "https://evil.example"})
    assert response.status_code == 403
    assert "sala" not in client.cookies


@pytest.mark.parametrize("frame", [
    "not json at all", '{"t": "act", "d": {"a": "x"}}', '{"t": "warp"}',
    json.dumps({"t": "chat", "d": {"text": "x" * 5000}}),
])
def test_malformed_or_oversized_frames_get_an_error_and_change_nothing(
        client: TestClient, frame: str) -> None:
    table_id = _seated_table(client)
    with connect(client, table_id) as ws:
        sync = until(ws, lambda f: f["t"] == "sync")
        ws.send_text(frame)
        error = until(ws, lambda f: f["t"] == "error")
        assert error["d"]["text"] and error["v"] == sync["v"]
        send(ws, "ping")
        pong = until(ws, lambda f: f["t"] == "pong")
        assert pong["v"] == sync["v"]  # nothing was stored or applied


def test_binary_frames_get_an_error(client: TestClient) -> None:
    table_id = _seated_table(client)
    with connect(client, table_id) as ws:
        until(ws, lambda f: f["t"] == "sync")
        ws.send_bytes(b"\x00\x01")
        assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "binary"


def _turn_frame(ws: Any, seat: int) -> dict[str, Any]:
    return until(ws, lambda f: f["t"] in ("sync", "update") and f["d"]["view"].get("started")
                 and f["d"]["view"]["turn"] == seat)


def test_a_player_cannot_act_out_of_turn_or_for_another_seat(client: TestClient) -> None:
    people = Identities(client)
    table_id = create_table(people.guest("Ada"))
    people.guest("Bea")
    with people.connect("Ada", table_id) as ada, people.connect("Bea", table_id) as bea:
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


def test_a_spectator_cannot_act(client: TestClient) -> None:
    people = Identities(client)
    table_id = _seated_table(people.use("Ada"))
    with people.connect("watcher", table_id) as ws:
        until(ws, lambda f: f["t"] == "sync")
        for kind, data in (("act", {"a": 64}), ("start", {}), ("bot", {"seat": 1, "level":
                                                                        "easy"})):
            send(ws, kind, **data)
            assert until(ws, lambda f: f["t"] == "error")["d"]["code"] in (
                "not_seated", "not_playing", "seat_taken")


def test_an_illegal_card_is_refused_with_the_reason(client: TestClient) -> None:
    table_id = _seated_table(client)
    with connect(client, table_id) as ws:
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
def test_forms_never_redirect_to_another_site(client: TestClient, target: str) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    for path, data in (("/preferences", {"lang": "it", "next": target}),
                       (f"/tables/{table_id}/sit", {"seat": "7", "next": target}),
                       (f"/tables/{table_id}/stand", {"next": target})):
        response = client.post(path, data=data, follow_redirects=False)
        assert response.headers["location"] == "/", path
