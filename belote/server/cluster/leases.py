"""Which process owns a table: a lease per table, held as a PostgreSQL advisory lock.

Each room process keeps one connection (its *lease connection*) holding a session-level
advisory lock ``(NAMESPACE, table_id)`` for every table it runs.  The lock is the lease:
PostgreSQL grants it to one session at a time, and frees every lock of a session whose
connection ends, so a process that dies (SIGKILL, a crash) lets its tables go at once; one
whose machine vanishes is found by the connection's TCP keepalives within a few seconds
(:data:`KEEPALIVE`).  The process checks its lease connection every :data:`HEARTBEAT`
seconds; one that fails means its leases may be another's now: its tables stop at once
(``on_lost``), before anything else is written for them.  A table's log refuses a second
change under the same version (its primary key), which fences off a writer that has not
noticed yet.

Who holds a lease is PostgreSQL's own answer (``pg_locks`` with the holder's
``application_name``, which names the process's relay address): there is no owners' table
to go stale.  :class:`SoloLeases` is the single process's: it owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from typing import Any, Protocol

import asyncpg

from belote.server.cluster.wire import pg_dsn

log = logging.getLogger(__name__)

NAMESPACE = 0x42454C  # the advisory locks' first key: b"BEL"; the second is the table's id
APP_PREFIX = "belote-room "  # application_name of a lease connection, then its address
HEARTBEAT = 1.0  # seconds between two checks of the lease connection
QUERY_SECONDS = 2.0  # a query on the lease connection (its wait for it included) at most
KEEPALIVE = {"tcp_keepalives_idle": "2", "tcp_keepalives_interval": "1",
             "tcp_keepalives_count": "2"}


class LeaseUnavailable(Exception):
    """The lease connection did not answer (it failed, or is being made again)."""


class Leases(Protocol):
    address: str  # this process's relay address (host:port): its name in the cluster
    on_lost: list[Callable[[], None]]  # told when every lease of this process may be lost
    generation: int  # grows each time the leases are lost: work begun before is not ours

    async def open(self) -> None: ...

    async def take(self, table_ids: Collection[int]) -> list[int]:
        """The tables of ``table_ids`` whose lease this process took (or already held)."""
        ...

    async def release(self, table_id: int) -> None: ...

    async def owner(self, table_id: int) -> str | None:
        """The address of the process holding this table's lease; None: nobody does."""
        ...

    async def owners(self, table_ids: Collection[int]) -> dict[int, str]:
        """The address of the process holding each of these tables' leases (held ones)."""
        ...

    async def processes(self) -> list[str]:
        """The addresses of the room's processes alive now (this one included)."""
        ...

    async def close(self) -> None: ...


