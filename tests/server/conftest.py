"""Fixtures for the room's tests: an app on a fresh SQLite file, clients with sessions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.config import Settings
from tests.server.postgres import postgres_url  # noqa: F401  (the session's PostgreSQL)

ORIGIN = "https://testserver"


def make_settings(tmp_path: Path, **changes: object) -> Settings:
    values: dict[str, object] = {
        "db_url": f"sqlite:///{tmp_path / 'sala.db'}", "bot_delay": 0.0, "bot_workers": 0,
        "default_pace": 0.0,
        "takeover_seconds": 30.0, "allowed_hosts": ("testserver",),
        # Tests create many tables from one address and person; test_abuse.py checks the
        # limits with their own values.
        "waiting_tables_per_user": 1000, "tables_per_address_burst": 1000,
        # Replays and analyses in a thread (test_loop_stalls.py checks the real process).
        "heavy_workers": 0,
        # Cheap password hashes: hundreds of rooms and sign-ups hashed at the strong cost
        # spent minutes of CPU (test_security.py checks that every room hashes strongly by
        # default; test_loop_stalls.py's sign-ups hash at the strong cost).
        "password_cost": "test",
    }
    values.update(changes)
    return Settings(**values)  # type: ignore[arg-type]


def client_for(app: object) -> TestClient:
    return TestClient(app, base_url=ORIGIN, headers={"origin": ORIGIN})  # type: ignore[arg-type]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def app(settings: Settings) -> object:
    return create_app(settings)


@pytest.fixture
def client(app: object) -> Iterator[TestClient]:
    with client_for(app) as c:
        yield c


@pytest.fixture(scope="session")
def two_processes(request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Two ``belote serve --cluster`` processes of one room, shared by the session's checks
    that run on both rooms (tests/server/room_under_test.py; defined here, once: a session
    fixture imported by several modules would start once per module)."""
    from tests.server.room_under_test import two_processes_for

    yield from two_processes_for(request.getfixturevalue("postgres_url"),
                                 tmp_path_factory.mktemp("two-processes"))
