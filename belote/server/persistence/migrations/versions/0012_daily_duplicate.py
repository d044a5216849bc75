"""The daily duplicate: each day's entries (one per account) and their deals played.

Revision ID: 0012
Revises: 0011

See ``belote/server/daily/schema.py`` for what each table holds.  The downgrade drops them:
the days' results go with them (the deals' tables and records stay in ``tables``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("entered", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("day", "account", name="daily_entries_one_per_day"),
    )
    op.create_table(
        "daily_plays",
        sa.Column("entry", sa.Integer, sa.ForeignKey("daily_entries.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id")),
        sa.Column("reserved", sa.DateTime(timezone=True), nullable=False),
        sa.Column("holder", sa.String(64)),
        sa.Column("score", sa.Integer),
        sa.Column("finished", sa.DateTime(timezone=True)),
    )
    op.create_index("daily_plays_by_table", "daily_plays", ["table_id"], unique=True)


def downgrade() -> None:
    op.drop_index("daily_plays_by_table", "daily_plays")
    op.drop_table("daily_plays")
    op.drop_table("daily_entries")
