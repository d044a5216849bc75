"""Seasons as the room and ``belote tournament season`` keep them: one row each (``seasons``,
migration 0005), its definition as JSON (:class:`belote.tournament.season.Season`), checked
before it is stored (a refusal changes nothing) and replaced whole in one transaction.

The ranking is computed when asked, from the tournaments as stored (each one brought up to
date by :meth:`~belote.server.tournament.service.Tournaments.get`), in a worker thread: up to
200 tournaments' standings would hold the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from belote.server.tournament.schema import seasons
from belote.server.tournament.service import Tournaments
from belote.tournament.events import Tournament
from belote.tournament.model import TournamentError
from belote.tournament.season import Season, SeasonLine, check_season, ranking


@dataclass(frozen=True, slots=True)
class SeasonRow:
    id: int
    owner: str
    season: Season


class SeasonStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, data: dict[str, Any], owner: str) -> int:
        checked = check_season(data)
        async with self.engine.begin() as conn:
            result = await conn.execute(insert(seasons).values(
                name=checked["name"], owner=owner, data=json.dumps(checked),
                updated=datetime.now(UTC)))
            return int(result.inserted_primary_key[0])  # type: ignore[index]

    async def get(self, sid: int) -> SeasonRow:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(seasons.c.id, seasons.c.owner, seasons.c.data)
                                      .where(seasons.c.id == sid))).first()
        if row is None:
            raise TournamentError("no_season")
        return SeasonRow(int(row[0]), str(row[1]), Season.from_data(json.loads(row[2])))

    async def all(self) -> list[SeasonRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(seasons.c.id, seasons.c.owner, seasons.c.data)
                                      .order_by(seasons.c.id.desc()))
            return [SeasonRow(int(i), str(o), Season.from_data(json.loads(d)))
                    for i, o, d in rows]

    async def change(self, sid: int, how: Callable[[dict[str, Any]], None]) -> Season:
        """Season ``sid`` changed by ``how`` (on its data), checked, then stored."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(seasons.c.data).where(seasons.c.id == sid)
                                      .with_for_update())).first()
            if row is None:
                raise TournamentError("no_season")
            data = json.loads(row[0])
            how(data)
            checked = check_season(data)
            await conn.execute(update(seasons).where(seasons.c.id == sid).values(
                name=checked["name"], data=json.dumps(checked), updated=datetime.now(UTC)))
        return Season.from_data(checked)

    async def add(self, sid: int, tid: int) -> Season:
        return await self.change(sid, lambda d: d.setdefault("tournaments", []).append(tid))

    async def remove(self, sid: int, tid: int) -> Season:
        def drop(data: dict[str, Any]) -> None:
            data["tournaments"] = [t for t in data.get("tournaments") or [] if t != tid]
        return await self.change(sid, drop)

    async def merge(self, sid: int, player: str, into: str) -> Season:
        def join(data: dict[str, Any]) -> None:
            data.setdefault("merges", {})[player] = into
        return await self.change(sid, join)

    async def unmerge(self, sid: int, player: str) -> Season:
        def part(data: dict[str, Any]) -> None:
            (data.get("merges") or {}).pop(player, None)
        return await self.change(sid, part)

    async def set_points(self, sid: int, points: list[int], others: int) -> Season:
        def put(data: dict[str, Any]) -> None:
            data.update(points=points, others=others)
        return await self.change(sid, put)


Ranked = tuple[Season, list[SeasonLine], list[tuple[int, Tournament]]]


async def season_ranking(store: SeasonStore, ts: Tournaments, sid: int) -> Ranked:
    """The season, its ranking, and its tournaments (those still in the file)."""
    season = (await store.get(sid)).season
    events: list[tuple[int, Tournament]] = []
    for tid in season.tournaments:
        try:
            events.append((tid, await ts.get(tid)))
        except TournamentError:
            continue  # not in this database any more: listed as missing by the page
    lines = await asyncio.to_thread(ranking, season, events)
    return season, lines, events
