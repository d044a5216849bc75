"""Saved games: tables their people paused, kept for their accounts.

Revision ID: 0013
Revises: 0012

See ``belote/server/saved/schema.py``.  A saved table's row in ``tables`` has the status
``saved`` (no new column); a downgrade drops the two tables and leaves saved tables as they
are (not open: nobody resumes them any more).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "saved_games",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True,
                  autoincrement=False),
        sa.Column("saved", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
    )
    op.create_table(
        "saved_seats",
        sa.Column("table_id", sa.Integer,
                  sa.ForeignKey("saved_games.table_id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
    )
    op.create_index("saved_seats_by_account", "saved_seats", ["account"])


def downgrade() -> None:
    op.drop_index("saved_seats_by_account", table_name="saved_seats")
    op.drop_table("saved_seats")
    op.drop_table("saved_games")
