"""Issue 28, items 5 and 6: ratings that volume cannot farm, statistics with humans and with
bots apart, weekly leagues with promotion and relegation (docs/ratings.md, docs/room.md)."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.composition import metadata
from belote.server.leagues.model import (
    DIVISIONS,
    GROUP_SIZE,
    Entry,
    all_standings,
    movers,
    next_division,
    standings,
    week_of,
)
from belote.server.leagues.schema import league_results, league_weeks
from belote.server.leagues.store import LeagueStore
from belote.server.moderation.schema import sanctions
from belote.server.persistence import Store
from belote.server.persistence.migrate import config_for, upgrade
from belote.server.ratings.farming import PAIR_BUDGET, four_key, pair, repeats, weight
from belote.server.ratings.model import (
    PROVISIONAL,
    START,
    MatchOutcome,
    PlayerResult,
    rate,
    shown,
)
from belote.server.ratings.schema import match_results, player_results, ratings
from belote.server.ratings.stats import StatsStore
from belote.server.ratings.store import RatingsStore
from belote.server.seats import Seat
from tests.server.conftest import client_for, make_settings
from tests.server.postgres import fresh_database
from tests.server.test_migrations import on_connection
from tests.server.test_ratings import play_seated

MONDAY = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)  # a Monday, 09:00 UTC


class Clock:
    """A fake clock the stores read; the test moves it."""

    def __init__(self, start: datetime = MONDAY) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def match(accounts: list[int], winner: int, *, bots: bool = False, hands: int = 4,
          points: tuple[int, int] = (0, 0), taken: int = 0) -> MatchOutcome:
    """Four account holders by seat (North, East, South, West); ``winner``'s team won."""
    return MatchOutcome("classic", winner, tuple(
        PlayerResult(seat, account, seat % 2 == winner, taken, taken, 0, points[seat % 2])
        for seat, account in enumerate(accounts)), rated=not bots, bots=bots, hands=hands)


def on_database(tmp_path: Path, body: Callable[[Store, Clock], Awaitable[Any]],
                url: str | None = None) -> Any:
    """``await body(store, clock)`` on a fresh database of its own (SQLite by default)."""
    async def main() -> Any:
        store = Store(url or f"sqlite:///{tmp_path / 'leagues.db'}")
        await store.open()
        try:
            return await body(store, Clock())
        finally:
            await store.close()
    return asyncio.run(main())


async def accounts(store: Store, count: int, prefix: str = "P") -> list[int]:
    return [await store.add_user(f"{prefix}{n}", "$argon2id$test") for n in range(count)]


async def record(store: Store, recorder: RatingsStore, result: MatchOutcome) -> int:
    table_id = await store.new_table("classic", {}, 1)
    assert await recorder.record(table_id, result)
    return table_id


async def rating_of(store: Store, account: int) -> Any:
    async with store.engine.connect() as conn:
        return (await conn.execute(sa.select(ratings).where(
            ratings.c.account == account))).first()


# ---------------------------------------------------------------------------- the rule
def test_the_farming_weights_fall_and_stop_and_the_set_of_four_ignores_seats() -> None:
    assert [weight(k) for k in range(1, 8)] == [1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0]
    assert four_key([4, 1, 3, 2]) == four_key([1, 2, 3, 4]) == "1,2,3,4"
    with pytest.raises(ValueError, match="four different"):
        four_key([1, 1, 2, 3])
    with pytest.raises(ValueError, match="from 1"):
        weight(0)


def test_each_player_counts_the_other_account_they_met_most() -> None:
    """A player's k is 1 + the most earlier matches with one of the three others, partner or
    opponent: two friends who met four times already count their 5th, while a newcomer at
    their table, meeting them for the first time, counts their 1st."""
    earlier = {pair(1, 2): 4, pair(1, 3): 1, pair(3, 4): 2}
    assert repeats([1, 2, 3, 4], earlier) == {1: 5, 2: 5, 3: 3, 4: 3}
    assert repeats([1, 5, 6, 7], earlier) == {1: 1, 5: 1, 6: 1, 7: 1}
    assert pair(9, 2) == pair(2, 9) == (2, 9) and PAIR_BUDGET == 3.0
    with pytest.raises(ValueError, match="four different"):
        repeats([1, 1, 2, 3], earlier)


