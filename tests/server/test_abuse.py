"""The room attacked as a hostile user would (hardening issue): each finding, reproduced and fixed.

Findings and where each is checked:
- an impossible setting crashed the engine after a bid was stored, and the room could not start
  again: here (poisoned row, engine failure) and tests/server/test_rules_fuzz.py;
- a chat line with a lone surrogate blinded every receiver: here;
- only the newest 10,000 open tables came back after a restart: here;
- absurd limits (tables per person, chat lines, sockets per address): here;
- a failed save stopped the table until a client spoke: here (SQLite) and with a real
  PostgreSQL restart;
- deep JSON, huge ids, an overflowing send queue, stale actions: here.
Accounts, sessions, names, hosts and login limits: tests/server/test_accounts.py; the lobby's
changes and paging: tests/server/test_lobby.py; bot workers: tests/server/test_bots_pool.py.

What a hostile client sends (text, malformed frames and ids, stale actions, a signed-out
session's sockets) is checked on the room as one process, then as two (issue 26, item 7:
tests/server/room_under_test.py), where the table runs in process 0 and the client reaches
it through process 1.  The checks that reach into the app (its settings, a failing engine or
store) run on one process.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from belote.engine.state import Game
from belote.server import protocol as P
from belote.server.app import create_app
from belote.server.connection import SEND_QUEUE, Connection
from belote.server.persistence import Store
from belote.server.persistence.schema import tables
from belote.text import TextError, clean_text
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import (
    Identities,
    connect,
    create_table,
    first_legal,
    guest,
    my_turn,
    read_store,
    receive,
    send,
    sit_with_bots,
    until,
)
from tests.server.room_under_test import Sala, sala

__all__ = ["sala"]  # the fixture: the room as one process, then as two
OWNER, RELAYED = 0, 1  # through the process running the table, or through the other


def _errors(ws: Any, code: str) -> dict[str, Any]:
    return until(ws, lambda f: f["t"] == "error" and f["d"]["code"] == code)


def _pong(ws: Any) -> None:
    send(ws, "ping")
    until(ws, lambda f: f["t"] == "pong")


# ---------------------------------------------------------------- one table never stops the room
def _stored_versions(app: Any, table_id: int) -> list[int]:
    async def query(store: Store) -> list[int]:
        return [e.version for e in await store.log(table_id)]
    result: list[int] = read_store(app, query)
    return result


def test_a_poisoned_log_row_marks_its_table_broken_and_the_room_starts(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    app = create_app(settings)
    with client_for(app) as client:
        guest(client, "Ada")
        poisoned = create_table(client)
        with connect(client, poisoned) as ws:
            sit_with_bots(ws)
            until(ws, lambda f: f["t"] == "update" and my_turn(f))
        healthy = create_table(client)
    last = _stored_versions(app, poisoned)[-1]

    async def plant(store: Store) -> None:  # a row no engine accepts: seat 0 bids 250
        await store.append(poisoned, last + 1, "act", {"seat": 0, "action": 250})
    read_store(app, plant)

    again = create_app(settings)
    with client_for(again) as client:  # start-up does not fail
        room = again.state.room
        assert poisoned not in room.tables and poisoned in room.broken
        assert healthy in room.tables
        page = client.get(f"/table/{poisoned}")
        assert page.status_code == 410
        assert "could not be replayed" in page.text
        guest(client, "Bruno")
        with connect(client, healthy) as ws:
            until(ws, lambda f: f["t"] == "sync")
            send(ws, "sit", seat=1)
            until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["you"])
        with connect(client, poisoned) as ws:
            assert receive(ws)["d"]["code"] == "broken"

    async def status(store: Store) -> str | None:
        row = await store.table(poisoned)
        return None if row is None else row.status
    assert read_store(again, status) == "broken"


def test_a_change_the_engine_fails_on_is_never_stored(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        guest(client, "Ada")
        table_id = create_table(client)
        other = create_table(client)
        with connect(client, table_id) as ws:
            sit_with_bots(ws)
            frame = until(ws, lambda f: f["t"] == "update" and my_turn(f))
            stored = _stored_versions(app, table_id)
            real_apply = Game.apply

            def failing_apply(self: Game, action: int, seat: int | None = None) -> Any:
                if seat == 2:
                    raise RuntimeError("engine bug")
                return real_apply(self, action, seat)
            monkeypatch.setattr(Game, "apply", failing_apply)
            send(ws, "act", a=first_legal(frame["d"]["view"]))
            told = until(ws, lambda f: any("stopped" in e["text"] for e in f["d"].get(
                "events", [])))
            assert told["v"] == frame["v"], "nothing new was stored"
            monkeypatch.setattr(Game, "apply", real_apply)
        assert _stored_versions(app, table_id) == stored
        assert app.state.room.tables[table_id].broken
        with connect(client, other) as ws:  # the rest of the room goes on
            until(ws, lambda f: f["t"] == "sync")
            send(ws, "sit", seat=0)
            until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][0]["you"])


# ---------------------------------------------------------------- text from users
@pytest.mark.parametrize("text,code", [
    ("hi \ud800", "bad_unicode"),
    ("\udfff", "bad_unicode"),
    ("bell \x07", "control"),
    ("null \x00 byte", "control"),
    ("evil \u202e reversed", "control"),
    ("private \ue000", "control"),
    ("   ", "empty"),
    ("x" * 301, "too_long"),
])
def test_hostile_text_is_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(TextError) as refused:
        clean_text(text, 300)
    assert refused.value.code == code


def test_text_is_normalised_to_nfc_and_its_spaces_collapsed() -> None:
    assert clean_text("  cafe\u0301\n  au   lait ", 300) == "caf\u00e9 au lait"
    assert clean_text("a\n\n b ", 300, multiline=True) == "a\nb"


def test_a_lone_surrogate_in_chat_is_refused_and_nobody_is_blinded(sala: Sala) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    sala.guest("Bruno")
    with sala.connect("Ada", table_id, RELAYED) as ada, \
            sala.connect("Bruno", table_id, OWNER) as bruno:
        until(ada, lambda f: f["t"] == "sync")
        until(bruno, lambda f: f["t"] == "sync")
        ada.send_text('{"t": "chat", "d": {"text": "hi \\ud800"}}')
        assert _errors(ada, "bad_text")["d"]["text"]
        send(ada, "chat", text="ciao")
        for ws in (ada, bruno):
            line = until(ws, lambda f: f["t"] == "update" and f["d"]["events"])
            assert line["d"]["events"][0]["text"].endswith("ciao")
    with sala.connect("Bruno", table_id, RELAYED) as late:  # and newcomers get frames too
        assert until(late, lambda f: f["t"] == "sync")["d"]["events"]


def test_a_surrogate_stored_by_an_older_release_cannot_blind_a_table(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    app = create_app(settings)
    with client_for(app) as client:
        guest(client, "Ada")
        table_id = create_table(client)

    async def plant(store: Store) -> None:
        await store.append(table_id, 1, "chat", {"name": "Eve", "text": "hi \ud800"})
    read_store(app, plant)
    again = create_app(settings)
    with client_for(again) as client, connect(client, table_id) as ws:
        sync = until(ws, lambda f: f["t"] == "sync")
        assert "hi" in sync["d"]["events"][-1]["text"]
        _pong(ws)


def test_every_outbound_frame_is_valid_utf8_even_with_a_bad_stored_text() -> None:
    frame = P.encode("update", {"events": [{"text": "hi \ud800"}]}, 3)
    frame.encode("utf-8")  # does not raise
    assert json.loads(frame)["d"]["events"][0]["text"] == "hi \ud800"


# ---------------------------------------------------------------- restarts keep every table
def test_every_open_table_comes_back_after_a_restart_however_many(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, takeover_seconds=3600.0)
    app = create_app(settings)
    with client_for(app) as client:
        guest(client, "Ada")
        playing = create_table(client)
        with connect(client, playing) as ws:
            sit_with_bots(ws)
            before = until(ws, lambda f: f["t"] == "update" and my_turn(f))

    async def flood(store: Store) -> None:  # a guest made 10,050 empty tables after it
        async with store.engine.begin() as conn:
            await conn.execute(insert(tables), [
                {"preset": "classic", "flags": "{}", "target": 1000, "status": "open"}
                for _ in range(10_050)])
    read_store(app, flood)
    again = create_app(settings)
    with client_for(again) as client:
        assert len(again.state.room.tables) == 10_051
        with connect(client, playing) as ws:
            sync = until(ws, lambda f: f["t"] == "sync")
            assert sync["v"] == before["v"]


# ---------------------------------------------------------------- limits
def test_one_person_may_keep_only_a_few_tables_waiting(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, waiting_tables_per_user=2,
                                   tables_per_address_burst=10))
    with client_for(app) as client:
        guest(client, "Ada")
        create_table(client)
        create_table(client)
        refused = client.post("/tables", data={"preset": "classic", "flags": "", "target": ""})
        assert "the most tables waiting" in refused.text
        assert len(app.state.room.tables) == 2


def test_tables_created_from_one_address_are_limited(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, tables_per_address_burst=3,
                                   waiting_tables_per_user=100))
    with client_for(app) as client:
        people = Identities(client)
        for n in range(3):
            create_table(people.guest(f"Guest{n}"))
        refused = people.guest("Mallory").post(
            "/tables", data={"preset": "classic", "flags": "", "target": ""})
        assert "Too many tables were created from your address" in refused.text
        assert len(app.state.room.tables) == 3


def test_chat_lines_are_limited_in_rate_and_in_number(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, chat_burst=3, chat_per_minute=1.0,
                                   chat_lines_per_table=4))
    with client_for(app) as client:
        people = Identities(client)
        people.guest("Ada")
        table_id = create_table(people.use("Ada"))
        people.guest("Bruno")
        with people.connect("Ada", table_id) as ws:
            until(ws, lambda f: f["t"] == "sync")
            for n in range(3):
                send(ws, "chat", text=f"line {n}")
            send(ws, "chat", text="one too many")
            assert _errors(ws, "chat_too_fast")
        with people.connect("Bruno", table_id) as ws:
            until(ws, lambda f: f["t"] == "sync")
            send(ws, "chat", text="fourth line")
            until(ws, lambda f: f["t"] == "update")
            send(ws, "chat", text="fifth line")
            assert _errors(ws, "chat_full")
        assert app.state.room.tables[table_id].chat_lines == 4


def test_lobby_chat_is_rate_limited(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, chat_burst=2, chat_per_minute=1.0))
    with client_for(app) as client:
        guest(client, "Ada")
        with client.websocket_connect("wss://testserver/ws/lobby",
                                      headers={"origin": "https://testserver"}) as ws:
            until(ws, lambda f: f["t"] == "sync")
            for n in range(3):
                send(ws, "chat", text=f"hello {n}")
            assert _errors(ws, "chat_too_fast")


def test_websockets_from_one_address_are_limited(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, sockets_per_address=2))
    with client_for(app) as client:
        guest(client, "Ada")
        table_id = create_table(client)
        with connect(client, table_id) as one, connect(client, table_id) as two:
            until(one, lambda f: f["t"] == "sync")
            until(two, lambda f: f["t"] == "sync")
            with connect(client, table_id) as three:
                assert receive(three)["d"]["code"] == "too_many_sockets"
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive(three)
                assert closed.value.code == 1008
        assert app.state.room.sockets == {}
        with connect(client, table_id) as again:  # closed sockets free their places
            until(again, lambda f: f["t"] == "sync")


# ---------------------------------------------------------------- malformed input
def test_deeply_nested_json_gets_an_error_and_the_socket_lives_on(sala: Sala) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    with sala.connect("Ada", table_id, RELAYED) as ws:
        until(ws, lambda f: f["t"] == "sync")
        ws.send_text("[" * 2000 + "]" * 2000)
        assert _errors(ws, "too_deep")
        ws.send_text('{"t": "chat", "d": {"text": ' + "[" * 1500 + "]" * 1500 + "}}")
        assert _errors(ws, "too_deep")
        _pong(ws)


@pytest.mark.parametrize("path", ["/table/99999999999999999999", "/replay/1234567890123",
                                  "/table/-1"])
def test_huge_or_negative_ids_are_not_found(sala: Sala, path: str) -> None:
    assert sala.http("anybody", RELAYED).get(path).status_code == 404


def test_a_huge_id_on_a_websocket_is_refused_cleanly(sala: Sala) -> None:
    with pytest.raises(WebSocketDisconnect), sala.connect(
            "anybody", 99999999999999999999, RELAYED) as ws:
        ws.receive_text()


def test_an_overflowing_send_queue_keeps_its_close_marker() -> None:
    async def fill() -> list[str | None]:
        conn = Connection("u", "Ada")
        for n in range(SEND_QUEUE + 5):
            conn.send(f"frame {n}")
        assert conn.closed
        return [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
    assert asyncio.run(fill()) == [None]


def test_a_client_too_far_behind_is_closed_not_left_silent(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        guest(client, "Ada")
        table_id = create_table(client)
        with connect(client, table_id) as ws:
            until(ws, lambda f: f["t"] == "sync")
            room = app.state.room
            conn = next(iter(room.tables[table_id].connections))

            async def flood() -> None:
                # On the room's loop, at once: the writer must not drain the queue between two
                # frames (it would, from this thread, on a busy machine).
                for _ in range(SEND_QUEUE + 1):
                    conn.send(P.encode("pong", {}, 0))
            client.portal.call(flood)  # type: ignore[attr-defined]
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(SEND_QUEUE + 2):
                    receive(ws)
            assert closed.value.code == 1013


def test_an_action_chosen_on_an_older_game_is_refused_as_stale(sala: Sala) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    with sala.connect("Ada", table_id, RELAYED) as ws:
        sit_with_bots(ws)
        frame = until(ws, lambda f: f["t"] == "update" and my_turn(f))
        action = first_legal(frame["d"]["view"])
        ws.send_text(json.dumps({"t": "act", "d": {"a": action}, "v": 1}))
        assert "moved on" in _errors(ws, "stale")["d"]["text"]
        resync = until(ws, lambda f: f["t"] == "sync")
        assert resync["v"] == frame["v"]
        ws.send_text(json.dumps({"t": "act", "d": {"a": action}, "v": frame["v"]}))
        assert until(ws, lambda f: f["t"] == "update")["v"] == frame["v"] + 1


# ---------------------------------------------------------------- faults recover by themselves
def test_a_failed_save_is_retried_and_the_game_moves_on_by_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        guest(client, "Ada")
        table_id = create_table(client)
        with connect(client, table_id) as ws:
            send(ws, "sit", seat=0)
            for seat in (1, 2, 3):
                send(ws, "bot", seat=seat, level="easy")
            until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][3]["kind"]
                  == "bot")
            store = app.state.room.store
            real_append = store.append
            failures = {"start": 1, "deal": 3}

            async def flaky_append(table: int, version: int, kind: str, data: Any) -> None:
                if failures.get(kind):
                    failures[kind] -= 1
                    raise OSError("database went away")
                await real_append(table, version, kind, data)
            monkeypatch.setattr(store, "append", flaky_append)
            send(ws, "start")  # a person's action that is not saved: they are told, and retry
            assert _errors(ws, "not_saved")
            until(ws, lambda f: f["t"] == "update" and any(
                "could not save" in e["text"] for e in f["d"]["events"]))
            send(ws, "start")
            until(ws, lambda f: f["t"] == "update" and f["d"]["view"].get("started"))
            # The deal fails three times; it is the table's own move: it is retried with no
            # message from anyone, and play reaches Ada.
            until(ws, lambda f: f["t"] == "update" and any(
                "Saving works again" in e["text"] for e in f["d"]["events"]))
            until(ws, lambda f: f["t"] == "update" and my_turn(f))
        table = app.state.room.tables[table_id]
        assert table.storage_failures_total == 1 + 3
        assert table.storage_failures == 0


def test_every_table_moves_on_by_itself_after_a_postgresql_restart() -> None:
    from tests.server.postgres import running_postgres

    with running_postgres() as server:
        url = server.create_database("sala")
        app = create_app(make_settings(Path("."), db_url=url, bot_delay=0.05))
        with client_for(app) as client:
            people = Identities(client)
            ids = []
            for n in range(4):
                host = people.guest(f"Host{n}")
                table_id = create_table(host, target=2000)
                with people.connect(f"Host{n}", table_id) as ws:
                    send(ws, "sit", seat=0)
                    for seat in (1, 2, 3):
                        send(ws, "bot", seat=seat, level="easy")
                    send(ws, "start")
                    until(ws, lambda f: f["t"] == "update" and f["d"]["view"].get("started"))
                    send(ws, "stand")  # a bot plays the seat: the table runs by itself
                    until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][0][
                        "standin"])
                ids.append(table_id)
            room = app.state.room
            server.restart()
            versions = {t: room.tables[t].version for t in ids}
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not all(
                    room.tables[t].version > versions[t] + 8 for t in ids):
                time.sleep(0.2)
            assert all(room.tables[t].version > versions[t] + 8 for t in ids), (
                {t: (versions[t], room.tables[t].version) for t in ids})


def test_stored_rows_are_exactly_the_accepted_changes(sala: Sala) -> None:
    """Durability still holds: replaying the stored log gives the served view."""
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    with sala.connect("Ada", table_id, RELAYED) as ws:
        sit_with_bots(ws)
        frame = until(ws, lambda f: f["t"] == "update" and my_turn(f))
        send(ws, "act", a=255)  # refused: nothing stored
        _errors(ws, "illegal")
        stored = [entry.version for entry in sala.log(table_id)]
    assert stored == list(range(1, frame["v"] + 1))


def test_a_bot_that_runs_out_of_time_is_announced_as_a_quick_move(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, bot_timeout=0.0))  # every decision is late
    with client_for(app) as client:
        guest(client, "Ada")
        table_id = create_table(client)
        with connect(client, table_id) as ws:
            sit_with_bots(ws, level="expert")
            while True:  # play along until a bot has moved
                frame = until(ws, lambda f: f["t"] == "update" and f["d"]["events"])
                if any("quick move" in e["text"] for e in frame["d"]["events"]):
                    break
                if my_turn(frame):
                    send(ws, "act", a=first_legal(frame["d"]["view"]))
        pool = app.state.room.bots
        assert pool.stats.fallbacks["late"] >= 1

    async def rows(store: Store) -> list[Any]:
        return [e.data for e in await store.log(table_id) if e.kind == "act"]
    assert any(data.get("quick") == "late" for data in read_store(app, rows))


def test_signing_out_closes_the_sessions_open_sockets(sala: Sala) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada")
    # Two processes: the socket lives in process 0 (relayed from 1), the session ends in 1.
    with sala.connect("Ada", table_id, RELAYED) as ws:
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][0]["you"])
        assert sala.http("Ada", RELAYED).post(
            "/logout", follow_redirects=False).status_code == 303
        told = _errors(ws, "signed_out")
        assert "sign in again" in told["d"]["text"]
        with pytest.raises(WebSocketDisconnect):
            receive(ws)


@pytest.mark.parametrize("flags,named", [
    ("deal_packets=[3,3]", "deal_packets"),
    ("target_score=9223372036854775807", "target_score"),
    ("belote_points=-20", "belote_points"),
])
def test_an_impossible_setting_is_refused_before_a_table_exists(
        client: TestClient, flags: str, named: str) -> None:
    guest(client, "Ada")
    page = client.post("/tables", data={"preset": "classic", "flags": flags, "target": ""})
    assert "cannot be played" in page.text and named in page.text
    assert client.app.state.room.tables == {}  # type: ignore[attr-defined]


def test_an_empty_coinche_level_list_is_refused(client: TestClient) -> None:
    guest(client, "Ada")
    page = client.post("/tables", data={"preset": "coinche", "flags": "auction.levels=[]",
                                        "target": ""})
    assert "cannot be played" in page.text and "auction.levels" in page.text


def test_an_italian_host_is_told_in_italian_why_the_rules_cannot_be_played(
        client: TestClient) -> None:
    client.post("/preferences", data={"lang": "it", "next": "/"})
    guest(client, "Ada")
    page = client.post("/tables", data={"preset": "classic", "flags": "deal_packets=[3,3]",
                                        "target": ""})
    assert "Queste regole non si possono giocare" in page.text
    assert "non si può distribuire" in page.text
