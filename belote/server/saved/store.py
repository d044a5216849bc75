"""Reading and writing saved tables: keep one (within the cap per account), list an
account's, reopen or abandon one.

Keeping a table counts each of its people's saved tables and adds this one in one
transaction that holds the database's lock from its start (PostgreSQL: the advisory lock
:data:`SAVES_LOCK`; SQLite: ``BEGIN IMMEDIATE``), so two tables saved at the same moment
by one person cannot both pass the cap, whichever processes save them.  A table changes
status only from the status it is expected to have (``open`` to ``saved``, ``saved`` to
``open``): two devices resuming one table at once reopen it once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.persistence.schema import tables
from belote.server.save_vote import SavedTable
from belote.server.saved.schema import saved_games, saved_seats

SAVES_LOCK = 0x53415645  # "SAVE": the PostgreSQL advisory lock of keeping a table


class SavedFull(Exception):
    """An account at the table has as many saved tables as it may keep."""

    def __init__(self, account: int) -> None:
        super().__init__(f"account {account} has its saved tables' cap")
        self.account = account


class NotOpen(Exception):
    """The table is not open any more (finished, expired): there is nothing to save."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One saved table, as an account's list shows it."""

    table_id: int
    preset: str
    saved: datetime
    hands: int
    totals: tuple[int, ...]
    players: tuple[tuple[int, str], ...]  # (seat, name) of each person, by seat


class SavedStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def _serialise(self, conn: AsyncConnection) -> None:
        if conn.dialect.name == "postgresql":
            await conn.execute(select(func.pg_advisory_xact_lock(SAVES_LOCK)))
        elif conn.dialect.name == "sqlite":
            await conn.exec_driver_sql("BEGIN IMMEDIATE")

    async def keep(self, saved: SavedTable, cap: int) -> None:
        """Store ``saved`` and mark its table ``saved``; raises :class:`SavedFull` (nothing
        stored) when one of its people has ``cap`` saved tables, :class:`NotOpen` when the
        table is not open."""
        async with self.engine.begin() as conn:
            await self._serialise(conn)
            accounts = sorted({s.account for s in saved.seats})
            rows = await conn.execute(
                select(saved_seats.c.account, func.count(saved_seats.c.table_id.distinct()))
                .where(saved_seats.c.account.in_(accounts))
                .group_by(saved_seats.c.account))
            counts = {int(account): int(count) for account, count in rows}
            for account in accounts:
                if int(counts.get(account, 0)) >= cap:
                    raise SavedFull(account)
            changed = await conn.execute(update(tables).where(
                tables.c.id == saved.table_id, tables.c.status == "open").values(
                    status="saved"))
            if changed.rowcount != 1:
                raise NotOpen(saved.table_id)
            await conn.execute(insert(saved_games).values(
                table_id=saved.table_id, saved=datetime.now(UTC), hands=saved.hands,
                totals=json.dumps(list(saved.totals))))
            await conn.execute(insert(saved_seats), [
                {"table_id": saved.table_id, "seat": s.seat, "account": s.account,
                 "name": s.name} for s in saved.seats])

    async def count(self, account: int) -> int:
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(func.count(saved_seats.c.table_id.distinct()))
                .where(saved_seats.c.account == account))
        return int(found or 0)

    async def mine(self, account: int) -> list[SavedGame]:
        """The saved tables ``account`` sat at, the latest saved first."""
        theirs = select(saved_seats.c.table_id).where(saved_seats.c.account == account)
        async with self.engine.connect() as conn:
            games = (await conn.execute(
                select(saved_games, tables.c.preset)
                .join(tables, tables.c.id == saved_games.c.table_id)
                .where(saved_games.c.table_id.in_(theirs))
                .order_by(saved_games.c.saved.desc(), saved_games.c.table_id.desc()))).all()
            seats = (await conn.execute(
                select(saved_seats.c.table_id, saved_seats.c.seat, saved_seats.c.name)
                .where(saved_seats.c.table_id.in_(theirs))
                .order_by(saved_seats.c.table_id, saved_seats.c.seat))).all()
        players: dict[int, list[tuple[int, str]]] = {}
        for table_id, seat, name in seats:
            players.setdefault(int(table_id), []).append((int(seat), str(name)))
        return [SavedGame(int(g.table_id), str(g.preset), g.saved, int(g.hands),
                          tuple(int(t) for t in json.loads(g.totals)),
                          tuple(players.get(int(g.table_id), ())))
                for g in games]

    async def _end(self, table_id: int, account: int, status: str) -> bool:
        """The saved table ``table_id`` of ``account``, reopened or ended (``status``);
        ``False``: it is no saved table of theirs (nothing changed)."""
        async with self.engine.begin() as conn:
            seat = (await conn.execute(select(saved_seats.c.seat).where(
                saved_seats.c.table_id == table_id,
                saved_seats.c.account == account))).first()
            if seat is None:
                return False
            changed = await conn.execute(update(tables).where(
                tables.c.id == table_id, tables.c.status == "saved").values(status=status))
            if changed.rowcount != 1:
                return False
            await conn.execute(delete(saved_seats).where(saved_seats.c.table_id == table_id))
            await conn.execute(delete(saved_games).where(saved_games.c.table_id == table_id))
        return True

    async def reopen(self, table_id: int, account: int) -> bool:
        """Open the saved table again (any process may then run it: its lease)."""
        return await self._end(table_id, account, "open")

    async def abandon(self, table_id: int, account: int) -> bool:
        """End the saved table for everyone at it: it will not be resumed (its log stays)."""
        return await self._end(table_id, account, "abandoned")
