"""The room: its tables and sockets, the creation and restart of tables, and what they tell.

The room knows no feature.  Each table's events (:mod:`belote.server.events`) come here
first, for the room's own bookkeeping (a broken table, a finished one to let go), then go
on the bus, where the lobby, ratings and tournaments hear of them
(:mod:`belote.server.composition` builds and wires them).  What a feature asks of the room
it asks through a narrow interface of its own (e.g. :class:`belote.server.lobby.LobbyTables`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from belote.rules import PRESETS, find_preset
from belote.rules.flags import rules_with_flags
from belote.server.bots import BotPool
from belote.server.config import Settings
from belote.server.connection import Connection
from belote.server.events import TableBroken, TableClosed, TableEvent, TableOpened
from belote.server.limits import KeyedLimiter
from belote.server.persistence import Store
from belote.server.table import Table, TableError, TableLimits
from belote.server.view import error_frame

log = logging.getLogger(__name__)
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed
CODE_LENGTH = 6


def invitation_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


class Room:
    def __init__(self, settings: Settings, store: Store,
                 publish: Callable[[TableEvent], None]) -> None:
        """``store`` is opened and closed by its owner (the composition); ``publish`` puts
        the tables' events on the bus."""
        self.settings = settings
        self.store = store
        self._publish = publish
        self.bots: BotPool | None = None
        self.tables: dict[int, Table] = {}
        self.lobby: set[Connection] = set()  # the sockets in the lobby
        self.secret = ""
        self._stopping: set[asyncio.Task[None]] = set()
        self.broken: dict[int, str] = {}  # tables that could not be restored, and why
        self.table_limits = TableLimits(
            chat_burst=settings.chat_burst, chat_per_minute=settings.chat_per_minute,
            chat_lines=settings.chat_lines_per_table)
        self._creations = KeyedLimiter(settings.tables_per_address_burst,
                                       settings.tables_per_address_per_hour)
        self.sockets: dict[str, int] = {}  # open WebSockets per client address
        self.frames_dropped = 0  # frames a connection could not send (logged each time)
        # Sockets let go after their heartbeats stopped (a stalled path), and sockets closed
        # abnormally (no close frame: the network dropped them); each logged.
        self.sockets_stalled = 0
        self.sockets_dropped = 0

    async def open(self) -> None:
        """Resume the stored open tables (the store is open).  Nothing is published: a
        subscriber reads the tables there are when it starts."""
        self.secret = await self.store.secret()
        self.bots = BotPool(self.settings.bot_workers, self.settings.bot_timeout)
        # Every open table comes back, however many there are: oldest first.
        rows = list(reversed(await self.store.list_tables("open", limit=None)))
        logs = await self.store.logs([row.id for row in rows])
        for row in rows:
            try:
                table = self._table(row.id, row.preset, row.flags)
                await table.restore(logs[row.id])
            except Exception as error:
                # One table that cannot be replayed must not keep the room down.
                self.tables.pop(row.id, None)
                self.broken[row.id] = repr(error)
                log.error("table %s cannot be restored and is marked broken: %r", row.id,
                          error)
                await self.store.set_status(row.id, "broken")
                continue
            table.start()
        log.info("room open: %d tables resumed, %d broken", len(self.tables), len(self.broken))

    async def close(self) -> None:
        """Stop every table (none publishes any more) and the bots; the store stays open
        for the subscribers' last writes."""
        log.info("connections: %d sockets let go as stalled, %d dropped, %d frames dropped",
                 self.sockets_stalled, self.sockets_dropped, self.frames_dropped)
        await asyncio.gather(*(t.stop() for t in self.tables.values()),
                             *list(self._stopping))
        if self.bots is not None:
            self.bots.close()

    def _table(self, table_id: int, preset: str, flags: dict[str, Any],
               creator: str | None = None) -> Table:
        assert self.bots is not None
        table = Table(table_id, preset, flags, self.store, self.bots,
                      takeover_seconds=self.settings.takeover_seconds,
                      bot_delay=self.settings.bot_delay, publish=self._on_event,
                      limits=self.table_limits, creator=creator)
        self.tables[table_id] = table
        return table

    def check_creation(self, creator: str, address: str) -> None:
        """Refuse a new table (``TableError``) beyond the limits per person and per address."""
        waiting = sum(1 for t in self.tables.values()
                      if t.creator == creator and t.game is None and not t.finished)
        if waiting >= self.settings.waiting_tables_per_user:
            raise TableError("too_many_tables")
        if not self._creations.take(address):
            log.warning("table creation refused for %s: too many from this address", address)
            raise TableError("tables_too_fast")

    async def create_table(self, preset: str, flag_texts: list[str],
                           creator: str | None = None, *, name: str = "",
                           private: bool = False, pause: bool = False) -> Table:
        """A new table; raises ``ValueError`` (with a readable reason) for bad rules.

        A name, privacy (an invitation code) and a pause between hands go in the table's
        log ("setup"), not in the rules' flags: no column of the database changes."""
        rules = rules_with_flags(find_preset(preset), [t for t in flag_texts if t.strip()])
        flags = rules.flags_changed_from(PRESETS[preset])
        return await self._new_table(preset, flags, rules.target_score, creator, name,
                                     private, pause)

    async def _new_table(self, preset: str, flags: dict[str, Any], target: int,
                         creator: str | None, name: str, private: bool, pause: bool) -> Table:
        table_id = await self.store.new_table(preset, flags, target)
        table = self._table(table_id, preset, flags, creator)
        table.start()
        if name or private or pause:
            code = invitation_code() if private else ""
            await table.call(lambda: table.configure(name, private, code, pause))
        self._on_event(TableOpened(table.id, table.version, preset, name, private))
        return table

    def table_by_code(self, code: str) -> Table:
        wanted = code.strip().upper()
        for table in self.tables.values():
            if table.private and table.code and table.code == wanted and not table.finished:
                return table
        raise TableError("bad_code")

    async def rematch(self, old: Table, uid: str, address: str) -> Table:
        """A new match for the same players, in the same seats, with the same rules.  A new
        table like any other: it counts against the creation limits (check_creation) of the
        person asking and of their address; the rematch already made is no new table."""
        if not old.finished:
            raise TableError("not_finished")
        if not any(s.kind == "human" and s.owner == uid for s in old.seats):
            raise TableError("not_seated")
        if old.rematch is not None and old.rematch in self.tables:
            return self.tables[old.rematch]
        self.check_creation(uid, address)
        table = await self._new_table(old.preset, old.flags, old.rules.target_score, uid,
                                      old.name, old.private, old.pause)
        await table.call(lambda: table.seat_as(old.seats))
        await old.call(lambda: old.note_rematch(table.id))
        return table

    # ------------------------------------------------------------------ sockets
    def connected(self, uid: str) -> bool:
        """Whether this person has a socket open (in the lobby or at a table)."""
        tables = [t.connections for t in self.tables.values()]
        return any(conn.uid == uid and not conn.closed
                   for connections in [self.lobby, *tables] for conn in connections)

    def disconnect(self, uids: set[str]) -> int:
        """Close every open socket of these people (their session ended): they are told why,
        and their seats are handled as any dropped connection's.  Returns how many closed."""
        closed = 0
        tables = [t.connections for t in self.tables.values()]
        for connections in [self.lobby, *tables]:
            for conn in list(connections):
                if conn.uid in uids and not conn.closed:
                    conn.send(error_frame("signed_out", conn.lang, 0))
                    conn.close()
                    closed += 1
        if closed:
            log.info("%d sockets closed: their session ended", closed)
        return closed

    def open_socket(self, address: str) -> bool:
        """Count a new WebSocket from ``address``; ``False``: over the limit, refuse it."""
        count = self.sockets.get(address, 0)
        if count >= self.settings.sockets_per_address:
            log.warning("WebSocket refused for %s: %d already open", address, count)
            return False
        self.sockets[address] = count + 1
        return True

    def close_socket(self, address: str) -> None:
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)

    def table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_table")
        return table

    # ------------------------------------------------------------------ what tables tell
    def _on_event(self, event: TableEvent) -> None:
        """A table's event: the room's own bookkeeping, then the bus."""
        table = self.tables.get(event.table_id)
        if isinstance(event, TableBroken) and table is not None:
            self.broken[event.table_id] = event.reason  # its page says so; the room goes on
        self._publish(event)
        if table is not None and table.finished and not table.connections:
            self._let_go(table)

    def _let_go(self, table: Table) -> None:
        """A finished match lives on as its stored replay; its actor can go."""
        del self.tables[table.id]
        task = asyncio.create_task(table.stop())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)
        self._publish(TableClosed(table.id, table.version, "finished"))

    async def expire(self, table: Table, idle: Callable[[], bool]) -> bool:
        """Close a table waiting for players that ``idle()`` says nobody attends: stored as
        ``expired`` and out of the room, no request finds it any more; ``False``: it is
        not (it started, or somebody came), and nothing changed.  The look and the close
        run in the table's own task: no sit or start can slip in between.  The caller tells
        its watchers and stops it."""
        tid = table.id

        async def check() -> bool:
            if (table.game is not None or table.finished
                    or self.tables.get(tid) is not table or not idle()):
                return False
            del self.tables[tid]  # from now on no request finds it
            try:
                await self.store.expire_table(tid)
            except Exception:
                self.tables[tid] = table
                raise
            return True

        expired = bool(await table.call(check))
        if expired:
            self._publish(TableClosed(tid, table.version, "expired"))
        return expired
