"""Reading and writing the ratings' tables; recording a match happens once, whatever calls it.

:meth:`RatingsStore.record` writes a match's row, its players' rows and their new ratings in
one transaction, and does nothing if the match's row is already there: a table that reports
twice, or a restart that catches up on a match already recorded, rates nobody twice.

Ratings are read, moved and written back (a read-modify-write): two matches of one player
finishing together, in one process or in two processes of the room (issue 26), must not lose
an update.  So each record is one transaction that holds the database's own lock from its
start: on PostgreSQL the transaction-scoped advisory lock :data:`RATINGS_LOCK` (every
recording of every process waits for it: recordings are rare and short, one at a time is
plenty), on SQLite ``BEGIN IMMEDIATE`` (the file's write lock).  Each match thus moves the
ratings from where the match recorded just before it left them, in the order of
``match_results.recorded``.

Under the same lock the rule against farming (:mod:`.farming`) counts, in one indexed query,
the matches each pair of the four accounts played together within its window: each player's
row is stored with their count and weight, their rating moves by that weight, and the match
rates nobody when every weight is 0 (its ``rated`` is then false).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import Integer, cast, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.persistence.locks import serialise
from belote.server.persistence.schema import tables, users
from belote.server.ratings.farming import WINDOW, Pair, four_key, pair, repeats, weight
from belote.server.ratings.model import (
    PROVISIONAL,
    START,
    MatchOutcome,
    provisional,
    rate,
    shown,
)
from belote.server.ratings.schema import match_results, player_results, ratings

log = logging.getLogger(__name__)

# The key of the PostgreSQL advisory lock that serialises rating updates ("RATE" in ASCII):
# a constant of the room, the same in every process.
RATINGS_LOCK = 0x52415445


@dataclass(frozen=True, slots=True)
class PresetStats:
    """One account's figures in one preset (a profile's row)."""

    preset: str
    played: int
    won: int
    taken: int
    made: int
    failed: int
    rating: float | None  # the rating shown (model.shown); None: never rated in this preset
    rated: int  # rated matches

    @property
    def provisional(self) -> bool:
        return provisional(self.rated)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a leaderboard."""

    account: int
    name: str
    rating: float
    matches: int
    won: int

    @property
    def provisional(self) -> bool:
        return provisional(self.matches)


def _now() -> datetime:
    return datetime.now(UTC)


