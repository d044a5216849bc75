"""The ratings' tables (migration 0004), on the room's metadata.

Results are stored per match and per player, and the profile's counts are sums over them,
rather than kept as running counters: a count can be checked against the matches behind it,
and a new statistic needs no migration.  Ratings are the one running state (each match moves
them from where the previous one left them), kept per account and preset.  ``match_results``
has one row per finished match taken into account, rated or not: its key is what makes
recording idempotent (a restart or a second report finds the row and changes nothing).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
)

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

match_results = Table(
    "match_results",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True,
           autoincrement=False),
    Column("preset", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),  # four accounts: the ratings moved
    Column("winner", Integer),  # team 0 (North-South) or 1 (East-West)
    Column("recorded", UtcDateTime(), nullable=False),
    # Since migration 0011 (issue 28; NULL for matches recorded before it):
    Column("bots", Boolean),  # a bot held a seat: the statistics' "with bots"
    Column("hands", Integer),  # hands scored
    # Four accounts and a winner: the set of four (farming.four_key), and the highest k and
    # the highest weight of its players (player_results; before migration 0015, the k-th
    # match of that set of four and its weight): weight 0, rated for nobody.
    Column("four", String(64)),
    Column("repeat", Integer),
    Column("weight", Float),
    Index("match_results_by_four", "four", "recorded"),
    Index("match_results_by_time", "recorded"),
)

# One row per account holder at a finished match (guests and bots have none).
player_results = Table(
    "player_results",
    metadata,
    Column("table_id", Integer, ForeignKey("match_results.table_id"), primary_key=True,
           autoincrement=False),
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("preset", String(32), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("taken", Integer, nullable=False),  # contracts this player took
    Column("made", Integer, nullable=False),
    Column("failed", Integer, nullable=False),  # (a litige is taken, neither made nor failed)
    Column("points", Integer),  # the partnership's points over the match (NULL: before 0011)
    # Since migration 0015 (issue 28, the rule against farming counts pairs of accounts): the
    # match's moment (copied: the rule reads an account's matches of the window by index),
    # and for a match of four accounts and a winner this player's k (farming.repeats) and
    # the weight their rating moved with (0: not rated for them); NULL for any other match.
    Column("recorded", UtcDateTime()),
    Column("repeat", Integer),
    Column("weight", Float),
    Index("player_results_by_account", "account", "preset"),
    Index("player_results_by_time", "account", "recorded"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("preset", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),  # rated matches
    Column("won", Integer, nullable=False),
    Index("ratings_by_preset", "preset"),
)
