"""Seasons: players ranked across tournaments by points per place.

Revision ID: 0005
Revises: 0004

See ``belote/server/tournament/schema.py`` (``seasons``) and ``belote/tournament/season.py``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("owner", sa.String(96), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seasons")
