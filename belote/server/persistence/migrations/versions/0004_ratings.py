"""Ratings: finished matches taken into account, each account's results, ratings per preset.

Revision ID: 0004
Revises: 0003

See ``belote/server/ratings/schema.py`` for what each table holds and why results are kept
per match rather than as counters.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_results",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True,
                  autoincrement=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("winner", sa.Integer),
        sa.Column("recorded", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_results",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("match_results.table_id"),
                  primary_key=True, autoincrement=False),
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("taken", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
        sa.Column("failed", sa.Integer, nullable=False),
    )
    op.create_index("player_results_by_account", "player_results", ["account", "preset"])
    op.create_table(
        "ratings",
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("preset", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
    )
    op.create_index("ratings_by_preset", "ratings", ["preset"])


def downgrade() -> None:
    op.drop_index("ratings_by_preset", "ratings")
    op.drop_table("ratings")
    op.drop_index("player_results_by_account", "player_results")
    op.drop_table("player_results")
    op.drop_table("match_results")
