"""Rate limits kept in the database: one budget, whichever process of the room is asked.

The room may run as several processes on one database (issue 26).  A limit kept in one
process's memory would give a person or an address that budget once per process: five
sign-in attempts a minute per name would be five per process.  So the limits on people and
addresses live here, in the ``rate_limits`` table, one row per limiter and key; each has the
semantics of the in-memory limiter it replaces:

- :class:`SharedBucket` (:class:`~belote.server.limits.KeyedLimiter`'s twin): ``burst``
  actions at once, then ``per_hour`` (lobby chat lines per person, tables per address);
- :class:`SharedWindow` (:class:`~belote.server.limits.RateLimiter`'s twin): at most
  ``attempts`` events per key within the last ``window`` seconds (failed sign-ins, sign-ups,
  new guests, wrong codes).

**One short transaction per change, atomic across processes.**  A change first takes the
write lock of what it changes, then reads, computes and writes the row: on SQLite ``BEGIN
IMMEDIATE`` takes the file's write lock (a change of another process waits for it, a few
statements long); on PostgreSQL ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` makes the
row if it is new and locks it in the same statement, so another process's change of that key
waits for this commit and reads what it left.  The keys of one change are locked in sorted
order (two changes of the same keys cannot deadlock).  A PostgreSQL change commits with
``synchronous_commit`` off: a crash of the server may forget a limit's last counts, which
costs nothing, where an fsync per chat line would.

**Times** are seconds since the epoch, from the processes' clocks (``time.time``), not the
monotonic clock of one process: processes on one database run on clocks kept in step (NTP),
and a skew between two only shifts a window by that much.

**Memory.**  A row's ``expires`` says when it stops saying anything (a bucket full again, a
window empty); every :data:`PURGE_SECONDS` a process that changes a limit deletes the rows
past it, so the table holds only the keys still in their window (the in-memory limiters'
``max_keys`` bound, without the eviction that let a flood of new keys wipe a guesser's count).

**The database failing: neither open nor closed.**  Each limiter keeps its in-memory twin,
unused while the database answers.  When a read or a change of the database fails, the
failure is logged and counted (:attr:`RateLimits.failures`) and this process's own limit
decides, as before issue 26.  Failing open would let a guesser try invitation codes at will
(their check needs no database) for as long as an outage lasts; failing closed would refuse
every sign-in and chat line for a fault that is not the person's.  The per-process limit is N
times looser with N processes, and only while the database is down, which stops the room's
tables anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.limits import KeyedLimiter, RateLimiter
from belote.server.persistence.locks import sqlite_write_lock
from belote.server.persistence.schema import rate_limits

log = logging.getLogger(__name__)
T = TypeVar("T")
Clock = Callable[[], float]

PURGE_SECONDS = 60.0  # rows past their expiry are deleted at most this often per process
KEY_CHARS = 160  # a longer key is stored as its digest (the column's width)
NAME_CHARS = 32
NEVER = 1e18  # the expiry of a bucket that never refills (a rate of 0)
LOG_EVERY = 10.0  # seconds between two log lines about one limiter's failing database
# What a failing database raises: the driver's errors, wrapped by SQLAlchemy, and the
# network's (a refused or cut connection, a timeout), which may come unwrapped.
FAILURES = (SQLAlchemyError, OSError)


# ---------------------------------------------------------------- the states, pure
@dataclass(frozen=True, slots=True)
class Bucket:
    """A token bucket as stored: ``tokens`` left at time ``at``."""

    tokens: float
    at: float


def refilled(bucket: Bucket | None, now: float, burst: int, rate: float) -> Bucket:
    """The bucket at ``now`` (a new key's is full); ``rate`` in tokens a second."""
    if bucket is None:
        return Bucket(float(burst), now)
    elapsed = max(0.0, now - bucket.at)  # a clock stepped back refills nothing
    return Bucket(min(float(burst), bucket.tokens + elapsed * rate), now)


def bucket_wait(bucket: Bucket, rate: float) -> float:
    """Seconds until the refilled ``bucket`` has a token (0.0: it has one)."""
    if bucket.tokens >= 1.0:
        return 0.0
    return math.inf if rate <= 0 else (1.0 - bucket.tokens) / rate


def bucket_expires(bucket: Bucket, burst: int, rate: float) -> float:
    """When ``bucket`` is full again: then it is the same as no row."""
    missing = burst - bucket.tokens
    if missing <= 0:
        return bucket.at
    return NEVER if rate <= 0 else bucket.at + missing / rate


def in_window(events: Sequence[float], now: float, window: float) -> list[float]:
    """The events still in the window at ``now``, oldest first."""
    return [e for e in events if now - e < window]


def window_wait(events: Sequence[float], now: float, window: float, attempts: int) -> float:
    """Seconds until fewer than ``attempts`` of ``events`` (in the window) remain."""
    if len(events) < attempts:
        return 0.0
    return max(0.0, window - (now - events[-attempts]))


def _bucket(state: str) -> Bucket | None:
    if not state:
        return None
    data = json.loads(state)
    return Bucket(float(data["tokens"]), float(data["at"]))


def _events(state: str) -> list[float]:
    return [float(e) for e in json.loads(state)] if state else []


def _stored_key(key: str) -> str:
    if len(key) <= KEY_CHARS:
        return key
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


# ---------------------------------------------------------------- the table
class RateLimits:
    """The rate limits of one database (the :class:`~belote.server.persistence.Store`'s
    ``rate_limits``): each limiter by name, built once, and the reads and changes of its
    rows."""

    def __init__(self, engine: AsyncEngine, clock: Clock = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self.failures: Counter[str] = Counter()  # database failures, by limiter (logged)
        self._limiters: dict[str, SharedBucket | SharedWindow] = {}
        self._next_purge = 0.0
        self._quiet_until: dict[str, float] = {}
        # SQLite: this process's changes queue here rather than in the busy handler's sleeps
        # (up to 100 ms each).  Not what makes a change atomic: the file's write lock is.
        self._sqlite_turn = asyncio.Lock()

    def bucket(self, name: str, burst: int, per_hour: float) -> SharedBucket:
        """The limiter ``name``: ``burst`` at once, then ``per_hour``."""
        found = self._limiters.get(name)
        if found is None:
            found = self._limiters[name] = SharedBucket(self, name, burst, per_hour)
        if not isinstance(found, SharedBucket) or (found.burst, found.per_hour) != (
                burst, per_hour):
            raise ValueError(f"rate limit {name!r} is already defined otherwise")
        return found

    def window(self, name: str, attempts: int, window: float,
               max_keys: int = 10_000) -> SharedWindow:
        """The limiter ``name``: at most ``attempts`` per ``window`` seconds (``max_keys``
        bounds its in-memory twin, used while the database fails)."""
        found = self._limiters.get(name)
        if found is None:
            found = self._limiters[name] = SharedWindow(self, name, attempts, window, max_keys)
        if not isinstance(found, SharedWindow) or (found.attempts, found.window) != (
                attempts, window):
            raise ValueError(f"rate limit {name!r} is already defined otherwise")
        return found

    def failed(self, name: str, error: BaseException) -> None:
        """Count a failure of the database for limiter ``name``, and log it (at most one line
        per limiter every ``LOG_EVERY`` seconds, with the count so far: an outage must not
        flood the log either)."""
        self.failures[name] += 1
        now = time.monotonic()
        if now >= self._quiet_until.get(name, 0.0):
            self._quiet_until[name] = now + LOG_EVERY
            log.error("rate limit %s: the database failed (%r): this process's own limit "
                      "holds meanwhile; failures so far %d", name, error,
                      self.failures[name])

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction holding the write lock (SQLite) or committing without
        waiting for the disk (PostgreSQL; the rows' locks are taken by :meth:`_change`)."""
        if self.engine.dialect.name == "sqlite":
            async with self._sqlite_turn, self.engine.begin() as conn:
                await sqlite_write_lock(conn)
                yield conn
        else:
            async with self.engine.begin() as conn:
                await conn.execute(text("SET LOCAL synchronous_commit TO OFF"))
                yield conn

    async def change(self, name: str, keys: Sequence[str],
                     step: Callable[[str, float], tuple[str, float, T]]) -> list[T]:
        """Change the rows of ``keys`` in one transaction: ``step(state, now)`` gives each
        row's new state, its expiry and what to answer for it.  Raises on a database
        failure (nothing changed)."""
        now = self.clock()
        stored = [_stored_key(k) for k in keys]
        answers: dict[str, T] = {}
        insert = (sqlite_insert if self.engine.dialect.name == "sqlite"
                  else postgresql_insert)
        async with self._transaction() as conn:
            for key in sorted(set(stored)):
                # Made if new, else locked (PostgreSQL) and read, in one statement.
                made = insert(rate_limits).values(limiter=name, key=key, state="",
                                                  expires=now)
                locked = made.on_conflict_do_update(
                    index_elements=[rate_limits.c.limiter, rate_limits.c.key],
                    set_={"expires": rate_limits.c.expires},
                ).returning(rate_limits.c.state)
                state = str((await conn.execute(locked)).scalar_one())
                new_state, expires, answers[key] = step(state, now)
                await conn.execute(update(rate_limits).where(
                    rate_limits.c.limiter == name, rate_limits.c.key == key,
                ).values(state=new_state, expires=expires))
        await self._purge_now_and_then(now)
        return [answers[key] for key in stored]

    async def states(self, name: str, keys: Sequence[str]) -> list[str]:
        """The stored states of ``keys`` ("" for none), read without a lock."""
        stored = [_stored_key(k) for k in keys]
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(rate_limits.c.key, rate_limits.c.state).where(
                rate_limits.c.limiter == name, rate_limits.c.key.in_(set(stored))))
            found = {str(k): str(s) for k, s in rows}
        return [found.get(key, "") for key in stored]

    async def clear(self, name: str, keys: Sequence[str]) -> None:
        async with self._transaction() as conn:
            await conn.execute(delete(rate_limits).where(
                rate_limits.c.limiter == name,
                rate_limits.c.key.in_({_stored_key(k) for k in keys})))

    async def purge(self) -> int:
        """Delete the rows past their expiry (they say nothing any more); how many."""
        now = self.clock()
        self._next_purge = now + PURGE_SECONDS
        async with self._transaction() as conn:
            result = await conn.execute(delete(rate_limits).where(
                rate_limits.c.expires <= now))
        return int(result.rowcount)

    async def _purge_now_and_then(self, now: float) -> None:
        if now < self._next_purge:
            return
        try:
            await self.purge()
        except FAILURES as error:
            self.failed("purge", error)

    async def rows(self) -> int:
        """How many rows the limits hold now."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(select(func.count()).select_from(rate_limits))
        return int(found or 0)


# ---------------------------------------------------------------- the limiters
class SharedBucket:
    """``burst`` actions at once per key, then ``per_hour``: one bucket for every process
    (:class:`~belote.server.limits.KeyedLimiter`'s semantics)."""

    def __init__(self, limits: RateLimits, name: str, burst: int, per_hour: float) -> None:
        if not 0 < len(name) <= NAME_CHARS:
            raise ValueError(f"a rate limit's name has 1 to {NAME_CHARS} characters")
        if burst < 1 or per_hour < 0:
            raise ValueError("a rate limit needs burst >= 1 and per_hour >= 0")
        self.limits = limits
        self.name = name
        self.burst = burst
        self.per_hour = per_hour
        self.rate = per_hour / 3600
        self.local = KeyedLimiter(burst, per_hour)  # while the database fails

    def _take(self, state: str, now: float) -> tuple[str, float, bool]:
        bucket = refilled(_bucket(state), now, self.burst, self.rate)
        taken = bucket.tokens >= 1.0
        if taken:
            bucket = Bucket(bucket.tokens - 1.0, bucket.at)
        stored = json.dumps({"tokens": bucket.tokens, "at": bucket.at})
        return stored, bucket_expires(bucket, self.burst, self.rate), taken

    async def take(self, key: str) -> bool:
        """Use one action of ``key`` if it has one; ``False``: refused, wait."""
        try:
            return (await self.limits.change(self.name, [key], self._take))[0]
        except FAILURES as error:
            self.limits.failed(self.name, error)
            return self.local.take(key)

    async def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may act again (0.0: now)."""
        try:
            state = (await self.limits.states(self.name, [key]))[0]
        except FAILURES as error:
            self.limits.failed(self.name, error)
            return self.local.retry_after(key)
        if not state:
            return 0.0
        now = self.limits.clock()
        return bucket_wait(refilled(_bucket(state), now, self.burst, self.rate), self.rate)


class SharedWindow:
    """At most ``attempts`` events per key within the last ``window`` seconds: one count for
    every process (:class:`~belote.server.limits.RateLimiter`'s semantics)."""

    def __init__(self, limits: RateLimits, name: str, attempts: int, window: float,
                 max_keys: int = 10_000) -> None:
        if not 0 < len(name) <= NAME_CHARS:
            raise ValueError(f"a rate limit's name has 1 to {NAME_CHARS} characters")
        self.local = RateLimiter(attempts, window, max_keys)  # checks the numbers too
        self.limits = limits
        self.name = name
        self.attempts = attempts
        self.window = window

    async def _recent(self, keys: Sequence[str]) -> list[list[float]] | None:
        """Each key's events in the window; None: the database failed (counted)."""
        try:
            states = await self.limits.states(self.name, keys)
        except FAILURES as error:
            self.limits.failed(self.name, error)
            return None
        now = self.limits.clock()
        return [in_window(_events(s), now, self.window) for s in states]

    async def count(self, key: str) -> int:
        found = await self._recent([key])
        return self.local.count(key) if found is None else len(found[0])

    async def blocked(self, *keys: str) -> bool:
        found = await self._recent(keys)
        if found is None:
            return self.local.blocked(*keys)
        return any(len(events) >= self.attempts for events in found)

    async def retry_after(self, *keys: str) -> float:
        """Seconds until none of ``keys`` is blocked any more (0.0: none is)."""
        found = await self._recent(keys)
        if found is None:
            return self.local.retry_after(*keys)
        now = self.limits.clock()
        return max((window_wait(events, now, self.window, self.attempts) for events in found),
                   default=0.0)

    def _hit(self, state: str, now: float) -> tuple[str, float, None]:
        # Only the last ``attempts`` events matter (the in-memory twin's bounded deque).
        events = [*in_window(_events(state), now, self.window), now][-self.attempts:]
        return json.dumps(events), max(events) + self.window, None

    async def hit(self, *keys: str) -> None:
        """Count one event for each key (one transaction for them all)."""
        if not keys:
            return
        try:
            await self.limits.change(self.name, keys, self._hit)
        except FAILURES as error:
            self.limits.failed(self.name, error)
            self.local.hit(*keys)

    fail = hit  # a failed sign-in is one event

    async def clear(self, *keys: str) -> None:
        if not keys:
            return
        try:
            await self.limits.clear(self.name, keys)
        except FAILURES as error:
            self.limits.failed(self.name, error)
        self.local.clear(*keys)
