"""The tournament store on SQLite and PostgreSQL: events in, the same tournament out, and a
projection a query can read."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from sqlalchemy import select

from belote.server.persistence import Store
from belote.server.tournament.schema import tournament_games, tournament_players
from belote.server.tournament.service import Tournaments
from belote.server.tournament.store import TournamentStore
from belote.tournament.model import TournamentError
from belote.tournament.standings import standings
from tests.server.postgres import fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 't.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def test_a_tournament_survives_a_reopening_with_its_projection(db_url: str) -> None:
    async def main() -> None:
        store = Store(db_url)
        await store.open()
        ts = Tournaments(TournamentStore(store.engine), random.Random(1))
        tid = await ts.create({"name": "Concours", "format": "concours", "preset": "classic",
                               "target": 1000, "rounds": 2}, "org")
        for n in range(4):
            await ts.change(tid, "registered", {"entrants": [
                {"players": [f"P{n}", f"Q{n}"], "checked_in": True}]}, "org")
        t = await ts.draw(tid, "org")
        assert t.current is not None
        first = t.current.games[0].id
        await ts.record(tid, first, [1010, 700], "entry", "org")
        with pytest.raises(TournamentError):
            await ts.record(tid, first, [1010, 800], "entry", "org")  # refused: unchanged
        await ts.change(tid, "corrected", {"game": first, "totals": [1010, 800],
                                           "reason": "misread"}, "org")
        expected = [line.total for line in standings(await ts.get(tid))]
        await store.close()  # ts's store is closed: ts is not asked again

        store = Store(db_url)
        await store.open()
        again = await TournamentStore(store.engine).load(tid)
        assert again is not None
        assert [line.total for line in standings(again)] == expected
        assert again.audit[-1].data["was"] == [1010, 700]
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(tournament_games.c.totals, tournament_games.c.source)
                                       .where(tournament_games.c.id == first))).all()
            assert [(json.loads(r[0]), r[1]) for r in rows] == [([1010, 800], "organiser")]
            players = (await conn.execute(select(tournament_players.c.name))).all()
            assert len(players) == 8
        await store.close()
    asyncio.run(main())


def test_a_table_opened_by_another_process_is_found_for_its_result(db_url: str) -> None:
    """Issue 26: the process that hears a table finish may not be the one that made the
    tournament or opened the table; it finds the game in the store, as stored now."""
    async def main() -> None:
        stores = [Store(db_url), Store(db_url)]
        for store in stores:
            await store.open()
        try:
            here, there = (Tournaments(TournamentStore(s.engine), random.Random(2))
                           for s in stores)
            assert await there.load_running() == []  # its start: nothing to cache yet
            tid = await here.create({"name": "Coppa", "format": "concours",
                                     "preset": "classic", "target": 1000, "rounds": 1},
                                    "org")
            for n in range(4):
                await here.change(tid, "registered", {"entrants": [
                    {"players": [f"P{n}", f"Q{n}"], "checked_in": True}]}, "org")
            t = await here.draw(tid, "org")
            assert t.current is not None
            game = t.current.games[0].id
            assert await there.game_of_table(501) is None
            await there.get(tid)  # cached before the table is opened: stale below
            await here.change(tid, "table", {"game": game, "table_id": 501}, "org")
            found = await there.game_of_table(501)
            assert found is not None and found[0] == tid and found[1].id == game
            assert found[1].result is None
            await here.record(tid, game, [1010, 700], "online", "table")
            found = await there.game_of_table(501)
            assert found is not None and found[1].result is not None  # what is stored now
            assert await there.game_of_table(502) is None
        finally:
            for store in stores:
                await store.close()
    asyncio.run(main())


def test_an_owners_open_tournaments_are_counted_once_for_every_process(db_url: str) -> None:
    """Issue 26: the limit of tournaments not finished per owner holds across the room's
    processes: the count and the new row are one transaction (a lock per owner on
    PostgreSQL), not an in-process lock."""
    async def main() -> list[object]:
        stores = [Store(db_url), Store(db_url)]
        for store in stores:
            await store.open()
        try:
            services = [Tournaments(TournamentStore(s.engine), random.Random(3),
                                    open_per_owner=2) for s in stores]
            data = {"name": "Coppa", "format": "concours", "preset": "classic",
                    "target": 1000, "rounds": 1}
            return await asyncio.gather(
                *(services[n % 2].create(data, "org") for n in range(6)),
                return_exceptions=True)
        finally:
            for store in stores:
                await store.close()
    results = asyncio.run(main())
    made = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, TournamentError)]
    assert len(made) == 2 and len(refused) == 4, results
    assert all(r.code == "too_many_tournaments" for r in refused)
