"""The weekly league in the database: a week's standings, read from its rated matches, and
the close of the weeks that have ended, done once whichever process notices first.

Closing a week writes its results (each player's place, points and move) and a row in
``league_weeks`` keyed by the week, in one transaction that holds the database's lock
(PostgreSQL: the advisory lock :data:`LEAGUE_LOCK`; SQLite: ``BEGIN IMMEDIATE``) and first
looks for that row: a second process, a restart or a page noticing the same week closes
nothing again.  Weeks close in order, as each week's divisions come from the one before.

A page asks :meth:`LeagueStore.notice` each time; the process remembers the week it last found
every earlier week closed, and asks the database again only once the week has changed (a
closed week stays closed: the database's key keeps the close once across processes).  A
week's standings are read from that week's matches only (the index ``match_results_by_time``).
Accounts suspended or banned are left out of the standings shown and of the week's close
(their matches are kept; a week closed while they were barred has no line of theirs, which
keeps their division as it was), but still count in forming the groups: a sanction given or
lifted mid-week moves nobody else to another group.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import Float, Integer, case, cast, func, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.leagues.model import (
    DIVISIONS,
    WEEK,
    Entry,
    Line,
    all_standings,
    next_division,
    points,
    week_of,
    week_start,
)
from belote.server.leagues.schema import league_results, league_weeks
from belote.server.moderation.store import barred_accounts
from belote.server.persistence.locks import serialise
from belote.server.persistence.schema import users
from belote.server.ratings.schema import match_results, player_results

log = logging.getLogger(__name__)

LEAGUE_LOCK = 0x4C454147  # "LEAG": the PostgreSQL advisory lock of the closes


@dataclass(frozen=True, slots=True)
class PastWeek:
    """One closed week of one player (their history)."""

    week: date
    division: int
    group: int
    place: int
    points: int
    won: int
    matches: int
    move: int


def _now() -> datetime:
    return datetime.now(UTC)


class LeagueStore:
    def __init__(self, engine: AsyncEngine, clock: Callable[[], datetime] = _now) -> None:
        self.engine = engine
        self.clock = clock
        self.closed = 0  # weeks this process closed
        self.failures = 0  # closes that failed (each logged; the next notice tries again)
        self.checks = 0  # times the database was asked for weeks to close (the tests count)
        self._checked: date | None = None  # every week before this one is closed

    def current_week(self) -> date:
        return week_of(self.clock())

    async def standings(self, week: date) -> list[Line]:
        """Every group of ``week`` (closed or running), as it stands: read from that week's
        matches only, along the index by time (not kept: a deleted account's line, or a
        sanction, shows at once)."""
        async with self.engine.connect() as conn:
            return all_standings(await self._entries(conn, week))

    async def _entries(self, conn: AsyncConnection, week: date) -> list[Entry]:
        start = week_start(week)
        m, p = match_results.c, player_results.c
        won_weight = func.sum(case((p.won, cast(p.weight, Float)), else_=0.0))
        rows = (await conn.execute(
            select(p.account, users.c.name, func.min(m.recorded), func.count(),
                   func.sum(cast(p.won, Integer)), won_weight)
            .join(match_results, m.table_id == p.table_id)
            .join(users, users.c.id == p.account)
            .where(m.recorded >= start, m.recorded < start + WEEK, m.weight > 0,
                   p.weight > 0)  # (the farming rule's weight of this player)
            .group_by(p.account, users.c.name))).all()
        accounts = [int(r[0]) for r in rows]
        barred: set[int] = set((await conn.execute(
            barred_accounts(self.clock()))).scalars()) if accounts else set()
        divisions = await self._divisions(conn, week, accounts)
        return [Entry(int(r[0]), str(r[1]), divisions.get(int(r[0]), DIVISIONS),
                      _aware(r[2]), points(float(r[5] or 0.0)), int(r[4] or 0), int(r[3]),
                      barred=int(r[0]) in barred)
                for r in rows]

    async def _divisions(self, conn: AsyncConnection, week: date,
                         accounts: Sequence[int]) -> dict[int, int]:
        """Each account's division for ``week``: what its last closed week gave it."""
        if not accounts:
            return {}
        r = league_results.c
        last = (select(r.account, func.max(r.week).label("week"))
                .where(r.week < week, r.account.in_(accounts))
                .group_by(r.account).subquery())
        rows = await conn.execute(
            select(r.account, r.division, r.move)
            .join(last, (last.c.account == r.account) & (last.c.week == r.week)))
        return {int(a): next_division(int(d), int(mv)) for a, d, mv in rows}

    async def division_of(self, account: int, week: date) -> int:
        async with self.engine.connect() as conn:
            return (await self._divisions(conn, week, [account])).get(account, DIVISIONS)

    async def history(self, account: int, limit: int = 26) -> list[PastWeek]:
        """The account's closed weeks, the latest first."""
        r = league_results.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(r.week, r.division, r.group_no, r.place, r.points, r.won, r.matches,
                       r.move).where(r.account == account)
                .order_by(r.week.desc()).limit(limit))
            return [PastWeek(*row) for row in rows]

    async def notice(self) -> int:
        """:meth:`close_due`, whose failure (a database away) is logged and counted but
        stops neither the room's start nor a page: the next notice closes the week."""
        current = self.current_week()
        if self._checked == current:
            return 0  # (found closed this week already: none ends before the next)
        try:
            done = await self.close_due()
            self._checked = current
            return done
        except (SQLAlchemyError, OSError) as error:
            self.failures += 1
            log.error("leagues: the ended weeks could not be closed: %r", error)
            return 0

    async def close_due(self) -> int:
        """Close every week that has ended and is not closed; returns how many this call
        closed (0 when another process or an earlier call did)."""
        current = self.current_week()
        self.checks += 1
        async with self.engine.connect() as conn:
            last = (await conn.execute(select(func.max(league_weeks.c.week)))).scalar()
            if last is not None:
                week = last + WEEK
            else:
                # No week closed yet: the first week is that of the first rated match (read
                # along the index by time, stopping at the first).
                m = match_results.c
                first = (await conn.execute(select(m.recorded).where(m.weight > 0)
                                            .order_by(m.recorded).limit(1))).scalar()
                if first is None:
                    return 0
                week = week_of(_aware(first))
        done = 0
        while week < current:
            if await self._close(week):
                done += 1
            week += WEEK
        return done

    async def _close(self, week: date) -> bool:
        try:
            async with self.engine.begin() as conn:
                await serialise(conn, LEAGUE_LOCK)
                known = (await conn.execute(select(league_weeks.c.week)
                                            .where(league_weeks.c.week == week))).first()
                if known is not None:
                    return False
                await conn.execute(insert(league_weeks).values(week=week,
                                                               closed=self.clock()))
                lines = all_standings(await self._entries(conn, week))
                if lines:
                    await conn.execute(insert(league_results), [
                        {"week": week, "account": ln.entry.account,
                         "division": ln.division, "group_no": ln.group, "place": ln.place,
                         "points": ln.entry.points, "won": ln.entry.won,
                         "matches": ln.entry.matches, "move": ln.move} for ln in lines])
        except IntegrityError:
            return False  # closed meanwhile by a writer without the lock: once all the same
        self.closed += 1
        log.info("leagues: the week of %s closed (%d players)", week, len(lines))
        return True


def _aware(moment: datetime | str) -> datetime:
    """An aggregate's moment (``min`` loses the column's type on SQLite: text) in UTC."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
