"""The tournament tables (SQLAlchemy Core), on the room's shared ``metadata``.

``tournament_events`` is the source of truth and the audit log: every change, who made it and
when, in order (a correction keeps the totals it replaced).  The other tables are its
projection, rewritten in the same transaction as each event, for queries and exports:
entrants and their players, rounds, games with the line-up actually seated and the result,
and the organiser's adjustments.  Migration: ``0003_tournaments``.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
)

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

T_ID = "tournaments.id"

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),
    Column("format", String(24), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("flags", Text, nullable=False),  # JSON: rule flags changed from the preset
    Column("target", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("deals", Integer),
    Column("rank_by", String(8), nullable=False),
    Column("bye_points", Integer, nullable=False),
    Column("standins", Boolean, nullable=False),
    Column("state", String(16), nullable=False),
    Column("owner", String(96), nullable=False),  # the organiser's name key
    Column("created", UtcDateTime(), server_default=func.now()),
)

tournament_organisers = Table(
    "tournament_organisers",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("name_key", String(96), primary_key=True),
)

tournament_events = Table(
    "tournament_events",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),  # JSON
    Column("by", String(96), nullable=False),
    Column("at", UtcDateTime(), nullable=False),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(80), nullable=False),
    Column("club", String(80)),  # a Pinasca pair's neighbourhood
    Column("checked_in", Boolean, nullable=False),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("entrant_id", Integer, primary_key=True, autoincrement=False),
    Column("position", Integer, primary_key=True, autoincrement=False),
    Column("name", String(80), nullable=False),
)

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("closed", Boolean, nullable=False),
)

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),  # 0: a bye
    Column("sides", Text, nullable=False),  # JSON: entrant ids of each side
    Column("lineup", Text, nullable=False),  # JSON: the players seated on each side
    Column("table_id", Integer),  # the room's table playing it online
    Column("totals", Text),  # JSON: match totals as played
    Column("scores", Text),  # JSON: game scores of the format
    Column("winner", Integer),
    Column("source", String(16)),
    # A finished table's game is looked up by the table's id, whichever process opened it
    # (Tournaments.game_of_table).  Migration 0007.
    Index("tournament_games_by_table", "table_id"),
)

tournament_adjustments = Table(
    "tournament_adjustments",
    metadata,
    Column("tournament_id", Integer, ForeignKey(T_ID), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("subject", String(80), nullable=False),
    Column("points", Integer, nullable=False),
    Column("reason", Text, nullable=False),
    Column("by", String(96), nullable=False),
)

PROJECTIONS = (tournament_adjustments, tournament_games, tournament_rounds, tournament_players,
               tournament_entrants)

# A season (belote.tournament.season): its name, owner and definition as JSON (the points per
# place, the tournaments it counts, the merges of players), small and replaced whole at each
# change.  Migration: ``0005_seasons``.
seasons = Table(
    "seasons",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),
    Column("owner", String(96), nullable=False),  # the organiser's name key
    Column("data", Text, nullable=False),  # JSON: belote.tournament.season.Season.to_data
    Column("updated", UtcDateTime(), nullable=False),
)