class RatingsStore:
    def __init__(self, engine: AsyncEngine, clock: Callable[[], datetime] = _now) -> None:
        self.engine = engine
        self.clock = clock  # the moment a match is recorded (tests: a fake clock)
        self.unrated_repeats = 0  # matches this process left unrated by the farming rule

    async def record(self, table_id: int, result: MatchOutcome) -> bool:
        """Store a finished match's outcome; ``False``: it was recorded already."""
        try:
            async with self.engine.begin() as conn:
                # This transaction's ratings are the latest until it ends (persistence/locks.py).
                await serialise(conn, RATINGS_LOCK)
                if await self._known(conn, table_id):
                    return False
                result = await self._without_deleted(conn, result)
                now = self.clock()
                four: str | None = None
                k: dict[int, int] = {}
                weights: dict[int, float] = {}
                if result.rated:
                    accounts = [p.account for p in result.players]
                    four = four_key(accounts)
                    k = repeats(accounts, await self._pairs(conn, accounts, now))
                    weights = {a: weight(n) for a, n in k.items()}
                    if min(weights.values()) < 1.0:
                        # Counted and logged; each player reads it on their statistics page.
                        log.info("ratings: table %s: accounts %s met again within %s: "
                                 "repeats %s, weights %s", table_id, four, WINDOW, k, weights)
                    if not any(weights.values()):
                        result = replace(result, rated=False)
                        self.unrated_repeats += 1
                await conn.execute(insert(match_results).values(
                    table_id=table_id, preset=result.preset, rated=result.rated,
                    winner=result.winner, recorded=now, bots=result.bots,
                    hands=result.hands, four=four, repeat=max(k.values(), default=None),
                    weight=max(weights.values(), default=None)))
                if result.players:
                    await conn.execute(insert(player_results), [
                        {"table_id": table_id, "account": p.account,
                         "preset": result.preset, "won": p.won, "taken": p.taken,
                         "made": p.made, "failed": p.failed, "points": p.points,
                         "recorded": now, "repeat": k.get(p.account),
                         "weight": weights.get(p.account)}
                        for p in result.players])
                if result.rated:
                    await self._rate(conn, result, weights)
        except IntegrityError:
            # The match's key taken meanwhile (a database whose writers do not all take
            # the lock: an older release beside this one): once only all the same.
            return False
        return True

    async def _without_deleted(self, conn: AsyncConnection,
                               result: MatchOutcome) -> MatchOutcome:
        """``result`` without the accounts deleted while the match was played
        (belote/server/personal_data): their seats count as guests' (no result kept), and the
        match is not rated (a rating moves four accounts).  Without this the match could never
        be stored (its rows would name a missing account) and the others' results were lost."""
        wanted = {p.account for p in result.players}
        if not wanted:
            return result
        present = {int(r[0]) for r in await conn.execute(
            select(users.c.id).where(users.c.id.in_(wanted)))}
        if present == wanted:
            return result
        return replace(result, rated=False,
                       players=tuple(p for p in result.players if p.account in present))

    async def _known(self, conn: AsyncConnection, table_id: int) -> bool:
        row = (await conn.execute(select(match_results.c.table_id)
                                  .where(match_results.c.table_id == table_id))).first()
        return row is not None

    async def _pairs(self, conn: AsyncConnection, accounts: list[int],
                     now: datetime) -> dict[Pair, int]:
        """How many matches of four accounts each pair of ``accounts`` played together
        within the window (pairs that played none are absent): one query, which reads each
        account's matches of the window by ``player_results_by_time``."""
        me, other = player_results.alias("me"), player_results.alias("other")
        found = await conn.execute(
            select(me.c.account, other.c.account, func.count())
            .select_from(me.join(other, other.c.table_id == me.c.table_id))
            .where(me.c.account.in_(accounts), me.c.recorded > now - WINDOW,
                   me.c.weight.is_not(None), other.c.account.in_(accounts),
                   other.c.account > me.c.account)
            .group_by(me.c.account, other.c.account))
        return {pair(int(a), int(b)): int(n) for a, b, n in found}

    async def _rate(self, conn: AsyncConnection, result: MatchOutcome,
                    weights: dict[int, float]) -> None:
        """Move each player's rating by their own weight (a player of weight 0 keeps theirs,
        and the match does not count among their rated ones)."""
        assert result.winner is not None
        seats = sorted(result.players, key=lambda p: p.seat)
        found = {int(r.account): (float(r.mu), float(r.sigma)) for r in await conn.execute(
            select(ratings.c.account, ratings.c.mu, ratings.c.sigma).where(
                ratings.c.preset == result.preset,
                ratings.c.account.in_([p.account for p in seats])))}
        after = rate([found.get(p.account, START) for p in seats], result.winner,
                     [weights[p.account] for p in seats])
        for player, (mu, sigma) in zip(seats, after, strict=True):
            if weights[player.account] == 0.0:
                continue
            won = int(player.won)
            if player.account in found:
                await conn.execute(update(ratings).where(
                    ratings.c.account == player.account, ratings.c.preset == result.preset
                ).values(mu=mu, sigma=sigma, matches=ratings.c.matches + 1,
                         won=ratings.c.won + won))
            else:
                await conn.execute(insert(ratings).values(
                    account=player.account, preset=result.preset, mu=mu, sigma=sigma,
                    matches=1, won=won))

    async def unrecorded(self) -> list[int]:
        """Finished tables whose match is not recorded yet (a restart catches up), oldest
        first."""
        recorded = select(match_results.c.table_id)
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(tables.c.id).where(
                tables.c.status == "finished", tables.c.id.not_in(recorded)
            ).order_by(tables.c.id))
            return [int(r[0]) for r in rows]

    async def account(self, name: str) -> tuple[int, str] | None:
        """(id, name) of the account called exactly ``name``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users.c.id, users.c.name)
                                      .where(users.c.name == name))).first()
        return None if row is None else (int(row[0]), str(row[1]))

    async def profile(self, account: int) -> list[PresetStats]:
        """The account's figures, one row per preset it has played (presets by name)."""
        p = player_results.c
        async with self.engine.connect() as conn:
            counts = (await conn.execute(
                select(p.preset, func.count(), func.sum(cast(p.won, Integer)),
                       func.sum(p.taken), func.sum(p.made), func.sum(p.failed))
                .where(p.account == account).group_by(p.preset))).all()
            rated = {str(r.preset): r for r in await conn.execute(
                select(ratings).where(ratings.c.account == account))}
        stats = []
        for preset, played, won, taken, made, failed in counts:
            r = rated.get(str(preset))
            stats.append(PresetStats(
                str(preset), int(played), int(won or 0), int(taken or 0), int(made or 0),
                int(failed or 0), None if r is None else shown(r.mu, r.sigma),
                0 if r is None else int(r.matches)))
        return sorted(stats, key=lambda s: s.preset)

    async def leaderboard(self, preset: str, limit: int = 100) -> list[Standing]:
        """The rated players of ``preset``: the established ones (:data:`PROVISIONAL` rated
        matches or more) by rating, then the provisional ones by rating."""
        established = (ratings.c.matches >= PROVISIONAL)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(users.c.id, users.c.name, ratings.c.mu, ratings.c.sigma,
                       ratings.c.matches, ratings.c.won)
                .join(users, users.c.id == ratings.c.account)
                .where(ratings.c.preset == preset)
                .order_by(established.desc(), ratings.c.mu.desc(), users.c.name).limit(limit))
            return [Standing(int(r[0]), str(r[1]), shown(float(r[2]), float(r[3])),
                             int(r[4]), int(r[5])) for r in rows]
