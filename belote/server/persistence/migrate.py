"""Bring a database to the head of the migrations (Alembic, configured here: no ini file).

:meth:`Store.open <belote.server.persistence.store.Store.open>` runs :func:`upgrade` through
the async engine (``run_sync``) at every start, on SQLite and PostgreSQL alike.  A database
made by the release before migrations (``create_all``: the four first tables and no
``alembic_version``) is recognised, stamped ``0001`` (its schema), then upgraded.
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, inspect

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
FIRST = "0001"
FIRST_TABLES = frozenset({"meta", "users", "tables", "table_log"})


class UnknownSchema(RuntimeError):
    """The database holds tables but is neither migrated nor the first release's."""


def config_for(connection: Connection) -> Config:
    config = Config()
    # The path goes through ConfigParser interpolation: a '%' in it must be doubled.
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection, revision: str = "head") -> None:
    config = config_for(connection)
    present = set(inspect(connection).get_table_names())
    if "alembic_version" not in present and present:
        if not present >= FIRST_TABLES:
            raise UnknownSchema(f"the database has tables {sorted(present)} but no migration "
                                "history: not a database of this room")
        log.info("database of the release before migrations: stamped %s", FIRST)
        command.stamp(config, FIRST)
    command.upgrade(config, revision)
