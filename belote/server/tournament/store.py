"""The tournaments' repository: events in, tournaments out, on the room's database engine.

Each change is one transaction: the event row (the audit log) and the rewritten projection
(entrants, players, rounds, games, adjustments) commit together or not at all, so a killed
server never holds a result in one and not the other.  A tournament is loaded by replaying
its events (:meth:`belote.tournament.events.Tournament.replay`).

The room and ``belote tournament`` may share one SQLite file.  An event's number is part of
its row's key, so two writers that built on the same log cannot both store their change:
the second's insert fails (:class:`StaleLog`), and it reads the log again
(:meth:`count`, :meth:`events` from a number) before trying again.  A file locked longer
than SQLite's busy timeout is :class:`StoreBusy`, said in words by the caller.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.tournament.schema import (
    PROJECTIONS,
    tournament_adjustments,
    tournament_entrants,
    tournament_events,
    tournament_games,
    tournament_organisers,
    tournament_players,
    tournament_rounds,
    tournaments,
)
from belote.tournament.events import Event, Tournament
from belote.tournament.model import TournamentError

OWNER_LOCKS = 0x544F55  # advisory locks of one owner's creations: b"TOU", then the owner


class StaleLog(Exception):
    """Another writer stored an event with the same number first: read the log again."""


class StoreBusy(Exception):
    """The database stayed locked by another writer past its busy timeout."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    name: str
    format: str
    state: str
    owner: str


def _now() -> datetime:
    return datetime.now(UTC)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


CHUNK = 256  # projection rows written by one statement


def _projection_rows(tid: int, t: Tournament) -> list[tuple[Table, list[dict[str, Any]]]]:
    """The projection's rows of each table (entrants, players, rounds, games, adjustments)."""
    entrants = list(t.entrants.values())
    games = t.games()
    return [
        (tournament_entrants, [
            {"tournament_id": tid, "id": e.id, "name": e.name, "club": e.club,
             "checked_in": e.checked_in} for e in entrants]),
        (tournament_players, [
            {"tournament_id": tid, "entrant_id": e.id, "position": i, "name": p}
            for e in entrants for i, p in enumerate(e.players)]),
        (tournament_rounds, [
            {"tournament_id": tid, "number": r.number, "closed": r.closed}
            for r in t.rounds]),
        (tournament_games, [
            {"tournament_id": tid, "id": g.id, "round": g.round, "table_no": g.table,
             "sides": _json(g.sides), "lineup": _json(g.lineup), "table_id": g.table_id,
             "totals": None if g.result is None else _json(g.result.totals),
             "scores": None if g.result is None else _json(g.result.scores),
             "winner": None if g.result is None else g.result.winner,
             "source": None if g.result is None else g.result.source}
            for g in games]),
        (tournament_adjustments, [
            {"tournament_id": tid, "number": i + 1, "subject": a.subject,
             "points": a.points, "reason": a.reason, "by": a.by}
            for i, a in enumerate(t.adjustments)]),
    ]


class TournamentStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, event: Event, owner: str, limit: int | None = None) -> int:
        """A new tournament from its checked ``created`` event; returns its id.  With
        ``limit``, refused (``TournamentError``) when ``owner`` has that many not finished:
        counted in the same transaction, under a lock per owner on PostgreSQL, so that two
        of the room's processes cannot both pass the count (SQLite: one process)."""
        s = event.data
        async with self.engine.begin() as conn:
            if limit is not None:
                if conn.dialect.name == "postgresql":
                    await conn.execute(text("SELECT pg_advisory_xact_lock(:ns, hashtext(:o))"),
                                       {"ns": OWNER_LOCKS, "o": owner})
                elif conn.dialect.name == "sqlite":
                    await conn.exec_driver_sql("BEGIN IMMEDIATE")  # the file's write lock
                count = await conn.scalar(select(func.count()).select_from(tournaments).where(
                    tournaments.c.owner == owner, tournaments.c.state != "finished"))
                if int(count or 0) >= limit:
                    raise TournamentError("too_many_tournaments", limit=limit)
            result = await conn.execute(insert(tournaments).values(
                name=s["name"], format=s["format"], preset=s["preset"],
                flags=_json(s["flags"]), target=s["target"], rounds=s["rounds"],
                deals=s["deals"], rank_by=s["rank_by"], bye_points=s["bye_points"],
                standins=s["standins"], state="registration", owner=owner))
            tid = int(result.inserted_primary_key[0])  # type: ignore[index]
            await conn.execute(insert(tournament_organisers).values(
                tournament_id=tid, name_key=owner))
            await self._event(conn, tid, 1, event)
        return tid

    async def append(self, tid: int, tournament: Tournament, event: Event) -> None:
        """Store ``event``, already applied to ``tournament`` (its number is the audit's
        length), with the projection of the tournament after it."""
        await self.append_all(tid, tournament, [event])

    async def append_all(self, tid: int, tournament: Tournament, events: list[Event]) -> None:
        """Store ``events``, the last ones applied to ``tournament``, in one transaction with
        the projection after them: all or none (a refused file changes nothing).  Raises
        :class:`StaleLog` if another writer stored any of their numbers first, and
        :class:`StoreBusy` if the database stayed locked."""
        first = len(tournament.audit) - len(events) + 1
        try:
            async with self.engine.begin() as conn:
                for number, event in enumerate(events, start=first):
                    await self._event(conn, tid, number, event)
                await self._project(conn, tid, tournament)
        except IntegrityError as error:
            raise StaleLog(str(error.orig)) from error
        except OperationalError as error:
            if "locked" in str(error.orig) or "busy" in str(error.orig):
                raise StoreBusy(str(error.orig)) from error
            raise

    async def count(self, tid: int) -> int:
        """How many events tournament ``tid`` has stored (another writer may have added
        some since this process read them)."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(select(func.max(tournament_events.c.number))
                                      .where(tournament_events.c.tournament_id == tid))
            return int(found or 0)

    async def _event(self, conn: AsyncConnection, tid: int, number: int, event: Event) -> None:
        await conn.execute(insert(tournament_events).values(
            tournament_id=tid, number=number, kind=event.kind, data=_json(event.data),
            by=event.by, at=datetime.fromisoformat(event.at) if event.at else _now()))

    async def _project(self, conn: AsyncConnection, tid: int, t: Tournament) -> None:
        """Rewrite the tournament's projection: its rows are built in a worker thread, then
        written ``CHUNK`` rows a statement (each statement's work on the loop stays small,
        whatever the tournament's size: at most ``MAX_ENTRANTS`` entrants)."""
        rows = await asyncio.to_thread(_projection_rows, tid, t)
        for table in PROJECTIONS:
            await conn.execute(delete(table).where(table.c.tournament_id == tid))
        await conn.execute(update(tournaments).where(tournaments.c.id == tid)
                           .values(state=t.state))
        for table, values in rows:
            for start in range(0, len(values), CHUNK):
                await conn.execute(insert(table), values[start:start + CHUNK])

    async def events(self, tid: int, after: int = 0) -> list[Event]:
        """The events of tournament ``tid`` numbered past ``after``, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tournament_events.c.kind, tournament_events.c.data,
                       tournament_events.c.by, tournament_events.c.at)
                .where(tournament_events.c.tournament_id == tid,
                       tournament_events.c.number > after)
                .order_by(tournament_events.c.number))
            return [Event(str(k), json.loads(d), str(b), at.isoformat() if at else "")
                    for k, d, b, at in rows]

    async def load(self, tid: int) -> Tournament | None:
        """The tournament replayed from its events, in a worker thread (a big tournament's
        replay, every hand of every sheet, would hold the event loop)."""
        events = await self.events(tid)
        return await asyncio.to_thread(Tournament.replay, events) if events else None

    async def list(self) -> list[TournamentRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tournaments.c.id, tournaments.c.name, tournaments.c.format,
                       tournaments.c.state, tournaments.c.owner)
                .order_by(tournaments.c.id.desc()))
            return [TournamentRow(int(i), str(n), str(f), str(s), str(o))
                    for i, n, f, s, o in rows]

    async def open_count(self, owner: str) -> int:
        """How many of ``owner``'s tournaments are not finished."""
        async with self.engine.connect() as conn:
            count = await conn.scalar(select(func.count()).select_from(tournaments).where(
                tournaments.c.owner == owner, tournaments.c.state != "finished"))
            return int(count or 0)

    async def tournament_of_table(self, table_id: int) -> int | None:
        """The tournament whose game the room's table ``table_id`` plays (its projection,
        written with each event: whichever process stored it)."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(tournament_games.c.tournament_id)
                .where(tournament_games.c.table_id == table_id)
                .order_by(tournament_games.c.tournament_id).limit(1))
        return None if found is None else int(found)

    async def organisers(self, tid: int) -> set[str]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(tournament_organisers.c.name_key)
                                      .where(tournament_organisers.c.tournament_id == tid))
            return {str(r[0]) for r in rows}

    async def add_organiser(self, tid: int, name_key: str) -> None:
        async with self.engine.begin() as conn:
            found = await conn.scalar(select(func.count()).select_from(tournament_organisers)
                                      .where(tournament_organisers.c.tournament_id == tid,
                                             tournament_organisers.c.name_key == name_key))
            if not found:
                await conn.execute(insert(tournament_organisers).values(
                    tournament_id=tid, name_key=name_key))
