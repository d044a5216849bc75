"""The weekly leagues' tables (migration 0011), on the room's metadata.

A league week needs no table while it runs: its groups and standings are read from the
week's rated matches (``match_results``, ``player_results``) and the divisions the closes
before it gave (:mod:`.store`).  What is written is each closed week: ``league_weeks`` has one
row per closed week, and its key is what makes the close happen once whichever process
notices it first; ``league_results`` keeps each player's final line of that week and the
division it gives them for the next week they play.
"""

from __future__ import annotations

from sqlalchemy import Column, Date, ForeignKey, Index, Integer, Table

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

league_weeks = Table(
    "league_weeks",
    metadata,
    Column("week", Date, primary_key=True),  # the Monday (UTC) the week began
    Column("closed", UtcDateTime(), nullable=False),
)

league_results = Table(
    "league_results",
    metadata,
    Column("week", Date, ForeignKey("league_weeks.week"), primary_key=True),
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("division", Integer, nullable=False),  # 1 is the top
    Column("group_no", Integer, nullable=False),  # the group within the division, from 1
    Column("place", Integer, nullable=False),  # in the group, from 1
    Column("points", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("move", Integer, nullable=False),  # +1 promoted, 0 stays, -1 relegated
    Index("league_results_by_account", "account", "week"),
)
