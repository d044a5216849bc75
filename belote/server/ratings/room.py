"""The room's side of ratings: a finished table records its match by itself, and a start
catches up on matches that finished while the server was down.

A table finishes in its own task; recording is a task of its own (as a tournament's report,
:mod:`belote.server.tournament.room`).  A server killed between the two loses nothing: at the
next start every finished table whose match is not recorded is recorded from its stored
record and the seating its log ends with.  Recording is idempotent (``match_results``' key),
so nothing is ever counted or rated twice.  A failure is logged and counted, never silent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from belote.errors import RecordError
from belote.server.ratings.model import MatchOutcome, outcome
from belote.server.ratings.store import RatingsStore
from belote.server.seats import Seat

if TYPE_CHECKING:
    from belote.server.room import Room
    from belote.server.table import Table

log = logging.getLogger(__name__)


class RatingsRoom:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.store = RatingsStore(room.store.engine)
        self._tasks: set[asyncio.Task[bool]] = set()
        self._seen: set[int] = set()  # tables whose match is being or was recorded
        self.failures = 0  # matches that could not be recorded (each logged)

    async def open(self) -> int:
        """Record the finished matches that are not recorded yet; returns how many."""
        done = 0
        for table_id in await self.store.unrecorded():
            if await self._catch_up(table_id):
                done += 1
        if done:
            log.info("ratings: %d finished matches recorded at start", done)
        return done

    async def close(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def table_changed(self, table: Table) -> None:
        """The room's hook (``Room._table_changed``): a finished table records its match."""
        if not table.finished or table.game is None or table.id in self._seen:
            return
        self._seen.add(table.id)
        from belote.records import to_record

        record = to_record(table.game, preset=table.preset)
        seats = [dataclasses.replace(s) for s in table.seats]
        task = asyncio.create_task(self._record(table.id, table.preset, seats, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record(self, table_id: int, preset: str, seats: list[Seat],
                      record: dict[str, Any]) -> bool:
        try:
            try:
                result = outcome(preset, seats, record)
            except RecordError as error:
                # A record that does not replay (a database older than records) can give no
                # counts: the match is recorded as such, once, rather than retried forever.
                self.failures += 1
                log.warning("ratings: table %s's record does not replay (%s): counted for "
                            "nobody", table_id, error)
                result = MatchOutcome(preset, None, (), False)
            return await self.store.record(table_id, result)
        except Exception as error:
            # Never silent: logged and counted; the next start tries again (open()).
            self.failures += 1
            log.error("ratings: table %s's match not recorded: %r", table_id, error)
            return False

    async def _catch_up(self, table_id: int) -> bool:
        row = await self.room.store.table(table_id)
        if row is None or row.record is None:
            return False
        seats = [Seat() for _ in range(4)]
        for entry in await self.room.store.log(table_id):
            if entry.kind == "seats":
                seats = [Seat.from_log(s) for s in entry.data["seats"]]
        return await self._record(table_id, row.preset, seats, row.record)
