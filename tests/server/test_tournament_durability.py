"""A server killed with SIGKILL mid-round loses no tournament result: results typed by the
organiser, hands entered at a table, and results of online tables that finished while the
server was down to report them (recorded from the table's stored record at the restart)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.persistence import Store
from belote.server.tournament.service import Tournaments
from belote.server.tournament.store import TournamentStore
from tests.server.cluster_room import Process, free_port
from tests.server.conftest import client_for, make_settings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Process]:
    """The real program alone, on a SQLite file (killed and started again by the test)."""
    process = Process(f"sqlite:///{tmp_path / 'sala.db'}", free_port(), tmp_path / "serve.log",
                      [], cluster=False)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def _form(http: httpx.Client, path: str, **data: str) -> httpx.Response:
    response = http.post(path, data=data, follow_redirects=True)
    assert response.status_code == 200, response.text
    return response


@pytest.mark.slow
def test_sigkill_mid_round_loses_no_result(server: Process) -> None:
    # httpx's default of 5 s was the test's own limit, not the room's: the draw's first run
    # starts the heavy-work process, which took longer than that on a loaded CI machine.
    http = httpx.Client(base_url=server.base, headers={"Origin": server.base}, timeout=60.0)
    http.post("/register", data={"name": "Organiser", "password": "settebello"})
    response = http.post("/tournaments", data={
        "name": "Pinasca", "format": "pinasca", "preset": "pinasca", "target": "1500",
        "rounds": "3", "deals": "", "rank_by": "wins", "bye_points": "0"},
        follow_redirects=False)
    tid = int(response.headers["location"].rsplit("/", 1)[1])
    for n in range(2):
        _form(http, f"/tournaments/{tid}/do/register", club=f"Q{n}", a_player1=f"a{n}",
              a_player2=f"b{n}", b_player1=f"c{n}", b_player2=f"d{n}")
    _form(http, f"/tournaments/{tid}/do/draw")
    _form(http, f"/tournaments/{tid}/do/result", game="1", total_a="1500", total_b="1200")
    for answer in ("ns", "h", "100", "62", "", "", "", ""):
        _form(http, f"/tournaments/{tid}/games/2/entry", answer=answer, do="next")

    server.kill()
    server.start()

    export = http.get(f"/tournaments/{tid}/results.csv").text
    assert ",1500,1200,3800,1200," in export  # the typed result
    page = http.get(f"/tournaments/{tid}/games/2/entry").text
    assert "Match: N-S 100, E-W 62." in page  # the hand entered before the kill
    http.close()


def test_a_table_finished_while_the_result_was_not_reported_is_recorded_at_start(
        tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    app = create_app(settings)
    with client_for(app) as client:  # the database, migrated
        assert isinstance(client, TestClient)

    async def prepare() -> None:
        # A tournament whose game 1 has an online table that finished and stored its
        # record, but whose result never reached the tournament (the server died).
        store = Store(settings.db_url)
        await store.open()
        ts = Tournaments(TournamentStore(store.engine))
        tid = await ts.create({"name": "T", "format": "pinasca", "preset": "pinasca",
                               "target": 1500, "rounds": 1}, "organiser")
        for n in range(2):
            await ts.change(tid, "registered", {"entrants": [
                {"players": [f"a{n}", f"b{n}"], "club": f"Q{n}"},
                {"players": [f"c{n}", f"d{n}"], "club": f"Q{n}"}]}, "organiser")
        await ts.draw(tid, "organiser")
        table_id = await store.new_table("pinasca", {}, 1500)
        await ts.change(tid, "table", {"game": 1, "table_id": table_id}, "organiser")
        record = {"result": {"totals": [1200, 1530], "winner": 1}}
        await store.finish(table_id, record)
        await store.close()
    asyncio.run(prepare())

    app = create_app(settings)
    with client_for(app) as client:
        # (The results CSV is the organisers'; the standings are public.)
        standings = client.get("/tournaments/1/standings").text
        service = client.app.state.tournaments.service  # type: ignore[attr-defined]
        t = client.portal.call(service.get, 1)  # type: ignore[attr-defined]
    result = t.game(1).result
    assert result is not None and result.source == "online"
    assert (result.totals, result.scores) == ((1200, 1530), (1200, 3830))
    assert "3830" in standings
