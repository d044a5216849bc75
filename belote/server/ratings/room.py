"""The room's side of ratings: a finished table's match is recorded (from the bus's
``TableFinished``, which carries the record and the seating), and a start catches up on
matches that finished while the server was down.

A table finishes in its own task; recording is a task of its own (as a tournament's report,
:mod:`belote.server.tournament.room`).  A server killed between the two loses nothing: at the
next start every finished table whose match is not recorded is recorded from its stored
record and the seating its log ends with.  Recording is idempotent (``match_results``' key),
so nothing is ever counted or rated twice.  A failure is logged and counted, never silent.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from belote.errors import RecordError
from belote.server.events import TableEvent, TableFinished
from belote.server.persistence import LogEntry, TableRow
from belote.server.ratings.model import MatchOutcome, outcome
from belote.server.ratings.store import RatingsStore
from belote.server.seats import Seat

log = logging.getLogger(__name__)


class StoredTables(Protocol):
    """What ratings read of the stored tables, to catch up at a start (the room's
    :class:`~belote.server.persistence.Store` is one)."""

    async def table(self, table_id: int) -> TableRow | None: ...

    async def log(self, table_id: int) -> list[LogEntry]: ...


class RatingsRoom:
    def __init__(self, tables: StoredTables, store: RatingsStore) -> None:
        self.tables = tables
        self.store = store
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

    def on_event(self, event: TableEvent) -> None:
        """The bus's delivery: a finished table's match is recorded."""
        if not isinstance(event, TableFinished) or event.table_id in self._seen:
            return
        self._seen.add(event.table_id)
        seats = [s.seat() for s in event.seats]
        task = asyncio.create_task(self._record(event.table_id, event.preset, seats,
                                                event.match_record()))
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
        row = await self.tables.table(table_id)
        if row is None or row.record is None:
            return False
        seats = [Seat() for _ in range(4)]
        for entry in await self.tables.log(table_id):
            if entry.kind == "seats":
                seats = [Seat.from_log(s) for s in entry.data["seats"]]
        return await self._record(table_id, row.preset, seats, row.record)
