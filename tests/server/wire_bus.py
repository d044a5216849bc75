"""A second bus, for the tests only: every event goes through its JSON text and is delivered
later, by a task of the bus's own, as a bus between processes (PostgreSQL LISTEN/NOTIFY,
Redis) would deliver it.  That the room and its features work on it, and that it keeps the
contract the in-process bus keeps (``test_bus_contract.py``), shows the interface carries
across processes: no subscriber gets the publisher's objects, only what the wire carries."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter

from belote.server.bus import Handler, Subscribers, refuse_closed
from belote.server.events import TableEvent, from_wire, to_wire


class LoopbackWireBus:
    def __init__(self) -> None:
        self._subscribers = Subscribers()
        self.failures: Counter[str] = self._subscribers.failures
        self.dropped = 0
        self.sent = 0  # bytes of JSON text that crossed the "wire"
        self._wire: asyncio.Queue[str] = asyncio.Queue()
        self._receiver: asyncio.Task[None] | None = None
        self._closed = False

    def subscribe(self, name: str, handler: Handler) -> None:
        self._subscribers.add(name, handler)

    def publish(self, event: TableEvent) -> None:
        if self._closed:
            refuse_closed(self, event)
            return
        text = json.dumps(to_wire(event))
        self.sent += len(text)
        self._wire.put_nowait(text)

    async def open(self) -> None:
        self._receiver = asyncio.create_task(self._receive(), name="wire-bus")

    async def _receive(self) -> None:
        while True:
            text = await self._wire.get()
            try:
                self._subscribers.deliver(from_wire(json.loads(text)))
            finally:
                self._wire.task_done()

    async def flush(self) -> None:
        await self._wire.join()

    async def close(self) -> None:
        await self.flush()
        self._closed = True
        if self._receiver is not None:
            self._receiver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._receiver
