"""Limits shared by every process of the room: rate limits, tables waiting per person.

Revision ID: 0007
Revises: 0006

Issue 26 runs the room as several processes on one database: a limit kept in one process's
memory would let a person or an address take it once per process.  See
``belote/server/persistence/schema.py`` (``rate_limits``; ``tables.creator``, whose waiting
tables ``Store.waiting_tables`` counts) and ``belote/server/tournament/schema.py`` (the games
by table, which ``Tournaments.game_of_table`` reads when another process opened the table).
The downgrade drops them: the limits' state is short-lived (a refusal lasts a window), and
the creators only counted waiting tables.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("limiter", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("rate_limits_by_expiry", "rate_limits", ["expires"])
    # Plain ALTER TABLE, no batch copy: SQLite adds (and, since 3.35, drops) a column in
    # place, where copying ``tables`` would trip over the foreign keys of its log.
    op.add_column("tables", sa.Column("creator", sa.String(64)))
    op.create_index("tables_by_creator", "tables", ["creator", "status"])
    op.create_index("tournament_games_by_table", "tournament_games", ["table_id"])


def downgrade() -> None:
    op.drop_index("tournament_games_by_table", table_name="tournament_games")
    op.drop_index("tables_by_creator", table_name="tables")
    op.drop_column("tables", "creator")
    op.drop_index("rate_limits_by_expiry", table_name="rate_limits")
    op.drop_table("rate_limits")
