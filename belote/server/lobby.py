"""The lobby: its live list of tables (summaries, pages, diffs), its listeners and chat, and
the expiry of empty tables.

The lobby knows the tables from the table-event bus alone (:meth:`LobbyFeed.on_event`): each
table's :class:`Listing` is built from its events (opened, seats changed, started, finished,
broken, closed), never read from a table object, so that the lobby works the same when the
events come from another process.  What no event says it asks the room by table id, through
:class:`belote.server.directory.LobbyTables`: the seats the viewers hold (``mine``,
``seated``: a seat's session id never leaves the room), how many watch a table and whether a
seated player is connected, and the expiry of a table nobody attends.

Listeners are told what changed, never sent the whole list again: a table's change marks it
pending, and after ``lobby_coalesce`` seconds one ``tables`` frame per listener carries every
pending table as ``add``, ``change`` or ``remove`` with its summary in the listener's language.
A summary is built once per table and language, and rebuilt only after the table changed;
what depends on the viewer (``mine``, ``seated``) is added per connection.

The list is ordered with the tables that have a free seat (and wait for players) first, so
newcomers find a seat at once; pages of ``lobby_page_size`` tables keep pages and the
resync of a (re)connecting listener small.

A table that has not started and has had none of its seated humans connected (at the table
or in the lobby) for ``waiting_table_expiry`` seconds is closed: stored as ``expired``, taken
out of the room and the lobby, logged and counted.

The lobby owns its listeners (the lobby's sockets), its version (the chat's lines and the
list's diffs share it) and its chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Collection, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from belote.i18n import preset_name, translate
from belote.i18n.sheet import flag_sentence
from belote.rules import Rules, find_preset
from belote.server import protocol as P
from belote.server.config import Settings
from belote.server.connection import Connection, sign_out
from belote.server.directory import Attendance, LobbyTables
from belote.server.events import (
    HandScored,
    MatchStarted,
    SeatsChanged,
    SeatState,
    TableBroken,
    TableClosed,
    TableEvent,
    TableFinished,
    TableOpened,
)
from belote.server.seats import seat_names

log = logging.getLogger(__name__)

ADD, CHANGE, REMOVE = "add", "change", "remove"
# More new tables than this in one frame are announced as a count, not one by one.
ANNOUNCE_EACH = 3
Seats = dict[int, list[int]]  # a viewer's seats: table id -> the seats they hold there


def check_settings(settings: Settings) -> None:
    """Raise ``ValueError`` naming the first lobby setting out of range."""
    if not settings.waiting_table_expiry > 0:
        raise ValueError("waiting_table_expiry must be a positive number of seconds")
    if not settings.lobby_coalesce > 0:
        raise ValueError("lobby_coalesce must be a positive number of seconds")
    if not settings.lobby_sweep > 0:
        raise ValueError("lobby_sweep must be a positive number of seconds")
    if settings.lobby_page_size < 1:
        raise ValueError("lobby_page_size must be at least 1")


@dataclass(slots=True)
class Listing:
    """A table as the lobby knows it, from its events alone: no session id, no table."""

    id: int
    version: int
    preset: str
    flags: dict[str, Any]
    seats: tuple[SeatState, ...]
    status: str  # waiting | playing | finished
    name: str = ""
    private: bool = False
    broken: bool = False
    watchers: int = 0  # as the room last said (directory.Attendance)
    _rules: Rules | None = field(default=None, repr=False)

    @classmethod
    def opened(cls, event: TableOpened) -> Listing:
        return cls(event.table_id, event.version, event.preset, event.flag_values(),
                   event.seats, event.status, event.name, event.private)

    def apply(self, event: TableEvent) -> None:
        """What an event of this table changes in its listing."""
        self.version = event.version
        match event:
            case SeatsChanged(seats=seats):
                self.seats = seats
            case MatchStarted():
                self.status = "playing"
            case TableFinished(seats=seats):
                self.status, self.seats = "finished", seats
            case TableBroken():
                self.broken = True

    @property
    def listed(self) -> bool:
        """Whether the lobby lists the table (a finished match is listed as its replay; a
        broken or private table is not listed: a private one is reached by its invitation)."""
        return self.status != "finished" and not self.broken and not self.private

    @property
    def free(self) -> int:
        return sum(1 for seat in self.seats if seat.kind == "empty")

    @property
    def rules(self) -> Rules:
        if self._rules is None:  # built when a summary first needs it
            self._rules = find_preset(self.preset).with_flags(**self.flags)
        return self._rules

    def order_key(self) -> tuple[int, int]:
        """Tables waiting with a free seat first, then the others; oldest first in each
        group.  ``static/lobby.js`` sorts with the same key (the summary's ``status`` and
        ``free``)."""
        return (0 if self.status == "waiting" and self.free else 1, self.id)


def summary(row: Listing, lang: str) -> dict[str, Any]:
    """What any viewer sees of a table, in ``lang``: no session id, nothing per viewer."""
    names = seat_names([s.seat() for s in row.seats], lang)
    rules = [flag_sentence(row.rules, "target_score", row.rules.target_score, lang)[1]]
    rules += [flag_sentence(row.rules, flag, value, lang)[1]
              for flag, value in row.flags.items() if flag != "target_score"]
    return {
        "id": row.id,
        "preset": (translate(lang, "sala.table.named", name=row.name,
                             preset=preset_name(row.preset, lang)) if row.name
                   else preset_name(row.preset, lang)),
        "rules": rules,
        "seats": [{"name": names[n], "kind": s.kind, "level": s.level}
                  for n, s in enumerate(row.seats)],
        "status": row.status,
        "free": row.free,
        "watchers": row.watchers,
    }


def personal(base: dict[str, Any], mine: Collection[int] = ()) -> dict[str, Any]:
    """``base`` with the viewer's own fields: which seats are theirs (``mine``), whether
    they sit here."""
    return {**base, "seats": [{**seat, "mine": n in mine} for n, seat in enumerate(base["seats"])],
            "seated": bool(mine)}


class LobbyFeed:
    """The lobby: listings and their cached summaries, pending changes, the listeners and
    the chat, the sweep for expiry."""

    def __init__(self, directory: LobbyTables, settings: Settings) -> None:
        check_settings(settings)
        self.directory = directory
        self.settings = settings
        self.version = 0  # grows with every change listeners are told of (list or chat)
        # (name, text, the sender's account or None): a listener never hears the lines of
        # an account it blocks (``chat_filter``, set by the composition; None: all heard).
        self.chat: deque[tuple[str, str, int | None]] = deque(
            maxlen=settings.lobby_chat_history)
        self.chat_filter: Callable[[int, int], bool] | None = None
        self.counts: Counter[str] = Counter()  # tables_expired, frames, ...
        self.listeners: set[Connection] = set()  # the sockets in the lobby
        self._rows: dict[int, Listing] = {}  # every table the events told of, by id
        self._cache: dict[int, dict[str, dict[str, Any]]] = {}  # table -> lang -> summary
        self._known: set[int] = set()  # tables the listeners were told of
        self._pending: dict[int, str] = {}  # table -> add | change | remove
        self._timer: asyncio.TimerHandle | None = None
        self._flushing = asyncio.Lock()  # one diff at a time, in order
        self._seen: dict[int, float] = {}  # waiting table -> when a seated human was last seen
        self._expiring: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        # With several processes: a chat line goes to every process's lobby (the
        # composition sets it); each process's ``hear`` tells its own listeners.
        self.relay: Callable[[str, str, int | None], None] | None = None

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Begin the sweep (the tables come as events: the room's resumed ones too)."""
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="lobby-sweep")

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in [self._sweeper, *self._tasks]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ the list
    def rows(self) -> list[Listing]:
        return sorted((r for r in self._rows.values() if r.listed), key=Listing.order_key)

    def summary(self, row: Listing, lang: str) -> dict[str, Any]:
        per_lang = self._cache.setdefault(row.id, {})
        found = per_lang.get(lang)
        if found is None:
            found = per_lang[lang] = summary(row, lang)
        return found

    async def page(self, lang: str, uid: str | None, number: int) -> dict[str, Any]:
        """One page of the list for one viewer; ``number`` is clamped to the pages there are."""
        rows = self.rows()
        size = self.settings.lobby_page_size
        pages = max(1, math.ceil(len(rows) / size))
        number = min(max(1, number), pages)
        shown = rows[(number - 1) * size:number * size]
        ids = [r.id for r in shown]
        self._watched(await self.directory.attendance(ids, ()), tell=True)
        mine = (await self._seats(ids, [uid])).get(uid, {}) if uid is not None else {}
        return {"tables": [personal(self.summary(r, lang), mine.get(r.id, ())) for r in shown],
                "page": number, "pages": pages, "total": len(rows), "size": size}

    def summaries(self, lang: str) -> list[dict[str, Any]]:
        """Every listed table as anybody sees it, waiting tables with a free seat first (see
        :meth:`page` for one page with the viewer's own seats)."""
        return [personal(self.summary(r, lang)) for r in self.rows()]

    async def _seats(self, table_ids: Collection[int],
                     uids: Iterable[str]) -> dict[str, Seats]:
        """The seats these people hold at these tables, by person."""
        found: dict[str, Seats] = defaultdict(lambda: defaultdict(list))
        for held in await self.directory.seats_held(table_ids, sorted(set(uids))):
            found[held.uid][held.table_id].append(held.seat)
        return found

    def _watched(self, found: dict[int, Attendance], tell: bool) -> None:
        """Watcher counts from the room: a summary that shows another is rebuilt (and, with
        ``tell``, the listeners hear of it)."""
        for tid, attendance in found.items():
            row = self._rows.get(tid)
            if row is not None and row.watchers != attendance.watchers:
                row.watchers = attendance.watchers
                if tell:
                    self.changed(tid)
                else:
                    self._cache.pop(tid, None)

    # ------------------------------------------------------------------ listeners
    async def join(self, conn: Connection, page: int = 1) -> None:
        """A listener comes: it is told of every change from now on, and synced."""
        self.listeners.add(conn)
        await self.sync(conn, page)

    def leave(self, conn: Connection) -> None:
        self.listeners.discard(conn)

    def listener_uids(self) -> set[str]:
        return {conn.uid for conn in self.listeners if not conn.closed}

    def connected(self, uid: str) -> bool:
        """Whether this person has a lobby socket open."""
        return uid in self.listener_uids()

    def disconnect(self, uids: set[str]) -> int:
        """Close the lobby sockets of these people (their session ended), telling them why;
        returns how many closed."""
        closed = sign_out(self.listeners, uids)
        if closed:
            log.info("%d lobby sockets closed: their session ended", closed)
        return closed

    async def sync(self, conn: Connection, page: int = 1) -> None:
        """The chat and one page of the list, for a listener that (re)connects."""
        listing = await self.page(conn.lang, conn.uid, page)
        chat = [translate(conn.lang, "web.chat.line", name=n, text=t)
                for n, t, sender in self.chat if self._hears(conn, sender)]
        conn.send(P.encode_message(P.LobbySync(chat, **listing), self.version))

    def say(self, name: str, text: str, sender: int | None = None) -> None:
        """A chat line said in the lobby (``sender``: the account saying it, if any): heard
        in every process's lobby."""
        if self.relay is not None:
            self.relay(name, text, sender)
        else:
            self.hear(name, text, sender)

    def hear(self, name: str, text: str, sender: int | None = None) -> None:
        """A chat line for this process's listeners (and the history new ones get), but
        those who block its sender."""
        self.chat.append((name, text, sender))
        self.version += 1
        for conn in list(self.listeners):
            if not self._hears(conn, sender):
                continue
            line = translate(conn.lang, "web.chat.line", name=name, text=text)
            conn.send(P.encode_message(P.ChatLine(line), self.version))

    def _hears(self, conn: Connection, sender: int | None) -> bool:
        hears = self.chat_filter
        return (hears is None or sender is None or conn.account is None
                or hears(conn.account, sender))

    # ------------------------------------------------------------------ changes
    def on_event(self, event: TableEvent) -> None:
        """The bus's delivery: the table's listing follows; any change but a scored hand
        shows in the list.  Events of a table the lobby never heard opened are not its
        business (a table from before it started is told as opened when the room resumes)."""
        tid = event.table_id
        if isinstance(event, TableOpened):
            self._rows[tid] = Listing.opened(event)
        elif tid not in self._rows or isinstance(event, HandScored):
            return
        elif isinstance(event, TableClosed):
            del self._rows[tid]
        else:
            self._rows[tid].apply(event)
        self.changed(tid)

    def changed(self, tid: int) -> None:
        """A table changed (or appeared, or left): its listeners hear of it shortly."""
        self._cache.pop(tid, None)
        row = self._rows.get(tid)
        if row is not None and row.listed:
            op = CHANGE if tid in self._known else ADD
            self._known.add(tid)
            if self._pending.get(tid) != ADD:
                self._pending[tid] = op
        else:
            self._seen.pop(tid, None)
            if tid not in self._known:
                return
            self._known.discard(tid)
            if self._pending.pop(tid, None) != ADD:  # an add nobody heard of yet: silence
                self._pending[tid] = REMOVE
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                self.settings.lobby_coalesce, self._due)

    def _due(self) -> None:
        self._timer = None
        self._spawn(self.flush())

    async def flush(self) -> None:
        """Send every pending change: one frame per listener.  What the room is asked (the
        seats the listeners hold, the watchers) is asked first; the version moves and the
        frames go out in one step, so that a chat line never overtakes them."""
        async with self._flushing:
            pending, self._pending = self._pending, {}
            if not pending:
                return
            if not self.listeners:
                self.version += 1
                return
            shown = [tid for tid, op in pending.items() if op != REMOVE and tid in self._rows]
            watched = await self.directory.attendance(shown, ())
            seats = await self._seats(shown, self.listener_uids())
            self._watched(watched, tell=False)
            self._send(pending, seats)

    def _send(self, pending: dict[int, str], seats: dict[str, Seats]) -> None:
        self.version += 1
        rows: dict[int, Listing] = {}
        for tid, op in list(pending.items()):
            row = self._rows.get(tid)
            if op == REMOVE:
                continue
            if row is None:  # gone since (expired): the listeners had heard of it
                pending[tid] = REMOVE
            else:
                rows[tid] = row
        total = sum(1 for r in self._rows.values() if r.listed)
        shared: dict[str, tuple[list[dict[str, Any]], str]] = {}  # lang -> (changes, frame)
        for conn in list(self.listeners):
            lang = conn.lang
            if lang not in shared:
                changes: list[dict[str, Any]] = [
                    {"op": op, "id": tid} if op == REMOVE else
                    {"op": op, "id": tid, "table": personal(self.summary(rows[tid], lang))}
                    for tid, op in pending.items()]
                diff = P.TablesDiff(changes, total, self._announcements(pending, rows, lang))
                shared[lang] = (changes, P.encode_message(diff, self.version))
            changes, frame = shared[lang]
            mine = seats.get(conn.uid)
            if mine:
                # This listener sits at a changed table: its own fields, its own frame.
                own = [{**c, "table": personal(self.summary(rows[int(c["id"])], lang),
                                               mine.get(int(c["id"]), ()))}
                       if "table" in c else c for c in changes]
                diff = P.TablesDiff(own, total, self._announcements(pending, rows, lang))
                frame = P.encode_message(diff, self.version)
            self.counts["frames"] += 1
            conn.send(frame)

    def _announcements(self, pending: dict[int, str], rows: dict[int, Listing],
                       lang: str) -> list[str]:
        added = [rows[tid] for tid, op in pending.items() if op == ADD]
        if len(added) > ANNOUNCE_EACH:
            return [translate(lang, "lobby.new_tables", count=len(added))]
        return [translate(lang, "lobby.new_table", number=r.id,
                          preset=preset_name(r.preset, lang), free=r.free)
                for r in added]

    # ------------------------------------------------------------------ the sweep
    async def _sweep_loop(self) -> None:
        interval = min(self.settings.lobby_sweep, self.settings.waiting_table_expiry / 4)
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep(time.monotonic())
            except Exception:  # the next sweep tries again; a failure is never silent
                self.counts["sweep_failed"] += 1
                log.exception("lobby sweep failed")

    async def sweep(self, now: float) -> None:
        """Tell listeners of changed watcher counts; close tables left waiting too long."""
        rows = [r for r in self._rows.values() if r.listed]
        found = await self.directory.attendance([r.id for r in rows], self.listener_uids())
        self._watched(found, tell=True)
        for row in rows:
            tid, attendance = row.id, found.get(row.id)
            if attendance is None or not row.listed:
                continue  # gone or changed meanwhile: its events tell the list
            if row.status != "waiting":
                self._seen.pop(tid, None)  # a match in progress never expires
            elif attendance.present:
                self._seen[tid] = now
            else:
                since = self._seen.setdefault(tid, now)
                if now - since >= self.settings.waiting_table_expiry and (
                        tid not in self._expiring):
                    self._expiring.add(tid)
                    self._spawn(self._expire(tid, now - since))

    async def _expire(self, tid: int, idle: float) -> None:
        try:
            # The room looks and closes in the table's own task, tells the table's watchers
            # why it went and lets them go; the bus tells the list.
            expired = await self.directory.expire(tid, self.listener_uids())
        except Exception:
            self.counts["expiry_failed"] += 1
            log.exception("table %d: could not expire it", tid)
            return
        finally:
            self._expiring.discard(tid)
        if not expired:
            self._seen.pop(tid, None)
            return
        self.counts["tables_expired"] += 1
        log.info("table %d expired: not started, no seated player connected for %.0f s",
                 tid, idle)


def page_number(text: str | None) -> int:
    """The ``page`` query parameter; raises ``ValueError`` unless it is a whole number >= 1."""
    if text is None or text == "":
        return 1
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise ValueError(f"bad page number {text[:20]!r}")
    return int(text)

