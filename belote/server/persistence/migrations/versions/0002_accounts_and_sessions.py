"""Accounts get a folded name key (unique); sessions live on the server.

Revision ID: 0002
Revises: 0001

Existing accounts get their key from :func:`belote.server.auth.names.name_key` as it is at
this revision.  Two old accounts whose names now fold alike (``Ada`` and ``ada``) both keep
working: the older one keeps the plain key, a later one gets ``KEY#ID`` (still unique), and
the count is logged.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from belote.server.auth.names import name_key

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)


def upgrade() -> None:
    op.add_column("users", sa.Column("name_key", sa.String(96), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                     sa.column("name_key", sa.String))
    connection = op.get_bind()
    seen: set[str] = set()
    clashes = 0
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name)
                                            .order_by(users.c.id)).all():
        key = name_key(name)
        if key in seen:
            key, clashes = f"{key}#{user_id}", clashes + 1
        seen.add(key)
        connection.execute(sa.update(users).where(users.c.id == user_id)
                           .values(name_key=key))
    if clashes:
        log.warning("%d accounts have names that fold like an older account's: they keep "
                    "their names, under a distinct key", clashes)
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(96), nullable=False)
        batch.create_index("users_by_name_key", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_agent", sa.String(256), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
    )
    op.create_index("sessions_by_account", "sessions", ["account"])


def downgrade() -> None:
    op.drop_index("sessions_by_account", table_name="sessions")
    op.drop_table("sessions")
    with op.batch_alter_table("users") as batch:
        batch.drop_index("users_by_name_key")
        batch.drop_column("name_key")
