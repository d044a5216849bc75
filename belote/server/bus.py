"""The table-event bus: tables publish what happened, features subscribe (lila's Bus).

The contract (:class:`Bus`, tested against every implementation in
``tests/server/test_bus_contract.py``), which a bus between processes (PostgreSQL
LISTEN/NOTIFY, Redis) can keep as well as this one:

- every subscriber gets every event published after it subscribed, exactly once, and one
  table's events in the order they were published;
- a subscriber that raises is counted (``failures``, by subscriber) and logged; the others
  still get the event, and the publisher (a table) never hears of it;
- ``publish`` never blocks and never raises: delivery may come later (another process), so
  a subscriber relies on nothing but the event (ids and data, never a shared object);
- ``flush`` returns once every event published before it is delivered; ``close`` flushes,
  then refuses what is published after it (counted in ``dropped`` and logged).

A handler is quick and never waits: what takes time (a database write) goes in a task of
the subscriber's own, which its ``close`` awaits.
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Callable
from typing import Protocol

from belote.server.events import TableEvent

log = logging.getLogger(__name__)

Handler = Callable[[TableEvent], None]


class Bus(Protocol):
    failures: Counter[str]  # events a subscriber raised on, by subscriber (each logged)
    dropped: int  # events published after close (each logged)

    def subscribe(self, name: str, handler: Handler, *, everywhere: bool = True) -> None:
        """``everywhere``: the events of every process's tables; else only of the tables
        this process runs (a feature that writes what a table did: written once)."""
        ...

    def publish(self, event: TableEvent) -> None: ...

    async def open(self) -> None: ...

    async def flush(self) -> None: ...

    async def close(self) -> None: ...


class Subscribers:
    """The named handlers of a bus, and the delivery of one event to each of them."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        self.failures: Counter[str] = Counter()

    def add(self, name: str, handler: Handler) -> None:
        if name in self._handlers:
            raise ValueError(f"a bus subscriber named {name!r} is already there")
        self._handlers[name] = handler

    def deliver(self, event: TableEvent) -> None:
        for name, handler in list(self._handlers.items()):
            try:
                handler(event)
            except Exception:
                # One subscriber's bug costs that subscriber this event, nothing more.
                self.failures[name] += 1
                log.exception("bus: subscriber %s failed on %s event of table %s", name,
                              event.kind, event.table_id)


def refuse_closed(bus: Bus, event: TableEvent) -> None:
    bus.dropped += 1
    log.error("bus: %s event of table %s published after the bus closed: dropped",
              event.kind, event.table_id)


class InProcessBus:
    """The bus of one process: each event is delivered as it is published, before
    ``publish`` returns (today's behaviour: the lobby and ratings hear of a change at once).

    An event published by a handler waits until the current one has reached every
    subscriber, so that each subscriber still sees every table's events in order.
    """

    def __init__(self) -> None:
        self._subscribers = Subscribers()
        self.failures = self._subscribers.failures
        self.dropped = 0
        self._pending: deque[TableEvent] = deque()
        self._delivering = False
        self._closed = False

    def subscribe(self, name: str, handler: Handler, *, everywhere: bool = True) -> None:
        self._subscribers.add(name, handler)  # one process: every table is this one's

    def publish(self, event: TableEvent) -> None:
        if self._closed:
            refuse_closed(self, event)
            return
        self._pending.append(event)
        if self._delivering:
            return  # a handler published it: delivered once the current event is
        self._delivering = True
        try:
            while self._pending:
                self._subscribers.deliver(self._pending.popleft())
        finally:
            self._delivering = False

    async def open(self) -> None:
        """Nothing to connect to."""

    async def flush(self) -> None:
        """Nothing is ever pending once ``publish`` has returned."""

    async def close(self) -> None:
        self._closed = True
