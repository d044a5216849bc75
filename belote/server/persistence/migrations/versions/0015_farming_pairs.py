"""The rule against farming counts pairs of accounts (issue 28, review finding 3).

Revision ID: 0015
Revises: 0014

Each player's row of a match gets the match's moment (indexed with the account: the rule
reads one account's matches of the last 7 days), their repetition ``k`` and the weight their
rating moved with (``belote/server/ratings/farming.py``).  Rows recorded before are filled
from their match: the moment, and for a match of four accounts the set of four's repetition
and weight, which every player of it had.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("player_results", sa.Column("recorded", sa.DateTime(timezone=True)))
    op.add_column("player_results", sa.Column("repeat", sa.Integer()))
    op.add_column("player_results", sa.Column("weight", sa.Float()))
    for name in ("recorded", "repeat", "weight"):
        # A correlated subquery: the same statement on SQLite and PostgreSQL.
        op.execute(f"UPDATE player_results SET {name} = (SELECT match_results.{name} "
                   "FROM match_results WHERE match_results.table_id = player_results.table_id)")
    op.create_index("player_results_by_time", "player_results", ["account", "recorded"])


def downgrade() -> None:
    op.drop_index("player_results_by_time", "player_results")
    for name in ("weight", "repeat", "recorded"):
        op.drop_column("player_results", name)
