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
import contextlib
import dataclasses
import functools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from belote.i18n import translate
from belote.rules import PRESETS, find_preset
from belote.rules.flags import rules_with_flags
from belote.server import protocol as P
from belote.server.bots import BotPool
from belote.server.cluster.leases import Leases, SoloLeases
from belote.server.cluster.node import Node, NodeUnavailable, RemoteError
from belote.server.config import Settings
from belote.server.connection import sign_out
from belote.server.directory import Attendance, HeldSeat, SeatHeld
from belote.server.events import TableBroken, TableClosed, TableEvent, TableOpened, seating
from belote.server.persistence import Store
from belote.server.persistence.rate_limits import FAILURES
from belote.server.save_vote import KeptSeat, SavedTable
from belote.server.seats import Seat
from belote.server.table import ChatFilter, SeatGate, Table, TableError, TableLimits

log = logging.getLogger(__name__)
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed
CODE_LENGTH = 6
# Seconds an expired table waits for its last connections to leave before it stops.
DRAIN_SECONDS = 5.0
# Seconds between two looks for open tables no process runs (their owner died).
ORPHAN_SWEEP = 1.0
_HERE = object()  # a question about a table that turned out to run here (taken over)


def invitation_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def status(table: Table) -> str:
    return "finished" if table.finished else ("playing" if table.game is not None
                                              else "waiting")


def opened(table: Table) -> TableOpened:
    """The table as it stands, for the subscribers that list tables."""
    return TableOpened(table.id, table.version, table.preset, table.name, table.private,
                       json.dumps(table.flags), seating(table.seats), status(table))


def saved_of(table: Table) -> SavedTable:
    """The table as it is saved: its people's seats (by account), its score so far."""
    seats = tuple(KeptSeat(n, s.account, s.name) for n, s in enumerate(table.seats)
                  if s.kind == "human" and s.account is not None)
    totals = tuple(table.game.totals) if table.game is not None else ()
    return SavedTable(table.id, table.preset, seats, len(table.score_history), totals)


def attended(table: Table, uids: set[str]) -> bool:
    """Whether a human seated here is connected: at the table, or among ``uids``."""
    owners = {s.owner for s in table.seats if s.kind == "human" and s.owner is not None}
    return bool(owners & uids) or any(c.uid in owners for c in table.connections)