def test_a_half_weight_match_moves_mu_and_sigma_by_half_a_full_match() -> None:
    full = rate([START] * 4, winner=0)
    half = rate([START] * 4, winner=0, weight=0.5)
    for (mu, sigma), (hmu, hsigma) in zip(full, half, strict=True):
        assert hmu - START[0] == pytest.approx((mu - START[0]) / 2)
        assert hsigma - START[1] == pytest.approx((sigma - START[1]) / 2)
    with pytest.raises(ValueError, match="weighs"):
        rate([START] * 4, winner=0, weight=0.0)
    # A weight per seat: each seat moves by its own, a seat of weight 0 not at all.
    mixed = rate([START] * 4, winner=0, weight=[1.0, 0.0, 0.5, 1.0])
    assert mixed[0] == full[0] and mixed[1] == START and mixed[2] == half[2]
    assert mixed[3] == full[3]
    with pytest.raises(ValueError, match="one seat more than 0"):
        rate([START] * 4, winner=0, weight=[0.0] * 4)


FARM_BOUND = 5.0  # the most the farmer's shown rating may rise (docs/ratings.md)


def test_the_farm_of_the_issue_one_person_four_accounts_60_matches_in_18_seconds(
        tmp_path: Path) -> None:
    """Issue 28: one person with four accounts plays 60 rated matches in 18 s, always letting
    the same partnership win.  Without the rule the winner's mu would climb 14.7 points and
    the old shown value (mu - 3 sigma) 20; with it the farmer's shown rating rises by less
    than FARM_BOUND, 56 of the 60 matches are not rated, and each says so."""
    async def body(store: Store, clock: Clock) -> Any:
        farm = await accounts(store, 4, "Farm")
        recorder = RatingsStore(store.engine, clock)
        seatings = [farm, [farm[0], farm[3], farm[2], farm[1]]]  # rotating changes nothing
        for n in range(60):
            await record(store, recorder, match(seatings[n % 2], winner=0))
            clock.now += timedelta(seconds=0.3)
        farmer = await rating_of(store, farm[0])
        async with store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(match_results)
                                       .order_by(match_results.c.table_id))).all()
        return farmer, rows, recorder.unrated_repeats

    farmer, rows, unrated = on_database(tmp_path, body)
    rise = shown(farmer.mu, farmer.sigma) - shown(*START)
    assert 0 < rise < FARM_BOUND, rise
    assert farmer.matches == 4 and farmer.won == 4
    assert [r.weight for r in rows[:6]] == [1.0, 1.0, 0.5, 0.5, 0.0, 0.0]
    assert [r.repeat for r in rows] == list(range(1, 61))
    assert [r.rated for r in rows].count(True) == 4 and unrated == 56
    # What the rule prevents (the test fails without it): 60 full wins.
    unruled = [START] * 4
    for _ in range(60):
        unruled = rate(unruled, winner=0)
    assert unruled[0][0] - START[0] > 2.5 * FARM_BOUND


RING = 8  # the farm of review 28's finding 3: one main account and seven others
RING_BOUND = 10.0  # the most the main account's shown rating may rise (docs/ratings.md)


def ring_farm(others: list[int], played: Counter[tuple[int, int]], main: int,
              n: int) -> tuple[int, int, int]:
    """The most demanding rotation of a farm: among every partner and pair of opponents
    from ``others``, the table where the main account met its most met account least,
    then the table of least met pairs (``played``: the farm's pairs so far)."""
    def cost(choice: tuple[int, int, int]) -> tuple[int, int, int]:
        four = [main, *choice]
        return (max(played[pair(main, b)] for b in choice),
                sum(played[pair(a, b)] for a, b in itertools.combinations(four, 2)), n)
    tables = [(p, *(o for o in three if o != p))
              for three in itertools.combinations(others, 3) for p in three]
    return min(tables, key=lambda t: cost((t[0], t[1], t[2])))


