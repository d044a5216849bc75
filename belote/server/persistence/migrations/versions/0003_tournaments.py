"""Tournaments: settings, organisers, the event log (audit), and its projection.

Revision ID: 0003
Revises: 0002

See ``belote/server/tournament/schema.py`` for what each table holds.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _tid() -> sa.Column[int]:
    return sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"),
                     primary_key=True)


def _key(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer, primary_key=True, autoincrement=False)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(24), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("flags", sa.Text, nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer),
        sa.Column("rank_by", sa.String(8), nullable=False),
        sa.Column("bye_points", sa.Integer, nullable=False),
        sa.Column("standins", sa.Boolean, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )
    op.create_table("tournament_organisers", _tid(),
                    sa.Column("name_key", sa.String(96), primary_key=True))
    op.create_table(
        "tournament_events", _tid(), _key("number"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("by", sa.String(96), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_entrants", _tid(), _key("id"),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("club", sa.String(80)),
        sa.Column("checked_in", sa.Boolean, nullable=False),
    )
    op.create_table("tournament_players", _tid(), _key("entrant_id"), _key("position"),
                    sa.Column("name", sa.String(80), nullable=False))
    op.create_table("tournament_rounds", _tid(), _key("number"),
                    sa.Column("closed", sa.Boolean, nullable=False))
    op.create_table(
        "tournament_games", _tid(), _key("id"),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("sides", sa.Text, nullable=False),
        sa.Column("lineup", sa.Text, nullable=False),
        sa.Column("table_id", sa.Integer),
        sa.Column("totals", sa.Text),
        sa.Column("scores", sa.Text),
        sa.Column("winner", sa.Integer),
        sa.Column("source", sa.String(16)),
    )
    op.create_table(
        "tournament_adjustments", _tid(), _key("number"),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("by", sa.String(96), nullable=False),
    )


def downgrade() -> None:
    for name in ("tournament_adjustments", "tournament_games", "tournament_rounds",
                 "tournament_players", "tournament_entrants", "tournament_events",
                 "tournament_organisers", "tournaments"):
        op.drop_table(name)
