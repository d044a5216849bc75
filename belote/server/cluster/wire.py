"""Messages between the room's processes over PostgreSQL's LISTEN/NOTIFY.

One listening connection and one sending connection per process (asyncpg, outside
SQLAlchemy's pool: a listener must stay on one session).  A message is a JSON object; one
over NOTIFY's payload limit (8000 bytes) goes as numbered parts, sent in one transaction, so
that they arrive together and in order (PostgreSQL delivers one session's notifications in
commit order).  Every message carries its sender, so a process can tell its own.

Why PostgreSQL and not Redis: the room already needs PostgreSQL to run several processes
(tables, their logs and their leases live there); the messages are few and small (table
events, a lobby chat line, the directory's questions: never the frames of a socket, which
go to the owner over a relayed socket, see :mod:`belote.server.cluster.relay`), well within
what NOTIFY carries (docs/room.md, "Several processes").
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

log = logging.getLogger(__name__)

LIMIT = 7900  # bytes of one notification's payload at most (PostgreSQL's limit: 8000)
PART = 3500  # characters of a long message per part: escaped again in its part, at most 2x
RECONNECT = 0.5  # seconds before the listener connects again after losing its connection
HEARTBEAT = 2.0  # seconds between two checks of the listening connection
KEEPALIVE = {"tcp_keepalives_idle": "2", "tcp_keepalives_interval": "1",
             "tcp_keepalives_count": "2"}

Receiver = Callable[[dict[str, Any]], None]


def pg_dsn(url: str) -> str:
    """``postgresql+asyncpg://...`` or ``postgresql://...`` as a DSN asyncpg takes."""
    scheme, _, rest = url.partition("://")
    if scheme.split("+", 1)[0] not in ("postgresql", "postgres"):
        raise ValueError(f"several processes need PostgreSQL, not {scheme!r}")
    return f"postgresql://{rest}"


def split(message: dict[str, Any], mid: str) -> list[str]:
    """A message as the payloads of its notifications (one, or numbered parts), each under
    :data:`LIMIT` bytes (ASCII JSON: characters are bytes; a part's text is escaped again,
    which at most doubles it)."""
    text = json.dumps(message, separators=(",", ":"))
    if len(text) <= LIMIT:
        return [text]
    parts = [text[i:i + PART] for i in range(0, len(text), PART)]
    return [json.dumps({"part": [mid, n, len(parts)], "text": p}, separators=(",", ":"))
            for n, p in enumerate(parts)]


class Reassembly:
    """Parts of long messages until each is whole (parts of one message arrive in a row)."""

    def __init__(self) -> None:
        self._parts: dict[str, list[str]] = {}

    def take(self, payload: str) -> dict[str, Any] | None:
        data: dict[str, Any] = json.loads(payload)
        if "part" not in data:
            return data
        mid, n, count = data["part"]
        got = self._parts.setdefault(str(mid), [])
        if n != len(got):  # a part lost (a listener reconnected mid-message): drop it all
            self._parts.pop(str(mid), None)
            log.error("cluster: message %s lost part %d", mid, len(got))
            return None
        got.append(str(data["text"]))
        if len(got) < count:
            return None
        whole: dict[str, Any] = json.loads("".join(self._parts.pop(str(mid))))
        return whole


