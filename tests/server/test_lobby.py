"""The lobby's live list: diffs, coalescing, no session id on the wire, pages, expiry."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from belote.cli import app as cli
from belote.server.app import create_app
from belote.server.config import Settings
from tests.server.conftest import ORIGIN, client_for, make_settings
from tests.server.helpers import (
    Identities,
    create_table,
    receive,
    send,
    sit_with_bots,
    until,
)
from tests.server.helpers import read_store as read_room_store


def lobby_socket(client: TestClient, page: int | None = None) -> Any:
    query = "" if page is None else f"?page={page}"
    return client.websocket_connect(f"wss://testserver/ws/lobby{query}",
                                    headers={"origin": ORIGIN})


def tables_frame(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = until(ws, lambda f: f["t"] == "tables")["d"]
    return frame


def sit(client: TestClient, table_id: int, seat: int) -> None:
    response = client.post(f"/tables/{table_id}/sit", data={"seat": str(seat), "next": "/"},
                           follow_redirects=False)
    assert response.status_code == 303


def owners(app: Any) -> set[str]:
    return {seat.owner for table in app.state.room.tables.values() for seat in table.seats
            if seat.owner}


def test_listeners_get_a_diff_for_an_added_a_changed_and_a_removed_table(
        tmp_path: Path) -> None:
    # 2 s: the table must not expire before Ada has sat (a busy machine is slow to get there)
    app = create_app(make_settings(tmp_path, waiting_table_expiry=2.0, lobby_sweep=0.05))
    with client_for(app) as client:
        people = Identities(client)
        people.guest("Ada")
        people.guest("Bea")
        with lobby_socket(people.use("Bea")) as lobby:
            assert until(lobby, lambda f: f["t"] == "sync")["d"]["tables"] == []
            table_id = create_table(people.use("Ada"))
            added = tables_frame(lobby)
            assert [(c["op"], c["id"]) for c in added["changes"]] == [("add", table_id)]
            assert added["changes"][0]["table"]["free"] == 4
            assert added["say"] == [f"New table {table_id}: classic, free seats: 4."]
            assert added["total"] == 1

            sit(people.use("Ada"), table_id, 2)
            changed = tables_frame(lobby)
            [change] = changed["changes"]
            assert change["op"] == "change" and change["table"]["seats"][2]["name"] == "Ada"
            assert change["table"]["free"] == 3 and changed["say"] == []

            # Nobody seated here is connected: the table expires and leaves the list.
            removed = tables_frame(lobby)
            assert removed["changes"] == [{"op": "remove", "id": table_id}]
            assert removed["total"] == 0


def test_no_session_id_reaches_a_listener_and_only_the_owner_is_told_mine(
        tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        people = Identities(client)
        people.guest("Ada")
        people.guest("Bea")
        table_id = create_table(people.use("Ada"))
        with lobby_socket(people.use("Ada")) as ada, lobby_socket(people.use("Bea")) as bea:
            raw: list[str] = []
            for ws in (ada, bea):
                raw.append(json.dumps(until(ws, lambda f: f["t"] == "sync")))
            sit(people.use("Ada"), table_id, 0)
            mine = tables_frame(ada)["changes"][0]["table"]
            theirs = tables_frame(bea)["changes"][0]["table"]
            raw += [json.dumps(mine), json.dumps(theirs)]
            assert mine["seated"] and mine["seats"][0]["mine"]
            assert not theirs["seated"] and not theirs["seats"][0]["mine"]
            assert "owner" not in json.dumps(theirs)
        pages = [people.use(who).get(path).text for who in ("Ada", "Bea")
                 for path in ("/", "/fragment/tables")]
        secrets = owners(app)
        assert secrets
        for text in raw + pages:
            assert not any(uid in text for uid in secrets)


def test_changes_within_the_interval_arrive_as_one_frame(tmp_path: Path) -> None:
    # 5 s: the four tables and the sit must all fall in one window, also on a busy machine
    app = create_app(make_settings(tmp_path, lobby_coalesce=5.0))
    with client_for(app) as client:
        people = Identities(client)
        people.guest("Ada")
        with lobby_socket(people.use("Ada")) as lobby:
            until(lobby, lambda f: f["t"] == "sync")
            ids = [create_table(people.use("Ada")) for _ in range(4)]
            sit(people.use("Ada"), ids[0], 1)  # an add then a change: still an add
            frame = receive(lobby)
            assert frame["t"] == "tables"
            assert [(c["op"], c["id"]) for c in frame["d"]["changes"]] == [
                ("add", i) for i in ids]
            assert frame["d"]["changes"][0]["table"]["seats"][1]["mine"]
            assert frame["d"]["say"] == ["New tables: 4."]


def test_pages_list_waiting_tables_first(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, lobby_page_size=2))
    with client_for(app) as client:
        people = Identities(client)
        ada = people.guest("Ada")
        ids = [create_table(ada) for _ in range(5)]
        with people.connect("Ada", ids[0]) as ws:
            sit_with_bots(ws, seat=0)
            until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["started"])
            order = [row["id"] for row in app.state.lobby.summaries("en")]
            assert order == [*ids[1:], ids[0]]
            first = ada.get("/").text
            assert f'href="/table/{ids[1]}"' in first and f'href="/table/{ids[3]}"' not in first
            assert "Page 1 of 3" in first and 'href="/?page=2"' in first
            last = ada.get("/fragment/tables?page=3").text
            assert f'href="/table/{ids[0]}"' in last and 'href="/?page=2"' in last
            assert "Page 3 of 3" in ada.get("/?page=99").text
            with lobby_socket(ada, page=2) as lobby:
                sync = until(lobby, lambda f: f["t"] == "sync")["d"]
                assert [t["id"] for t in sync["tables"]] == ids[3:5]
                assert (sync["page"], sync["pages"], sync["total"]) == (2, 3, 5)


@pytest.mark.parametrize("page", ["abc", "0", "-1", "1.5"])
def test_a_bad_page_number_is_refused_clearly(client: TestClient, page: str) -> None:
    for path in ("/", "/fragment/tables"):
        response = client.get(f"{path}?page={page}")
        assert response.status_code == 400
        assert "page number must be a whole number" in response.text


def test_a_waiting_table_nobody_attends_expires(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    # 2 s: 'kept' must not expire before Ada sits there (a busy machine is slow to get there)
    app = create_app(make_settings(tmp_path, waiting_table_expiry=2.0, lobby_sweep=0.05))
    with caplog.at_level(logging.INFO, logger="belote.server.lobby"), \
            client_for(app) as client:
        people = Identities(client)
        ada = people.guest("Ada")
        kept = create_table(ada)
        with people.connect("Ada", kept) as ws:
            until(ws, lambda f: f["t"] == "sync")
            send(ws, "sit", seat=0)
            until(ws, lambda f: f["t"] == "update")
            gone = create_table(ada)
            with people.connect("Bea", gone) as watcher:  # a spectator keeps nothing alive
                until(watcher, lambda f: f["t"] == "sync")
                error = until(watcher, lambda f: f["t"] == "error")["d"]
                assert error["code"] == "expired"
                assert f"Table {gone} is closed" in error["text"]
            room = app.state.room
            assert gone not in room.tables and kept in room.tables
            assert app.state.lobby.counts["tables_expired"] == 1
            assert ada.get(f"/table/{gone}").status_code == 404
            row = read_room_store(app, lambda store: store.table(gone))
            assert row.status == "expired"
    assert any(f"table {gone} expired" in r.getMessage() for r in caplog.records)


def test_a_match_in_progress_or_a_present_player_never_expires(tmp_path: Path) -> None:
    # 1.5 s: both tables set up (started; Bea seated and in the lobby) before it could pass
    app = create_app(make_settings(tmp_path, waiting_table_expiry=1.5, lobby_sweep=0.05))
    with client_for(app) as client:
        people = Identities(client)
        ada = people.guest("Ada")
        playing = create_table(ada)
        with people.connect("Ada", playing) as ws:
            sit_with_bots(ws, seat=0)
            until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["started"])
        people.guest("Bea")
        waiting = create_table(people.use("Bea"))
        sit(people.use("Bea"), waiting, 1)
        with lobby_socket(people.use("Bea")) as lobby:  # Bea waits in the lobby
            until(lobby, lambda f: f["t"] == "sync")
            time.sleep(3.5)  # over twice the expiry
            room = app.state.room
            assert playing in room.tables and waiting in room.tables
            assert app.state.lobby.counts["tables_expired"] == 0


@pytest.mark.parametrize("field", ["waiting_table_expiry", "lobby_coalesce", "lobby_sweep",
                                   "lobby_page_size"])
def test_lobby_settings_out_of_range_are_refused(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        create_app(Settings(**{field: 0}))  # type: ignore[arg-type]


def test_serve_refuses_a_waiting_expiry_that_is_not_positive() -> None:
    result = CliRunner().invoke(cli, ["serve", "--waiting-expiry", "0"])
    assert result.exit_code != 0
    assert "--waiting-expiry" in result.output