class Room:
    def __init__(self, settings: Settings, store: Store,
                 publish: Callable[[TableEvent], None], leases: Leases | None = None,
                 node: Node | None = None) -> None:
        """``store`` is opened and closed by its owner (the composition); ``publish`` puts
        the tables' events on the bus.  With several processes, ``leases`` say which tables
        this one runs (:mod:`belote.server.cluster.leases`) and ``node`` reaches the others
        (the owners of the rest); alone, it runs every table."""
        self.settings = settings
        self.store = store
        self._publish = publish
        self.leases: Leases = leases or SoloLeases(f"{settings.host}:{settings.port}")
        self.node = node
        self._sweeper: asyncio.Task[None] | None = None
        self._taking: dict[int, asyncio.Future[bool]] = {}  # take-overs under way
        self._resuming: set[int] = set()  # of which saved tables reopened by their people
        # Told after tables of a dead process were taken over (the features catch up).
        self.after_take_over: list[Callable[[], Awaitable[Any]]] = []
        # Stores a table its people save, to resume later (set by the composition: the
        # saved games, belote/server/saved); raises ``TableError`` when it cannot.
        self.keep_saved: Callable[[SavedTable], Awaitable[None]] | None = None
        self.taken_over = 0  # tables resumed here after their process died (each logged)
        self.moved_away = 0  # tables stopped here because this process lost its leases
        self.bots: BotPool | None = None
        self.tables: dict[int, Table] = {}
        # Set by the composition (the room knows no feature): whether an account may sit
        # at a table (who sits there, who made it), and whether a listener's account hears
        # a sender's chat line; None: everyone may, everyone does.
        self.seat_gate: SeatGate | None = None
        self.chat_filter: ChatFilter | None = None
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
        """Resume the stored open tables this process takes (all of them, alone); each is
        published as it stands (``TableOpened``), so that subscribers know the tables there
        are.  With other processes, look for tables nobody runs from then on."""
        self.secret = await self.store.secret()
        self.bots = BotPool(self.settings.bot_workers, self.settings.bot_timeout)
        # Every open table comes back, however many there are: oldest first.
        rows = list(reversed(await self.store.list_tables("open", limit=None)))
        mine = set(await self.leases.take([row.id for row in rows]))
        rows = [row for row in rows if row.id in mine]
        logs = await self.store.logs([row.id for row in rows])
        for row in rows:
            await self._resume(row.id, row.preset, row.flags, logs[row.id], row.creator)
        log.info("room open: %d tables resumed, %d broken", len(self.tables), len(self.broken))
        if self.node is not None:
            self.leases.on_lost.append(self._leases_lost)
            self._serve_directory(self.node)
            self._sweeper = asyncio.create_task(self._sweep_orphans(), name="orphan-sweep")

    async def _resume(self, table_id: int, preset: str, flags: dict[str, Any],
                      entries: list[Any], creator: str | None) -> Table | None:
        """A stored table replayed from its log and started; None: it is broken.  Its
        creator comes back too (who may enter it while it is private and waiting)."""
        try:
            # Shown to nobody (not in ``tables``) until replayed whole: the replay yields to
            # the loop, and a socket or a page must not meet the table half rebuilt.
            table = self._table(table_id, preset, flags, creator, shown=False)
            await table.restore(entries)
            self.tables[table_id] = table
        except Exception as error:
            # One table that cannot be replayed must not keep the room down.
            self.tables.pop(table_id, None)
            self.broken[table_id] = repr(error)
            log.error("table %s cannot be restored and is marked broken: %r", table_id,
                      error)
            await self.store.set_status(table_id, "broken")
            await self.leases.release(table_id)
            return None
        self._publish(opened(table))
        table.start()
        return table

    async def resume_saved(self, table_id: int) -> bool:
        """Run here a saved table just reopened (its status ``open`` again): as a take-over,
        its log replayed after its lease is taken; whether it runs here now."""
        self._resuming.add(table_id)
        try:
            return await self.take_over(table_id)
        finally:
            self._resuming.discard(table_id)

    async def take_over(self, table_id: int) -> bool:
        """Run this open table here if no process does (its owner died); whether it runs
        here now.  Its log is read after the lease is taken: every change its last owner
        acknowledged is in it.  One take-over of a table at a time (the players of a table
        whose process died come back together): the others wait for it."""
        if table_id in self.tables:
            return True
        running = self._taking.get(table_id)
        if running is not None:
            return await asyncio.shield(running)
        task = asyncio.ensure_future(self._take_over(table_id))
        self._taking[table_id] = task
        try:
            return await asyncio.shield(task)
        finally:
            if task.done():
                self._taking.pop(table_id, None)
            else:
                task.add_done_callback(lambda _t: self._taking.pop(table_id, None))

    async def _take_over(self, table_id: int) -> bool:
        # The row first, through the pool: a page asked for a table that is not open (or
        # does not exist) costs the lease connection nothing.
        row = await self.store.table(table_id)
        if row is None or row.status != "open" or table_id in self.broken:
            return False
        generation = self.leases.generation
        if not await self.leases.take([table_id]):
            return False
        entries = (await self.store.logs([row.id]))[row.id]
        if generation != self.leases.generation or table_id in self.tables:
            return table_id in self.tables  # the leases were lost meanwhile: not ours
        table = await self._resume(row.id, row.preset, row.flags, entries, row.creator)
        if table is None:
            return False
        if table_id in self._resuming:
            log.info("saved table %s resumed by this process (%s) at version %d", table_id,
                     self.leases.address, table.version)
            return True
        self.taken_over += 1
        log.warning("table %s taken over by this process (%s) at version %d: its "
                    "process stopped", table_id, self.leases.address, table.version)
        return True

    async def _sweep_orphans(self) -> None:
        """Tables whose process died are taken over within a few seconds, players or not
        (a table of bots, a player whose page has not come back yet).  A table is taken
        only once it was seen without an owner twice, a sweep apart: a table just made has
        its row a moment before its maker holds its lease."""
        free_before: set[int] = set()
        while True:
            await asyncio.sleep(ORPHAN_SWEEP)
            try:
                far = [t for t in await self.store.open_table_ids() if t not in self.tables]
                owned = await self.leases.owners(far)
                free = {t for t in far if t not in owned}
                taken = [t for t in sorted(free & free_before) if await self.take_over(t)]
                free_before = free
                if taken:
                    # Its process died: what it had not written of the tables it finished
                    # (ratings, results) is written now, as a restart would.
                    for hook in self.after_take_over:
                        await hook()
            except Exception:
                log.exception("room: the look for orphan tables failed")

    def _displaced(self, table: Table) -> None:
        """Another process stored a change of this table first: it runs it.  This copy
        goes (its sockets closed as "moved": the pages find the table where it runs)."""
        if self.tables.get(table.id) is table:
            self._move_away(table)

    def _leases_lost(self) -> None:
        """The lease connection failed: another process may run these tables now.  Each
        stops here at once (the leases are gone already: nothing to release)."""
        for table in list(self.tables.values()):
            self._move_away(table)

    def _move_away(self, table: Table) -> None:
        """This process stops running ``table``: its sockets close as "moved" (the pages
        connect again and find the table wherever it runs), then it stops."""
        self.moved_away += 1
        for conn in list(table.connections):
            conn.moved()
        del self.tables[table.id]
        self._stop_later(table)

    def _stop_later(self, table: Table) -> None:
        """Stop ``table`` and free its lease in a task of its own (awaited by close)."""
        task = asyncio.create_task(self._stop_and_release(table))
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    async def close(self) -> None:
        """Stop every table (none publishes any more) and the bots; the store stays open
        for the subscribers' last writes."""
        log.info("connections: %d sockets let go as stalled, %d dropped, %d frames dropped",
                 self.sockets_stalled, self.sockets_dropped, self.frames_dropped)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for task in self._draining:
            task.cancel()  # the table stops all the same (see _drain)
        # A process stopping (a rolling restart): its tables' sockets are told the table
        # moves, and another process takes each over as soon as its lease is free.
        for table in self.tables.values():
            for conn in list(table.connections):
                conn.moved()
        await asyncio.gather(*(t.stop() for t in self.tables.values()),
                             *list(self._stopping))
        await asyncio.gather(*list(self._draining), return_exceptions=True)
        if self.bots is not None:
            self.bots.close()

    def _table(self, table_id: int, preset: str, flags: dict[str, Any],
               creator: str | None = None, shown: bool = True) -> Table:
        assert self.bots is not None
        table = Table(table_id, preset, flags, self.store, self.bots,
                      takeover_seconds=self.settings.takeover_seconds,
                      bot_delay=self.settings.bot_delay, publish=self._on_event,
                      limits=self.table_limits, creator=creator,
                      displaced=None if self.node is None else self._displaced)
        table.seat_gate, table.chat_filter = self.seat_gate, self.chat_filter
        table.saving.keep = functools.partial(self._keep, table)
        if shown:
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
        # With other processes, the row is "opening" until this one holds its lease: no
        # other process takes a table over before its maker has it.
        several = self.node is not None
        table_id = await self.store.new_table(preset, flags, target, creator,
                                              status="opening" if several else "open")
        if not await self.leases.take([table_id]):
            raise RuntimeError(f"table {table_id}: its lease could not be taken")
        if several:
            await self.store.set_status(table_id, "open")
        table = self._table(table_id, preset, flags, creator)
        table.start()
        if name or private or pause:
            code = invitation_code() if private else ""
            await table.call(lambda: table.configure(name, private, code, pause))
        self._on_event(opened(table))
        return table

    async def table_by_code(self, code: str) -> int:
        """The open private table this invitation code opens (whichever process runs it);
        ``TableError("bad_code")``: none."""
        wanted = code.strip().upper()
        if not wanted or any(c not in CODE_LETTERS for c in wanted):
            raise TableError("bad_code")
        for table in self.tables.values():
            if table.private and table.code and table.code == wanted and not table.finished:
                return table.id
        if self.node is not None:  # run by another process: its setup says the code
            found = await self.store.table_with_code(wanted)
            if found is not None:
                return found
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

    def open_socket(self, address: str, limit: int | None = None) -> bool:
        """Count a new WebSocket from ``address`` (a key: the personal sockets count under
        a key of their own, with their own ``limit``); ``False``: over the limit, refuse
        it."""
        count = self.sockets.get(address, 0)
        if count >= (self.settings.sockets_per_address if limit is None else limit):
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
        self._stop_later(table)
        self._publish(TableClosed(table.id, table.version, "finished"))

    async def _stop_and_release(self, table: Table) -> None:
        await table.stop()
        await self.leases.release(table.id)

    # ------------------------------------------------------------------ by id (directory.py)
    # Each question about a table is answered by the process that runs it: here, or its
    # owner through the node (plain data both ways: directory.py's contract).
    async def _elsewhere(self, table_ids: Collection[int], method: str,
                         args: dict[str, Any]) -> list[Any]:
        """Ask the owners of those of ``table_ids`` run elsewhere; their answers."""
        far = [t for t in table_ids if t not in self.tables]
        if self.node is None or not far:
            return []
        by_owner: dict[str, list[int]] = {}
        for tid, owner in (await self.leases.owners(far)).items():
            if owner != self.leases.address:
                by_owner.setdefault(owner, []).append(tid)
        node = self.node
        answers = await asyncio.gather(
            *(node.call(owner, method, {**args, "table_ids": ids})
              for owner, ids in by_owner.items()), return_exceptions=True)
        for answer in answers:
            if isinstance(answer, BaseException):
                log.warning("room: a process did not answer %s: %r", method, answer)
        return [a for a in answers if not isinstance(a, BaseException)]

    async def _ask_owner(self, table_id: int, method: str, args: dict[str, Any]) -> Any:
        """Ask the process running ``table_id`` (not this one); ``TableError("no_table")``:
        none does, even after trying to take it over."""
        if await self.take_over(table_id):
            return _HERE
        owner = await self.leases.owner(table_id)
        if self.node is None or owner is None or owner == self.leases.address:
            raise TableError("no_table")
        try:
            return await self.node.call(owner, method, {**args, "table_id": table_id})
        except RemoteError as error:
            raise TableError(error.code) from None
        except NodeUnavailable:
            raise TableError("no_table") from None

    def _seats_held_here(self, table_ids: Collection[int],
                         wanted: set[str]) -> list[SeatHeld]:
        found = []
        for tid in table_ids:
            table = self.tables.get(tid)
            for n, seat in enumerate(table.seats if table is not None else ()):
                if seat.kind == "human" and seat.owner is not None and seat.owner in wanted:
                    found.append(SeatHeld(seat.owner, tid, n))
        return found

    async def seats_held(self, table_ids: Collection[int],
                         uids: Collection[str]) -> list[SeatHeld]:
        """:meth:`belote.server.directory.LobbyTables.seats_held`."""
        wanted = set(uids)
        found = self._seats_held_here(table_ids, wanted)
        for answer in await self._elsewhere(table_ids, "seats_held", {"uids": sorted(wanted)}):
            found.extend(SeatHeld(str(u), int(t), int(n)) for u, t, n in answer)
        return found

    def _attendance_here(self, table_ids: Collection[int],
                         here: set[str]) -> dict[int, Attendance]:
        return {tid: Attendance(len(table.connections), attended(table, here))
                for tid in table_ids if (table := self.tables.get(tid)) is not None}

    async def attendance(self, table_ids: Collection[int],
                         uids: Collection[str]) -> dict[int, Attendance]:
        """:meth:`belote.server.directory.LobbyTables.attendance`."""
        here = set(uids)
        found = self._attendance_here(table_ids, here)
        for answer in await self._elsewhere(table_ids, "attendance", {"uids": sorted(here)}):
            found.update({int(t): Attendance(int(w), bool(p)) for t, w, p in answer})
        return found

    def _watched_here(self, table_ids: Collection[int], account: int) -> list[int]:
        return [tid for tid in table_ids if (table := self.tables.get(tid)) is not None
                and any(c.account == account for c in table.connections)]

    async def watching(self, table_id: int, account: int) -> bool:
        """Whether this account has a socket open at this table now (a player's or a
        spectator's), in whichever process runs it (help and report asks it)."""
        if self._watched_here([table_id], account):
            return True
        answers = await self._elsewhere([table_id], "watching", {"account": account})
        return any(table_id in answer for answer in answers)

    async def present(self, uids: Collection[str]) -> set[str]:
        """Which of these people have a socket open at a table of any process (the lobby's
        listeners of this process are the lobby's to add)."""
        wanted = set(uids)
        found = {uid for uid in wanted if self.connected(uid)}
        if self.node is None or found == wanted:
            return found
        others = [p for p in await self.leases.processes() if p != self.leases.address]
        answers = await asyncio.gather(
            *(self.node.call(p, "present", {"uids": sorted(wanted - found)}) for p in others),
            return_exceptions=True)
        for answer in answers:
            if not isinstance(answer, BaseException):
                found.update(str(u) for u in answer)
        return found

    def _serve_directory(self, node: Node) -> None:
        """Answer the other processes' questions about the tables run here."""
        async def seats_held(args: dict[str, Any]) -> list[list[Any]]:
            return [[s.uid, s.table_id, s.seat] for s in self._seats_held_here(
                args["table_ids"], set(args["uids"]))]

        async def attendance(args: dict[str, Any]) -> list[list[Any]]:
            return [[t, a.watchers, a.present] for t, a in self._attendance_here(
                args["table_ids"], set(args["uids"])).items()]

        async def present(args: dict[str, Any]) -> list[str]:
            return [uid for uid in args["uids"] if self.present_here(uid)]

        async def watching(args: dict[str, Any]) -> list[int]:
            return self._watched_here(args["table_ids"], int(args["account"]))

        async def hold_seats(args: dict[str, Any]) -> None:
            await self.hold_seats(args["table_id"], [HeldSeat(**s) for s in args["seats"]],
                                  start=args["start"])

        async def claim_seat(args: dict[str, Any]) -> bool:
            return await self.claim_seat(
                args["table_id"], args["seat"], args["labels"], args["uid"],
                args["account"], held=args["held"], start=args["start"])

        async def table_status(args: dict[str, Any]) -> str | None:
            return await self.table_status(args["table_id"])

        async def hand_to_bots(args: dict[str, Any]) -> None:
            await self.hand_to_bots(args["table_id"])

        async def remove_account(args: dict[str, Any]) -> bool:
            return await self.remove_account(args["table_id"], int(args["account"]))

        for name, handler in (("seats_held", seats_held), ("attendance", attendance),
                              ("present", present), ("watching", watching),
                              ("hold_seats", hold_seats),
                              ("claim_seat", claim_seat), ("table_status", table_status),
                              ("hand_to_bots", hand_to_bots),
                              ("remove_account", remove_account)):
            node.handle(name, handler)
        node.on_news("hello", lambda _data: self.republish())

    def republish(self) -> None:
        """Every table run here, as it stands, on the bus (a process started, or came back
        to the wire, and builds its lobby)."""
        for table in self.tables.values():
            self._publish(opened(table))

    def present_here(self, uid: str) -> bool:
        """Set by the composition: whether the person has a socket open in this process (a
        table's or the lobby's)."""
        return self.connected(uid)

    async def expire(self, table_id: int, uids: Collection[str]) -> bool:
        """Close a table waiting for players that nobody seated attends (at the table, or
        among ``uids``): stored as ``expired`` and out of the room, no request finds it any
        more, its watchers told why and let go; ``False``: it is not (it started, or
        somebody came), and nothing changed.  The look and the close run in the table's own
        task: no sit or start can slip in between."""
        table = self.tables.get(table_id)
        if table is None:
            return False  # run elsewhere: its own process's lobby looks after it
        here = set(uids)
        seated = {s.owner for s in table.seats if s.kind == "human" and s.owner is not None}
        if self.node is not None and seated - here:
            # A seated person in another process's lobby, or at this table from another
            # process's socket, is here all the same.
            here |= await self.present(seated - here)

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

    async def _keep(self, table: Table) -> None:
        """Store ``table`` as saved (run in its task, its people's seats kept for them) and
        let it go: out of the room, its watchers told why, then it stops and its lease is
        freed (any process may resume it: :meth:`take_over`)."""
        if self.keep_saved is None:
            raise TableError("saved_failed")
        await self.keep_saved(saved_of(table))
        table.saving.done = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        log.info("table %s saved at version %d", table.id, table.version)
        self._publish(TableClosed(table.id, table.version, "saved"))
        task = asyncio.create_task(self._drain(table, "saved", "web.saved.gone"))
        self._draining.add(task)
        task.add_done_callback(self._draining.discard)

    async def _drain(self, table: Table, code: str = "expired",
                     key: str = "lobby.table_expired") -> None:
        """An expired (or saved) table's watchers are told why it went (``code``, the
        sentence ``key``) and their sockets close; it stops once they have left (their
        leave runs in its task), or after ``DRAIN_SECONDS``."""
        try:
            for conn in list(table.connections):
                conn.send(P.encode_message(P.Error(code, translate(
                    conn.lang, key, number=table.id)), table.version))
                conn.close()
            deadline = time.monotonic() + DRAIN_SECONDS
            while table.connections and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        finally:
            await self._stop_and_release(table)

    async def open_table(self, preset: str, flag_texts: Sequence[str], *,
                         name: str = "") -> int:
        """:meth:`belote.server.directory.TournamentTables.open_table`."""
        return (await self.create_table(preset, list(flag_texts), name=name)).id

    async def open_fixed_deal(self, preset: str, deck: Sequence[int], first_dealer: int,
                              seats: Sequence[HeldSeat], bots: dict[int, str], *,
                              name: str = "") -> int:
        """:meth:`belote.server.directory.FixedDealTables.open_fixed_deal`."""
        several = self.node is not None
        table_id = await self.store.new_table(preset, {}, PRESETS[preset].target_score, None,
                                              status="opening" if several else "open")
        if not await self.leases.take([table_id]):
            raise RuntimeError(f"table {table_id}: its lease could not be taken")
        if several:
            await self.store.set_status(table_id, "open")
        table = self._table(table_id, preset, {})
        table.start()
        held = [Seat("bot", "", None, bots[n]) if n in bots
                else Seat("human", seats[n].name, seats[n].label) for n in range(len(seats))]

        async def prepare() -> None:
            # One step of the table, before anybody hears of it: private without an
            # invitation code (only the seated person enters), the deal fixed, the seats
            # taken, the match started.
            await table.configure(name, True, "", False)
            await table.fix_deal(list(deck))
            await table.seat_everyone(held)
            await table.start_match(first_dealer)
        await table.call(prepare)
        self._on_event(opened(table))
        return table.id

    async def hand_to_bots(self, table_id: int) -> None:
        """:meth:`belote.server.directory.FixedDealTables.hand_to_bots`."""
        if table_id not in self.tables and await self._ask_owner(
                table_id, "hand_to_bots", {}) is not _HERE:
            return  # its owner did it
        table = self.table(table_id)
        await table.call(table.hand_to_bots)

    async def hold_seats(self, table_id: int, seats: Sequence[HeldSeat], *,
                         start: int | None = None) -> None:
        """:meth:`belote.server.directory.TournamentTables.hold_seats`."""
        if table_id not in self.tables:
            answer = await self._ask_owner(table_id, "hold_seats", {
                "seats": [dataclasses.asdict(s) for s in seats], "start": start})
            if answer is not _HERE:
                return
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
        if table_id not in self.tables:
            answer = await self._ask_owner(table_id, "claim_seat", {
                "seat": seat, "labels": list(labels), "uid": uid, "account": account,
                "held": list(held), "start": start})
            if answer is not _HERE:
                return bool(answer)
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

    async def remove_account(self, table_id: int, account: int) -> bool:
        """A moderator removes this account's player from the table, in the process that
        runs it (:meth:`Table.remove_account`); ``False``: they hold no seat there.
        ``TableError("no_table")``: no such table in the room."""
        if table_id not in self.tables:
            answer = await self._ask_owner(table_id, "remove_account", {"account": account})
            if answer is not _HERE:
                return bool(answer)
        table = self.table(table_id)
        return bool(await table.call(lambda: table.remove_account(account)))

    async def table_status(self, table_id: int) -> str | None:
        """:meth:`belote.server.directory.TournamentTables.table_status`."""
        if table_id not in self.tables and self.node is not None:
            try:
                answer = await self._ask_owner(table_id, "table_status", {})
            except TableError:
                return None
            if answer is not _HERE:
                return None if answer is None else str(answer)
        table = self.tables.get(table_id)
        if table is None:
            return None
        return "broken" if table.broken is not None else status(table)
