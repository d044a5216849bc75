"""Accounts keep their preferences (language, announcements, table settings).

Revision ID: 0006
Revises: 0005

See ``belote/server/persistence/schema.py`` (``account_settings``) and
``belote/server/settings_sources.py``.  Before it they lived in the session cookie only;
those of a browser of that release are read once as the device's settings (not the
account's: nothing is merged), so the downgrade loses only what accounts saved since.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_settings",
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_settings")
