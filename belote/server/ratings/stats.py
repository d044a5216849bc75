"""Each account's statistics per preset, with humans and with bots apart, and by week.

Read from the recorded matches (``match_results``, ``player_results``): a match with a bot
in any seat at its end counts "with bots", every other "with humans" (guests included).
Matches recorded before migration 0011 do not say whether a bot sat there: a rated one was
among four accounts (with humans, then); any other counts as "not known", never guessed.
Points per hand are the points the player's partnership scored, over the hands of the
matches that stored them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import Boolean, Integer, case, cast, func, literal, select, type_coerce
from sqlalchemy.ext.asyncio import AsyncEngine

from belote.server.ratings.schema import match_results, player_results

HUMANS, BOTS, UNKNOWN = "humans", "bots", "unknown"
COMPANIES = (HUMANS, BOTS, UNKNOWN)
WEEKS = 8  # the weeks a statistics page draws
RECENT = 20  # the latest matches listed to their player


def company(bots: bool | None) -> str:
    return UNKNOWN if bots is None else BOTS if bots else HUMANS


# Whether a bot sat at a match: stored since 0011; before, a rated match had four accounts.
WITH_BOTS = type_coerce(case((match_results.c.bots.is_not(None), match_results.c.bots),
                             (match_results.c.rated, False), else_=None), Boolean)


@dataclass(slots=True)
class Figures:
    """Matches, wins, contracts and points of one account in one company (and preset)."""

    matches: int = 0
    won: int = 0
    taken: int = 0
    made: int = 0
    failed: int = 0
    points: int = 0  # over the hands below
    hands: int = 0  # hands of the matches that stored their points

    @property
    def per_hand(self) -> float | None:
        return None if not self.hands else self.points / self.hands


@dataclass(frozen=True, slots=True)
class WeekFigures:
    week: date
    humans: Figures
    bots: Figures


@dataclass(frozen=True, slots=True)
class RecentMatch:
    """One of the latest matches of an account, with what it did to their rating."""

    table_id: int
    recorded: datetime
    preset: str
    won: bool
    bots: bool | None
    rated: bool
    repeat: int | None  # this player's k in the farming window (farming.repeats)
    weight: float | None  # 1, 0.5; 0: not rated for repetition; None: not four accounts


def _monday(moment: datetime) -> date:
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


class StatsStore:
    def __init__(self, engine: AsyncEngine,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.engine = engine
        self.clock = clock

    async def summary(self, account: int) -> dict[str, dict[str, Figures]]:
        """{preset: {company: figures}}, for the presets and companies played."""
        m, p = match_results.c, player_results.c
        known_hands = func.sum(case((p.points.is_not(None), m.hands), else_=0))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(p.preset, WITH_BOTS, func.count(), func.sum(cast(p.won, Integer)),
                       func.sum(p.taken), func.sum(p.made), func.sum(p.failed),
                       func.sum(p.points), known_hands)
                .join(match_results, m.table_id == p.table_id)
                .where(p.account == account).group_by(p.preset, WITH_BOTS))).all()
        found: dict[str, dict[str, Figures]] = defaultdict(dict)
        for preset, bots, *counts in rows:
            found[str(preset)][company(None if bots is None else bool(bots))] = Figures(
                *(int(c or 0) for c in counts))
        return {preset: found[preset] for preset in sorted(found)}

    async def weekly(self, account: int, preset: str, weeks: int = WEEKS) -> list[WeekFigures]:
        """The last ``weeks`` weeks (UTC, Monday first), the current one last; weeks with no
        match are there with zeros (a chart's gap says something too)."""
        this = _monday(self.clock())
        first = this - timedelta(weeks=weeks - 1)
        since = datetime.combine(first, datetime.min.time(), UTC)
        until = datetime.combine(this + timedelta(weeks=1), datetime.min.time(), UTC)
        m, p = match_results.c, player_results.c
        # Summed by the database, week by week (a CASE over the weeks' starts works alike on
        # SQLite and PostgreSQL): a page's work does not grow with the matches played.
        starts = [datetime.combine(first + timedelta(weeks=n), datetime.min.time(), UTC)
                  for n in range(1, weeks)]
        week_of = case(*((m.recorded < start, n) for n, start in enumerate(starts)),
                    else_=weeks - 1) if starts else literal(0)
        # Each match's week and figures in a subquery, summed by its columns outside: the
        # CASE is written once (PostgreSQL takes a GROUP BY of the CASE repeated, with its
        # own parameters, for another expression).
        known = (p.points.is_not(None)) & (m.hands > 0)
        each = (select(week_of.label("week"), WITH_BOTS.label("bots"),
                       cast(p.won, Integer).label("won"), p.taken, p.made, p.failed,
                       case((known, p.points), else_=None).label("points"),
                       case((known, m.hands), else_=0).label("hands"))
                .join(match_results, m.table_id == p.table_id)
                .where(p.account == account, p.preset == preset, m.recorded >= since,
                       m.recorded < until, WITH_BOTS.is_not(None))).subquery()
        e = each.c
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(e.week, e.bots, func.count(), func.sum(e.won), func.sum(e.taken),
                       func.sum(e.made), func.sum(e.failed), func.sum(e.points),
                       func.sum(e.hands))
                .group_by(e.week, e.bots))).all()
        table = {first + timedelta(weeks=n): [Figures(), Figures()] for n in range(weeks)}
        for index, bots, *counts in rows:
            table[first + timedelta(weeks=int(index))][1 if bots else 0] = Figures(
                *(int(c or 0) for c in counts))
        return [WeekFigures(week, h, b) for week, (h, b) in table.items()]

    async def recent(self, account: int, limit: int = RECENT) -> list[RecentMatch]:
        """The account's latest recorded matches, the latest first."""
        m, p = match_results.c, player_results.c
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(m.table_id, m.recorded, m.preset, p.won, WITH_BOTS, m.rated,
                       p.repeat, p.weight)
                .join(match_results, m.table_id == p.table_id)
                .where(p.account == account)
                .order_by(m.recorded.desc(), m.table_id.desc()).limit(limit))).all()
        return [RecentMatch(int(r[0]), r[1], str(r[2]), bool(r[3]),
                            None if r[4] is None else bool(r[4]), bool(r[5]), r[6], r[7])
                for r in rows]