class PgWire:
    """This process's two connections: it listens on its channels and sends on any."""

    def __init__(self, url: str, name: str) -> None:
        self.dsn = pg_dsn(url)
        self.name = name
        self._receivers: dict[str, Receiver] = {}
        self._listener: asyncpg.Connection | None = None
        self._sender: asyncpg.Connection | None = None
        self._outbox: asyncio.Queue[tuple[str, list[str]]] = asyncio.Queue()
        self._sending: asyncio.Task[None] | None = None
        self._relisten: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._ids = itertools.count(1)
        self._parts = Reassembly()
        self._closed = False
        self.sent = 0
        self.received = 0
        self.failed = 0  # messages that could not be sent (each logged)
        self.reconnects = 0  # listener connections lost and made again (each logged)
        self.on_reconnect: list[Callable[[], None]] = []  # told after a listener came back

    async def open(self) -> None:
        self._sender = await self._connect()
        await self._listen()
        self._sending = asyncio.create_task(self._send_loop(), name="cluster-send")
        self._watch = asyncio.create_task(self._watch_listener(), name="cluster-listen")

    async def _connect(self) -> asyncpg.Connection:
        # Keepalives: a connection whose path vanished (no FIN) is found within seconds.
        return await asyncpg.connect(self.dsn, timeout=HEARTBEAT * 2,
                                     server_settings=dict(KEEPALIVE))

    async def _watch_listener(self) -> None:
        """A listening connection that stops answering is let go and made again (a deaf
        process would hear nothing of the others, and not know it)."""
        while not self._closed:
            await asyncio.sleep(HEARTBEAT)
            conn = self._listener
            if conn is None or conn.is_closed():
                continue
            try:
                await conn.fetchval("SELECT 1", timeout=HEARTBEAT * 2)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                conn.terminate()  # its termination listener connects again

    def listen(self, channel: str, receiver: Receiver) -> None:
        """Deliver this channel's messages to ``receiver`` (before ``open``)."""
        self._receivers[channel] = receiver

    async def _listen(self) -> None:
        conn = await self._connect()
        for channel in self._receivers:
            await conn.add_listener(channel, self._on_notify)
        conn.add_termination_listener(self._lost)
        self._listener = conn

    def _on_notify(self, _conn: object, _pid: int, channel: str, payload: str) -> None:
        try:
            message = self._parts.take(payload)
        except (ValueError, TypeError, KeyError):
            self.failed += 1
            log.exception("cluster: unreadable message on %s", channel)
            return
        if message is None:
            return
        self.received += 1
        receiver = self._receivers.get(channel)
        if receiver is None:
            return
        try:
            receiver(message)
        except Exception:
            self.failed += 1
            log.exception("cluster: the receiver of %s failed", channel)

    def _lost(self, _conn: object) -> None:
        if self._closed:
            return
        self.reconnects += 1
        log.error("cluster: the listening connection was lost; connecting again "
                  "(messages sent meanwhile are missed: the processes are asked again)")
        if self._relisten is None or self._relisten.done():
            self._relisten = asyncio.create_task(self._listen_again())

    async def _listen_again(self) -> None:
        while not self._closed:
            await asyncio.sleep(RECONNECT)
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError) as error:
                log.warning("cluster: listening again failed: %r", error)
                continue
            for hook in self.on_reconnect:
                hook()
            return

    def send(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a message for ``channel``; it goes in order, never blocking the caller."""
        if self._closed:
            self.failed += 1
            log.error("cluster: message to %s after close: dropped", channel)
            return
        message = {**message, "from": self.name}
        self._outbox.put_nowait((channel, split(message, f"{self.name}-{next(self._ids)}")))

    async def _send_loop(self) -> None:
        while True:
            channel, payloads = await self._outbox.get()
            try:
                await self._send_message(channel, payloads)
            finally:
                self._outbox.task_done()

    async def _send_message(self, channel: str, payloads: list[str]) -> None:
        """One message, in one transaction (its parts arrive together and in order); a
        lost connection is made again and the message tried again, a refused message is
        dropped (logged and counted): it would be refused again."""
        for attempt in range(5):
            try:
                if self._sender is None or self._sender.is_closed():
                    self._sender = await self._connect()
                async with asyncio.timeout(HEARTBEAT * 2):
                    async with self._sender.transaction():
                        for payload in payloads:
                            await self._sender.execute("SELECT pg_notify($1, $2)", channel,
                                                       payload)
                self.sent += 1
                return
            except asyncpg.PostgresError as error:
                self.failed += 1
                log.error("cluster: a message to %s was refused (%r): dropped", channel, error)
                return
            except (OSError, asyncpg.InterfaceError, TimeoutError) as error:
                log.warning("cluster: sending failed (%r), attempt %d", error, attempt + 1)
                if self._sender is not None:
                    with contextlib.suppress(Exception):
                        self._sender.terminate()
                self._sender = None
                await asyncio.sleep(0.2 * (attempt + 1))
        self.failed += 1
        log.error("cluster: a message to %s could not be sent: dropped", channel)

    async def flush(self) -> None:
        """Return once every message queued before is sent."""
        await self._outbox.join()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 5)
        self._closed = True
        for task in (self._sending, self._relisten, self._watch):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for conn in (self._listener, self._sender):
            if conn is not None and not conn.is_closed():
                with contextlib.suppress(Exception):
                    await conn.close(timeout=2)
