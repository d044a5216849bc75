"""Alembic's environment for the room's database: run by :func:`..migrate.upgrade` only.

No ini file: the caller hands over an open connection (``config.attributes["connection"]``,
from the async engine's ``run_sync``) and the migrations run inside its transaction.
"""

from __future__ import annotations

from alembic import context

from belote.server.persistence.schema import metadata

connection = context.config.attributes["connection"]
# The revisions are explicit (no autogenerate at start), so the base schema is enough here;
# the whole one, with the features' tables, is ``belote.server.composition.metadata``.
# Batch mode: SQLite changes a column by copying the table (it has no ALTER COLUMN).
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
