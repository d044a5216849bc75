"""The saved games' tables (migration 0013), on the room's metadata.

A saved table is a row of ``tables`` whose status is ``saved``: its log holds the whole
match, as for any table, and reopening it is replaying that log.  ``saved_games`` says when
it was saved and its score then (the list shows them without replaying anything), and
``saved_seats`` who sat where, by account: the people who may resume it, and whose list
shows it.  Both rows go when the table is resumed (its log keeps each seat for its account
until the person is back) or abandoned.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

saved_games = Table(
    "saved_games",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True,
           autoincrement=False),
    Column("saved", UtcDateTime(), nullable=False),
    Column("hands", Integer, nullable=False),  # hands scored when it was saved
    Column("totals", Text, nullable=False),  # JSON list: the match's score then
)

saved_seats = Table(
    "saved_seats",
    metadata,
    Column("table_id", Integer, ForeignKey("saved_games.table_id", ondelete="CASCADE"),
           primary_key=True, autoincrement=False),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(32), nullable=False),
    Index("saved_seats_by_account", "account"),
)
