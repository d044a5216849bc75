"""The room: its tables and sockets, the creation and restart of tables, and what they tell.

The room knows no feature.  Each table's events (:mod:`belote.server.events`) come here
first, for the room's own bookkeeping (a broken table, a finished one to let go), then go
on the bus, where the lobby, ratings and tournaments hear of them
(:mod:`belote.server.composition` builds and wires them).  What a feature asks of the room
it asks by table id, through the narrow interfaces of :mod:`belote.server.directory`, which
the room implements (plain data in and out: never a table object).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

from belote.i18n import translate
from belote.rules import PRESETS, find_preset
from belote.rules.flags import rules_with_flags
from belote.server import protocol as P
from belote.server.bots import BotPool
from belote.server.config import Settings
from belote.server.connection import sign_out
from belote.server.directory import Attendance, HeldSeat, SeatHeld
from belote.server.events import TableBroken, TableClosed, TableEvent, TableOpened, seating
from belote.server.persistence import Store
from belote.server.persistence.rate_limits import FAILURES
from belote.server.seats import Seat
from belote.server.table import Table, TableError, TableLimits

log = logging.getLogger(__name__)
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed
CODE_LENGTH = 6
# Seconds an expired table waits for its last connections to leave before it stops.
DRAIN_SECONDS = 5.0


def invitation_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def status(table: Table) -> str:
    return "finished" if table.finished else ("playing" if table.game is not None
                                              else "waiting")


def opened(table: Table) -> TableOpened:
    """The table as it stands, for the subscribers that list tables."""
    return TableOpened(table.id, table.version, table.preset, table.name, table.private,
                       json.dumps(table.flags), seating(table.seats), status(table))


def attended(table: Table, uids: set[str]) -> bool:
    """Whether a human seated here is connected: at the table, or among ``uids``."""
    owners = {s.owner for s in table.seats if s.kind == "human" and s.owner is not None}
    return bool(owners & uids) or any(c.uid in owners for c in table.connections)


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
        self.secret = ""
        self._stopping: set[asyncio.Task[None]] = set()
        self._draining: set[asyncio.Task[None]] = set()  # expired tables' last watchers
        self.broken: dict[int, str] = {}  # tables that could not be restored, and why
        self.table_limits = TableLimits(
            chat_burst=settings.chat_burst, chat_per_minute=settings.chat_per_minute,
            chat_lines=settings.chat_lines_per_table)
        self.sockets: dict[str, int] = {}  # open WebSockets per client address
        self.frames_dropped = 0  # frames a connection could not send (logged each time)
        # Sockets let go after their heartbeats stopped (a stalled path), and sockets closed
        # abnormally (no close frame: the network dropped them); each logged.
        self.sockets_stalled = 0
        self.sockets_dropped = 0

    async def open(self) -> None:
        """Resume the stored open tables (the store is open); each is published as it stands
        (``TableOpened``), so that subscribers know the tables there are."""
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
            self._publish(opened(table))
            table.start()
        log.info("room open: %d tables resumed, %d broken", len(self.tables), len(self.broken))

    async def close(self) -> None:
        """Stop every table (none publishes any more) and the bots; the store stays open
        for the subscribers' last writes."""
        log.info("connections: %d sockets let go as stalled, %d dropped, %d frames dropped",
                 self.sockets_stalled, self.sockets_dropped, self.frames_dropped)
        for task in self._draining:
            task.cancel()  # the table stops all the same (see _drain)
        await asyncio.gather(*(t.stop() for t in self.tables.values()),
                             *list(self._stopping))
        await asyncio.gather(*list(self._draining), return_exceptions=True)
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

    async def check_creation(self, creator: str, address: str) -> None:
        """Refuse a new table (``TableError``) beyond the limits per person and per address.

        Both are counted in the database, the same whichever process of the room is asked:
        the person's waiting tables in ``tables`` (:meth:`Store.waiting_tables`), the
        address's creations in ``rate_limits``.  While the database fails (logged and
        counted), this process's own tables are counted instead."""
        limits = self.store.rate_limits
        try:
            waiting = await self.store.waiting_tables(creator)
        except FAILURES as error:
            limits.failed("waiting_tables", error)
            waiting = sum(1 for t in self.tables.values()
                          if t.creator == creator and t.game is None and not t.finished)
        if waiting >= self.settings.waiting_tables_per_user:
            raise TableError("too_many_tables")
        creations = limits.bucket("tables_by_address", self.settings.tables_per_address_burst,
                                  self.settings.tables_per_address_per_hour)
        if not await creations.take(address):
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
        table_id = await self.store.new_table(preset, flags, target, creator)
        table = self._table(table_id, preset, flags, creator)
        table.start()
        if name or private or pause:
            code = invitation_code() if private else ""
            await table.call(lambda: table.configure(name, private, code, pause))
        self._on_event(opened(table))
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
        await self.check_creation(uid, address)
        table = await self._new_table(old.preset, old.flags, old.rules.target_score, uid,
                                      old.name, old.private, old.pause)
        await table.call(lambda: table.seat_as(old.seats))
        await old.call(lambda: old.note_rematch(table.id))
        return table

    # ------------------------------------------------------------------ sockets
    def connected(self, uid: str) -> bool:
        """Whether this person has a socket open at a table (the lobby's sockets are the
        lobby's: :meth:`belote.server.composition.Services.connected` asks both)."""
        return any(conn.uid == uid and not conn.closed
                   for table in self.tables.values() for conn in table.connections)

    def disconnect(self, uids: set[str]) -> int:
        """Close every open socket of these people at a table (their session ended): they are
        told why, and their seats are handled as any dropped connection's.  Returns how many
        closed."""
        closed = sum(sign_out(table.connections, uids) for table in self.tables.values())
        if closed:
            log.info("%d sockets closed at tables: their session ended", closed)
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

    # ------------------------------------------------------------------ by id (directory.py)
    async def seats_held(self, table_ids: Collection[int],
                         uids: Collection[str]) -> list[SeatHeld]:
        """:meth:`belote.server.directory.LobbyTables.seats_held`."""
        wanted = set(uids)
        found = []
        for tid in table_ids:
            table = self.tables.get(tid)
            for n, seat in enumerate(table.seats if table is not None else ()):
                if seat.kind == "human" and seat.owner is not None and seat.owner in wanted:
                    found.append(SeatHeld(seat.owner, tid, n))
        return found

    async def attendance(self, table_ids: Collection[int],
                         uids: Collection[str]) -> dict[int, Attendance]:
        """:meth:`belote.server.directory.LobbyTables.attendance`."""
        here = set(uids)
        return {tid: Attendance(len(table.connections), attended(table, here))
                for tid in table_ids if (table := self.tables.get(tid)) is not None}

    async def expire(self, table_id: int, uids: Collection[str]) -> bool:
        """Close a table waiting for players that nobody seated attends (at the table, or
        among ``uids``): stored as ``expired`` and out of the room, no request finds it any
        more, its watchers told why and let go; ``False``: it is not (it started, or
        somebody came), and nothing changed.  The look and the close run in the table's own
        task: no sit or start can slip in between."""
        table = self.tables.get(table_id)
        if table is None:
            return False
        here = set(uids)

        async def check() -> bool:
            if (table.game is not None or table.finished
                    or self.tables.get(table_id) is not table or attended(table, here)):
                return False
            del self.tables[table_id]  # from now on no request finds it
            try:
                await self.store.expire_table(table_id)
            except Exception:
                self.tables[table_id] = table
                raise
            return True

        if not await table.call(check):
            return False
        self._publish(TableClosed(table_id, table.version, "expired"))
        task = asyncio.create_task(self._drain(table))
        self._draining.add(task)
        task.add_done_callback(self._draining.discard)
        return True

    async def _drain(self, table: Table) -> None:
        """An expired table's watchers are told why it went and their sockets close; it stops
        once they have left (their leave runs in its task), or after ``DRAIN_SECONDS``."""
        try:
            for conn in list(table.connections):
                conn.send(P.encode_message(P.Error("expired", translate(
                    conn.lang, "lobby.table_expired", number=table.id)), table.version))
                conn.close()
            deadline = time.monotonic() + DRAIN_SECONDS
            while table.connections and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        finally:
            await table.stop()

    async def open_table(self, preset: str, flag_texts: Sequence[str], *,
                         name: str = "") -> int:
        """:meth:`belote.server.directory.TournamentTables.open_table`."""
        return (await self.create_table(preset, list(flag_texts), name=name)).id

    async def hold_seats(self, table_id: int, seats: Sequence[HeldSeat], *,
                         start: int | None = None) -> None:
        """:meth:`belote.server.directory.TournamentTables.hold_seats`."""
        table = self.table(table_id)
        held = [Seat("human", s.name, s.label, standin=s.standin) for s in seats]

        async def hold() -> None:
            # The table's own seat change, stored in its log like any other (table.py).
            await table.seat_everyone(held)
            if start is not None:
                await table.start_match(start)
        await table.call(hold)

    async def claim_seat(self, table_id: int, seat: int, labels: Collection[str], uid: str,
                         account: int | None = None, *, held: Collection[str] = (),
                         start: int | None = None) -> bool:
        """:meth:`belote.server.directory.TournamentTables.claim_seat`."""
        table = self.table(table_id)
        holds, owners = set(held), tuple(labels)

        async def take() -> bool:
            if not await table.take_reserved(seat, owners, uid, account):
                return False
            if start is not None and table.game is None and not any(
                    s.owner in holds and not s.standin for s in table.seats):
                await table.start_match(start)
            return True
        return bool(await table.call(take))

    async def table_status(self, table_id: int) -> str | None:
        """:meth:`belote.server.directory.TournamentTables.table_status`."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        return "broken" if table.broken is not None else status(table)
