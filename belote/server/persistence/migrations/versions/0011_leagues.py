"""Statistics, anti-farming and weekly leagues (issue 28, items 5 and 6).

Revision ID: 0011
Revises: 0010

Each recorded match says whether a bot sat at it, how many hands it had and, for four
accounts, the set of four, its repetition and the weight it was rated with
(``belote/server/ratings/schema.py``, ``belote/server/ratings/farming.py``); each player's
row the points of their partnership.  Rows recorded before have NULL there (not known).
The closed league weeks and their results: ``belote/server/leagues/schema.py``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE (as 0007): SQLite adds a column in place.
    for name, kind in (("bots", sa.Boolean()), ("hands", sa.Integer()),
                       ("four", sa.String(64)), ("repeat", sa.Integer()),
                       ("weight", sa.Float())):
        op.add_column("match_results", sa.Column(name, kind))
    op.create_index("match_results_by_four", "match_results", ["four", "recorded"])
    op.create_index("match_results_by_time", "match_results", ["recorded"])
    op.add_column("player_results", sa.Column("points", sa.Integer()))
    op.create_table(
        "league_weeks",
        sa.Column("week", sa.Date, primary_key=True),
        sa.Column("closed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_results",
        sa.Column("week", sa.Date, sa.ForeignKey("league_weeks.week"), primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("division", sa.Integer, nullable=False),
        sa.Column("group_no", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
    )
    op.create_index("league_results_by_account", "league_results", ["account", "week"])


def downgrade() -> None:
    op.drop_index("league_results_by_account", "league_results")
    op.drop_table("league_results")
    op.drop_table("league_weeks")
    op.drop_column("player_results", "points")
    op.drop_index("match_results_by_time", "match_results")
    op.drop_index("match_results_by_four", "match_results")
    for name in ("weight", "repeat", "four", "hands", "bots"):
        op.drop_column("match_results", name)
