"""Records that outlive a deleted account: reports and the daily duplicate's entries.

Revision ID: 0014
Revises: 0013

Until now deleting an account deleted, through ``ON DELETE CASCADE``, the reports it filed
and the reports made about it (a sanctioned person could erase the evidence by deleting the
account), and its daily duplicate entries (which changed the other entrants' matchpoints of
days already closed).  These columns become nullable with ``ON DELETE SET NULL``: the row
stays, without the person (``belote/server/personal_data/deletion.py`` says what else it
does to them).  The downgrade deletes the rows whose person is gone (they cannot point to
an account again) and restores the cascades.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

# (table, column) pointing to users.id whose rows now outlive the account.
COLUMNS = (("reports", "reporter"), ("reports", "target"), ("daily_entries", "account"))
# SQLite's foreign keys have no names: batch mode (a copy of the table) names the reflected
# ones with this convention so that they can be dropped; PostgreSQL named them itself.
SQLITE_NAMES = {"fk": "fk_%(table_name)s_%(column_0_name)s"}


def _fk_name(table: str, column: str) -> str:
    if op.get_bind().dialect.name == "postgresql":
        return f"{table}_{column}_fkey"
    return f"fk_{table}_{column}"


def _relink(ondelete: str, nullable: bool) -> None:
    tables: dict[str, list[str]] = {}
    for table, column in COLUMNS:
        tables.setdefault(table, []).append(column)
    for table, columns in tables.items():
        with op.batch_alter_table(table, naming_convention=SQLITE_NAMES) as batch:
            for column in columns:
                batch.drop_constraint(_fk_name(table, column), type_="foreignkey")
                batch.alter_column(column, existing_type=sa.Integer, nullable=nullable)
                batch.create_foreign_key(_fk_name(table, column), "users", [column], ["id"],
                                         ondelete=ondelete)


def upgrade() -> None:
    _relink("SET NULL", nullable=True)


def downgrade() -> None:
    # The daily plays of a removed entry go with it (their own cascade).
    op.execute("DELETE FROM reports WHERE reporter IS NULL OR target IS NULL")
    op.execute("DELETE FROM daily_entries WHERE account IS NULL")
    _relink("CASCADE", nullable=False)
