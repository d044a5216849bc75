"""Table definitions (SQLAlchemy Core), shared by SQLite and PostgreSQL.

This is the base of the schema at the head of the migrations (``persistence/migrations``):
a change here comes with a new revision there.  It imports no feature: each feature's tables
(ratings, tournaments) are defined on this ``metadata`` by the feature's own ``schema``
module, and :data:`belote.server.composition.metadata` is the whole schema, with every
feature's tables.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
)

from belote.server.persistence.utc import UtcDateTime

metadata = MetaData()

# The name a deleted account takes in what outlives it (match records, reports, the audit
# log, the daily duplicate's entries: belote/server/personal_data/deletion.py).  English, as
# the records' bot names are; shown as written.  Here, under every feature that shows it.
DELETED_NAME = "deleted player"
# The ``meta`` key of the highest account id a deleted account had.  SQLite gives a new row
# the largest id plus one, so deleting the newest account would hand its id to the next one
# (the ``users`` table has no AUTOINCREMENT, and adding it means copying a table every other
# one points to): the next account's id is then taken past this (``Store.add_user``).
# PostgreSQL's sequence never gives an id twice.
DELETED_ACCOUNTS_HIGH = "deleted_accounts_high"

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False, unique=True),
    # The name folded (NFKC, case, confusables: auth.names.name_key): one account per key.
    Column("name_key", String(96), nullable=False),
    Column("password_hash", Text, nullable=False),
    Column("created", UtcDateTime(), server_default=func.now()),
    Index("users_by_name_key", "name_key", unique=True),
)

# One row per signed-in browser: the signed cookie carries only ``id``.
sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
    Column("name", String(32), nullable=False),
    Column("name_key", String(96), nullable=False),
    Column("created", UtcDateTime(), nullable=False),
    Column("last_seen", UtcDateTime(), nullable=False),
    Column("user_agent", String(256), nullable=False),
    Column("address", String(64), nullable=False),
    Index("sessions_by_account", "account"),
)

# An account's preferences (language, announcements, table settings): one JSON row per
# account that saved them (belote/server/settings.py ``Preferences.to_data``), so that signing
# in on any device brings them back.  Migration 0006.
account_settings = Table(
    "account_settings",
    metadata,
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("data", Text, nullable=False),  # JSON, versioned ("v")
    Column("updated", UtcDateTime(), nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("preset", String(32), nullable=False),
    Column("flags", Text, nullable=False),  # JSON: flags changed from the preset
    Column("target", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # open | finished
    Column("record", Text),  # JSON game record once finished
    Column("created", UtcDateTime(), server_default=func.now()),
    Column("finished", UtcDateTime()),
    # The session (its public id) that created the table: the tables one person keeps
    # waiting are counted here, the same from every process (migration 0007).  NULL for a
    # table opened by the room itself (a tournament's) or made before 0007.
    Column("creator", String(64)),
    Index("tables_by_creator", "creator", "status"),
)

table_log = Table(
    "table_log",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("version", BigInteger, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),  # JSON
)

# The rate limits every process of the room shares (belote/server/persistence/rate_limits.py):
# one row per limiter and key, its state as JSON (a token bucket's tokens and when they were
# counted, or the times of a window's recent events), and when the row stops saying anything
# (a bucket full again, a window empty): rows past it are purged.  Migration 0007.
rate_limits = Table(
    "rate_limits",
    metadata,
    Column("limiter", String(32), primary_key=True),
    Column("key", String(160), primary_key=True),
    Column("state", Text, nullable=False),  # JSON; "" for a row just made
    Column("expires", Float, nullable=False),  # seconds since the epoch
    Index("rate_limits_by_expiry", "expires"),
)
