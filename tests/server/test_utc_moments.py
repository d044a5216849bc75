"""Moments come back from the store in UTC, with their offset, on SQLite too (which keeps a
moment's text and drops its offset): a tournament whose round clock had started is replayed
after a restart of the room, and its audit times are UTC (belote/server/persistence/utc.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from belote.server.app import create_app
from belote.server.persistence.utc import UtcDateTime
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities
from tests.server.test_tournament_console import drawn, organiser
from tests.server.test_tournament_http import post, tournament


def test_a_started_round_clock_survives_a_restart_on_sqlite(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with client_for(create_app(settings)) as client:
        people = Identities(client)
        tid = drawn(people)
        page = post(organiser(people), f"/tournaments/{tid}/do/clock", clock="start",
                    minutes="40")
        assert 'role="timer"' in page
        cookies = dict(client.cookies)
    with client_for(create_app(settings)) as client:  # the room restarted
        client.cookies.update(cookies)
        page = client.get(f"/tournaments/{tid}")
        assert page.status_code == 200, page.text[-2000:]
        left = int(re.findall(r'data-left="(\d+)"', page.text)[0])
        assert 38 * 60 <= left <= 40 * 60
        moments = [datetime.fromisoformat(a.at) for a in tournament(client, tid).audit]
        assert moments and all(m.utcoffset() == timedelta(0) for m in moments)


def test_the_column_takes_aware_moments_only_and_gives_utc_back() -> None:
    column = UtcDateTime()
    two_hours_east = timezone(timedelta(hours=2))
    moment = datetime(2026, 11, 27, 18, 0, tzinfo=two_hours_east)
    stored = column.process_bind_param(moment, None)  # type: ignore[arg-type]
    assert stored == moment and stored is not None and stored.tzinfo is UTC
    with pytest.raises(ValueError, match="offset"):
        column.process_bind_param(datetime(2026, 11, 27, 18, 0), None)  # type: ignore[arg-type]
    naive = datetime(2026, 11, 27, 16, 0)  # how SQLite gives a stored moment back
    assert column.process_result_value(naive, None) == naive.replace(tzinfo=UTC)  # type: ignore[arg-type]
    assert column.process_result_value(None, None) is None  # type: ignore[arg-type]