def test_a_farm_rotated_over_eight_accounts_gains_little_rating_and_few_league_points(
        tmp_path: Path) -> None:
    """Review 28, finding 3: one person with a main account and seven others plays 140 rated
    matches in one day, the main account always winning, each table chosen to meet the main
    account's least met accounts (every rotation of the sets of four).  The rule counts
    pairs: the main account's weights add up to at most RING - 1 (7) within the week
    (docs/ratings.md), its shown rating rises by less than RING_BOUND, and its league points
    are at most 2 (RING - 1).  The old rule (the same set of four) gave it 70 full and 70
    half matches: 25 -> 58 in the review's replay."""
    async def body(store: Store, clock: Clock) -> Any:
        main, *others = await accounts(store, RING, "Ring")
        recorder = RatingsStore(store.engine, clock)
        played: Counter[tuple[int, int]] = Counter()
        old_rule: Counter[str] = Counter()
        old_weights = 0.0
        for n in range(140):
            partner, east, west = ring_farm(others, played, main, n)
            four = [main, east, partner, west]
            await record(store, recorder, match(four, winner=0))
            for a, b in itertools.combinations(four, 2):
                played[pair(a, b)] += 1
            old_rule[four_key(four)] += 1
            old_weights += weight(old_rule[four_key(four)])
            clock.now += timedelta(minutes=5)
        async with store.engine.connect() as conn:
            mine = (await conn.execute(sa.select(player_results.c.weight).where(
                player_results.c.account == main))).scalars().all()
        lines = await LeagueStore(store.engine, clock).standings(week_of(MONDAY))
        return await rating_of(store, main), mine, lines, main, old_weights

    farmer, weights, lines, main, old_weights = on_database(tmp_path, body)
    rise = shown(farmer.mu, farmer.sigma) - shown(*START)
    assert 0 < rise < RING_BOUND, rise
    assert len(weights) == 140 and sum(weights) <= RING - 1
    # 9 matches rated for it (4 full, 5 half): still provisional, not ranked.
    assert farmer.matches == sum(w > 0 for w in weights) < PROVISIONAL
    points = {ln.entry.account: ln.entry.points for ln in lines}
    assert points[main] <= 2 * (RING - 1)
    # The same rotation under the old rule (the same set of four): 81 weights, not 7.
    assert old_weights > 10 * (RING - 1)


def test_a_fair_varied_history_moves_ratings_normally_and_volume_alone_raises_nobody(
        tmp_path: Path) -> None:
    """A room of 40 accounts, 200 rated matches over three weeks among random fours, won by
    the stronger partnership most of the time (each player plays about 7 matches a week): at
    least 80% of the players' matches count in full and at most 2% not at all (82% and
    1.25% here: in so small a room a pair meets again now and then), the strongest players
    climb above the ring farm's bound, the weakest fall, and the room's mean stays where it
    started."""
    rng = random.Random(28)

    async def body(store: Store, clock: Clock) -> Any:
        players = await accounts(store, 40)
        skill = {a: n for n, a in enumerate(players)}  # P39 is the best
        recorder = RatingsStore(store.engine, clock)
        for _ in range(200):
            four = rng.sample(players, 4)
            ns = skill[four[0]] + skill[four[2]] + rng.gauss(0, 12)
            ew = skill[four[1]] + skill[four[3]] + rng.gauss(0, 12)
            await record(store, recorder, match(four, winner=0 if ns > ew else 1))
            clock.now += timedelta(hours=2.5)
        async with store.engine.connect() as conn:
            weights = (await conn.execute(sa.select(player_results.c.weight))).scalars().all()
        return [await rating_of(store, a) for a in players], weights

    rows, weights = on_database(tmp_path, body)
    assert weights.count(1.0) >= 0.8 * len(weights)
    assert weights.count(0.0) <= 0.02 * len(weights)
    values = [shown(r.mu, r.sigma) for r in rows if r is not None]
    assert len(values) == 40
    top, bottom = values[-4:], values[:4]
    assert max(top) - START[0] > RING_BOUND
    assert min(bottom) < START[0] - FARM_BOUND
    assert abs(sum(values) / len(values) - START[0]) < 1.0


