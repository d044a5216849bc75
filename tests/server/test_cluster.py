"""Several room processes on one PostgreSQL database (issue 26, items 1, 3 and 4).

Each table runs in exactly one process (its lease); a socket or a page that reaches another
process is relayed to it; a process killed with SIGKILL has its tables taken over by the
others, resumed from the log exactly, and its players' sockets come back to them.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.server.cluster_room import ClusterRoom, cluster_room, frame, send
from tests.server.helpers import first_legal
from tests.server.postgres import postgres_url
from tests.server.test_durability import play_until_mid_hand

__all__ = ["cluster_room", "postgres_url"]  # fixtures


def seat_bots_and_start(ws: ClientConnection) -> None:
    send(ws, "sit", seat=2)
    for seat in (0, 1, 3):
        send(ws, "bot", seat=seat, level="normal")
    send(ws, "start")


def sync_of(ws: ClientConnection) -> dict[str, Any]:
    while True:
        found = frame(ws)
        if found["t"] == "sync":
            return found


@pytest.mark.slow
def test_a_table_runs_in_one_process_and_is_reached_from_the_other(
        cluster_room: ClusterRoom) -> None:
    a, b = cluster_room.processes
    ada = cluster_room.player(a, "Ada")
    table_id = ada.new_table(a)
    # The page, asked of the other process, is the owner's answer, relayed.
    page = ada.http.get(b.base + f"/table/{table_id}", headers={"Origin": b.base})
    assert page.status_code == 200
    assert page.headers["x-belote-process"] == f"127.0.0.1:{b.port}"
    assert page.headers["x-belote-owner"] == f"127.0.0.1:{a.port}"
    with ada.socket(b, table_id) as ws:
        seat_bots_and_start(ws)
        mid = play_until_mid_hand(ws, 2)
    # Through the owner itself: the same view, the same version.
    with ada.socket(a, table_id) as ws:
        again = sync_of(ws)
    assert again["v"] == mid["v"] and again["d"]["view"] == mid["d"]["view"]


@pytest.mark.slow
def test_sigkill_of_the_owner_its_tables_go_on_elsewhere_exactly(
        cluster_room: ClusterRoom) -> None:
    a, b = cluster_room.processes
    ada = cluster_room.player(a, "Ada")
    before: dict[int, dict[str, Any]] = {}
    for my_cards in (2, 4):
        table_id = ada.new_table(a)
        with ada.socket(a, table_id) as ws:
            seat_bots_and_start(ws)
            before[table_id] = play_until_mid_hand(ws, my_cards)
    # A table of bots alone, playing on while its process dies (a host must sit to seat
    # bots: Ada sits, starts and stands, and a bot plays her seat).  Its match is long: on a
    # loaded machine, a short one could end before the kill, and play on nowhere.
    bots_only = ada.new_table(a, target="100000")
    with ada.socket(a, bots_only) as ws:
        send(ws, "sit", seat=0)
        for seat in (1, 2, 3):
            send(ws, "bot", seat=seat, level="normal")
        send(ws, "start")
        send(ws, "stand")
        while not (view := frame(ws)["d"].get("view", {})).get("started") or not view[
                "seats"][0]["standin"]:
            pass
    # A socket of Ada's through b, relayed to a, open when a dies.
    first = next(iter(before))
    with ada.socket(b, first) as relayed:
        sync_of(relayed)
        a.kill()
        killed_at = time.monotonic()
        # The relayed socket is closed as "moved" (1012): the page connects again.
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                relayed.recv(timeout=20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    # The table of bots is taken over within 5 s, with nobody asking.
    deadline = killed_at + 5
    status = ""
    while time.monotonic() < deadline:
        answer = ada.http.get(b.base + f"/table/{bots_only}", headers={"Origin": b.base})
        status = answer.headers.get("x-belote-owner", answer.headers["x-belote-process"])
        if answer.status_code == 200:
            break
        time.sleep(0.2)
    assert status == f"127.0.0.1:{b.port}"
    # and its bots play on there, watched by someone else: Ada's own socket on the table
    # would take her seat back from its stand-in ("take my seat back"), and at her turn the
    # bots would rightly wait for her (a race with the kill that failed CI under load)
    watcher = cluster_room.player(b, "Wes")
    with watcher.socket(b, bots_only) as ws:
        taken = sync_of(ws)["v"]
        while (update := frame(ws))["t"] != "update":
            pass
        assert update["v"] > taken
    for table_id, old in before.items():
        with ada.socket(b, table_id) as ws:
            sync = sync_of(ws)
            assert sync["v"] == old["v"], "a stored change was lost"
            assert sync["d"]["view"] == old["d"]["view"]
            send(ws, "act", a=first_legal(sync["d"]["view"]))
            while True:
                update = frame(ws)
                if update["t"] == "update":
                    break
            assert update["v"] == old["v"] + 1
    # And a, started again, runs nothing twice: the tables stay with b.
    a.start()
    page = ada.http.get(a.base + f"/table/{first}", headers={"Origin": a.base})
    assert page.headers["x-belote-owner"] == f"127.0.0.1:{b.port}"


def lobby_socket(player: Any, process: Any) -> ClientConnection:
    from websockets.sync.client import connect
    return connect(f"ws://127.0.0.1:{process.port}/ws/lobby",
                   additional_headers={"Origin": process.base, "Cookie": player.cookie},
                   open_timeout=20)


def wait_for(ws: ClientConnection, kind: str, test: Any = lambda d: True) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = frame(ws)
        if found["t"] == kind and test(found["d"]):
            return found
    raise AssertionError(f"no {kind} frame")


@pytest.mark.slow
def test_lobby_chat_invitations_and_sign_out_are_the_same_from_every_process(
        cluster_room: ClusterRoom) -> None:
    a, b = cluster_room.processes
    ada, bob = cluster_room.player(a, "Ada"), cluster_room.player(b, "Bob")
    with lobby_socket(bob, b) as bobs_lobby, lobby_socket(ada, a) as adas_lobby:
        wait_for(bobs_lobby, "sync")
        wait_for(adas_lobby, "sync")
        # A table opened on a is listed in b's lobby.
        table_id = ada.new_table(a)
        wait_for(bobs_lobby, "tables", lambda d: any(
            c.get("id") == table_id for c in d.get("changes", [])))
        # Ada's chat line on a is heard in b's lobby.
        send(adas_lobby, "chat", text="Ciao a tutti")
        line = wait_for(bobs_lobby, "chat")
        assert "Ciao a tutti" in line["d"]["text"]
    # A private table on a: its code, typed on b, opens it (relayed to a).
    answer = ada.http.post(a.base + "/tables", data={"preset": "classic", "flags": "",
                                                     "target": "", "private": "on"},
                           headers={"Origin": a.base}, follow_redirects=False)
    private_id = int(answer.headers["location"].rsplit("/", 1)[1])
    page = ada.http.get(a.base + f"/table/{private_id}").text
    code = page.split('href="/join/', 1)[1].split('"', 1)[0]
    assert bob.http.get(b.base + f"/table/{private_id}").status_code == 403  # not invited
    joined = bob.http.get(b.base + f"/join/{code}", follow_redirects=False)
    assert joined.headers["location"].endswith(f"/table/{private_id}")
    entered = bob.http.get(b.base + f"/table/{private_id}")
    assert entered.status_code == 200 and entered.headers["x-belote-owner"].endswith(
        f":{a.port}")
    # Ada signs out on b: her socket at her table (on a, through a) closes.
    with ada.socket(a, table_id) as ws:
        sync_of(ws)
        ada.http.post(b.base + "/logout", headers={"Origin": b.base})
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=20)


@pytest.mark.parametrize("options", [
    ["--processes", "2"],  # SQLite (the default): one process only
    ["--cluster"],
    ["--processes", "2", "--db", "postgresql://x@127.0.0.1/y", "--relay-address", "a:1"],
])
def test_several_processes_are_refused_where_they_cannot_work(options: list[str]) -> None:
    from typer.testing import CliRunner

    from belote.cli import app

    result = CliRunner().invoke(app, ["serve", *options])
    assert result.exit_code == 2
    assert "--processes" in result.output or "--relay-address" in result.output


def test_the_supervisor_gives_each_process_its_port_and_the_cluster_flag() -> None:
    from belote.server.cluster.supervisor import child_args

    argv = ["--db", "postgresql://x@h/d", "--processes", "3", "--port=9000", "--pace", "1"]
    assert child_args(argv, 9001) == ["--db", "postgresql://x@h/d", "--pace", "1",
                                      "--port", "9001", "--cluster"]
