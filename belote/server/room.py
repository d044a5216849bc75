"""The room: its tables, the lobby's listeners and chat, and the restart of stored tables."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from belote.i18n import translate
from belote.rules import PRESETS, find_preset
from belote.rules.flags import rules_with_flags
from belote.server import protocol as P
from belote.server.bots import BotPool
from belote.server.config import Settings
from belote.server.connection import Connection
from belote.server.limits import KeyedLimiter
from belote.server.lobby import LobbyFeed, personal
from belote.server.persistence import Store
from belote.server.table import Table, TableError, TableLimits
from belote.server.view import error_frame

log = logging.getLogger(__name__)
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed
CODE_LENGTH = 6


def invitation_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


class Room:
    def __init__(self, settings: Settings,
                 offload: Callable[..., Awaitable[Any]] | None = None) -> None:
        """``offload`` runs heavy work elsewhere (the app's ``HeavyWork.run``): a
        tournament's draw; None: a worker thread."""
        self.settings = settings
        self.store = Store(settings.db_url)
        self.bots: BotPool | None = None
        self.tables: dict[int, Table] = {}
        self.lobby: set[Connection] = set()
        self.lobby_chat: deque[tuple[str, str]] = deque(maxlen=settings.lobby_chat_history)
        self.secret = ""
        self.version = 0  # lobby version: grows with every change listeners are told of
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
        self.feed = LobbyFeed(self, settings)  # the lobby's live list (belote/server/lobby.py)
        # --- tournaments (belote/server/tournament/room.py): tables of tournament games ---
        from belote.server.tournament.room import TournamentRoom
        self.tournaments = TournamentRoom(self, offload)
        # --- ratings (belote/server/ratings/room.py): a finished match records itself ---
        from belote.server.ratings.room import RatingsRoom
        self.ratings = RatingsRoom(self)

    async def open(self) -> None:
        await self.store.open()
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
        self.feed.start()
        await self.tournaments.open()  # --- tournaments: results of tables finished meanwhile
        await self.ratings.open()  # --- ratings: matches finished meanwhile

    async def close(self) -> None:
        log.info("connections: %d sockets let go as stalled, %d dropped, %d frames dropped",
                 self.sockets_stalled, self.sockets_dropped, self.frames_dropped)
        await self.feed.close()
        await self.tournaments.close()  # --- tournaments: results being reported
        await self.ratings.close()  # --- ratings: matches being recorded
        await asyncio.gather(*(t.stop() for t in self.tables.values()))
        if self.bots is not None:
            self.bots.close()
        await self.store.close()

    def _table(self, table_id: int, preset: str, flags: dict[str, Any],
               creator: str | None = None) -> Table:
        assert self.bots is not None
        table = Table(table_id, preset, flags, self.store, self.bots,
                      takeover_seconds=self.settings.takeover_seconds,
                      bot_delay=self.settings.bot_delay, on_change=self._table_changed,
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
        self._table_changed(table)
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

    # ------------------------------------------------------------------ the lobby
    def summaries(self, lang: str, uid: str | None = None) -> list[dict[str, Any]]:
        """Every listed table for the lobby, waiting tables with a free seat first; ``uid``
        marks the viewer's own seat (see ``lobby.LobbyFeed.page`` for one page)."""
        return [personal(t, self.feed.summary(t, lang), uid) for t in self.feed.rows()]

    def _table_changed(self, table: Table) -> None:
        if table.broken is not None and table.id in self.tables:
            self.broken[table.id] = table.broken  # its page says so; the room goes on
        if table.finished and not table.connections and table.id in self.tables:
            # A finished match lives on as its stored replay; its actor can go.
            del self.tables[table.id]
            task = asyncio.create_task(table.stop())
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)
        self.feed.changed(table)  # listeners hear of it with the next coalesced frame
        self.tournaments.table_changed(table)  # --- tournaments: a finished game reports
        self.ratings.table_changed(table)  # --- ratings: a finished match is recorded

    def lobby_sync(self, conn: Connection, page: int = 1) -> None:
        """The chat and one page of the list, for a listener that (re)connects."""
        chat = [translate(conn.lang, "web.chat.line", name=n, text=t) for n, t in self.lobby_chat]
        conn.send(P.encode_message(P.LobbySync(chat, **self.feed.page(conn.lang, conn.uid,
                                                                       page)), self.version))

    def lobby_say(self, name: str, text: str) -> None:
        self.lobby_chat.append((name, text))
        self.version += 1
        for conn in list(self.lobby):
            line = translate(conn.lang, "web.chat.line", name=name, text=text)
            conn.send(P.encode_message(P.ChatLine(line), self.version))
