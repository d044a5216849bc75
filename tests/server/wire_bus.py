"""A second bus, for the tests only: every event goes through its JSON text and is delivered
later, by a task of the bus's own, as a bus between processes (PostgreSQL LISTEN/NOTIFY,
Redis) would deliver it.  That the room and its features work on it, and that it keeps the
contract the in-process bus keeps (``test_bus_contract.py``), shows the interface carries
across processes: no subscriber gets the publisher's objects, only what the wire carries."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections import Counter
from typing import Any

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

    def subscribe(self, name: str, handler: Handler, *, everywhere: bool = True) -> None:
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


def plain(value: Any) -> None:
    """Raise ``AssertionError`` unless ``value`` is plain data a wire can carry: numbers,
    strings, None, lists, tuples, sets and dicts of them, frozen dataclasses of them."""
    if value is None or isinstance(value, bool | int | float | str):
        return
    if isinstance(value, list | tuple | set | frozenset):
        for item in value:
            plain(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            plain(key)
            plain(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type) and (
            value.__dataclass_params__.frozen):  # type: ignore[attr-defined]
        for field in dataclasses.fields(value):
            plain(getattr(value, field.name))
    else:
        raise AssertionError(f"not plain data: {type(value).__name__}")


class PlainDataDirectory:
    """The room as a feature sees it across a wire (belote/server/directory.py): every
    question is awaited, and its arguments and answer are plain data; ``asked`` counts them."""

    def __init__(self, room: Any) -> None:
        self._room = room
        self.asked: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._room, name)

        async def ask(*args: Any, **kwargs: Any) -> Any:
            plain(args)
            plain(kwargs)
            answer = await method(*args, **kwargs)
            plain(answer)
            self.asked[name] += 1
            return answer
        return ask
