"""Private and named tables, the invitation code, a pause between hands, a rematch that
keeps the seats, and the end of the match linking to its replay.  Every new field lives in
the table's log ("setup", "rematch" entries): the database schema is unchanged."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from belote.server.app import create_app
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import (
    Identities,
    connect,
    first_legal,
    guest,
    play_to_the_end,
    read_store,
    send,
    sit_with_bots,
    until,
)


def _create(client: TestClient, **fields: str) -> int:
    data = {"preset": "classic", "flags": "", "target": "300", **fields}
    response = client.post("/tables", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def _code(client: TestClient, table_id: int) -> str:
    page = client.get(f"/table/{table_id}").text
    found = re.search(r"Invitation code: ([A-Z2-9]{6})\.", page)
    assert found, "the table page shows its invitation code"
    return found.group(1)


def test_a_private_named_table_is_unlisted_and_entered_with_its_code(
        client: TestClient) -> None:
    people = Identities(client)
    people.guest("Ada")
    table_id = _create(client, table_name="Ada's table", private="on")
    code = _code(client, table_id)
    assert f"Table {table_id}: Ada&#39;s table" in client.get(f"/table/{table_id}").text
    bea = people.guest("Bea")
    assert f"/table/{table_id}" not in bea.get("/").text  # not in the lobby
    refused = bea.get(f"/table/{table_id}")
    assert refused.status_code == 403 and "This table is private" in refused.text
    wrong = bea.post("/join", data={"code": "ZZZZZZ"}, follow_redirects=False)
    assert wrong.headers["location"] == "/"
    assert "No open table has this invitation code" in bea.get("/").text
    joined = bea.get(f"/join/{code.lower()}", follow_redirects=False)  # case does not matter
    assert joined.headers["location"] == f"/table/{table_id}"
    assert bea.get(f"/table/{table_id}").status_code == 200


def test_a_private_table_refuses_an_uninvited_socket(client: TestClient) -> None:
    people = Identities(client)
    people.guest("Ada")
    table_id = _create(client, private="on")
    people.guest("Eve")
    with people.connect("Eve", table_id) as ws:
        frame = until(ws, lambda f: f["t"] == "error")
        assert frame["d"]["code"] == "private"


def test_a_named_table_is_listed_with_its_name(client: TestClient) -> None:
    guest(client, "Ada")
    _create(client, table_name="Sunday game")
    assert "Sunday game (classic)" in client.get("/fragment/tables").text


def test_a_bad_table_name_creates_nothing(client: TestClient) -> None:
    guest(client, "Ada")
    response = client.post("/tables", data={"preset": "classic", "table_name": "a\u202eb"},
                           follow_redirects=False)
    assert response.headers["location"] == "/"
    assert "That table name cannot be used" in client.get("/").text


def test_the_setup_survives_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with client_for(create_app(settings)) as client:
        guest(client, "Ada")
        table_id = _create(client, table_name="Kept", private="on", pause="on")
        code = _code(client, table_id)
    with client_for(create_app(settings)) as client:
        table = client.app.state.room.tables[table_id]  # type: ignore[attr-defined]
        assert (table.name, table.private, table.code, table.pause) == ("Kept", True, code,
                                                                         True)


def _hand_scored(frame: dict[str, Any]) -> bool:
    return frame["t"] == "update" and any("Totals:" in e["text"] for e in frame["d"]["events"])


def test_a_pause_between_hands_waits_for_every_player(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = _create(client, pause="on", target="5000")
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        while True:
            frame = until(ws, lambda f: f["t"] == "update" and (
                _hand_scored(f) or f["d"]["view"].get("turn") == 2))
            if _hand_scored(frame):
                break
            send(ws, "act", a=first_legal(frame["d"]["view"]))
        assert frame["d"]["view"]["paused"] is True
        send(ws, "chat", text="still paused?")  # anything else: no deal meanwhile
        chat = until(ws, lambda f: f["t"] == "update" and f["d"]["events"])
        assert chat["d"]["view"]["paused"] is True
        assert not any("You receive" in e["text"] for e in chat["d"]["events"])
        send(ws, "next")
        dealt = until(ws, lambda f: f["t"] == "update" and any(
            "You receive" in e["text"] for e in f["d"]["events"]))
        assert dealt["d"]["view"]["paused"] is False
    kinds = [e.kind for e in read_store(client.app, lambda store: store.log(table_id))]
    at = kinds.index("ready")
    assert kinds[at + 1] == "deal"  # "next" is stored, then the deal it allowed


def test_next_hand_without_a_pause_is_refused(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = _create(client)
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        send(ws, "next")
        assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "no_pause"


def test_a_rematch_keeps_the_seats_and_the_match_links_to_its_replay(
        client: TestClient) -> None:
    guest(client, "Ada")
    table_id = _create(client, table_name="Again", target="1")
    with connect(client, table_id) as ws:
        sit_with_bots(ws, level="easy")
        final, _ = play_to_the_end(ws)
        assert final["finished"]
        page = client.post(f"/tables/{table_id}/rematch", data={"seat": "0"},
                           follow_redirects=False)
        assert page.status_code == 303
        new_id = int(page.headers["location"].rsplit("/", 1)[1])
        assert new_id != table_id
        told = until(ws, lambda f: f["t"] == "update" and f["d"]["view"].get("rematch"))
        assert told["d"]["view"]["rematch"] == new_id
        again = client.post(f"/tables/{table_id}/rematch", data={"seat": "0"},
                            follow_redirects=False)
        assert again.headers["location"] == f"/table/{new_id}"  # one rematch, not two
    html = client.get(f"/table/{new_id}").text
    assert f"Table {new_id}: Again" in html
    assert f'href="/replay/{new_id}"' in html  # the end screen's link, for later
    with connect(client, new_id) as ws:
        view = until(ws, lambda f: f["t"] == "sync")["d"]["view"]
        assert view["seat"] == 2
        assert [s["kind"] for s in view["seats"]] == ["bot", "bot", "human", "bot"]
        assert [s["level"] for s in view["seats"] if s["kind"] == "bot"] == ["easy"] * 3


def test_a_finished_private_match_is_replayed_only_by_its_players_and_invitees(
        client: TestClient) -> None:
    people = Identities(client)
    ada = people.guest("Ada")
    table_id = _create(ada, private="on", target="1")
    code = _code(ada, table_id)
    people.guest("Bea").get(f"/join/{code}")  # invited while the table was open
    with people.connect("Ada", table_id) as ws:
        sit_with_bots(ws, level="easy")
        final, _ = play_to_the_end(ws)
        assert final["finished"]
    addresses = [f"/replay/{table_id}", f"/replay/{table_id}.json",
                 f"/replay/{table_id}/analysis?step=1"]
    assert people.use("Ada").get(addresses[0]).status_code == 200
    assert people.use("Bea").get(addresses[1]).status_code == 200
    eve = people.guest("Eve")
    for address in addresses:
        refused = eve.get(address)
        assert refused.status_code == 403, address
        assert '"deals"' not in refused.text and "JH" not in refused.text


def test_a_finished_private_match_stays_private_after_a_restart(tmp_path: Path) -> None:
    with client_for(create_app(make_settings(tmp_path))) as client:
        people = Identities(client)
        ada = people.guest("Ada")
        table_id = _create(ada, private="on", target="1")
        with people.connect("Ada", table_id) as ws:
            sit_with_bots(ws, level="easy")
            assert play_to_the_end(ws)[0]["finished"]
    with client_for(create_app(make_settings(tmp_path))) as client:
        people = Identities(client)
        eve = people.guest("Eve")
        assert eve.get(f"/replay/{table_id}").status_code == 403



def test_who_is_ready_during_a_pause_is_stored_and_survives_a_restart(tmp_path: Path) -> None:
    """A player's "next hand" is a change of the table's log: a table resumed after a restart
    (or by another of the room's processes) still knows who asked."""
    settings = make_settings(tmp_path)
    with client_for(create_app(settings)) as client:
        guest(client, "Ada")
        table_id = _create(client, pause="on", target="5000")
        with connect(client, table_id) as ws:
            sit_with_bots(ws, start=False)  # seated, not started: the version stays
            until(ws, lambda f: f["t"] == "update" and "West" in str(f["d"]["events"]))
        table = client.app.state.room.tables[table_id]  # type: ignore[attr-defined]
        version = table.version
    # The log as a pause's would go on: seat 0 (a bot here; a person at a full table) said
    # it was ready.  The table resumed from the log knows it.
    async def ready(store: Any) -> None:
        await store.append(table_id, version + 1, "ready", {"seat": 0})
    with client_for(create_app(settings)) as client:
        read_store(client.app, ready)
    with client_for(create_app(settings)) as client:
        table = client.app.state.room.tables[table_id]  # type: ignore[attr-defined]
        assert table.ready == {0} and table.version == version + 1
