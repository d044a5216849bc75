"""The limits on people and addresses are kept in the database (issue 26, item 3): two
processes of the room on one database (two stores, two engines; two apps) share one budget,
on PostgreSQL and on SQLite; each change is atomic across them; the limiters keep the
in-memory limiters' semantics (checked against them as twins); expired rows are purged; a
failing database is logged and counted, and this process's own limit holds meanwhile."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.limits import KeyedLimiter, RateLimiter
from belote.server.persistence import Store
from belote.server.persistence.rate_limits import (
    Bucket,
    RateLimits,
    bucket_expires,
    bucket_wait,
    refilled,
    window_wait,
)
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import guest
from tests.server.postgres import fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'limits.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


class Clock:
    """A clock the test moves (seconds since the epoch, as the room's are)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def processes(url: str, clock: Clock, count: int = 2) -> AsyncIterator[list[RateLimits]]:
    """``count`` "processes" on one database: each a store of its own (its own engine and
    connections), their limits on one clock."""
    stores = [Store(url) for _ in range(count)]
    for store in stores:
        await store.open()
    try:
        limits = []
        for store in stores:
            store.rate_limits.clock = clock
            limits.append(store.rate_limits)
        yield limits
    finally:
        for store in stores:
            await store.close()


# ---------------------------------------------------------------- the states, pure
def test_a_bucket_refills_at_its_rate_up_to_its_burst_and_says_when_it_is_full() -> None:
    b = refilled(None, 100.0, burst=3, rate=0.5)
    assert b == Bucket(3.0, 100.0)
    empty = Bucket(0.0, 100.0)
    assert refilled(empty, 101.0, 3, 0.5).tokens == pytest.approx(0.5)
    assert refilled(empty, 200.0, 3, 0.5).tokens == 3.0
    assert refilled(empty, 90.0, 3, 0.5).tokens == 0.0  # a clock stepped back refills nothing
    assert bucket_wait(Bucket(0.25, 0.0), 0.5) == pytest.approx(1.5)
    assert bucket_wait(Bucket(0.0, 0.0), 0.0) == float("inf")
    assert bucket_expires(Bucket(1.0, 10.0), 3, 0.5) == pytest.approx(14.0)


def test_a_window_waits_for_its_oldest_counted_event_to_leave() -> None:
    assert window_wait([1.0, 2.0], 5.0, 60.0, 3) == 0.0
    assert window_wait([1.0, 2.0, 3.0], 5.0, 60.0, 3) == pytest.approx(56.0)


# ---------------------------------------------------------------- twins
def test_a_shared_window_answers_as_the_in_memory_limiter_it_replaces(tmp_path: Path) -> None:
    """Random hits, clears and time steps on both: every answer the same."""
    clock = Clock()
    twin = RateLimiter(4, 60.0, clock=clock)

    async def main() -> None:
        async with processes(f"sqlite:///{tmp_path / 'w.db'}", clock, 1) as (limits,):
            shared = limits.window("twin", 4, 60.0)
            rng = random.Random(7)
            for _ in range(300):
                keys = rng.sample(["a", "b", "c"], rng.randint(1, 2))
                move = rng.random()
                if move < 0.5:
                    await shared.hit(*keys)
                    twin.hit(*keys)
                elif move < 0.55:
                    await shared.clear(*keys)
                    twin.clear(*keys)
                else:
                    clock.now += rng.choice([0.5, 7.0, 30.0, 61.0])
                assert await shared.blocked(*keys) == twin.blocked(*keys)
                assert await shared.count(keys[0]) == twin.count(keys[0])
                assert await shared.retry_after(*keys) == pytest.approx(twin.retry_after(*keys))

    asyncio.run(main())


def test_a_shared_bucket_answers_as_the_in_memory_limiter_it_replaces(tmp_path: Path) -> None:
    clock = Clock()
    twin = KeyedLimiter(3, 90.0, clock=clock)  # 3 at once, then one every 40 s

    async def main() -> None:
        async with processes(f"sqlite:///{tmp_path / 'b.db'}", clock, 1) as (limits,):
            shared = limits.bucket("twin", 3, 90.0)
            rng = random.Random(11)
            for _ in range(300):
                key = rng.choice(["a", "b"])
                if rng.random() < 0.6:
                    assert await shared.take(key) == twin.take(key)
                else:
                    clock.now += rng.choice([1.0, 13.0, 40.0, 200.0])
                assert await shared.retry_after(key) == pytest.approx(twin.retry_after(key))

    asyncio.run(main())


def test_a_limiter_is_defined_once_per_name() -> None:
    limits = RateLimits(create_async_engine("sqlite+aiosqlite://"))
    assert limits.bucket("chat", 5, 1200.0) is limits.bucket("chat", 5, 1200.0)
    with pytest.raises(ValueError, match="already defined otherwise"):
        limits.bucket("chat", 6, 1200.0)
    with pytest.raises(ValueError, match="already defined otherwise"):
        limits.window("chat", 5, 60.0)
    with pytest.raises(ValueError, match="1 to 32 characters"):
        limits.window("x" * 33, 5, 60.0)
    with pytest.raises(ValueError, match="attempts >= 1"):
        limits.window("none", 0, 60.0)


# ---------------------------------------------------------------- two processes
def test_two_processes_share_one_budget_of_sign_in_attempts(db_url: str) -> None:
    """5 failed sign-ins a minute per name: 3 through one process and 2 through the other
    use it up; the 6th is refused by both, and the window lifts it for both."""
    clock = Clock()

    async def main() -> None:
        async with processes(db_url, clock) as (one, two):
            limiters = [one.window("login_by_name", 5, 60.0),
                        two.window("login_by_name", 5, 60.0)]
            for n in range(5):
                by = limiters[0 if n < 3 else 1]
                assert not await by.blocked("name:ada")
                await by.fail("name:ada")
            for by in limiters:
                assert await by.blocked("name:ada")
                assert await by.retry_after("name:ada") == pytest.approx(60.0)
                assert not await by.blocked("name:bea")
            clock.now += 60.0
            assert not await limiters[1].blocked("name:ada")

    asyncio.run(main())


def test_concurrent_takes_of_two_processes_never_overdraw_a_bucket(db_url: str) -> None:
    """Each take is one atomic change: 24 takes at once, half through each process, of a
    bucket of 10 that does not refill: exactly 10 are granted.  And 20 hits at once keep 20
    events (a lost update would keep fewer)."""
    clock = Clock()

    async def main() -> None:
        async with processes(db_url, clock) as (one, two):
            buckets = [one.bucket("tables_by_address", 10, 0.0),
                       two.bucket("tables_by_address", 10, 0.0)]
            granted = await asyncio.gather(*(buckets[n % 2].take("198.51.100.7")
                                             for n in range(24)))
            assert sum(granted) == 10
            windows = [one.window("signups", 50, 3600.0), two.window("signups", 50, 3600.0)]
            await asyncio.gather(*(windows[n % 2].hit("ip:198.51.100.7") for n in range(20)))
            assert await windows[0].count("ip:198.51.100.7") == 20
            assert one.failures == two.failures == {}

    asyncio.run(main())


def test_expired_rows_are_purged_and_purging_changes_no_answer(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        async with processes(f"sqlite:///{tmp_path / 'p.db'}", clock, 1) as (limits,):
            chat = limits.bucket("lobby_chat", 2, 3600.0)  # one back a second
            guesses = limits.window("code_guesses", 3, 60.0)
            for n in range(5):
                assert await chat.take(f"person{n}")
            await guesses.hit("ip:a", "ip:b")
            await chat.take("person0")  # person0: empty, full again 2 s later
            assert await limits.rows() == 7
            clock.now += 1.5
            assert await limits.purge() == 4  # the other people's buckets are full again
            assert await limits.rows() == 3
            # A purged row says what the full bucket said: two at once, then none.
            assert [await chat.take("person1") for _ in range(3)] == [True, True, False]
            clock.now += 60.0
            assert await limits.purge() == 4  # buckets full, the guesses out of the window
            assert await limits.rows() == 0
            assert await guesses.count("ip:a") == 0

    asyncio.run(main())


def test_a_long_key_is_stored_as_its_digest(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        async with processes(f"sqlite:///{tmp_path / 'k.db'}", clock, 1) as (limits,):
            window = limits.window("login_by_name", 1, 60.0)
            long, other = "name:" + "x" * 500, "name:" + "x" * 499 + "y"
            await window.fail(long)
            assert await window.blocked(long) and not await window.blocked(other)
            assert limits.failures == {}

    asyncio.run(main())


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_failing_database_is_logged_and_counted_and_this_processs_limit_holds(
        where: str, tmp_path: Path, caplog: Any) -> None:
    """Neither open nor closed: each failure counted (and logged, at most a line every
    10 s per limiter), and the in-memory limit of this process decides meanwhile."""
    url = {
        # A file without the room's tables: every statement fails (a file that cannot be
        # opened would leave aiosqlite's thread to a closed loop).
        "sqlite": f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}",
        "postgresql": "postgresql+asyncpg://postgres@127.0.0.1:1/sala",  # nothing listens
    }[where]

    async def main() -> None:
        engine = create_async_engine(url)
        try:
            limits = RateLimits(engine)
            chat = limits.bucket("lobby_chat", 2, 0.0)
            logins = limits.window("login_by_name", 2, 60.0)
            assert [await chat.take("p") for _ in range(3)] == [True, True, False]
            assert await chat.retry_after("p") == float("inf")
            await logins.fail("name:ada")
            assert not await logins.blocked("name:ada")
            await logins.fail("name:ada")
            assert await logins.blocked("name:ada") and await logins.count("name:ada") == 2
            await logins.clear("name:ada")
            assert not await logins.blocked("name:ada")
            assert limits.failures["lobby_chat"] == 4
            assert limits.failures["login_by_name"] == 7
        finally:
            await engine.dispose()

    with caplog.at_level(logging.ERROR, logger="belote.server.persistence.rate_limits"):
        asyncio.run(main())
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2  # one per limiter: the outage does not flood the log
    assert all("the database failed" in line and "own limit holds" in line for line in lines)


# ---------------------------------------------------------------- two apps on one database
def _two_apps(tmp_path: Path, url: str, **changes: Any) -> tuple[Any, Any]:
    return (create_app(make_settings(tmp_path, db_url=url, **changes)),
            create_app(make_settings(tmp_path, db_url=url, **changes)))


def test_two_rooms_on_one_postgresql_database_share_the_sign_in_limit(
        tmp_path: Path, postgres_url: str) -> None:
    """Two processes of the room: 3 failed sign-ins for a name on one and 2 on the other,
    then a 6th try is refused (429) on either."""
    one, two = _two_apps(tmp_path, fresh_database(postgres_url), login_attempts=5)
    with client_for(one) as first, client_for(two) as second:
        def try_in(client: TestClient) -> int:
            return client.post("/login", data={"name": "Ada", "password": "not it!"},
                               follow_redirects=False).status_code

        assert [try_in(first) for _ in range(3)] == [401] * 3
        assert [try_in(second) for _ in range(2)] == [401] * 2
        refused = second.post("/login", data={"name": "Ada", "password": "not it!"})
        assert refused.status_code == 429 and "Too many failed attempts" in refused.text
        assert try_in(first) == 429


def _same_person(client: TestClient, elsewhere: TestClient) -> TestClient:
    """``elsewhere`` (a client of another process) as the browser of ``client``: its
    cookies, so the same session (kept in the database, signed with the database's key)."""
    for name, value in client.cookies.items():
        elsewhere.cookies.set(name, value)
    return elsewhere


def _new_table(client: TestClient) -> Any:
    return client.post("/tables", data={"preset": "classic", "flags": "", "target": "300"},
                       follow_redirects=True)


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_persons_waiting_tables_are_counted_across_processes(
        tmp_path: Path, where: str, request: pytest.FixtureRequest) -> None:
    url = (f"sqlite:///{tmp_path / 'w.db'}" if where == "sqlite"
           else fresh_database(request.getfixturevalue("postgres_url")))
    one, two = _two_apps(tmp_path, url, waiting_tables_per_user=1)
    with client_for(one) as first, client_for(two) as second:
        guest(first, "Ada")
        made = _new_table(first)
        assert made.url.path.startswith("/table/")
        refused = _new_table(_same_person(first, second))
        assert "the most tables waiting" in refused.text
        assert len(two.state.room.tables) == 0


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_tables_per_address_are_counted_across_processes(
        tmp_path: Path, where: str, request: pytest.FixtureRequest) -> None:
    url = (f"sqlite:///{tmp_path / 'a.db'}" if where == "sqlite"
           else fresh_database(request.getfixturevalue("postgres_url")))
    one, two = _two_apps(tmp_path, url, tables_per_address_burst=1,
                         tables_per_address_per_hour=0.001)
    with client_for(one) as first, client_for(two) as second:
        guest(first, "Ada")
        guest(second, "Bea")  # another person, the same address
        assert _new_table(first).url.path.startswith("/table/")
        refused = _new_table(second)
        assert "Too many tables were created from your address" in refused.text


# ---------------------------------------------------------------- waiting, in the store
def test_a_table_waits_until_its_match_starts_and_while_it_is_open(db_url: str) -> None:
    async def main() -> None:
        store = Store(db_url)
        await store.open()
        try:
            first = await store.new_table("classic", {}, 300, creator="ada")
            second = await store.new_table("classic", {}, 300, creator="ada")
            await store.new_table("classic", {}, 300, creator="bea")
            await store.new_table("classic", {}, 300)  # the room's own (a tournament's)
            count: Callable[[str], Any] = store.waiting_tables
            assert (await count("ada"), await count("bea"), await count("cleo")) == (2, 1, 0)
            await store.append(first, 1, "seats", {"seats": []})
            assert await count("ada") == 2  # seats change: still waiting
            await store.append(first, 2, "start", {"first_dealer": 0})
            assert await count("ada") == 1  # playing
            assert await store.expire_table(second)
            assert await count("ada") == 0
        finally:
            await store.close()

    asyncio.run(main())


def test_waiting_tables_are_counted_in_this_process_while_the_database_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(make_settings(tmp_path, waiting_tables_per_user=1))
    with client_for(app) as client:
        guest(client, "Ada")

        async def failing(creator: str) -> int:
            raise OperationalError("SELECT count(*) FROM tables", {}, Exception("down"))

        monkeypatch.setattr(app.state.store, "waiting_tables", failing)
        assert _new_table(client).url.path.startswith("/table/")
        assert "the most tables waiting" in _new_table(client).text  # this process's own
        assert app.state.store.rate_limits.failures["waiting_tables"] == 2