# ---------------------------------------------------------------------------- statistics
@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_statistics_keep_humans_and_bots_apart_by_preset_and_week(
        tmp_path: Path, database: str, request: pytest.FixtureRequest) -> None:
    # The week's sums are the database's own: both engines.
    url = (fresh_database(request.getfixturevalue("postgres_url"))
           if database == "postgresql" else None)

    async def body(store: Store, clock: Clock) -> Any:
        ada, *others = await accounts(store, 4)
        recorder = RatingsStore(store.engine, clock)
        four = [ada, *others]
        await record(store, recorder, match(four, 0, points=(120, 42), hands=2, taken=1))
        await record(store, recorder, match(four, 1, points=(60, 102), hands=2))
        clock.now += timedelta(days=7)  # the next week: a match with a bot
        with_bot = MatchOutcome("classic", 0, (PlayerResult(0, ada, True, 2, 1, 1, 200),),
                                rated=False, bots=True, hands=5)
        await record(store, recorder, with_bot)
        # Recorded before 0011 (bots not stored): rated, so among four accounts; unrated,
        # not known.
        old = [await record(store, recorder, match(four, 0)) for _ in range(2)]
        async with store.engine.begin() as conn:
            await conn.execute(sa.update(match_results).where(
                match_results.c.table_id.in_(old)).values(bots=None, four=None, hands=None))
            await conn.execute(sa.update(player_results).where(
                player_results.c.table_id.in_(old)).values(points=None))
            await conn.execute(sa.update(match_results).where(
                match_results.c.table_id == old[1]).values(rated=False))
        stats = StatsStore(store.engine, clock)
        return (await stats.summary(ada), await stats.weekly(ada, "classic"),
                await stats.recent(ada))

    summary, weeks, recent = on_database(tmp_path, body, url)
    humans, bots = summary["classic"]["humans"], summary["classic"]["bots"]
    # Two new matches with humans and the old rated one; the old unrated one is not known.
    assert (humans.matches, humans.won, humans.taken, humans.made) == (3, 2, 1, 1)
    assert summary["classic"]["unknown"].matches == 1
    assert humans.per_hand == pytest.approx((120 + 60) / 4)  # the old ones stored no points
    assert (bots.matches, bots.won, bots.taken, bots.made, bots.failed) == (1, 1, 2, 1, 1)
    assert bots.per_hand == pytest.approx(40.0)
    assert len(weeks) == 8 and weeks[-1].week == week_of(MONDAY + timedelta(days=7))
    assert (weeks[-2].humans.matches, weeks[-2].bots.matches) == (2, 0)
    assert (weeks[-1].humans.matches, weeks[-1].bots.matches) == (1, 1)  # the old one too
    # Each week's own figures, summed by the database.
    assert weeks[-2].humans.won == 1 and weeks[-2].humans.taken == 1
    assert weeks[-2].humans.per_hand == pytest.approx((120 + 60) / 4)
    assert weeks[-1].bots.per_hand == pytest.approx(40.0) and weeks[-1].bots.failed == 1
    assert weeks[-1].humans.per_hand is None  # the old one stored no points
    assert all(w.humans.matches == w.bots.matches == 0 for w in weeks[:-2])
    assert [m.bots for m in recent] == [None, False, True, False, False]


def test_a_match_with_a_bot_at_the_table_is_recorded_with_bots_and_its_points(
        tmp_path: Path) -> None:
    """Matches with bots were already recorded (unrated); since 0011 they also say a bot sat
    there, how many hands they had and each player's points."""
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        async def add() -> list[int]:
            store = client.app.state.store  # type: ignore[attr-defined]
            return [await store.add_user(n, "$argon2id$test") for n in ("Ada", "Bea", "Cy")]
        ids = client.portal.call(add)  # type: ignore[union-attr]
        seats = [Seat("human", f"P{n}", f"owner-{n}", account=a) for n, a in enumerate(ids)]
        seats.insert(1, Seat("bot", "", None, "easy"))
        play_seated(client, seats)

        async def read() -> Any:
            store = client.app.state.store  # type: ignore[attr-defined]
            async with store.engine.connect() as conn:
                return ((await conn.execute(sa.select(match_results))).one(),
                        (await conn.execute(sa.select(player_results))).all())
        row, players = client.portal.call(read)  # type: ignore[union-attr]
    assert row.bots is True and row.rated is False and row.hands >= 1
    assert row.four is None and row.weight is None
    assert len(players) == 3 and all(p.points is not None for p in players)


