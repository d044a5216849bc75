"""The daily duplicate (docs/room.md, "The daily duplicate"): the day's deals from the room's
secret and the UTC date, one entry per account, matchpoints and the ranking's intervals, and
the deals hidden until the day closes (pages, replays and frames), open after it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.auth.sessions import public_id
from belote.server.daily.cache import DayCache, KeptDay
from belote.server.daily.deals import deal_of_day, deals_of_day
from belote.server.daily.room import DailyRoom
from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.daily.scoring import (
    deal_percentages,
    mean_interval,
    pairwise_percentages,
    score_day,
    standings,
)
from belote.server.daily.store import Play
from belote.server.moderation.schema import account_roles, sanctions
from belote.server.moderation.store import MODERATOR
from belote.server.persistence import store as persistence_store
from belote.server.persistence.schema import sessions, tables, users
from belote.server.personal_data.export import export
from belote.server.routes import daily as daily_routes
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities, connect, first_legal, my_turn, send, until

DAY = date(2026, 3, 14)
NOON = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


class Clock:
    """The room's fake clock: the tests move the day on."""

    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Clock, Path]]:
    """One room for the module (a fresh day on a fake clock), with its database file."""
    folder = tmp_path_factory.mktemp("daily")
    app: Any = create_app(make_settings(
        folder, daily_deals=2, daily_entry_account_hours=0, signups_per_hour=100))
    clock = Clock()
    app.state.daily.clock = clock
    # The room stores a table's finish on the same fake clock (a deal counts by that moment).
    with pytest.MonkeyPatch.context() as patch, client_for(app) as client:
        patch.setattr(persistence_store, "_now", clock)
        yield client, clock, folder


