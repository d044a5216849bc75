"""The table-event bus between processes, on PostgreSQL's LISTEN/NOTIFY.

It keeps the contract of :mod:`belote.server.bus`: a table's events reach this process's
subscribers as they are published (its owner is this process: delivered at once, in
order), and every other process's subscribers through the wire, in order too (one table's
events come from one owner, through one sending connection, and PostgreSQL delivers them
in commit order).  A subscriber chooses where it hears from: ``everywhere`` (the lobby: the
room's every table) or only this process's tables (ratings, tournaments: what a finished
table writes is written once, by its owner; another process taking a table over after a
crash catches up from the store, as a restart does).
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from belote.server.bus import Handler, Subscribers, refuse_closed
from belote.server.cluster.wire import PgWire
from belote.server.events import TableEvent, from_wire, to_wire

log = logging.getLogger(__name__)

CHANNEL = "belote_events"


class PgBus:
    def __init__(self, wire: PgWire) -> None:
        self._wire = wire
        self._here = Subscribers()  # every event of this process's tables
        self._remote = Subscribers()  # the everywhere-subscribers: other processes' events
        self.failures: Counter[str] = Counter()
        self.dropped = 0
        self.unreadable = 0  # events from the wire that did not decode (each logged)
        self._closed = False
        wire.listen(CHANNEL, self._received)

    def subscribe(self, name: str, handler: Handler, *, everywhere: bool = True) -> None:
        self._here.add(name, handler)
        if everywhere:
            self._remote.add(name, handler)
        # One tally, whichever way the event came.
        self._here.failures = self._remote.failures = self.failures

    def publish(self, event: TableEvent) -> None:
        if self._closed:
            refuse_closed(self, event)
            return
        self._here.deliver(event)
        self._wire.send(CHANNEL, to_wire(event))

    def _received(self, message: dict[str, Any]) -> None:
        if message.get("from") == self._wire.name:
            return  # this process's own: delivered when published
        try:
            event = from_wire({k: v for k, v in message.items() if k != "from"})
        except ValueError as error:
            self.unreadable += 1
            log.error("bus: an event from %s does not decode: %s", message.get("from"), error)
            return
        self._remote.deliver(event)

    async def open(self) -> None:
        """The wire is opened by the cluster (it carries more than the bus)."""

    async def flush(self) -> None:
        await self._wire.flush()

    async def close(self) -> None:
        await self.flush()
        self._closed = True