# ---------------------------------------------------------------------------- leagues
def entry(account: int, points: int, won: int = 0, matches: int = 1,
          division: int = DIVISIONS) -> Entry:
    return Entry(account, f"P{account}", division, MONDAY + timedelta(minutes=account),
                 points, won, matches)


def test_a_group_moves_its_first_and_last_k_and_nobody_leaves_the_ends() -> None:
    assert [movers(n) for n in (1, 2, 3, 5, 6, 9, 20)] == [0, 0, 1, 1, 2, 3, 3]
    middle = standings(3, 1, [entry(a, points=10 - a, division=3) for a in range(6)])
    assert [ln.move for ln in middle] == [1, 1, 0, 0, -1, -1]
    top = standings(1, 1, [entry(a, points=10 - a, division=1) for a in range(6)])
    assert [ln.move for ln in top] == [0, 0, 0, 0, -1, -1]
    bottom = standings(DIVISIONS, 1, [entry(a, points=10 - a) for a in range(6)])
    assert [ln.move for ln in bottom] == [1, 1, 0, 0, 0, 0]
    assert next_division(1, 1) == 1 and next_division(DIVISIONS, -1) == DIVISIONS
    # Equal points: more wins, then fewer matches, then the earlier first match.
    tied = standings(3, 1, [entry(1, 4, 2, 3), entry(2, 4, 2, 2), entry(3, 4, 1, 1)])
    assert [ln.entry.account for ln in tied] == [2, 1, 3]


def test_a_week_closes_once_with_promotion_and_relegation_under_a_fake_clock(
        tmp_path: Path) -> None:
    async def body(store: Store, clock: Clock) -> Any:
        a, b, c, d, e, f, g, h, i = await accounts(store, 9)
        recorder = RatingsStore(store.engine, clock)
        leagues = LeagueStore(store.engine, clock)
        for four, winner in (([a, b, c, d], 0), ([a, e, c, f], 0), ([a, g, h, i], 0),
                             ([b, e, d, g], 1)):
            await record(store, recorder, match(four, winner))
            clock.now += timedelta(hours=1)
        running = await leagues.standings(leagues.current_week())
        assert await leagues.close_due() == 0  # the week runs: nothing to close
        clock.now += timedelta(days=7)  # week 2
        assert await leagues.division_of(a, leagues.current_week()) == DIVISIONS
        # Two processes notice the ended week at once, then a third later: closed once.
        other = LeagueStore(store.engine, clock)
        closed = await asyncio.gather(leagues.close_due(), other.close_due())
        assert sorted(closed) == [0, 1] and await other.notice() == 0
        week2 = leagues.current_week()
        divisions = {x: await leagues.division_of(x, week2) for x in (a, c, h, e)}
        for four, winner in (([a, b, c, d], 1), ([h, e, f, g], 0)):
            await record(store, recorder, match(four, winner))
            clock.now += timedelta(hours=1)
        clock.now += timedelta(days=7)  # week 3: a restart notices week 2 ended
        closed_2 = await LeagueStore(store.engine, clock).close_due()
        async with store.engine.connect() as conn:
            results = (await conn.execute(sa.select(league_results).order_by(
                league_results.c.week, league_results.c.division,
                league_results.c.place))).all()
            weeks = (await conn.execute(sa.select(sa.func.count())
                                        .select_from(league_weeks))).scalar_one()
        return ([a, b, c, d, e, f, g, h, i], running, divisions, closed_2, results, weeks,
                await leagues.history(a))

    ids, running, divisions, closed_2, results, weeks, history = on_database(tmp_path, body)
    a, b, c, d, e, f, g, h, i = ids
    order = [ln.entry.account for ln in running]
    assert order == [a, c, h, e, g, f, i, b, d]  # points, wins, fewer matches, earlier
    assert [ln.entry.points for ln in running] == [6, 4, 2, 2, 2, 0, 0, 0, 0]
    first = [r for r in results if r.week == week_of(MONDAY)]
    assert [(r.account, r.move) for r in first][:4] == [(a, 1), (c, 1), (h, 1), (e, 0)]
    assert all(r.move == 0 for r in first[3:])  # the bottom division keeps its last
    assert divisions == {a: DIVISIONS - 1, c: DIVISIONS - 1, h: DIVISIONS - 1, e: DIVISIONS}
    assert closed_2 == 1 and weeks == 2
    second = [r for r in results if r.week == week_of(MONDAY) + timedelta(days=7)]
    up = [(r.account, r.place, r.move) for r in second if r.division == DIVISIONS - 1]
    assert up == [(h, 1, 1), (a, 2, 0), (c, 3, -1)]  # a group of 3: one up, one down
    assert [(p.division, p.place, p.move) for p in history] == [
        (DIVISIONS - 1, 2, 0), (DIVISIONS, 1, 1)]


