"""The repository on SQLite and on a real PostgreSQL server: the same API, the same answers.

Also: a whole match through the web app stored in PostgreSQL and served again after a restart,
and ``belote serve --db postgresql://...`` as a process.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.persistence import NameTaken, Store, VersionTaken, async_url
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import (
    connect,
    create_table,
    guest,
    play_to_the_end,
    send,
    until,
)
from tests.server.postgres import MISSING, find_bin_dir, fresh_database, running_postgres

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a fresh SQLite file, or a fresh database on the session's server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def with_store(url: str, body: Callable[[Store], Awaitable[Any]]) -> Any:
    """Run ``body`` on an opened store, closing it (and its engine) afterwards."""

    async def main() -> Any:
        store = Store(url)
        try:
            await store.open()
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(main())


# ---------------------------------------------------------------------- the repository
def test_the_signing_secret_is_made_once_and_kept_across_reopening(db_url: str) -> None:
    async def twice(store: Store) -> tuple[str, str]:
        return await store.secret(), await store.secret()

    first, again = with_store(db_url, twice)
    assert first == again and len(first) >= 32
    assert with_store(db_url, Store.secret) == first  # a new engine, the same database


def test_accounts_names_are_unique_and_passwords_can_be_rehashed(db_url: str) -> None:
    async def body(store: Store) -> None:
        ada = await store.add_user("Ada", "hash-1")
        bob = await store.add_user("Bob", "hash-2")
        assert ada != bob
        with pytest.raises(NameTaken):
            await store.add_user("Ada", "other")
        assert await store.user("Ada") == (ada, "hash-1")
        assert await store.user("ada") is None
        assert await store.user("Nobody") is None
        assert await store.user("x" * 100) is None  # longer than the column: just not there
        await store.set_password_hash(ada, "hash-3")
        assert await store.user("Ada") == (ada, "hash-3")
        assert await store.user("Bob") == (bob, "hash-2")
        # The failed insert rolled back cleanly: the store goes on working.
        carol = await store.add_user("Carol", "hash-4")
        assert carol not in (ada, bob)

    with_store(db_url, body)
    assert with_store(db_url, lambda s: s.user("Ada"))[1] == "hash-3"


def test_tables_and_their_logs_round_trip(db_url: str) -> None:
    big = 2**40  # versions are 64-bit

    async def body(store: Store) -> None:
        first = await store.new_table("classic", {}, 1000)
        second = await store.new_table("coinche", {"belote_bonus": 20, "x": [1, "é"]}, 2000)
        assert first != second
        # Stored out of order, read back by version.
        for version, kind in ((2, "act"), (1, "seats"), (3, "chat"), (big, "finish")):
            await store.append(first, version, kind, {"v": version, "text": "Adà"})
        await store.append(second, 1, "seats", {"seats": [None, "Bob"]})
        # A version stored twice is refused by name (another process owns the table now).
        with pytest.raises(VersionTaken, match="version 2 is stored already"):
            await store.append(first, 2, "act", {"again": True})
        log = await store.log(first)
        assert [(e.version, e.kind) for e in log] == [
            (1, "seats"), (2, "act"), (3, "chat"), (big, "finish")]
        assert log[1].data == {"v": 2, "text": "Adà"}
        assert [e.data for e in await store.log(second)] == [{"seats": [None, "Bob"]}]
        assert await store.log(999_999) == []

        row = await store.table(second)
        assert row is not None
        assert (row.id, row.preset, row.flags, row.target, row.status, row.record) == (
            second, "coinche", {"belote_bonus": 20, "x": [1, "é"]}, 2000, "open", None)
        assert await store.table(999_999) is None
        assert [r.id for r in await store.list_tables("open")] == [second, first]
        assert await store.list_tables("finished") == []

        await store.finish(first, {"winner": 1, "deals": [{"n": 1}]})
        done = await store.table(first)
        assert done is not None
        assert (done.status, done.record) == ("finished", {"winner": 1, "deals": [{"n": 1}]})
        assert [r.id for r in await store.list_tables("open")] == [second]
        assert [r.id for r in await store.list_tables("finished")] == [first]
        assert len(await store.list_tables("open", limit=0)) == 0

    with_store(db_url, body)
    reopened = with_store(db_url, lambda s: s.list_tables("finished"))
    assert [r.record for r in reopened] == [{"winner": 1, "deals": [{"n": 1}]}]


def test_opening_twice_keeps_what_is_stored(db_url: str) -> None:
    with_store(db_url, lambda s: s.add_user("Ada", "h"))
    assert with_store(db_url, lambda s: s.user("Ada")) is not None


@pytest.mark.slow
def test_the_store_outlives_a_postgresql_restart() -> None:
    with running_postgres() as server:  # a server of its own: this test restarts it
        url = server.create_database("belote")

        async def body(store: Store) -> None:
            table_id = await store.new_table("classic", {}, 1000)
            await store.append(table_id, 1, "seats", {"n": 1})
            await asyncio.to_thread(server.restart)  # every pooled connection dies
            await store.append(table_id, 2, "chat", {"n": 2})
            assert [e.data for e in await store.log(table_id)] == [{"n": 1}, {"n": 2}]

        with_store(url, body)


def test_database_urls_name_an_async_driver() -> None:
    assert async_url("sqlite:///sala.db") == "sqlite+aiosqlite:///sala.db"
    assert async_url("postgresql://u@h:5/db") == "postgresql+asyncpg://u@h:5/db"
    assert async_url("postgres://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert async_url("postgresql+psycopg://u@h/db") == "postgresql+asyncpg://u@h/db"
    with pytest.raises(ValueError, match="unsupported database 'mysql'"):
        async_url("mysql://u@h/db")
    with pytest.raises(ValueError, match="not a database URL"):
        async_url("sala.db")
    with pytest.raises(ValueError, match="not a database URL"):
        Store("")


def test_postgresql_runs_on_loopback_and_its_absence_fails_loudly(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert postgres_url.startswith("postgresql://postgres@127.0.0.1:")
    assert postgres_url.endswith("/belote")
    monkeypatch.setattr("glob.glob", lambda _pattern: [])
    with pytest.raises(pytest.fail.Exception, match=r"scripts/system-deps\.sh") as failed:
        find_bin_dir()
    assert str(failed.value) == MISSING


# ---------------------------------------------------------------------- the room on PostgreSQL
def play_a_short_match(client: TestClient) -> int:
    guest(client, "Ada")
    table_id = create_table(client, target=200)
    with connect(client, table_id) as ws:
        until(ws, lambda f: f["t"] == "sync")
        send(ws, "sit", seat=2)
        for seat in (0, 1, 3):
            send(ws, "bot", seat=seat, level="normal")
        until(ws, lambda f: f["t"] == "update" and all(
            s["kind"] != "empty" for s in f["d"]["view"]["seats"]))
        send(ws, "start")
        view, _ = play_to_the_end(ws)
        assert view["winner"] in (0, 1)
    return table_id


@pytest.mark.slow
def test_a_whole_match_is_stored_in_postgresql_and_served_after_a_restart(
        postgres_url: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, db_url=fresh_database(postgres_url))
    with client_for(create_app(settings)) as client:
        table_id = play_a_short_match(client)
        assert client.get(f"/replay/{table_id}").status_code == 200

    with client_for(create_app(settings)) as client:  # a new process would see the same
        page = client.get(f"/replay/{table_id}")
        assert page.status_code == 200
        assert "Deal 1" in page.text
        assert client.get("/").status_code == 200
        assert client.get(f"/replay/{table_id + 1}").status_code == 404

    async def stored(store: Store) -> tuple[Any, int]:
        return await store.table(table_id), len(await store.log(table_id))

    row, changes = with_store(settings.db_url, stored)
    assert row.status == "finished" and row.record is not None
    assert changes > 10


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_belote_serve_runs_on_postgresql(postgres_url: str) -> None:
    url, port = fresh_database(postgres_url), _free_port()
    command = [sys.executable, "-m", "belote", "serve", "--db", url, "--port", str(port),
               "--bot-workers", "0"]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline, status = time.monotonic() + 20, None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    status = answer.status
                    page = answer.read().decode()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        assert status == 200, f"no answer from belote serve (exit {server.poll()})"
        assert "<html" in page.lower()
    finally:
        server.terminate()
        try:
            output, _ = server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            output, _ = server.communicate()
    assert f"database {url}" in output, output
    assert with_store(url, Store.secret)  # the served room made its tables and key there


def test_the_rooms_sqlite_connections_commit_with_synchronous_full(tmp_path: Path) -> None:
    """Review finding (issue 21, item 13: durability must not depend on the database's
    commit setting): SQLite ran WAL with ``synchronous=NORMAL``, which can lose acknowledged
    moves on a power loss.  Every connection of the room syncs at each commit (FULL = 2),
    the tournaments' and ratings' stores too (they share the room's engine)."""
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        assert client.get("/").status_code == 200
        store = app.state.room.store

        async def pragmas() -> list[tuple[Any, Any]]:
            found = []
            async with store.engine.connect() as one, store.engine.connect() as two:
                for conn in (one, two):
                    mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
                    sync = (await conn.exec_driver_sql("PRAGMA synchronous")).scalar()
                    found.append((mode, sync))
            return found

        assert client.portal is not None
        assert client.portal.call(pragmas) == [("wal", 2), ("wal", 2)]
        assert app.state.tournaments.service.store.engine is store.engine
        assert app.state.ratings.store.engine is store.engine