def sign(people: Identities, who: str, name: str, new: bool = True) -> TestClient:
    """``who``'s browser signs up as ``name`` (or, ``new`` false, signs in to it)."""
    client = people.use(who)
    answer = client.post("/register" if new else "/login",
                         data={"name": name, "password": "settebello"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    people._jars[who] = client.cookies  # (the client copied the jar: keep its cookies)
    return client


def play_next(client: TestClient) -> int:
    answer = client.post("/daily/play", follow_redirects=False)
    assert answer.status_code == 303
    location = answer.headers["location"]
    assert location.startswith("/table/"), (location, client.get("/daily").text)
    return int(location.rsplit("/", 1)[1])


def play_out(client: TestClient, table_id: int) -> list[dict[str, Any]]:
    """Play the deal at ``table_id`` to its end (first legal action each turn); every frame
    the entrant received."""
    frames: list[dict[str, Any]] = []
    with connect(client, table_id) as ws:
        while True:
            frame = until(ws, lambda f: (frames.append(f) or True) and f["t"] in (
                "update", "sync") and my_turn(f))
            view = frame["d"]["view"]
            if view["finished"]:
                return frames
            send(ws, "act", a=72 if view["belote"] and view["turn"] != view["seat"]
                 else first_legal(view))


def wait_scored(client: TestClient) -> None:
    """Until the day's page says deal 1 was played (the bus's subscriber stores the score a
    moment after the table ends)."""
    for _ in range(100):
        if "Deal 1, North deals: played" in client.get("/daily").text:
            return
        time.sleep(0.05)
    raise AssertionError("the deal was never scored")


def wait_ended(client: TestClient, table_id: int) -> Any:
    """The play of the deal at ``table_id`` once its end is stored (by the bus's subscriber,
    a moment after the table finishes)."""
    state: Any = client.app.state  # type: ignore[attr-defined]
    portal: Any = client.portal
    for _ in range(200):
        if all(t != table_id for t, _ in portal.call(state.daily.store.unfinished)):
            return portal.call(state.daily.store.play_of_table, table_id)[1]
        time.sleep(0.05)
    raise AssertionError(f"the deal at table {table_id} never ended")


# ---------------------------------------------------------------------------- the deals
def test_the_days_deals_follow_the_secret_and_the_date_only() -> None:
    first = deals_of_day("s3cret", DAY, 8)
    assert first == deals_of_day("s3cret", DAY, 8)  # every process derives the same
    assert all(sorted(d.deck) == list(range(32)) for d in first)
    assert len({d.deck for d in first}) == 8
    assert [d.dealer for d in first] == [0, 1, 2, 3, 0, 1, 2, 3]
    next_day = deals_of_day("s3cret", DAY + timedelta(days=1), 8)
    assert not {d.deck for d in first} & {d.deck for d in next_day}
    assert deal_of_day("another", DAY, 1).deck != first[0].deck  # nobody without the secret


def test_two_rooms_on_one_database_deal_the_same_cards(
        room: tuple[TestClient, Clock, Path]) -> None:
    """A second app instance with the same secret (the same database) and date derives the
    very deck the first one dealt."""
    client, _, folder = room
    people = Identities(client)
    sign(people, "dealer_check", "DealerCheck")
    assert people.use("dealer_check").post("/daily/enter").status_code == 200
    table_id = play_next(people.use("dealer_check"))
    with connect(people.use("dealer_check"), table_id) as ws:
        view = until(ws, lambda f: f["t"] == "sync")["d"]["view"]
    # Its own cards, nobody else's: five, or eight once a bot before North took.
    assert len(view["hand"]) in (5, 8)
    app_state: Any = client.app.state  # type: ignore[attr-defined]
    other: Any = create_app(make_settings(
        folder, daily_deals=2, daily_entry_account_hours=0, signups_per_hour=100))
    other.state.daily.clock = Clock()  # (the same day: its start hands no deal to bots)
    with client_for(other) as second:
        assert second.portal is not None
        secret = second.portal.call(other.state.daily.secret)
        # (and the second app resumed the open deal from its log: the same fixed deal)
        resumed = other.state.room.tables[table_id]
        assert resumed.fixed_deck == deal_of_day(secret, DAY, 1).deck
        assert resumed.broken is None and not resumed.finished
    table = app_state.room.tables.get(table_id)
    assert table is not None and table.fixed_deck == deal_of_day(secret, DAY, 1).deck
    assert table.game.first_dealer == 0


# ---------------------------------------------------------------------------- scoring
def test_matchpoints_give_two_per_entrant_beaten_and_one_per_tie() -> None:
    assert deal_percentages({1: 100, 2: 50, 3: 50}) == {1: 100.0, 2: 25.0, 3: 25.0}
    # 162 beats two and ties one: 5 of 6 points; 20 beats one: 2 of 6.
    assert deal_percentages({1: 0, 2: 162, 3: 162, 4: 20}) == pytest.approx({
        1: 0.0, 2: 500 / 6, 3: 500 / 6, 4: 200 / 6})
    assert deal_percentages({7: 81}) == {7: 50.0}  # alone on a deal: nobody to compare with


def test_a_deal_scored_by_sorting_gives_exactly_what_comparing_every_pair_gives() -> None:
    rng = random.Random(28)
    cases: list[dict[int, int]] = [{}, {5: 81}, {1: 0, 2: 0}, {1: 162, 2: 162, 3: 162}]
    for _ in range(300):
        entrants = rng.randrange(1, 60)
        spread = rng.choice((2, 5, 17, 163))  # few distinct scores: many ties
        cases.append({rng.randrange(1, 10_000): 10 * rng.randrange(spread)
                      for _ in range(entrants)})
    for scores in cases:  # (exactly: no approx)
        assert deal_percentages(scores) == pairwise_percentages(scores), scores
    # And the ranking of a random day is the one the reference's percentages give.
    names = {n: f"E{n}" for n in range(40)}
    day = {d: {n: rng.randrange(5) for n in names if rng.random() < 0.9} for d in (1, 2, 3)}
    scored = score_day(day, names, 3)
    assert scored.per_deal == {d: pairwise_percentages(s) for d, s in day.items()}
    assert scored.ranking == standings(day, names, 3)


def test_the_mean_has_a_t_interval_over_the_deals() -> None:
    spread = mean_interval([40.0, 50.0, 60.0])  # sd 10, t(2) = 4.303: half-width 24.84
    assert spread.mean == 50.0
    assert spread.low == pytest.approx(25.156, abs=0.01)
    assert spread.high == pytest.approx(74.844, abs=0.01)
    assert mean_interval([0.0, 100.0]).low == 0.0  # clipped to 0-100
    assert mean_interval([70.0]).low is None  # one deal: no interval


def test_the_ranking_puts_complete_entries_first() -> None:
    results = {1: {1: 100, 2: 50, 3: 0}, 2: {1: 10, 2: 80}}
    names = {1: "Ada", 2: "Bea", 3: "Cy", 4: "Dee"}
    rows = standings(results, names, deals=2)
    # Ada: 100% then 0%; Bea: 50% then 100% (both complete); Cy one deal; Dee none.
    assert [(r.name, r.rank, r.played) for r in rows] == [
        ("Bea", 1, 2), ("Ada", 2, 2), ("Cy", 3, 1), ("Dee", 4, 0)]
    assert rows[0].score is not None and rows[0].score.mean == 75.0
    assert rows[3].score is None


# ---------------------------------------------------------------------------- entries
def test_one_entry_per_account_and_no_guest(room: tuple[TestClient, Clock, Path]) -> None:
    client, _, _ = room
    people = Identities(client)
    people.guest("visitor")
    page = people.use("visitor").post("/daily/enter")
    assert "Guests cannot enter" in page.text
    assert "Visitor" not in page.text.split('id="daily-ranking-heading"')[1]
    sign(people, "una", "Una")
    for _ in range(2):
        assert people.use("una").post("/daily/enter").status_code == 200
    first = play_next(people.use("una"))
    state: Any = client.app.state  # type: ignore[attr-defined]
    laptop = state.room.tables[first].seats[0].owner
    # The same account in a second browser continues the same entry, the same deal's table.
    sign(people, "una_phone", "Una", new=False)
    assert people.use("una_phone").post("/daily/enter").status_code == 200
    assert play_next(people.use("una_phone")) == first
    phone = state.room.tables[first].seats[0].owner  # the seat went to the phone's session
    assert laptop is not None and phone is not None and phone != laptop
    ranking = people.use("una").get("/daily").text.split('id="daily-ranking-heading"')[1]
    assert ranking.count("<th scope=\"row\">Una</th>") == 1
    # Nobody enters without signing in first.
    people.use("nobody")
    assert "Sign in with an account to enter" in people.use("nobody").post("/daily/play").text


# ---------------------------------------------------------------------------- hidden until close
def test_deals_are_hidden_until_the_day_closes_then_open_to_all(
        room: tuple[TestClient, Clock, Path]) -> None:
    client, clock, _ = room
    people = Identities(client)
    sign(people, "hid", "Hid")
    sign(people, "peek", "Peek")
    people.use("hid").post("/daily/enter")
    table_id = play_next(people.use("hid"))
    # Another account may not watch the deal being played.
    with connect(people.use("peek"), table_id) as ws:
        assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "private"
    frames = play_out(people.use("hid"), table_id)
    # Another entrant playing the same deal the same way meets the very same bots' moves.
    sign(people, "twin", "Twin")
    people.use("twin").post("/daily/enter")
    twin_table = play_next(people.use("twin"))
    play_out(people.use("twin"), twin_table)
    hands = [len(f["d"]["view"]["hand"]) for f in frames if "view" in f["d"]]
    assert max(hands) <= 8  # one hand's cards at most in any frame: its own
    assert all('"deck"' not in json.dumps(f) for f in frames)  # no deck in any frame
    # Finished, scored, and hidden from everyone, its own entrant too.
    for who in ("hid", "twin"):
        wait_scored(people.use(who))
    assert f'href="/replay/{table_id}"' not in people.use("peek").get("/").text  # the lobby's
    for who in ("hid", "peek"):
        assert people.use(who).get(f"/replay/{table_id}").status_code == 403
        assert people.use(who).get(f"/replay/{table_id}.json").status_code == 403
        assert people.use(who).get(f"/replay/{table_id}/analysis?step=1").status_code == 403
    today = people.use("peek").get(f"/daily/{DAY.isoformat()}", follow_redirects=False)
    assert today.status_code == 303 and today.headers["location"] == "/daily"
    assert people.use("peek").get("/daily/2026-03-15").status_code == 404
    # The day closes: the deal, its scores and its replay open to all.
    clock.now = NOON + timedelta(days=1)
    try:
        page = people.use("peek").get(f"/daily/{DAY.isoformat()}")
        assert page.status_code == 200
        assert f'href="/replay/{table_id}"' in page.text
        assert "Replay of Twin, deal 1" in page.text
        assert page.text.count("50.0%") >= 2  # the same game: a tie on the deal
        records = [people.use("peek").get(f"/replay/{t}.json") for t in (table_id, twin_table)]
        assert [r.status_code for r in records] == [200, 200]
        hid, twin = (r.json() for r in records)
        assert len(hid["deals"]) == 1 and hid["deals"] == twin["deals"]
        assert hid["first_dealer"] == twin["first_dealer"] == 0
        assert "Results of 2026-03-14" in people.use("peek").get("/daily").text
    finally:
        clock.now = NOON


def test_a_deal_over_after_the_close_counts_as_not_played(
        room: tuple[TestClient, Clock, Path]) -> None:
    """At midnight the day's replays open to all: a deal still being played then could be
    finished knowing every hand, so it is not scored."""
    client, clock, _ = room
    people = Identities(client)
    sign(people, "late", "Latecomer")
    people.use("late").post("/daily/enter")
    table_id = play_next(people.use("late"))
    clock.now = NOON + timedelta(days=1)
    try:
        play_out(people.use("late"), table_id)
        assert wait_ended(client, table_id).score is None
        page = people.use("late").get(f"/daily/{DAY.isoformat()}").text
        assert "Replay of Latecomer" not in page
        row = page.split('<th scope="row">Latecomer</th>')[1].split("</tr>")[0]
        assert "0 of 2" in row
    finally:
        clock.now = NOON


def test_an_opening_abandoned_by_a_dead_process_is_redone(
        room: tuple[TestClient, Clock, Path]) -> None:
    """A deal whose opening began and never said which table it opened (its process died)
    is "being opened" for a minute, then opened again."""
    client, clock, _ = room
    people = Identities(client)
    sign(people, "orphan", "Orphan")
    people.use("orphan").post("/daily/enter")
    state: Any = client.app.state  # type: ignore[attr-defined]
    portal: Any = client.portal
    account = portal.call(state.store.user, "Orphan")[0]
    entry = portal.call(state.daily.store.entry, DAY.isoformat(), account)
    assert portal.call(state.daily.store.reserve, entry.id, 1, NOON)
    try:
        page = people.use("orphan").post("/daily/play").text
        assert "That deal is being opened; please try again in a moment." in page
        clock.now += timedelta(seconds=61)
        table_id = play_next(people.use("orphan"))
        assert portal.call(state.daily.store.play_of_table, table_id)[1].deal == 1
    finally:
        clock.now = NOON


def test_a_deal_left_open_at_midnight_is_finished_by_a_bot_and_not_scored(
        room: tuple[TestClient, Clock, Path]) -> None:
    """No table of the daily stays open for ever: once its day closed, the sweep hands an
    abandoned deal to a bot, whose end is stored as not played."""
    client, clock, _ = room
    people = Identities(client)
    sign(people, "sleepy", "Sleepy")
    people.use("sleepy").post("/daily/enter")
    table_id = play_next(people.use("sleepy"))  # opened, never played
    state: Any = client.app.state  # type: ignore[attr-defined]
    portal: Any = client.portal
    assert portal.call(state.daily.reconcile) == 0  # the day is open: nothing to do
    assert not state.room.tables[table_id].seats[0].standin
    clock.now = NOON + timedelta(days=1)
    try:
        portal.call(state.daily.reconcile)
        assert wait_ended(client, table_id).score is None
        row = portal.call(state.store.table, table_id)
        assert row.status == "finished"
        assert len(row.record["deals"]) == 1  # its one deal, played out by the bots
    finally:
        clock.now = NOON


def test_requests_to_enter_and_play_are_limited_per_account(
        room: tuple[TestClient, Clock, Path]) -> None:
    client, _, _ = room
    people = Identities(client)
    browser = sign(people, "eager", "Eager")
    state: Any = client.app.state  # type: ignore[attr-defined]
    before = state.refused["daily"]
    answers = [browser.post("/daily/enter", follow_redirects=False) for _ in range(21)]
    assert {a.status_code for a in answers[:20]} == {303}
    assert answers[20].status_code == 429
    assert int(answers[20].headers["retry-after"]) >= 1
    assert "Too many requests; please wait a little." in answers[20].text
    assert state.refused["daily"] == before + 1


# ---------------------------------------------------------------------------- review 28
def test_a_deal_finished_before_midnight_counts_though_its_score_is_stored_after() -> None:
    """Issue 28's review, 9(b): what counts is when the table finished (as the room stored
    it), not when the score is stored."""
    finished = {1: datetime(2026, 3, 14, 23, 59, 59, 900_000, tzinfo=UTC),
                2: datetime(2026, 3, 15, 0, 0, 0, 100_000, tzinfo=UTC)}
    stored: dict[int, tuple[int | None, datetime]] = {}

    class Store:  # the daily's store, as far as recording goes
        async def play_of_table(self, table_id: int) -> tuple[str, Play]:
            return "2026-03-14", Play(table_id, 1, table_id, "uid", None, NOON)

        async def table_finished(self, table_id: int) -> datetime:
            return finished[table_id]

        async def record(self, table_id: int, score: int | None, when: datetime) -> bool:
            stored[table_id] = (score, when)
            return True

    clock = Clock()
    clock.now = datetime(2026, 3, 15, 0, 0, 5, tzinfo=UTC)  # both heard after midnight
    daily: Any = DailyRoom(Any, Any, Store(), 2, clock)  # type: ignore[arg-type]

    async def both() -> None:
        for table_id in finished:
            assert await daily._record(table_id, [97, 65])

    asyncio.run(both())
    assert stored == {1: (97, finished[1]), 2: (None, finished[2])}


def test_the_days_kept_are_trusted_for_seconds_or_for_good_when_settled() -> None:
    now = [0.0]
    cache = DayCache(fresh_seconds=5.0, kept_days=2, monotonic=lambda: now[0])

    def day(settled: bool) -> KeptDay:
        return KeptDay({}, [], settled, (0, 0), now[0])

    cache.put("2026-03-14", day(False), cache.generation)
    cache.put("2026-03-01", day(True), cache.generation)
    now[0] = 4.9
    assert cache.get("2026-03-14") is not None
    now[0] = 5.0
    assert cache.get("2026-03-14") is None  # another process's scores show within 5 s
    assert cache.get("2026-03-01") is not None  # a settled day: for good
    # A day read while a score of it was stored is not kept (it may miss that score).
    read_at = cache.generation
    cache.forget("2026-03-14")
    cache.put("2026-03-14", day(False), read_at)
    assert cache.get("2026-03-14") is None
    # The last used are kept: a third day pushes the oldest out.
    cache.put("2026-03-02", day(True), cache.generation)
    cache.put("2026-03-03", day(True), cache.generation)
    assert cache.get("2026-03-01") is None and cache.get("2026-03-03") is not None


def test_a_closed_days_page_scores_once_and_leaves_out_a_banned_entrant(
        room: tuple[TestClient, Clock, Path]) -> None:
    """Issue 28's review, items 1 and 10: one reading and one scoring of a closed day, kept
    for the next views; a suspended or banned entrant is left out of its ranking and deal
    results while the sanction lasts, their rows kept."""
    client, _, _ = room
    state: Any = client.app.state  # type: ignore[attr-defined]
    daily = state.daily
    portal: Any = client.portal
    past = "2026-03-10"

    async def fabricate() -> list[int]:
        accounts = []
        for n, score in enumerate((120, 80, 40)):
            account = await state.store.add_user(f"Past{n}", "$argon2id$test")
            entry, _ = await daily.store.enter(past, account, f"Past{n}")
            table_id = await state.store.new_table("classic", {}, 1, status="finished")
            assert await daily.store.reserve(entry.id, 1, NOON)
            await daily.store.opened(entry.id, 1, table_id, "uid")
            assert await daily.store.record(table_id, score, NOON - timedelta(days=4))
            accounts.append(account)
        return accounts

    first, _, _ = portal.call(fabricate)
    read, scored = daily.days_read, daily.days_scored
    pages = [client.get(f"/daily/{past}").text for _ in range(3)]
    assert all("Past0" in page and "100.0%" in page for page in pages)
    assert (daily.days_read, daily.days_scored) == (read + 1, scored + 1)  # once, kept

    async def ban(lift: bool) -> None:
        async with state.store.engine.begin() as conn:
            if lift:
                await conn.execute(sa.update(sanctions).where(sanctions.c.account == first)
                                   .values(lifted=datetime.now(UTC)))
            else:
                await conn.execute(sa.insert(sanctions).values(
                    account=first, kind="ban", reason="cheating", created=datetime.now(UTC)))

    portal.call(ban, False)
    page = client.get(f"/daily/{past}").text
    assert "Past0" not in page and "Past1" in page  # out of the ranking and the deal
    assert page.count("100.0%") >= 1  # Past1 now tops the deal (2 entrants)
    assert (daily.days_read, daily.days_scored) == (read + 1, scored + 2)
    names, results = portal.call(daily.store.day, past)
    assert first in names and any(r.account == first for r in results)  # rows kept
    portal.call(ban, True)
    assert "Past0" in client.get(f"/daily/{past}").text  # lifted: back
    assert daily.days_read == read + 1

    async def delete_last() -> None:  # (as deleting the account leaves its entry)
        async with state.store.engine.begin() as conn:
            await conn.execute(sa.update(daily_entries).where(
                daily_entries.c.day == past, daily_entries.c.name == "Past2").values(
                account=None, name="deleted player"))

    portal.call(delete_last)
    page = client.get(f"/daily/{past}").text  # a kept day, read again at once
    assert "Past2" not in page and "deleted player" in page
    assert daily.days_read == read + 2


# ---------------------------------------------------------------------------- big days
async def fabricate(state: Any, day: str, accounts: list[int], deals: int,
                    rng: random.Random, names: Mapping[int, str] | None = None
                    ) -> dict[int, dict[int, int]]:
    """``accounts`` entered ``day`` and played its ``deals`` (random scores, many ties),
    written straight into the database (thousands of rows in a few statements); their
    scores, deal -> account -> score."""
    async with state.store.engine.begin() as conn:
        if names is None:
            names = {int(r.id): str(r.name) for r in (await conn.execute(
                sa.select(users.c.id, users.c.name).where(users.c.id.in_(accounts)))).all()}
        entries = (await conn.execute(
            sa.insert(daily_entries).returning(daily_entries.c.id, sort_by_parameter_order=True),
            [{"day": day, "account": a, "name": names[a], "entered": NOON}
             for a in accounts])).scalars().all()
        table_ids = (await conn.execute(
            sa.insert(tables).returning(tables.c.id, sort_by_parameter_order=True),
            [{"preset": "classic", "flags": "{}", "target": 1, "status": "finished"}
             for _ in range(len(accounts) * deals)])).scalars().all()
        scores: dict[int, dict[int, int]] = {d: {} for d in range(1, deals + 1)}
        plays = []
        tables_left = iter(table_ids)
        for account, entry in zip(accounts, entries, strict=True):
            for deal in range(1, deals + 1):
                scores[deal][account] = 10 * rng.randrange(0, 17)
                plays.append({"entry": entry, "deal": deal, "table_id": next(tables_left),
                              "reserved": NOON, "holder": "uid",
                              "score": scores[deal][account], "finished": NOON})
        await conn.execute(sa.insert(daily_plays), plays)
    return scores


async def new_accounts(state: Any, prefix: str, count: int) -> list[int]:
    """``count`` accounts named ``prefix`` and a number, made in one statement."""
    async with state.store.engine.begin() as conn:
        return [int(i) for i in (await conn.execute(
            sa.insert(users).returning(users.c.id, sort_by_parameter_order=True),
            [{"name": f"{prefix}{n:04d}", "name_key": f"{prefix.lower()}{n:04d}",
              "password_hash": "$argon2id$test"} for n in range(count)])).scalars().all()]


def test_a_day_of_2000_entrants_shows_a_page_of_100_lines_and_the_readers_own(
        room: tuple[TestClient, Clock, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28's review, M1: whatever a day's size, a view formats and renders a bounded
    number of lines (a page of the ranking, ten lines of each deal, the reader's own), the
    day is scored and its results sorted once for every view, and pages past the end or
    not numbers are 404.  (How long a view takes: benchmarks/daily_pages.py.)"""
    client, _, _ = room
    state: Any = client.app.state  # type: ignore[attr-defined]
    daily = state.daily
    portal: Any = client.portal
    people = Identities(client)
    sign(people, "reader", "Bigreader")
    past = "2026-03-09"

    async def build() -> int:
        crowd = await new_accounts(state, "Crowd", 2000)
        async with state.store.engine.connect() as conn:
            me = int((await conn.execute(sa.select(users.c.id).where(
                users.c.name == "Bigreader"))).scalar_one())
        rng = random.Random(28)
        await fabricate(state, past, crowd, 2, rng)
        # The reader, last on both deals: far down the ranking (past the first page).
        await fabricate(state, past, [me], 2, rng, {me: "Bigreader"})
        async with state.store.engine.begin() as conn:
            await conn.execute(sa.update(daily_plays).where(daily_plays.c.entry.in_(
                sa.select(daily_entries.c.id).where(daily_entries.c.account == me,
                                                    daily_entries.c.day == past)))
                .values(score=-10))
        return me

    portal.call(build)
    formatted: list[float] = []
    real = daily_routes.percent_text

    def counted(value: float, lang: str) -> str:
        formatted.append(value)
        return real(value, lang)

    monkeypatch.setattr(daily_routes, "percent_text", counted)
    browser = people.use("reader")
    read, scored = daily.days_read, daily.days_scored
    page = browser.get(f"/daily/{past}").text
    # The ranking's first 100 lines, each deal's first 10 (2 deals), their header rows.
    assert page.count("<tr>") == 100 + 1 + 2 * (10 + 1)
    # Three figures a ranking line, one a deal's line, and the reader's own: 308 at most.
    assert len(formatted) <= 3 * 101 + 2 * 11
    assert "Lines 1 to 100 of 2001." in page
    assert f'href="/daily/{past}?page=2#daily-ranking-heading"' in page
    assert "Next page: lines 101 to 200" in page and "Previous page" not in page
    assert "Your place: 2001 of 2001, mean 0.0%." in page
    assert f'href="/daily/{past}?page=21#daily-ranking-heading">Go to your line (page 21)' \
        in page
    assert "Your result on deal 1: -10 points, 0.0%, place 2001 of 2001." in page
    assert f'href="/daily/{past}/deal/1">All 2001 results of deal 1' in page
    assert "Results of deal 2: the first 10 of 2001" in page
    kept = daily.cache.get(past)
    sorted_once = kept.by_deal
    # The last page: one line, the reader's, marked; the view formats it once more.
    formatted.clear()
    last = browser.get(f"/daily/{past}?page=21").text
    assert last.count("<tr>") == 1 + 1 + 2 * (10 + 1)
    assert "2001 (you)" in last and "Go to your line" not in last
    assert "Previous page: lines 1901 to 2000" in last and "Next page" not in last
    assert len(formatted) <= 3 * 2 + 2 * 11
    # A deal's own page: 100 results a page, the reader's said above them.
    deal = browser.get(f"/daily/{past}/deal/1?page=2").text
    assert deal.count("<tr>") == 100 + 1
    assert "Results of deal 1, lines 101 to 200 of 2001" in deal
    assert "Previous page: lines 1 to 100" in deal and "Next page: lines 201 to 300" in deal
    assert f'href="/daily/{past}/deal/1?page=21#deal-results">Go to your line' in deal
    assert f'href="/daily/{past}/deal/2">Deal 2, East deals' in deal
    assert (daily.days_read, daily.days_scored) == (read + 1, scored + 1)  # once for all
    assert daily.cache.get(past).by_deal is sorted_once  # sorted once, kept
    for wrong in (f"/daily/{past}?page=22", f"/daily/{past}?page=0", f"/daily/{past}?page=x",
                  f"/daily/{past}/deal/3", f"/daily/{past}/deal/1?page=22"):
        assert browser.get(wrong).status_code == 404, wrong


def test_a_closed_days_pages_are_limited_per_address(
        room: tuple[TestClient, Clock, Path]) -> None:
    """Public pages, limited per address (the database's ``daily_pages`` bucket): over the
    limit, a 429 page that says why and when to come back."""
    client, _, _ = room
    state: Any = client.app.state  # type: ignore[attr-defined]
    portal: Any = client.portal
    settings = state.settings
    limits = state.store.rate_limits
    bucket = limits.bucket("daily_pages", settings.daily_pages_burst,
                           settings.daily_pages_per_hour)
    key = "ip:testclient"

    async def drain() -> None:
        while await bucket.take(key):
            pass

    portal.call(drain)
    try:
        refused = client.get("/daily/2026-03-01")
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert "Too many pages of the daily duplicate from your address" in refused.text
        assert client.get("/daily").status_code == 200  # today's page is not one of them
    finally:
        portal.call(limits.clear, "daily_pages", [key])
    assert client.get("/daily/2026-03-01").status_code == 200


def test_a_new_account_enters_once_old_enough(room: tuple[TestClient, Clock, Path]) -> None:
    """Issue 28's review, S6: an account made after seeing a day's deals cannot replay them
    that day (``daily_entry_account_hours``): the page says from when it can, and the entry
    is refused with the reason until then."""
    client, clock, _ = room
    state: Any = client.app.state  # type: ignore[attr-defined]
    daily = state.daily
    portal: Any = client.portal
    people = Identities(client)
    browser = sign(people, "newbie", "Newbie")

    async def made(hours_ago: float) -> None:
        async with state.store.engine.begin() as conn:
            await conn.execute(sa.update(users).where(users.c.name == "Newbie").values(
                created=clock.now - timedelta(hours=hours_ago)))

    daily.entry_age = timedelta(hours=24)
    try:
        portal.call(made, 23)
        page = browser.get("/daily").text
        opens = (NOON + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
        assert f"Your account can enter from {opens} UTC: new accounts wait 24 hours" in page
        assert "Enter today&#39;s daily duplicate" not in page
        answer = browser.post("/daily/enter")
        assert "New accounts can enter the daily duplicate 24 hours after they were made." \
            in answer.text
        assert browser.get("/daily").text.count("New accounts can enter") == 0  # said once
        assert portal.call(daily.store.entry, DAY.isoformat(), portal.call(
            _account_of, state, "Newbie")) is None  # nothing made
        portal.call(made, 25)
        assert "Your account can enter" not in browser.get("/daily").text
        browser.post("/daily/enter")
        assert "Play deal 1" in browser.get("/daily").text
    finally:
        daily.entry_age = timedelta(0)


async def _account_of(state: Any, name: str) -> int:
    async with state.store.engine.connect() as conn:
        return int((await conn.execute(sa.select(users.c.id).where(
            users.c.name == name))).scalar_one())


def test_the_export_counts_matchpoints_in_the_database_whatever_the_history(
        room: tuple[TestClient, Clock, Path]) -> None:
    """Issue 28's review, M2: the export's daily part is three queries whatever the
    account's history (30 days of 60 entrants cost what 3 days cost), reads no other
    entrant's play into the process, and its percentages are those of the day's scoring."""
    client, _, _ = room
    state: Any = client.app.state  # type: ignore[attr-defined]
    portal: Any = client.portal
    engine = state.store.engine
    days = [f"2026-02-{n:02d}" for n in range(1, 31)]
    rng = random.Random(7)

    async def build() -> tuple[int, int, dict[str, dict[int, dict[int, int]]]]:
        crowd = await new_accounts(state, "Hist", 61)
        regular, occasional = crowd[0], crowd[1]
        scores = {}
        for n, day in enumerate(days[:28]):
            # The occasional player enters 3 days, the regular one all 28.
            field = crowd if n < 3 else [a for a in crowd if a != occasional]
            scores[day] = await fabricate(state, day, field, 2, rng)
        return regular, occasional, scores

    regular, occasional, scores = portal.call(build)
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    listener = engine.sync_engine
    sa.event.listen(listener, "before_cursor_execute", count)
    try:
        data = portal.call(export, engine, regular, date(2026, 3, 14))
        regular_statements = len(statements)
        statements.clear()
        other = portal.call(export, engine, occasional, date(2026, 3, 14))
    finally:
        sa.event.remove(listener, "before_cursor_execute", count)
    assert regular_statements == len(statements)  # 28 days cost what 3 days cost
    daily_part = [s for s in statements if "daily_plays" in s or "daily_entries" in s]
    assert len(daily_part) == 3  # entries, their plays, the counts
    shown = {d["day"]: d for d in data["daily_duplicate"]}
    assert len(shown) == 28 and len(other["daily_duplicate"]) == 3
    for day, deals in scores.items():
        for deal, field in deals.items():
            expected = round(deal_percentages(field)[regular], 2)
            found = shown[day]["deals"][deal - 1]
            assert found["deal"] == deal and found["score"] == field[regular]
            assert found["matchpoints_percent"] == expected, (day, deal)


def test_a_moderator_sees_the_entrants_who_played_from_one_address(
        room: tuple[TestClient, Clock, Path]) -> None:
    """Issue 28's review, S6: on a closed day's page a moderator (only) reads which entrants
    played their deals from sessions signed in from one address (never the address)."""
    client, _, _ = room
    state: Any = client.app.state  # type: ignore[attr-defined]
    portal: Any = client.portal
    people = Identities(client)
    for who, name in (("twin_a", "TwinA"), ("twin_b", "TwinB"), ("mod", "Moddy")):
        sign(people, who, name)
    past = "2026-03-07"

    async def build() -> None:
        async with state.store.engine.connect() as conn:
            ids = {str(r.name): int(r.id) for r in (await conn.execute(
                sa.select(users.c.id, users.c.name).where(
                    users.c.name.in_(["TwinA", "TwinB", "Moddy"])))).all()}
            held = {int(r.account): public_id(str(r.id)) for r in (await conn.execute(
                sa.select(sessions.c.id, sessions.c.account).where(
                    sessions.c.account.in_([ids["TwinA"], ids["TwinB"]])))).all()}
        loner = await new_accounts(state, "Loner", 1)
        await fabricate(state, past, [ids["TwinA"], ids["TwinB"], *loner], 2,
                        random.Random(5), {ids["TwinA"]: "TwinA", ids["TwinB"]: "TwinB",
                                           loner[0]: "Loner0000"})
        async with state.store.engine.begin() as conn:
            for account, holder in held.items():  # their deals held by their own sessions
                await conn.execute(sa.update(daily_plays).where(daily_plays.c.entry.in_(
                    sa.select(daily_entries.c.id).where(daily_entries.c.account == account)))
                    .values(holder=holder))
            await conn.execute(sa.insert(account_roles).values(
                account=ids["Moddy"], role=MODERATOR, granted=datetime.now(UTC)))

    portal.call(build)
    seen = people.use("mod").get(f"/daily/{past}").text
    section = seen.split('id="daily-same-address-heading"')[1]
    assert "TwinA, TwinB</li>" in section and "Loner0000" not in section
    assert "testclient" not in seen  # never the address itself
    for who in ("twin_a", "nobody"):
        page = people.use(who).get(f"/daily/{past}").text
        assert "TwinA" in page and "For moderators" not in page
