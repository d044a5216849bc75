"""Reports and moderation: roles, reports, sanctions and their audit log.

Revision ID: 0009
Revises: 0008

See ``belote/server/moderation/schema.py``.  The downgrade drops the four tables: the
reports, the sanctions in force and the audit log are lost with them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"  # after the leagues (0011, merged first)
branch_labels = None
depends_on = None

USERS_ID = "users.id"


def upgrade() -> None:
    op.create_table(
        "account_roles",
        sa.Column("account", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="CASCADE"),
                  nullable=False),
        sa.Column("target", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="CASCADE"),
                  nullable=False),
        sa.Column("table_id", sa.Integer),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("open_key", sa.String(64)),
    )
    op.create_index("reports_open_key", "reports", ["open_key"], unique=True)
    op.create_index("reports_by_status", "reports", ["status", "created"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="CASCADE"),
                  nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True)),
        sa.Column("lifted", sa.DateTime(timezone=True)),
        sa.Column("moderator", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="SET NULL")),
        sa.Column("report", sa.Integer, sa.ForeignKey("reports.id", ondelete="SET NULL")),
        sa.Column("table_id", sa.Integer),
        sa.Column("seen", sa.DateTime(timezone=True)),
    )
    op.create_index("sanctions_by_account", "sanctions", ["account", "kind"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moderator", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="SET NULL")),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("account", sa.Integer, sa.ForeignKey(USERS_ID, ondelete="SET NULL")),
        sa.Column("report", sa.Integer, sa.ForeignKey("reports.id", ondelete="SET NULL")),
        sa.Column("sanction", sa.Integer, sa.ForeignKey("sanctions.id", ondelete="SET NULL")),
        sa.Column("reason", sa.Text, nullable=False),
    )
    op.create_index("moderation_log_by_account", "moderation_log", ["account"])


def downgrade() -> None:
    op.drop_index("moderation_log_by_account", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("sanctions_by_account", table_name="sanctions")
    op.drop_table("sanctions")
    op.drop_index("reports_by_status", table_name="reports")
    op.drop_index("reports_open_key", table_name="reports")
    op.drop_table("reports")
    op.drop_table("account_roles")
