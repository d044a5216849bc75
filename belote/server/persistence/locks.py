"""Serialising a write transaction across the processes of the room (issue 26).

A change that reads, decides and then writes (a week's close, a friendship and its caps)
must not run beside another change of the same thing, in this process or another: both
would read the same state and both would write.  Each database has its own way:

- PostgreSQL: a transaction-scoped advisory lock (``pg_advisory_xact_lock``), released by
  the commit or the rollback.  Only changes of the same thing (the same key) wait for each
  other; the key is a constant of the feature ("LEAG" in ASCII...), alone or with one
  member, e.g. an account's id (the two 32-bit keys form, a key space apart from the
  one-key form);
- SQLite: ``BEGIN IMMEDIATE`` takes the file's write lock at the start, before the reads
  (one writer at a time anyway); the plain ``BEGIN`` would take it at the first write, after
  the reads, too late.

Any other database takes no lock here (none is supported).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection


async def sqlite_write_lock(conn: AsyncConnection) -> None:
    """Take the SQLite file's write lock now, at the start of ``conn``'s transaction."""
    await conn.exec_driver_sql("BEGIN IMMEDIATE")


async def serialise(conn: AsyncConnection, key: int, members: Iterable[int] = ()) -> None:
    """Make ``conn``'s transaction, just begun, the only one changing ``key`` (or, given
    ``members``, the only one changing these members of ``key``) until it ends.

    The members' locks are taken in ascending order: two transactions locking the same two
    accounts never wait on each other."""
    if conn.dialect.name == "postgresql":
        wanted = sorted(set(members))
        if not wanted:
            await conn.execute(select(func.pg_advisory_xact_lock(key)))
        for member in wanted:
            await conn.execute(select(func.pg_advisory_xact_lock(key, member)))
    elif conn.dialect.name == "sqlite":
        await sqlite_write_lock(conn)


__all__ = ["serialise", "sqlite_write_lock"]