def test_two_processes_on_postgresql_close_an_ended_week_once(
        tmp_path: Path, postgres_url: str) -> None:
    """Issue 26's room: two processes (two stores, two connections pools) notice the same
    ended week together on PostgreSQL; the advisory lock and the week's key close it once."""
    url = fresh_database(postgres_url)

    async def body(store: Store, clock: Clock) -> Any:
        players = await accounts(store, 4)
        await record(store, RatingsStore(store.engine, clock), match(players, 0))
        clock.now += timedelta(days=7)
        other = Store(url)
        await other.open()
        try:
            closed = await asyncio.gather(*(LeagueStore(s.engine, clock).close_due()
                                            for s in (store, other, store, other)))
        finally:
            await other.close()
        async with store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(league_results))).all()
        return closed, rows

    closed, rows = on_database(tmp_path, body, url)
    assert sorted(closed) == [0, 0, 0, 1]
    assert len(rows) == 4 and {r.move for r in rows} == {0, 1}


def test_a_close_that_fails_is_logged_and_counted_and_stops_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def body(store: Store, clock: Clock) -> Any:
        await record(store, RatingsStore(store.engine, clock), match(
            await accounts(store, 4), 0))
        clock.now += timedelta(days=7)
        async with store.engine.begin() as conn:  # a database the close cannot write
            await conn.execute(sa.text("DROP TABLE league_results"))
        leagues = LeagueStore(store.engine, clock)
        return await leagues.notice(), leagues.failures

    assert on_database(tmp_path, body) == (0, 1)
    assert "the ended weeks could not be closed" in caplog.text


def test_the_page_asks_for_ended_weeks_once_a_week(tmp_path: Path) -> None:
    """Issue 28's review, item 10: a view of the league does not ask the database for weeks
    to close each time, only once per week per process."""
    async def body(store: Store, clock: Clock) -> Any:
        players = await accounts(store, 4)
        await record(store, RatingsStore(store.engine, clock), match(players, 0))
        leagues = LeagueStore(store.engine, clock)
        for _ in range(3):  # three views of the page
            assert await leagues.notice() == 0
        seen = leagues.checks
        clock.now += timedelta(days=7)  # a new week: asked again, and the week closes
        closed = await leagues.notice()
        return seen, closed, leagues.checks

    assert on_database(tmp_path, body) == (1, 1, 2)


def test_a_barred_player_keeps_its_place_in_forming_the_groups() -> None:
    """Review of issue 28, m4: a sanction given mid-week hides its player, and moves nobody
    else to another group (the groups form from the players' first matches, barred or not)."""
    players = [entry(a, points=a % 7) for a in range(GROUP_SIZE + 5)]
    before = {ln.entry.account: ln.group for ln in all_standings(players)}
    players[2] = replace(players[2], barred=True)
    after = {ln.entry.account: ln.group for ln in all_standings(players)}
    assert 2 not in after
    assert after == {a: g for a, g in before.items() if a != 2}
    assert len([a for a, g in after.items() if g == 1]) == GROUP_SIZE - 1