class SoloLeases:
    """One process: it owns every table."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.on_lost: list[Callable[[], None]] = []
        self.generation = 0

    async def open(self) -> None:
        """Nothing to hold."""

    async def take(self, table_ids: Collection[int]) -> list[int]:
        return list(table_ids)

    async def release(self, table_id: int) -> None:
        """Nothing to free."""

    async def owner(self, table_id: int) -> str | None:
        return self.address

    async def owners(self, table_ids: Collection[int]) -> dict[int, str]:
        return dict.fromkeys(table_ids, self.address)

    async def processes(self) -> list[str]:
        return [self.address]

    async def close(self) -> None:
        """Nothing to close."""


class DuplicateProcess(RuntimeError):
    """Another process of the room already runs under this address."""


class PgLeases:
    """Leases held by this process's lease connection.  Every query on it is bounded
    (:data:`QUERY_SECONDS`, the wait for the connection included): a connection that hangs
    is a lost one."""

    def __init__(self, url: str, address: str) -> None:
        self.dsn = pg_dsn(url)
        self.address = address
        self.on_lost: list[Callable[[], None]] = []
        self.generation = 0
        self.held: set[int] = set()
        self.lost = 0  # lease connections lost (each logged; the tables stopped)
        self.timeouts = 0  # queries that did not answer in time (each logged)
        self._conn: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()  # one query at a time on the connection
        self._beat: asyncio.Task[None] | None = None
        self._reconnect: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def _name(self) -> str:
        return (APP_PREFIX + self.address)[:63]

    async def open(self) -> None:
        conn = await self._connect()
        twins = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 "
            "AND datname = current_database()", self._name)
        if twins > 1:
            await conn.close()
            raise DuplicateProcess(
                f"another process of the room runs as {self.address}: give each process "
                "its own --port, or --relay-address on other machines")
        self._conn = conn
        self._beat = asyncio.create_task(self._heartbeat(), name="lease-heartbeat")

    async def _connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(
            self.dsn, timeout=QUERY_SECONDS,
            server_settings={"application_name": self._name, **KEEPALIVE})

    async def _query(self, method: str, *args: Any) -> Any:
        """``conn.method(*args)`` on the lease connection, bounded; a failure loses the
        leases (and raises ``LeaseUnavailable``)."""
        try:
            async with asyncio.timeout(QUERY_SECONDS):
                async with self._lock:
                    conn = self._conn
                    if conn is None:
                        raise LeaseUnavailable("no lease connection (connecting again)")
                    return await getattr(conn, method)(*args)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
            if isinstance(error, TimeoutError):
                self.timeouts += 1
            self._lose(error)
            raise LeaseUnavailable(repr(error)) from error

    async def _heartbeat(self) -> None:
        while not self._closed:
            await asyncio.sleep(HEARTBEAT)
            with contextlib.suppress(LeaseUnavailable):
                await self._query("fetchval", "SELECT 1")

    def _lose(self, error: BaseException) -> None:
        """The lease connection failed: every lease may be another's now.  The tables stop
        at once (``on_lost``); a new connection is made in the background."""
        if self._conn is None or self._closed:
            return
        conn, self._conn = self._conn, None
        with contextlib.suppress(Exception):
            conn.terminate()
        self.lost += 1
        self.generation += 1
        self.held.clear()
        log.error("leases: the lease connection failed (%r): every table of this process "
                  "stops (another process takes them over)", error)
        for hook in self.on_lost:
            hook()
        self._reconnect = asyncio.create_task(self._connect_again())

    async def _connect_again(self) -> None:
        while not self._closed:
            try:
                conn = await self._connect()
            except (OSError, asyncpg.PostgresError, TimeoutError) as again:
                log.warning("leases: connecting again failed: %r", again)
                await asyncio.sleep(HEARTBEAT)
                continue
            self._conn = conn
            log.info("leases: the lease connection is back")
            return

    async def take(self, table_ids: Collection[int]) -> list[int]:
        wanted = [t for t in table_ids if t not in self.held]
        if wanted:
            generation = self.generation
            try:
                rows = await self._query(
                    "fetch", "SELECT id FROM unnest($1::int[]) AS id "
                    "WHERE pg_try_advisory_lock($2, id)", wanted, NAMESPACE)
            except LeaseUnavailable:
                return [t for t in table_ids if t in self.held]
            if generation == self.generation:  # taken on the connection that holds them
                self.held.update(int(r["id"]) for r in rows)
        return [t for t in table_ids if t in self.held]

    async def release(self, table_id: int) -> None:
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        with contextlib.suppress(LeaseUnavailable):
            await self._query("fetchval", "SELECT pg_advisory_unlock($1, $2)", NAMESPACE,
                              table_id)

    async def owner(self, table_id: int) -> str | None:
        return (await self.owners([table_id])).get(table_id)

    async def owners(self, table_ids: Collection[int]) -> dict[int, str]:
        found = {t: self.address for t in table_ids if t in self.held}
        others = [t for t in table_ids if t not in self.held]
        if not others:
            return found
        try:
            rows = await self._query(
                "fetch",
                "SELECT l.objid::bigint AS id, a.application_name AS name FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
                "AND l.database = (SELECT oid FROM pg_database "
                "WHERE datname = current_database()) "
                "AND l.classid::bigint = $1 AND l.objid::bigint = ANY($2::bigint[])",
                NAMESPACE, others)
        except LeaseUnavailable:
            return found
        for row in rows:
            name = row["name"]
            if isinstance(name, str) and name.startswith(APP_PREFIX):
                found[int(row["id"])] = name[len(APP_PREFIX):]
        return found

    async def processes(self) -> list[str]:
        try:
            rows = await self._query(
                "fetch", "SELECT DISTINCT application_name AS name FROM pg_stat_activity "
                "WHERE application_name LIKE $1 AND datname = current_database()",
                APP_PREFIX + "%")
        except LeaseUnavailable:
            return [self.address]
        return sorted({str(r["name"])[len(APP_PREFIX):] for r in rows} | {self.address})

    async def close(self) -> None:
        self._closed = True
        for task in (self._beat, self._reconnect):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=2)  # every lease freed at once
        self.held.clear()
