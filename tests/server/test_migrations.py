"""Alembic migrations: a database of the release before them is kept and upgraded, on
SQLite and PostgreSQL; revision 0001 is that release's schema, the head is ``schema.py``'s."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from belote.server.app import create_app
from belote.server.auth import hash_password
from belote.server.composition import metadata
from belote.server.persistence import Store
from belote.server.persistence.migrate import config_for, upgrade
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import read_store
from tests.server.postgres import fresh_database

HEAD = "0015"  # the newest revision (persistence/migrations/versions)

# The schema as the release before migrations made it (``metadata.create_all``).
OLD = sa.MetaData()
sa.Table("meta", OLD, sa.Column("key", sa.String(64), primary_key=True),
         sa.Column("value", sa.Text, nullable=False))
sa.Table("users", OLD, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
         sa.Column("name", sa.String(32), nullable=False, unique=True),
         sa.Column("password_hash", sa.Text, nullable=False),
         sa.Column("created", sa.DateTime(timezone=True), server_default=sa.func.now()))
sa.Table("tables", OLD, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
         sa.Column("preset", sa.String(32), nullable=False),
         sa.Column("flags", sa.Text, nullable=False),
         sa.Column("target", sa.Integer, nullable=False),
         sa.Column("status", sa.String(16), nullable=False), sa.Column("record", sa.Text),
         sa.Column("created", sa.DateTime(timezone=True), server_default=sa.func.now()),
         sa.Column("finished", sa.DateTime(timezone=True)))
sa.Table("table_log", OLD,
         sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
         sa.Column("version", sa.BigInteger, primary_key=True, autoincrement=False),
         sa.Column("kind", sa.String(16), nullable=False),
         sa.Column("data", sa.Text, nullable=False))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def on_connection(url: str, body: Callable[[sa.Connection], Any]) -> Any:
    async def main() -> Any:
        store = Store(url)
        try:
            async with store.engine.begin() as conn:
                return await conn.run_sync(body)
        finally:
            await store.close()

    return asyncio.run(main())


def _previous_release(conn: sa.Connection, password_hash: str) -> None:
    OLD.create_all(conn)
    t = OLD.tables
    conn.execute(sa.insert(t["meta"]).values(key="secret", value="s" * 64))
    conn.execute(sa.insert(t["users"]), [
        {"name": "Ada", "password_hash": password_hash},
        {"name": "Bob", "password_hash": "$argon2id$not-a-real-one"},
        {"name": "bob", "password_hash": "$argon2id$an-old-clash"}])
    conn.execute(sa.insert(t["tables"]).values(
        preset="classic", flags="{}", target=300, status="finished", record='{"result": 1}'))
    conn.execute(sa.insert(t["table_log"]), [
        {"table_id": 1, "version": v, "kind": "chat", "data": f'{{"n": {v}}}'}
        for v in (1, 2, 3)])


def test_a_previous_release_database_keeps_its_data_and_is_upgraded(
        db_url: str, tmp_path: Path) -> None:
    ada_hash = hash_password("settebello")
    on_connection(db_url, lambda c: _previous_release(c, ada_hash))
    app = create_app(make_settings(tmp_path, db_url=db_url))
    with client_for(app) as client:
        signed_in = client.post("/login", data={"name": "Ada", "password": "settebello"},
                                follow_redirects=True)
        assert "Signed in as Ada" in signed_in.text
        assert client.app.state.room.secret == "s" * 64  # type: ignore[attr-defined]

    def inspect(conn: sa.Connection) -> dict[str, Any]:
        found = sa.inspect(conn)
        return {
            "version": conn.execute(sa.text("SELECT version_num FROM alembic_version"))
            .scalar_one(),
            "tables": set(found.get_table_names()),
            "keys": conn.execute(sa.text("SELECT name, name_key FROM users ORDER BY id")).all(),
            "diff": compare_metadata(MigrationContext.configure(conn), metadata),
        }

    state = on_connection(db_url, inspect)
    assert state["version"] == HEAD
    assert {"sessions", "users", "tables", "table_log", "meta"} <= state["tables"]
    # Two old accounts that now fold alike both stay, the later under a distinct key.
    assert [tuple(r) for r in state["keys"]] == [("Ada", "ada"), ("Bob", "bob"),
                                                 ("bob", "bob#3")]
    assert state["diff"] == []
    assert [e.data for e in read_store(app, lambda s: s.log(1))] == [
        {"n": 1}, {"n": 2}, {"n": 3}]
    finished = read_store(app, lambda s: s.table(1))
    assert finished.record == {"result": 1}
    assert read_store(app, lambda s: s.user("bob"))[1] == "$argon2id$an-old-clash"


def test_revision_0001_is_the_previous_release_schema(tmp_path: Path) -> None:
    def columns(url: str) -> dict[str, Any]:
        def read(conn: sa.Connection) -> dict[str, Any]:
            found = sa.inspect(conn)
            return {name: [(c["name"], str(c["type"]), c["nullable"])
                           for c in found.get_columns(name)]
                    for name in sorted(found.get_table_names()) if name != "alembic_version"}
        return dict(on_connection(url, read))

    old, migrated = (f"sqlite:///{tmp_path / n}" for n in ("old.db", "migrated.db"))
    on_connection(old, OLD.create_all)
    on_connection(migrated, lambda c: upgrade(c, "0001"))
    assert columns(migrated) == columns(old)


def test_a_new_database_is_made_at_the_head_and_reopening_changes_nothing(
        db_url: str) -> None:
    def check(conn: sa.Connection) -> tuple[str, list[Any]]:
        return (conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one(),
                compare_metadata(MigrationContext.configure(conn), metadata))

    for _ in range(2):
        on_connection(db_url, upgrade)
        assert on_connection(db_url, check) == (HEAD, [])


def test_tables_of_another_application_are_not_migrated(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'other.db'}"
    on_connection(url, lambda c: c.execute(sa.text("CREATE TABLE invoices (id INTEGER)")))
    with pytest.raises(RuntimeError, match="not a database of this room"):
        on_connection(url, upgrade)


def test_a_0003_database_is_upgraded_to_ratings_and_its_finished_matches_counted(
        tmp_path: Path) -> None:
    """A database of the release before ratings: its tables stay, the ratings' tables come,
    and a finished match whose log names the accounts counts on their profiles (unrated:
    a bot sat at the table)."""
    import json

    from tests.server.test_ratings import finished_record

    url = f"sqlite:///{tmp_path / 'at3.db'}"
    seats = [{"kind": "human", "name": "Ada", "owner": "x", "level": "normal",
              "standin": False, "account": 1}] + [
        {"kind": "bot", "name": "", "owner": None, "level": "easy", "standin": False}] * 3

    def at_0003(conn: sa.Connection) -> None:
        upgrade(conn, "0003")
        conn.execute(sa.text("INSERT INTO users (name, name_key, password_hash) "
                             "VALUES ('Ada', 'ada', 'h')"))
        conn.execute(sa.text("INSERT INTO tables (preset, flags, target, status, record) "
                             "VALUES ('classic', '{}', 1, 'finished', :r)"),
                     {"r": json.dumps(finished_record())})
        conn.execute(sa.text("INSERT INTO table_log VALUES (1, 1, 'seats', :d)"),
                     {"d": json.dumps({"seats": seats, "key": "k", "values": {}})})

    on_connection(url, at_0003)
    app = create_app(make_settings(tmp_path, db_url=url))
    with client_for(app) as client:
        profile = client.get("/players/Ada")
        assert "Matches played: 1." in profile.text

    def check(conn: sa.Connection) -> tuple[str, list[Any], list[Any]]:
        return (conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one(),
                compare_metadata(MigrationContext.configure(conn), metadata),
                conn.execute(sa.text("SELECT table_id, rated FROM match_results")).all())

    version, diff, matches = on_connection(url, check)
    assert (version, diff) == (HEAD, [])
    assert [tuple(m) for m in matches] == [(1, False)]


def test_0006_account_settings_go_up_and_down_and_the_accounts_stay(db_url: str) -> None:
    """Revision 0006 adds the accounts' preferences (one JSON row per account that saved
    them); its downgrade drops them, and only them: the accounts stay and go up again."""
    def at_0005(conn: sa.Connection) -> None:
        upgrade(conn, "0005")
        conn.execute(sa.text("INSERT INTO users (name, name_key, password_hash) "
                             "VALUES ('Ada', 'ada', 'h')"))

    def up_and_save(conn: sa.Connection) -> list[Any]:
        upgrade(conn)
        conn.execute(sa.text("INSERT INTO account_settings (account, data, updated) "
                             "VALUES (1, '{\"v\": 1}', CURRENT_TIMESTAMP)"))
        return list(conn.execute(sa.text("SELECT account, data FROM account_settings")).all())

    def down(conn: sa.Connection) -> tuple[set[str], list[Any]]:
        command.downgrade(config_for(conn), "0005")
        return (set(sa.inspect(conn).get_table_names()),
                list(conn.execute(sa.text("SELECT name FROM users")).all()))

    def check(conn: sa.Connection) -> tuple[str, list[Any], int]:
        return (conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one(),
                compare_metadata(MigrationContext.configure(conn), metadata),
                conn.execute(sa.text("SELECT count(*) FROM account_settings")).scalar_one())

    on_connection(db_url, at_0005)
    assert [tuple(r) for r in on_connection(db_url, up_and_save)] == [(1, '{"v": 1}')]
    tables, names = on_connection(db_url, down)
    assert "account_settings" not in tables and [tuple(n) for n in names] == [("Ada",)]
    on_connection(db_url, upgrade)
    assert on_connection(db_url, check) == (HEAD, [], 0)


def test_0007_shared_limits_go_up_and_down_and_the_tables_stay(db_url: str) -> None:
    """Revision 0007 adds the shared rate limits, each table's creator and the games by
    table; its downgrade drops them, and only them: the tables and their logs stay (no copy
    of ``tables``, whose log refers to it), and go up again."""
    def at_0006(conn: sa.Connection) -> None:
        upgrade(conn, "0006")
        conn.execute(sa.text("INSERT INTO tables (preset, flags, target, status) "
                             "VALUES ('classic', '{}', 300, 'open')"))
        conn.execute(sa.text("INSERT INTO table_log VALUES (1, 1, 'chat', '{}')"))

    def up_and_use(conn: sa.Connection) -> list[Any]:
        upgrade(conn)
        conn.execute(sa.text("INSERT INTO rate_limits (limiter, key, state, expires) "
                             "VALUES ('signups', 'ip:x', '[1.0]', 61.0)"))
        conn.execute(sa.text("UPDATE tables SET creator = 'abc'"))
        return list(conn.execute(sa.text("SELECT id, creator FROM tables")).all())

    def down(conn: sa.Connection) -> tuple[set[str], list[str], int]:
        command.downgrade(config_for(conn), "0006")
        found = sa.inspect(conn)
        return (set(found.get_table_names()),
                [c["name"] for c in found.get_columns("tables")],
                conn.execute(sa.text("SELECT count(*) FROM table_log")).scalar_one())

    def check(conn: sa.Connection) -> tuple[str, list[Any], int]:
        return (conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one(),
                compare_metadata(MigrationContext.configure(conn), metadata),
                conn.execute(sa.text("SELECT count(*) FROM rate_limits")).scalar_one())

    on_connection(db_url, at_0006)
    assert [tuple(r) for r in on_connection(db_url, up_and_use)] == [(1, "abc")]
    tables, columns, logged = on_connection(db_url, down)
    assert "rate_limits" not in tables and "creator" not in columns and logged == 1
    on_connection(db_url, upgrade)
    assert on_connection(db_url, check) == (HEAD, [], 0)


def test_0014_reports_and_daily_entries_outlive_their_accounts_and_go_down(
        db_url: str) -> None:
    """Revision 0014: deleting an account empties its reports' and daily entries' column
    instead of deleting them (the moderation record and the others' matchpoints stay); the
    downgrade deletes the rows whose account is gone and restores the cascade."""
    def at_0012(conn: sa.Connection) -> None:
        upgrade(conn, "0012")
        for name in ("ada", "bo", "cy"):
            conn.execute(sa.text("INSERT INTO users (name, name_key, password_hash) "
                                 f"VALUES ('{name}', '{name}', 'h')"))
        for reporter, target in ((1, 2), (3, 3)):
            conn.execute(sa.text(
                "INSERT INTO reports (reporter, target, reason, text, context, created, "
                f"status) VALUES ({reporter}, {target}, 'abuse', '', '{{}}', "
                "CURRENT_TIMESTAMP, 'open')"))
        for account in (2, 3):
            conn.execute(sa.text("INSERT INTO daily_entries (day, account, name, entered) "
                                 f"VALUES ('2020-01-06', {account}, 'x', CURRENT_TIMESTAMP)"))

    def up_and_delete(conn: sa.Connection) -> tuple[list[Any], list[Any]]:
        upgrade(conn)
        conn.execute(sa.text("DELETE FROM users WHERE id IN (1, 2)"))
        return (list(conn.execute(sa.text(
                    "SELECT reporter, target FROM reports ORDER BY id")).all()),
                list(conn.execute(sa.text(
                    "SELECT account FROM daily_entries ORDER BY id")).all()))

    def down(conn: sa.Connection) -> tuple[list[Any], list[Any]]:
        command.downgrade(config_for(conn), "0014-1")
        return (list(conn.execute(sa.text("SELECT reporter, target FROM reports")).all()),
                list(conn.execute(sa.text("SELECT account FROM daily_entries")).all()))

    def check(conn: sa.Connection) -> tuple[str, list[Any]]:
        return (conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one(),
                compare_metadata(MigrationContext.configure(conn), metadata))

    on_connection(db_url, at_0012)
    kept, entries = on_connection(db_url, up_and_delete)
    assert [tuple(r) for r in kept] == [(None, None), (3, 3)]
    assert [tuple(r) for r in entries] == [(None,), (3,)]
    kept, entries = on_connection(db_url, down)
    assert [tuple(r) for r in kept] == [(3, 3)] and [tuple(r) for r in entries] == [(3,)]
    on_connection(db_url, upgrade)
    assert on_connection(db_url, check) == (HEAD, [])


# One process opening the store (Alembic keeps its state in module globals: one migration per
# process, as the room runs them).
_OPEN = """
import asyncio, sys
from belote.server.persistence import Store

async def main() -> None:
    store = Store(sys.argv[1])
    try:
        await store.open()
    finally:
        await store.close()

asyncio.run(main())
"""


def test_processes_opening_a_new_postgresql_database_together_migrate_it_once(
        postgres_url: str) -> None:
    """Issue 26: ``belote serve --processes 2`` on a new database started both processes at
    once; both ran the migrations, and one failed (``alembic_version`` made twice) and was
    started again by the supervisor.  The migrations run under a lock of the database."""
    url = fresh_database(postgres_url)
    openers = [subprocess.Popen([sys.executable, "-c", _OPEN, url], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT) for _ in range(3)]
    outputs = [opener.communicate(timeout=120)[0].decode(errors="replace")
               for opener in openers]
    assert [o.returncode for o in openers] == [0, 0, 0], outputs

    async def revision() -> str | None:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                return await conn.run_sync(
                    lambda c: MigrationContext.configure(c).get_current_revision())
        finally:
            await store.close()
    assert asyncio.run(revision()) == HEAD
