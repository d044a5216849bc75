"""The room's storage: accounts, tables and each table's log of changes.

One repository API (:class:`~belote.server.persistence.store.Store`) over SQLAlchemy 2's async
engine: SQLite through aiosqlite by default, PostgreSQL through asyncpg with ``--db
postgresql://...``.  A table's log holds every change (a deal's deck, an action, a seat
change, a chat line) under its version number; replaying it rebuilds the table exactly.
"""

from belote.server.persistence.store import (
    Account,
    LogEntry,
    NameTaken,
    SessionRow,
    Store,
    TableRow,
    VersionTaken,
    async_url,
)

__all__ = ["Account", "LogEntry", "NameTaken", "SessionRow", "Store", "TableRow", "VersionTaken",
           "async_url"]
