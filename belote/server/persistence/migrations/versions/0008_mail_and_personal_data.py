"""E-mail for accounts and deleted accounts' names.

Revision ID: 0008
Revises: 0007

See ``belote/server/mail/schema.py`` (an account's private address, and the links' tokens,
stored as digests) and ``belote/server/personal_data/schema.py`` (the folded names of
deleted accounts, never given again).  The downgrade drops them: the addresses and their
verification go (people set them again), and deleted names could be taken again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_emails",
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("address_key", sa.String(254), nullable=False),
        sa.Column("verified", sa.DateTime(timezone=True)),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_emails_by_address", "account_emails", ["address_key"])
    op.create_table(
        "mail_tokens",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True)),
    )
    op.create_index("mail_tokens_by_account", "mail_tokens", ["account", "purpose"])
    op.create_table(
        "retired_names",
        sa.Column("name_key", sa.String(96), primary_key=True),
        sa.Column("retired", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("retired_names")
    op.drop_index("mail_tokens_by_account", table_name="mail_tokens")
    op.drop_table("mail_tokens")
    op.drop_index("account_emails_by_address", table_name="account_emails")
    op.drop_table("account_emails")
