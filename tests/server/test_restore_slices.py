"""A table rebuilt from a long log gives the event loop its turns (the 50 ms rule).

A process that takes over a table (its owner died, issue 26) replays the table's whole log
while it runs other tables: a match of many hands is thousands of entries.  The replay
yields to the loop every ``RESTORE_SLICE`` seconds, and the room shows the table to nobody
until the replay is whole.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any, cast

import pytest

from belote.engine.state import CHANCE, Game
from belote.server import table as table_module
from belote.server.app import create_app
from belote.server.persistence import LogEntry
from belote.server.seats import Seat
from belote.server.table import Table
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import connect, create_table, guest, sit_with_bots, until

TARGET = 1500


def _long_log(seed: int = 3) -> list[LogEntry]:
    """A classic match of seeded random moves to ``TARGET``, as a table's log."""
    rng = random.Random(seed)
    rules = Table(1, "classic", {"target_score": TARGET}, cast(Any, None),
                  cast(Any, None)).rules
    game = Game(rules, first_dealer=0)
    entries = [LogEntry(1, "start", {"first_dealer": 0})]
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            deck = list(range(32))
            rng.shuffle(deck)
            game.deal(deck)
            entries.append(LogEntry(len(entries) + 1, "deal", {"deck": deck}))
        else:
            seat = game.current_player()
            action = rng.choice(game.legal_actions())
            game.apply(action, seat)
            entries.append(LogEntry(len(entries) + 1, "act", {"seat": seat, "action": action}))
    return entries


def _fresh_table() -> Table:
    table = Table(1, "classic", {"target_score": TARGET}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(4)]
    return table


def test_a_long_log_is_replayed_in_slices_with_the_loops_turns_between(
        monkeypatch: pytest.MonkeyPatch) -> None:
    entries = _long_log()
    assert len(entries) > 500
    # Every entry a slice of its own: each gives the loop a turn, whatever the machine's speed.
    monkeypatch.setattr(table_module, "RESTORE_SLICE", 0.0)
    table = _fresh_table()

    async def replay_while_ticking() -> int:
        ticks = 0
        replaying = asyncio.ensure_future(table.restore(entries))
        while not replaying.done():
            ticks += 1
            await asyncio.sleep(0)
        await replaying
        return ticks

    ticks = asyncio.run(replay_while_ticking())
    assert ticks >= len(entries) - 1  # the loop ran between every two entries
    assert table.version == len(entries)
    # The same state as a replay in one slice.
    monkeypatch.setattr(table_module, "RESTORE_SLICE", 3600.0)
    whole = _fresh_table()
    asyncio.run(whole.restore(entries))
    assert whole.game is not None and table.game is not None
    assert table.game.is_terminal() and whole.game.is_terminal()
    assert table.game.totals == whole.game.totals
    assert table.score_history == whole.score_history


def test_the_room_shows_a_table_only_once_it_is_replayed_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While its log is replayed (the loop's turns between slices), the table is in nobody's
    reach: a socket or a page meeting it half rebuilt would see a past state as the present."""
    settings = make_settings(tmp_path)
    with client_for(create_app(settings)) as client:
        guest(client, "Ada")
        table_id = create_table(client)
        with connect(client, table_id) as ws:
            sit_with_bots(ws)
            until(ws, lambda f: f["t"] == "update")
    seen: list[bool] = []
    app = create_app(settings)
    replay = Table.restore

    async def watched(self: Table, entries: list[LogEntry]) -> None:
        seen.append(self.id in app.state.room.tables)
        await replay(self, entries)
        seen.append(self.id in app.state.room.tables)

    monkeypatch.setattr(Table, "restore", watched)
    with client_for(app):
        assert table_id in app.state.room.tables  # then shown
    assert seen == [False, False]
