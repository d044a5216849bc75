"""The repository: every read and write of the room goes through :class:`Store`."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, cast, delete, event, func, insert, literal, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from belote.server.name_keys import name_key
from belote.server.persistence.migrate import upgrade
from belote.server.persistence.rate_limits import RateLimits
from belote.server.persistence.schema import (
    DELETED_ACCOUNTS_HIGH,
    account_settings,
    meta,
    sessions,
    table_log,
    tables,
    users,
)

_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg",
            "postgres": "postgresql+asyncpg"}


class NameTaken(Exception):
    """A registered account already has this name (or one that folds to the same key)."""


class VersionTaken(Exception):
    """A table's change under a version its log already holds: another writer (the process
    that took the table over) stored it first.  This writer's table is not its own any more."""

# Seconds a SQLite connection waits for the write lock before "database is locked".
SQLITE_BUSY_TIMEOUT = 30.0
# Settings of every PostgreSQL connection of the room, whatever the server's defaults: a
# change is acknowledged (broadcast, then built on) only once it is stored for good, and a
# server set to ``synchronous_commit = off`` acknowledges commits that a crash of the server
# loses (the last ones, while the room plays on past them).
POSTGRES_SETTINGS = {"synchronous_commit": "on"}
# The advisory lock the migrations run under on PostgreSQL (b"BELM"; one key: another lock
# space than the tables' leases, which take two, belote/server/cluster/leases.py).
MIGRATION_LOCK = 0x42454C4D

log = logging.getLogger(__name__)


