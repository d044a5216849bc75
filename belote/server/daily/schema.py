"""The daily duplicate's tables (migration 0012), on the room's metadata.

``daily_entries``: one row per account and day (the unique key is the rule "one entry per
account per day", held by the database whichever process is asked).  ``daily_plays``: one row
per entry and deal, made before its table is opened (the key lets one request only open a
deal's table), with the table once opened, the session holding its seat, and the entrant's
score once the deal is over (none for a deal finished after its day closed: not played).
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

daily_entries = Table(
    "daily_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("day", String(10), nullable=False),  # the UTC date, YYYY-MM-DD
    # None once the account is deleted: its scores still count for the other entrants
    # (personal_data/deletion.py; migration 0014).
    Column("account", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    # The account's name when it entered ("deleted player" once deleted).
    Column("name", String(32), nullable=False),
    Column("entered", UtcDateTime(), nullable=False),
    UniqueConstraint("day", "account", name="daily_entries_one_per_day"),
)

daily_plays = Table(
    "daily_plays",
    metadata,
    Column("entry", Integer, ForeignKey("daily_entries.id", ondelete="CASCADE"),
           primary_key=True, autoincrement=False),
    Column("deal", Integer, primary_key=True, autoincrement=False),  # 1 to the day's deals
    Column("table_id", Integer, ForeignKey("tables.id")),  # None: being opened
    Column("reserved", UtcDateTime(), nullable=False),  # when its opening began
    Column("holder", String(64)),  # the session (public id) whose seat it is now
    Column("score", Integer),  # the entrant's team's points; None: not over, or over late
    Column("finished", UtcDateTime()),  # when its table finished (scored or too late)
    Index("daily_plays_by_table", "table_id", unique=True),
)
