"""The routes' shape (issue 22, item 1): seat forms decode into the same commands as the
WebSocket frames and are refused alike; the shared objects are on ``app.state`` under one
name each; no function of the server is over 80 lines."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.datastructures import FormData
from starlette.testclient import TestClient

import belote.server
from belote.server import protocol as P
from belote.server.shared import Shared
from tests.server.helpers import connect, create_table, guest, receive, send, until

LONGEST = 80  # lines a function of belote/server may have


@pytest.mark.parametrize(("kind", "form", "frame"), [
    ("sit", {"seat": "2"}, {"seat": 2}),
    ("stand", {}, {}),
    ("bot", {"seat": "1", "level": "expert"}, {"seat": 1, "level": "expert"}),
    ("bot", {"seat": "0"}, {"seat": 0, "level": "normal"}),  # the form's default level
    ("bot", {"seat": "0"}, {"seat": 0}),  # the frame's: one default (protocol.DEFAULT_LEVEL)
    ("sit", {"seat": "03"}, {"seat": 3}),  # ASCII digits
    ("unbot", {"seat": "3"}, {"seat": 3}),
    ("start", {}, {}),
])
def test_a_seat_form_decodes_into_the_message_of_the_same_frame(
        kind: str, form: dict[str, str], frame: dict[str, Any]) -> None:
    expected = P.decode(json.dumps({"t": kind, "d": frame}))
    assert P.decode_form(kind, FormData(form)) == expected


@pytest.mark.parametrize(("kind", "form", "code", "detail"), [
    ("sit", {"seat": "7"}, "bad_field", "seat"),
    ("sit", {"seat": "two"}, "bad_field", "seat"),
    ("sit", {}, "bad_field", "seat"),
    ("bot", {"seat": "1", "level": "godlike"}, "bad_field", "level"),
    ("bot", {"seat": "1", "level": ""}, "bad_field", "level"),
    # what int() reads but no frame's number is (review of issue 22): a form accepts only
    # what the frame accepts
    ("sit", {"seat": " 2 "}, "bad_field", "seat"),
    ("sit", {"seat": "+1"}, "bad_field", "seat"),
    ("sit", {"seat": "\u0663"}, "bad_field", "seat"),  # ARABIC-INDIC DIGIT THREE
    ("sit", {"seat": "1_0"}, "bad_field", "seat"),
    ("sit", {"seat": "2\n"}, "bad_field", "seat"),
    ("sit", {"seat": ""}, "bad_field", "seat"),
    ("unbot", {"seat": "-0"}, "bad_field", "seat"),
    ("act", {"a": "3"}, "unknown_type", "act"),  # a form sends seat commands only
    ("chat", {"text": "hi"}, "unknown_type", "chat"),
])
def test_a_bad_seat_form_is_refused_as_its_frame_would_be(
        kind: str, form: dict[str, str], code: str, detail: str) -> None:
    with pytest.raises(P.ProtocolError) as refused:
        P.decode_form(kind, FormData(form))
    assert (refused.value.code, refused.value.detail) == (code, detail)


def test_a_seat_the_table_lacks_is_refused_alike_by_form_and_frame(
        client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "valdostana3", target=150)
    page = client.post(f"/tables/{table_id}/sit", data={"seat": "3"})
    assert "There is no such seat." in page.text
    with connect(client, table_id) as ws:
        receive(ws)
        send(ws, "sit", seat=3)
        frame = until(ws, lambda f: f["t"] == "error")
    assert frame["d"]["code"] == "bad_seat"
    assert frame["d"]["text"] in page.text  # the same sentence, said on the page
    seats = client.app.state.room.tables[table_id].seats  # type: ignore[attr-defined]
    assert all(s.kind == "empty" for s in seats)


def test_every_bot_form_of_the_lobby_sends_its_level(client: TestClient) -> None:
    # (the level is optional on the wire, frame and form alike; the room's pages name it)
    guest(client, "Ada")
    table_id = create_table(client)
    client.post(f"/tables/{table_id}/sit", data={"seat": "2"})
    page = client.get("/").text
    forms = re.findall(rf'<form[^>]*action="/tables/{table_id}/bot".*?</form>', page,
                       re.DOTALL)
    assert len(forms) == 3  # the three empty seats
    assert all(re.search(r'<select[^>]*name="level"', form) for form in forms)


def test_an_unknown_seat_form_is_not_found(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    assert client.post(f"/tables/{table_id}/warp", data={"seat": "0"}).status_code == 404


def test_every_shared_object_is_on_the_app_state_under_its_own_name(
        client: TestClient) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    bundle = state.shared
    assert isinstance(bundle, Shared)
    for name in ("settings", "services", "room", "lobby", "ratings", "tournaments", "heavy",
                 "sessions", "passwords", "devices", "limits", "refused", "templates",
                 "levels", "replay_access", "plugin_label_failures"):
        assert getattr(state, name) is getattr(bundle, name), name
    assert state.lobby is state.services.lobby  # the composition root's, under one name
    assert state.store is bundle.store is state.services.store


def test_route_handlers_read_the_store_from_the_shared_objects_not_through_the_room() -> None:
    # (review of issue 22: handlers reached the store as room.store)
    routes = Path(belote.server.__file__).parent / "routes"
    through_room = [f"{path.relative_to(routes)}:{n}"
                    for path in sorted(routes.rglob("*.py"))
                    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                    if re.search(r"\broom\.store\b", line)]
    assert through_room == []


def test_no_function_of_the_server_is_over_80_lines() -> None:
    root = Path(belote.server.__file__).parent
    long = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    long.append(f"{path.relative_to(root)}:{node.lineno} {node.name} {lines}")
    assert long == []