def test_suspended_and_banned_accounts_leave_the_standings_and_the_close(
        tmp_path: Path) -> None:
    async def body(store: Store, clock: Clock) -> Any:
        a, b, c, d = await accounts(store, 4)
        await record(store, RatingsStore(store.engine, clock), match([a, b, c, d], 0))
        async with store.engine.begin() as conn:
            await conn.execute(sa.insert(sanctions).values(
                account=a, kind="suspend", reason="abuse", created=clock.now,
                until=clock.now + timedelta(days=30)))
            await conn.execute(sa.insert(sanctions).values(  # (a ban lifted: no effect)
                account=b, kind="ban", reason="cheating", created=clock.now,
                lifted=clock.now))
        leagues = LeagueStore(store.engine, clock)
        shown = [ln.entry.account for ln in await leagues.standings(leagues.current_week())]
        clock.now += timedelta(days=7)
        assert await leagues.close_due() == 1
        async with store.engine.connect() as conn:
            closed = [r.account for r in await conn.execute(sa.select(league_results))]
            kept = (await conn.execute(sa.select(sa.func.count()).select_from(
                player_results).where(player_results.c.account == a))).scalar_one()
        return (a, b, c, d), shown, closed, kept

    (_, b, c, d), shown, closed, kept = on_database(tmp_path, body)
    assert sorted(shown) == sorted(closed) == sorted([b, c, d])
    assert kept == 1  # the suspended account's match is kept


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_migration_0011_goes_down_and_up_keeping_the_recorded_matches(
        tmp_path: Path, request: pytest.FixtureRequest, engine: str) -> None:
    """0011's downgrade drops its columns and tables only: the matches recorded stay."""
    url = (f"sqlite:///{tmp_path / 'down.db'}" if engine == "sqlite"
           else fresh_database(request.getfixturevalue("postgres_url")))

    async def one_match(store: Store, clock: Clock) -> None:
        await record(store, RatingsStore(store.engine, clock), match(
            await accounts(store, 4), 0, points=(10, 5)))
    on_database(tmp_path, one_match, url)

    def down(conn: sa.Connection) -> tuple[set[str], list[str], int]:
        command.downgrade(config_for(conn), "0011-1")
        found = sa.inspect(conn)
        return (set(found.get_table_names()),
                [c["name"] for c in found.get_columns("match_results")],
                conn.execute(sa.text("SELECT count(*) FROM player_results")).scalar_one())

    def up(conn: sa.Connection) -> list[Any]:
        upgrade(conn)
        return list(compare_metadata(MigrationContext.configure(conn), metadata))

    tables, columns, players = on_connection(url, down)
    assert "league_weeks" not in tables and "weight" not in columns and players == 4
    assert on_connection(url, up) == []


def test_migration_0015_fills_each_players_weight_from_their_match(tmp_path: Path) -> None:
    """Rows recorded before 0015 get their match's moment, repetition and weight (every
    player of a set of four had them), so that the pairs' count sees them at once."""
    url = f"sqlite:///{tmp_path / 'pairs.db'}"

    async def two(store: Store, clock: Clock) -> None:
        recorder = RatingsStore(store.engine, clock)
        four = await accounts(store, 4)
        for _ in range(3):
            await record(store, recorder, match(four, 0))
    on_database(tmp_path, two, url)

    def down_and_up(conn: sa.Connection) -> list[Any]:
        command.downgrade(config_for(conn), "0015-1")
        assert "weight" not in [c["name"] for c in sa.inspect(conn).get_columns(
            "player_results")]
        upgrade(conn)
        return list(conn.execute(sa.select(
            player_results.c.repeat, player_results.c.weight,
            player_results.c.recorded == match_results.c.recorded)
            .join(match_results, match_results.c.table_id == player_results.c.table_id)
            .order_by(player_results.c.table_id, player_results.c.account)))

    rows = on_connection(url, down_and_up)
    assert [tuple(r) for r in rows] == [(k, w, True) for k, w in ((1, 1.0), (2, 1.0),
                                                                (3, 0.5)) for _ in range(4)]


# ---------------------------------------------------------------------------- pages
@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(make_settings(tmp_path_factory.mktemp("leagues")))
    with client_for(app) as client:
        response = client.post("/register", data={"name": "Anna",
                                                  "password": "settebello-lungo"},
                               follow_redirects=False)
        assert response.status_code == 303  # (and signed in)

        async def play() -> None:
            store = client.app.state.store  # type: ignore[attr-defined]
            anna = await store.user("Anna")
            four = [int(anna[0]), *[await store.add_user(n, "$argon2id$test")
                                    for n in ("Bruno", "Carla", "Dino")]]
            recorder = RatingsStore(store.engine)
            for winner in (0, 0, 1, 0, 0):  # the fifth is not rated: farming
                await record(store, recorder, match(four, winner, points=(90, 72)))
            one = MatchOutcome("classic", 0, (PlayerResult(0, four[0], True, 1, 1, 0, 100),),
                               rated=False, bots=True, hands=1)
            await record(store, recorder, one)
        client.portal.call(play)  # type: ignore[union-attr]
        yield client


