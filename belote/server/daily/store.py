"""Reading and writing the daily duplicate's tables.

Every rule that must hold across the room's processes is a key of the database: one entry per
account and day (``enter`` finds the existing one), one table per entry and deal (``reserve``
is refused to the second request), one score per deal (``record`` writes only a missing one).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.moderation.store import barred_accounts
from belote.server.persistence.schema import sessions, tables, users

ROWS_AT_ONCE = 1000  # rows of a day read in one go (then the loop serves others)


@dataclass(frozen=True, slots=True)
class Entry:
    id: int
    day: str
    account: int
    name: str


@dataclass(frozen=True, slots=True)
class Play:
    entry: int
    deal: int
    table_id: int | None  # None: its table is being opened
    holder: str | None
    score: int | None  # None: the deal is not over (or was over too late)
    reserved: datetime  # when its opening began


@dataclass(frozen=True, slots=True)
class Result:
    """One deal played out by one entrant (a day's results)."""

    account: int  # negative: a deleted account's entry (see ``DailyStore.day``)
    deal: int
    score: int
    table_id: int


def _entrant(entry: int, account: int | None) -> int:
    """An entrant's key in a day's results: its account, or its entry's id negated once the
    account is deleted."""
    return -int(entry) if account is None else int(account)


def _play(row: object) -> Play:
    return Play(row.entry, row.deal, row.table_id, row.holder, row.score,  # type: ignore[attr-defined]
                row.reserved)  # type: ignore[attr-defined]


class DailyStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def enter(self, day: str, account: int, name: str) -> tuple[Entry, bool]:
        """The account's entry of ``day``, made if it had none; whether it was made now."""
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(insert(daily_entries).values(
                    day=day, account=account, name=name, entered=datetime.now(UTC)))
                key = result.inserted_primary_key
                assert key is not None
                return Entry(int(key[0]), day, account, name), True
        except IntegrityError:
            found = await self.entry(day, account)
            if found is None:  # (the account was deleted meanwhile)
                raise
            return found, False

    async def account_created(self, account: int) -> datetime | None:
        """When the account was made (None: unknown)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(users.c.created).where(
                users.c.id == account))).scalar()
        return found if isinstance(found, datetime) else None

    async def entry(self, day: str, account: int) -> Entry | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(daily_entries).where(
                daily_entries.c.day == day, daily_entries.c.account == account))).first()
        return None if row is None else Entry(row.id, row.day, row.account, row.name)

    async def plays(self, entry: int) -> dict[int, Play]:
        """The entry's deals begun, by number."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(daily_plays).where(
                daily_plays.c.entry == entry))).all()
        return {row.deal: _play(row) for row in rows}

    async def reserve(self, entry: int, deal: int, at: datetime) -> bool:
        """Claim the opening of the entry's deal (``at``: now); ``False``: another request
        did."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(daily_plays).values(entry=entry, deal=deal,
                                                              reserved=at))
        except IntegrityError:
            return False
        return True

    async def unreserve(self, entry: int, deal: int) -> None:
        """The deal's table could not be opened (or its opener died before saying which it
        opened): the next request tries again."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(daily_plays).where(
                daily_plays.c.entry == entry, daily_plays.c.deal == deal,
                daily_plays.c.table_id.is_(None)))

    async def opened(self, entry: int, deal: int, table_id: int, holder: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(daily_plays).where(
                daily_plays.c.entry == entry, daily_plays.c.deal == deal).values(
                table_id=table_id, holder=holder))

    async def hold(self, entry: int, deal: int, holder: str) -> None:
        """The session that holds the deal's seat now (a second browser took it)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(daily_plays).where(
                daily_plays.c.entry == entry, daily_plays.c.deal == deal).values(
                holder=holder))

    async def play_of_table(self, table_id: int) -> tuple[str, Play] | None:
        """The day and the play of a deal's table; None: not a daily table."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(daily_entries.c.day, daily_plays).join(
                    daily_entries, daily_entries.c.id == daily_plays.c.entry).where(
                    daily_plays.c.table_id == table_id))).first()
        return None if row is None else (row.day, _play(row))

    async def tables_among(self, table_ids: list[int]) -> set[int]:
        """Which of ``table_ids`` are deals of the daily (listed on its own pages only)."""
        if not table_ids:
            return set()
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(daily_plays.c.table_id).where(
                daily_plays.c.table_id.in_(table_ids)))).all()
        return {int(row.table_id) for row in rows}

    async def record(self, table_id: int, score: int | None, finished: datetime) -> bool:
        """The end of the deal of ``table_id``: the entrant's score (None: over too late
        to count); ``False``: known already (or not a daily table)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(update(daily_plays).where(
                daily_plays.c.table_id == table_id, daily_plays.c.finished.is_(None)).values(
                score=score, finished=finished))
        return bool(result.rowcount)

    async def table_finished(self, table_id: int) -> datetime | None:
        """When the room stored the table as finished (None: not yet)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(tables.c.finished).where(
                tables.c.id == table_id))).scalar()
        return found if isinstance(found, datetime) else None

    async def unfinished(self) -> list[tuple[int, str]]:
        """The tables of deals begun and not over, with their days (the sweep's work)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(daily_plays.c.table_id, daily_entries.c.day).join(
                    daily_entries, daily_entries.c.id == daily_plays.c.entry).where(
                    daily_plays.c.table_id.is_not(None),
                    daily_plays.c.finished.is_(None)))).all()
        return [(int(row.table_id), str(row.day)) for row in rows]

    async def day(self, day: str) -> tuple[dict[int, str], list[Result]]:
        """The day's entrants (account -> name) and every deal they played out.  The entry
        of a deleted account (no account, named "deleted player") is keyed by its entry's
        id, negated: it never matches an account, and its scores still count for the
        others.

        A big day is tens of thousands of rows: they are read :data:`ROWS_AT_ONCE` at a
        time, the event loop serving others between two batches (each a few milliseconds
        of Python), instead of holding it for the whole day."""
        names: dict[int, str] = {}
        results: list[Result] = []
        async with self.engine.connect() as conn:
            entrants = await conn.stream(select(
                daily_entries.c.id, daily_entries.c.account, daily_entries.c.name).where(
                daily_entries.c.day == day))
            async for batch in entrants.partitions(ROWS_AT_ONCE):
                names.update((_entrant(r.id, r.account), str(r.name)) for r in batch)
                await asyncio.sleep(0)
            rows = await conn.stream(
                select(daily_entries.c.id, daily_entries.c.account, daily_plays.c.deal,
                       daily_plays.c.score, daily_plays.c.table_id).join(
                    daily_entries, daily_entries.c.id == daily_plays.c.entry).where(
                    and_(daily_entries.c.day == day, daily_plays.c.score.is_not(None))))
            async for played in rows.partitions(ROWS_AT_ONCE):
                results.extend(Result(_entrant(r.id, r.account), int(r.deal), int(r.score),
                                      int(r.table_id)) for r in played)
                await asyncio.sleep(0)
        return names, results

    async def holders(self, day: str) -> tuple[list[tuple[int, str, str]],
                                               list[tuple[str, str]]]:
        """For :func:`shared_addresses`: each entrant with an account, its name and each
        session (public id) that held one of its deals of ``day``; and the sessions still
        kept of those accounts (secret id, the address it signed in from).  Read for a
        moderator only; nothing is stored for it."""
        accounts = select(daily_entries.c.account).where(
            daily_entries.c.day == day, daily_entries.c.account.is_not(None))
        async with self.engine.connect() as conn:
            held = (await conn.execute(select(
                daily_entries.c.account, daily_entries.c.name, daily_plays.c.holder).join(
                daily_plays, daily_plays.c.entry == daily_entries.c.id).where(
                daily_entries.c.day == day, daily_entries.c.account.is_not(None),
                daily_plays.c.holder.is_not(None)).distinct())).all()
            kept = (await conn.execute(select(sessions.c.id, sessions.c.address).where(
                sessions.c.account.in_(accounts)))).all()
        return ([(int(r.account), str(r.name), str(r.holder)) for r in held],
                [(str(r.id), str(r.address)) for r in kept])

    async def entrants(self, day: str) -> tuple[int, int]:
        """How many entered ``day``, and how many of them still have their account (a
        deleted account's entry stays, nameless: the count changes all the same); the
        unique key's index answers it."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(
                func.count(), func.count(daily_entries.c.account)).where(
                daily_entries.c.day == day))).one()
        return int(row[0]), int(row[1])

    async def pending(self, day: str) -> int:
        """The deals of ``day`` whose table was opened and whose end is not stored yet
        (until none is left, a closed day's results may still change)."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(
                select(func.count()).select_from(daily_plays).join(
                    daily_entries, daily_entries.c.id == daily_plays.c.entry).where(
                    daily_entries.c.day == day, daily_plays.c.table_id.is_not(None),
                    daily_plays.c.finished.is_(None)))).scalar_one())

    async def barred(self, day: str, now: datetime) -> frozenset[int]:
        """The entrants of ``day`` suspended or banned at ``now`` (left out of its ranking;
        their entries and scores are kept, and count again once the sanction ends)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(daily_entries.c.account).where(
                daily_entries.c.day == day,
                daily_entries.c.account.in_(barred_accounts(now))))).all()
        return frozenset(int(r.account) for r in rows)

    async def days(self, before: str, limit: int) -> list[str]:
        """The latest days with entries before ``before`` (closed days), newest first."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(daily_entries.c.day).where(
                daily_entries.c.day < before).group_by(daily_entries.c.day).order_by(
                daily_entries.c.day.desc()).limit(limit))).all()
        return [str(r.day) for r in rows]
