"""Friends and blocks: friend requests and friendships, and each account's block list.

Revision ID: 0010
Revises: 0009

See ``belote/server/friends/schema.py`` for what each table holds.  The downgrade drops
them (the friendships and block lists are lost).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friend_links",
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("other", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("friend_links_by_other", "friend_links", ["other", "state"])
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("blocked", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("blocks_by_blocked", "blocks", ["blocked"])


def downgrade() -> None:
    op.drop_index("blocks_by_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("friend_links_by_other", "friend_links")
    op.drop_table("friend_links")