def test_the_statistics_page_has_a_described_chart_and_its_table_and_my_notes(
        room: TestClient) -> None:
    page = room.get("/players/Anna/stats")
    assert page.status_code == 200
    html = page.text
    assert "<h1>Statistics of Anna</h1>" in html
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in html
    assert '<title id="chart-title">Matches per week in classic' in html
    assert "6 matches in the last 8 weeks." in html
    assert html.count('fill="url(#hatch)"') == 8 + 1  # a bar a week, and the legend's
    assert '<caption id="by-week">' in html and '<th scope="col">Played with bots</th>' in html
    assert re.search(r"<th scope=\"row\">classic, with humans</th>\s*<td>5</td><td>4</td>",
                     html)
    assert re.search(r"<th scope=\"row\">classic, with bots</th>\s*<td>1</td><td>1</td>", html)
    assert 'tabindex="0"' in html  # the tables' regions scroll by keyboard on a phone
    # Only Anna sees what each match did to her rating: the farmed fifth says so.
    assert "Not rated: match 5 in 7 days with the same player" in html
    assert "Rated at half weight: match 3 in 7 days" in html
    other = room.get("/players/Bruno/stats")
    assert other.status_code == 200 and "Not rated: match 5" not in other.text
    assert room.get("/players/Nobody/stats").status_code == 404
    assert room.get("/players/Anna/stats?preset=whist").status_code == 400


def test_the_league_page_shows_my_group_my_place_and_the_rules(room: TestClient) -> None:
    page = room.get("/leagues")
    assert page.status_code == 200
    html = page.text
    assert "<h1>Weekly league</h1>" in html
    assert f"You are in division {DIVISIONS}, group 1: place 1" in html
    assert f"<caption id=\"group-caption\">Division {DIVISIONS}, group 1" in html
    assert '<th scope="col">League points</th>' in html and "(you)" in html
    assert "No league week of yours has closed yet." in html
    assert 'href="/leagues" aria-current="page"' in html  # the site's navigation
    assert room.get("/leagues?division=x").status_code == 400
    assert room.get("/leagues?division=2&group=9").status_code == 404
    spoken = room.get("/leagues", headers={"accept-language": "fr"})
    assert "Ligue hebdomadaire" in spoken.text


def test_the_leaderboard_marks_provisional_ratings_unranked(room: TestClient) -> None:
    board = room.get("/leaderboard?preset=classic").text
    assert "(provisional)" in board and "not ranked yet" in board
    assert "with any one other player, partner or opponent" in board
    profile = room.get("/players/Anna").text
    assert 'href="/players/Anna/stats"' in profile and "(provisional)" in profile


def test_the_league_page_lists_my_closed_weeks(room: TestClient) -> None:
    """A week closed a month ago: its line is in Anna's history (the weeks since, with no
    match, close when the process next asks: it found every ended week closed this week)."""
    async def closed_week() -> None:
        store = room.app.state.store  # type: ignore[attr-defined]
        anna = await store.user("Anna")
        week = week_of(datetime.now(UTC)) - timedelta(weeks=4)
        async with store.engine.begin() as conn:
            await conn.execute(sa.insert(league_weeks).values(week=week,
                                                              closed=datetime.now(UTC)))
            await conn.execute(sa.insert(league_results).values(
                week=week, account=anna[0], division=DIVISIONS, group_no=2, place=1,
                points=8, won=4, matches=5, move=0))
    room.portal.call(closed_week)  # type: ignore[union-attr]
    html = room.get("/leagues").text
    assert '<caption id="history-caption">Your past league weeks' in html
    assert f"Division {DIVISIONS}, group 2" in html and "<td>stayed</td>" in html
    assert f"You are in division {DIVISIONS}, group 1: place 1" in html  # still this week's