def async_url(url: str) -> str:
    """``sqlite:///f.db`` or ``postgresql://...`` as the async driver's URL."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r} (expected sqlite:///FILE or "
                         "postgresql://USER@HOST/DB)")
    base = scheme.split("+", 1)[0]
    if base not in _DRIVERS:
        raise ValueError(f"unsupported database {scheme!r}: use sqlite or postgresql")
    return f"{_DRIVERS[base]}://{rest}"


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    preset: str
    flags: dict[str, Any]
    target: int
    status: str
    record: dict[str, Any] | None
    creator: str | None = None  # the session's public id of whoever made it (its limits)


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    password_hash: str


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: str
    account: int | None
    name: str
    name_key: str
    created: datetime
    last_seen: datetime
    user_agent: str
    address: str


@dataclass(frozen=True, slots=True)
class LogEntry:
    version: int
    kind: str
    data: dict[str, Any]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL keeps every committed change through a killed process and lets readers run
    # beside the writer.  A change is acknowledged (broadcast) once its commit returned, so
    # the commit must be durable then, through a power loss too: synchronous=FULL syncs the
    # log at every commit (NORMAL, WAL's usual companion, may lose the last commits on a
    # power loss or an OS crash).  The room's group commit (``append``) keeps that cheap.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


# SQLite's commit setting for every connection of the room (see ``_sqlite_pragmas``).
SQLITE_SYNCHRONOUS = "FULL"


class Store:
    def __init__(self, url: str) -> None:
        self.url = async_url(url)
        # A pooled PostgreSQL connection dies with a server restart: check it before use, so
        # that the next change after the restart is stored rather than lost to an error.
        sqlite = self.url.startswith("sqlite")
        self.engine: AsyncEngine = create_async_engine(
            self.url, pool_pre_ping=not sqlite,
            connect_args={"timeout": SQLITE_BUSY_TIMEOUT} if sqlite
            else {"server_settings": dict(POSTGRES_SETTINGS)})
        # Account and session writes, one at a time: concurrent sign-ups on SQLite would
        # otherwise race for the file's write lock (and a reader turned writer fails at once).
        self._account_writes = asyncio.Lock()
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        # Log rows waiting for the next group commit, and the task writing them (append).
        self._appends: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        # The limits on people and addresses, the same from every process of the room.
        self.rate_limits = RateLimits(self.engine)

    async def open(self) -> None:
        """Migrate the database to the head revision (a new database is made there)."""
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Several processes of one room start together (``--processes N``): one
                # migrates, the others wait for its commit, then find the head (no lock,
                # and two made ``alembic_version`` at once: one failed to start).
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": MIGRATION_LOCK})
            await conn.run_sync(upgrade)
        if self.engine.dialect.name == "postgresql":
            await self._check_durability()

    async def _check_durability(self) -> None:
        """Say in the log how durable a stored change is on this PostgreSQL server."""
        async with self.engine.connect() as conn:
            commit = (await conn.execute(text("SHOW synchronous_commit"))).scalar()
            fsync = (await conn.execute(text("SHOW fsync"))).scalar()
        if fsync != "on":
            log.warning("PostgreSQL runs with fsync=%s: a crash of its machine can lose "
                        "changes it acknowledged (a killed server alone does not)", fsync)
        log.info("PostgreSQL: the room's changes are committed with synchronous_commit=%s "
                 "(fsync=%s)", commit, fsync)

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        await self.engine.dispose()

    # ------------------------------------------------------------------ meta
    async def secret(self) -> str:
        """The key that signs session cookies, made once and kept across restarts."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(meta.c.value).where(meta.c.key == "secret"))).first()
            if row is not None:
                return str(row[0])
            value = secrets.token_urlsafe(48)
            await conn.execute(insert(meta).values(key="secret", value=value))
            return value

    # ------------------------------------------------------------------ accounts
    async def add_user(self, name: str, password_hash: str, name_key: str | None = None) -> int:
        """A new account; :class:`NameTaken` if its name or its key (by default the one
        :func:`~belote.server.name_keys.name_key` gives) is taken."""
        key = _name_key(name) if name_key is None else name_key
        try:
            async with self._account_writes, self.engine.begin() as conn:
                if self.engine.dialect.name != "sqlite":
                    result = await conn.execute(insert(users).values(
                        name=name, name_key=key, password_hash=password_hash))
                    return int(result.inserted_primary_key[0])  # type: ignore[index]
                # One statement, so that the id is chosen under SQLite's write lock (two
                # processes cannot pick the same one): past every account there is and was.
                deleted_high = (select(cast(meta.c.value, Integer))
                                .where(meta.c.key == DELETED_ACCOUNTS_HIGH).scalar_subquery())
                next_id = func.max(func.coalesce(func.max(users.c.id), 0),
                                   func.coalesce(deleted_high, 0)) + 1
                added = await conn.execute(
                    insert(users).from_select(
                        ["id", "name", "name_key", "password_hash"],
                        select(next_id, literal(name), literal(key), literal(password_hash)))
                    .returning(users.c.id))
                return int(added.scalar_one())
        except IntegrityError:
            raise NameTaken(name) from None

    async def user(self, name: str) -> tuple[int, str] | None:
        """(id, password hash) of the account ``name``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(users.c.id, users.c.password_hash).where(users.c.name == name)
            )).first()
        return None if row is None else (int(row[0]), str(row[1]))

    async def account_by_key(self, name_key: str) -> Account | None:
        """The account whose name folds to ``name_key``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(users.c.id, users.c.name, users.c.password_hash)
                .where(users.c.name_key == name_key)
            )).first()
        return None if row is None else Account(int(row[0]), str(row[1]), str(row[2]))

    async def set_password_hash(self, user_id: int, password_hash: str) -> None:
        async with self._account_writes, self.engine.begin() as conn:
            await conn.execute(
                update(users).where(users.c.id == user_id).values(password_hash=password_hash)
            )

    async def account_settings(self, account: int) -> dict[str, Any] | None:
        """The preferences ``account`` saved (their stored form), or None: none saved, or
        a row that is not JSON (logged; the account then reads as having none)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(account_settings.c.data).where(
                account_settings.c.account == account))).first()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            log.warning("the stored settings of account %d are not JSON: ignored", account)
            return None
        return data if isinstance(data, dict) else None

    async def set_account_settings(self, account: int, data: dict[str, Any]) -> None:
        """Keep ``data`` as the preferences of ``account`` (replacing what it had)."""
        async with self._account_writes, self.engine.begin() as conn:
            # Delete then insert in one transaction: the same on SQLite and PostgreSQL.
            await conn.execute(delete(account_settings).where(
                account_settings.c.account == account))
            await conn.execute(insert(account_settings).values(
                account=account, data=json.dumps(data), updated=_now()))

    # ------------------------------------------------------------------ sessions
    async def add_session(self, row: SessionRow) -> None:
        async with self._account_writes, self.engine.begin() as conn:
            await conn.execute(insert(sessions).values(
                id=row.id, account=row.account, name=row.name, name_key=row.name_key,
                created=row.created, last_seen=row.last_seen, user_agent=row.user_agent,
                address=row.address))

    async def session(self, session_id: str) -> SessionRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(sessions).where(sessions.c.id == session_id))).first()
        return None if row is None else _session_row(row)

    async def sessions(self, account: int | None = None) -> list[SessionRow]:
        """The sessions of ``account``, or with None those of guests; newest first."""
        where = (sessions.c.account.is_(None) if account is None
                 else sessions.c.account == account)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(sessions).where(where).order_by(sessions.c.last_seen.desc()))
            return [_session_row(r) for r in rows]

    async def touch_session(self, session_id: str, when: datetime) -> bool:
        """Mark the session used at ``when``; False if its row is gone (ended elsewhere)."""
        async with self._account_writes, self.engine.begin() as conn:
            result = await conn.execute(update(sessions).where(sessions.c.id == session_id)
                                        .values(last_seen=when))
        return bool(result.rowcount)

    async def delete_sessions(self, session_ids: list[str]) -> None:
        if not session_ids:
            return
        async with self._account_writes, self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.id.in_(session_ids)))

    async def stale_sessions(self, guests_before: datetime,
                             accounts_before: datetime) -> list[str]:
        """Ids of the sessions unused since their limit (guests have a shorter one)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(sessions.c.id).where(
                ((sessions.c.account.is_(None)) & (sessions.c.last_seen < guests_before))
                | (sessions.c.last_seen < accounts_before)))
            return [str(r[0]) for r in rows]

    # ------------------------------------------------------------------ tables
    async def new_table(self, preset: str, flags: dict[str, Any], target: int,
                        creator: str | None = None, status: str = "open") -> int:
        """A new open table; ``creator``: the public id of the session that made it (its
        waiting tables are counted: :meth:`waiting_tables`).  ``status="opening"``: not
        open yet (the room's process that makes it takes its lease first, then opens it)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(insert(tables).values(
                preset=preset, flags=json.dumps(flags), target=target, status=status,
                creator=creator))
            return int(result.inserted_primary_key[0])  # type: ignore[index]

    async def waiting_tables(self, creator: str) -> int:
        """How many tables ``creator`` made that wait for their match, in every process.

        A table waits while it is open and its log holds no ``start`` (the entry that
        begins the match, stored before anyone hears of it): the log says it, so no column
        has to follow the table's state.  A finished, expired or broken table is not open.
        One indexed look at the person's few open tables, each log searched by its key."""
        started = select(table_log.c.table_id).where(
            table_log.c.table_id == tables.c.id, table_log.c.kind == "start").exists()
        async with self.engine.connect() as conn:
            count = await conn.scalar(select(func.count()).select_from(tables).where(
                tables.c.creator == creator, tables.c.status == "open", ~started))
        return int(count or 0)

    async def append(self, table_id: int, version: int, kind: str, data: dict[str, Any]) -> None:
        """Store one change; it is committed when this returns.

        Changes of all the tables are committed together (group commit): one transaction at a
        time, holding every change that arrived while the previous one was written.  With
        SQLite, concurrent write transactions on pooled connections would wait on the file
        lock (busy-handler sleeps of up to 100 ms each) under a busy room.
        """
        row = {"table_id": table_id, "version": version, "kind": kind,
               "data": json.dumps(data, separators=(",", ":"))}
        stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._appends.append((row, stored))
        writer = self._writer
        if writer is None or writer.done() or writer.get_loop() is not stored.get_loop():
            self._writer = asyncio.create_task(self._write_appends())
        await stored

    async def _write_appends(self) -> None:
        while self._appends:
            batch, self._appends = self._appends, []
            try:
                await self._insert_log([row for row, _ in batch])
                outcomes: list[BaseException | None] = [None] * len(batch)
            except Exception as error:
                if len(batch) == 1:
                    outcomes = [error]
                else:  # a bad change (a duplicate version) must fail alone: one at a time
                    outcomes = []
                    for row, _ in batch:
                        try:
                            await self._insert_log([row])
                            outcomes.append(None)
                        except Exception as alone:
                            outcomes.append(alone)
            for (row, stored), outcome in zip(batch, outcomes, strict=True):
                if stored.done():  # its caller was cancelled
                    continue
                if isinstance(outcome, IntegrityError):  # (table, version) is the key
                    outcome = VersionTaken(f"table {row['table_id']}: version "
                                           f"{row['version']} is stored already")
                if outcome is None:
                    stored.set_result(None)
                else:
                    stored.set_exception(outcome)

    async def _insert_log(self, rows: list[dict[str, Any]]) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(insert(table_log), rows)

    async def log(self, table_id: int) -> list[LogEntry]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(table_log.c.version, table_log.c.kind, table_log.c.data)
                .where(table_log.c.table_id == table_id).order_by(table_log.c.version)
            )
            return [LogEntry(int(v), str(k), json.loads(d)) for v, k, d in rows]

    async def logs(self, table_ids: list[int]) -> dict[int, list[LogEntry]]:
        """The logs of many tables at once (a restart reads every open table's log)."""
        found: dict[int, list[LogEntry]] = {t: [] for t in table_ids}
        async with self.engine.connect() as conn:
            for start in range(0, len(table_ids), 500):
                chunk = table_ids[start:start + 500]
                rows = await conn.execute(
                    select(table_log.c.table_id, table_log.c.version, table_log.c.kind,
                           table_log.c.data)
                    .where(table_log.c.table_id.in_(chunk))
                    .order_by(table_log.c.table_id, table_log.c.version)
                )
                for t, v, k, d in rows:
                    found[int(t)].append(LogEntry(int(v), str(k), json.loads(d)))
        return found

    async def finish(self, table_id: int, record: dict[str, Any]) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(tables).where(tables.c.id == table_id).values(
                    status="finished", record=json.dumps(record), finished=_now()
                )
            )

    async def expire_table(self, table_id: int) -> bool:
        """Close a table that waited too long for players; False if it was not open."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tables).where(tables.c.id == table_id, tables.c.status == "open")
                .values(status="expired")
            )
        return bool(result.rowcount)

    async def table(self, table_id: int) -> TableRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        return None if row is None else _table_row(row)

    async def list_tables(self, status: str, limit: int | None = 100) -> list[TableRow]:
        """Tables with ``status``, newest first; ``limit=None``: all of them."""
        query = select(tables).where(tables.c.status == status).order_by(tables.c.id.desc())
        if limit is not None:
            query = query.limit(limit)
        async with self.engine.connect() as conn:
            return [_table_row(r) for r in await conn.execute(query)]

    async def table_with_code(self, code: str) -> int | None:
        """The open table whose setup holds this invitation code (letters and digits only:
        nothing a LIKE pattern reads as a wildcard)."""
        query = (select(table_log.c.table_id)
                 .join(tables, tables.c.id == table_log.c.table_id)
                 .where(tables.c.status == "open", table_log.c.kind == "setup",
                        table_log.c.data.like(f'%"code":"{code}"%'))
                 .order_by(table_log.c.table_id.desc()).limit(1))
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else int(row[0])

    async def open_table_ids(self) -> list[int]:
        """The ids of the open tables (waiting or playing), oldest first."""
        query = select(tables.c.id).where(tables.c.status == "open").order_by(tables.c.id)
        async with self.engine.connect() as conn:
            return [int(r[0]) for r in await conn.execute(query)]

    async def set_status(self, table_id: int, status: str) -> None:
        """Mark a table (``broken``: it could not be replayed; ``expired``: nobody came)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == table_id).values(
                status=status))


def _now() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)


def _name_key(name: str) -> str:
    return name_key(name)


def _aware(when: datetime) -> datetime:
    # SQLite gives naive datetimes back (stored as UTC); PostgreSQL aware ones.
    from datetime import UTC

    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _session_row(row: Any) -> SessionRow:
    return SessionRow(
        id=str(row.id), account=None if row.account is None else int(row.account),
        name=str(row.name), name_key=str(row.name_key), created=_aware(row.created),
        last_seen=_aware(row.last_seen), user_agent=str(row.user_agent),
        address=str(row.address))


def _table_row(row: Any) -> TableRow:
    return TableRow(
        id=int(row.id), preset=str(row.preset), flags=json.loads(row.flags),
        target=int(row.target), status=str(row.status),
        record=json.loads(row.record) if row.record else None,
        creator=None if row.creator is None else str(row.creator),
    )
