"""The lobby: its live list of tables (summaries, pages, diffs), its chat, and the expiry
of empty tables.

Listeners are told what changed, never sent the whole list again: a table's change marks it
pending, and after ``lobby_coalesce`` seconds one ``tables`` frame per listener carries every
pending table as ``add``, ``change`` or ``remove`` with its summary in the listener's language.
A summary is built once per table and language, and rebuilt only after the table changed;
what depends on the viewer (``mine``, ``seated``) is added per connection, from the seats'
owners, which never leave the server.

The list is ordered with the tables that have a free seat (and wait for players) first, so
newcomers find a seat at once; pages of ``lobby_page_size`` tables keep pages and the
resync of a (re)connecting listener small.

A table that has not started and has had none of its seated humans connected (at the table
or in the lobby) for ``waiting_table_expiry`` seconds is closed: stored as ``expired``, taken
out of the room and the lobby, logged and counted.

The lobby hears of changes from the table-event bus (:meth:`LobbyFeed.on_event`) and asks
the room only what :class:`LobbyTables` says; it owns its version (the chat's lines and the
list's diffs share it) and its chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from belote.i18n import preset_name, translate
from belote.i18n.sheet import flag_sentence
from belote.server import protocol as P
from belote.server.config import Settings
from belote.server.connection import Connection
from belote.server.events import HandScored, TableEvent
from belote.server.seats import seat_names
from belote.server.table import Table

log = logging.getLogger(__name__)

ADD, CHANGE, REMOVE = "add", "change", "remove"
# More new tables than this in one frame are announced as a count, not one by one.
ANNOUNCE_EACH = 3
# Seconds an expired table waits for its last connections to leave before it stops.
DRAIN_SECONDS = 5.0


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


def listed(table: Table) -> bool:
    """Whether the lobby lists the table (a finished match is listed as its replay; a broken
    or private table is not listed: a private one is reached by its invitation)."""
    return not table.finished and table.broken is None and not table.private


def free_seats(table: Table) -> int:
    return sum(1 for seat in table.seats if seat.kind == "empty")


def status(table: Table) -> str:
    return "finished" if table.finished else ("playing" if table.game is not None
                                              else "waiting")


def order_key(table: Table) -> tuple[int, int]:
    """Tables waiting with a free seat first, then the others; oldest first in each group.

    ``static/lobby.js`` sorts with the same key (from the summary's ``status`` and ``free``).
    """
    return (0 if table.game is None and not table.finished and free_seats(table) else 1,
            table.id)


def summary(table: Table, lang: str) -> dict[str, Any]:
    """What any viewer sees of a table, in ``lang``: no session id, nothing per viewer."""
    names = seat_names(table.seats, lang)
    rules = [flag_sentence(table.rules, "target_score", table.rules.target_score, lang)[1]]
    rules += [flag_sentence(table.rules, flag, value, lang)[1]
              for flag, value in table.flags.items() if flag != "target_score"]
    return {
        "id": table.id,
        "preset": (translate(lang, "sala.table.named", name=table.name,
                             preset=preset_name(table.preset, lang)) if table.name
                   else preset_name(table.preset, lang)),
        "rules": rules,
        "seats": [{"name": names[n], "kind": s.kind, "level": s.level}
                  for n, s in enumerate(table.seats)],
        "status": status(table),
        "free": free_seats(table),
        "watchers": len(table.connections),
    }


def owned_by(table: Table, uid: str | None) -> list[bool]:
    return [s.kind == "human" and uid is not None and s.owner == uid for s in table.seats]


def personal(table: Table, base: dict[str, Any], uid: str | None) -> dict[str, Any]:
    """``base`` with the viewer's own fields: which seat is theirs, whether they sit here."""
    mine = owned_by(table, uid)
    return {**base, "seats": [{**seat, "mine": m} for seat, m in zip(base["seats"], mine,
                                                                      strict=True)],
            "seated": any(mine)}


class LobbyTables(Protocol):
    """What the lobby asks of the room (:class:`belote.server.room.Room` is one)."""

    @property
    def tables(self) -> Mapping[int, Table]:
        """The tables in the room, by id."""
        ...

    @property
    def lobby(self) -> Collection[Connection]:
        """The sockets in the lobby: the listeners."""
        ...

    async def expire(self, table: Table, idle: Callable[[], bool]) -> bool:
        """Close ``table`` if it still waits and ``idle()``; whether it did."""
        ...


class LobbyFeed:
    """The lobby: cached summaries, pending changes, the chat, the sweep for expiry."""

    def __init__(self, directory: LobbyTables, settings: Settings) -> None:
        check_settings(settings)
        self.directory = directory
        self.settings = settings
        self.version = 0  # grows with every change listeners are told of (list or chat)
        self.chat: deque[tuple[str, str]] = deque(maxlen=settings.lobby_chat_history)
        self.counts: Counter[str] = Counter()  # tables_expired, frames, ...
        self._cache: dict[int, dict[str, dict[str, Any]]] = {}  # table -> lang -> summary
        self._known: set[int] = set()  # tables the listeners were told of
        self._pending: dict[int, str] = {}  # table -> add | change | remove
        self._timer: asyncio.TimerHandle | None = None
        self._watchers: dict[int, int] = {}  # connections at the last sweep
        self._seen: dict[int, float] = {}  # waiting table -> when a seated human was last seen
        self._expiring: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Begin with the tables the room has (restored ones included), and the sweep."""
        self._known = {t.id for t in self.directory.tables.values() if listed(t)}
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

    # ------------------------------------------------------------------ the list
    def rows(self) -> list[Table]:
        return sorted((t for t in self.directory.tables.values() if listed(t)), key=order_key)

    def summary(self, table: Table, lang: str) -> dict[str, Any]:
        per_lang = self._cache.setdefault(table.id, {})
        found = per_lang.get(lang)
        if found is None:
            found = per_lang[lang] = summary(table, lang)
        return found

    def page(self, lang: str, uid: str | None, number: int) -> dict[str, Any]:
        """One page of the list for one viewer; ``number`` is clamped to the pages there are."""
        rows = self.rows()
        size = self.settings.lobby_page_size
        pages = max(1, math.ceil(len(rows) / size))
        number = min(max(1, number), pages)
        shown = rows[(number - 1) * size:number * size]
        return {"tables": [personal(t, self.summary(t, lang), uid) for t in shown],
                "page": number, "pages": pages, "total": len(rows), "size": size}

    def summaries(self, lang: str, uid: str | None = None) -> list[dict[str, Any]]:
        """Every listed table, waiting tables with a free seat first; ``uid`` marks the
        viewer's own seat (see :meth:`page` for one page)."""
        return [personal(t, self.summary(t, lang), uid) for t in self.rows()]

    # ------------------------------------------------------------------ listeners
    def sync(self, conn: Connection, page: int = 1) -> None:
        """The chat and one page of the list, for a listener that (re)connects."""
        chat = [translate(conn.lang, "web.chat.line", name=n, text=t) for n, t in self.chat]
        conn.send(P.encode_message(P.LobbySync(chat, **self.page(conn.lang, conn.uid, page)),
                                   self.version))

    def say(self, name: str, text: str) -> None:
        self.chat.append((name, text))
        self.version += 1
        for conn in list(self.directory.lobby):
            line = translate(conn.lang, "web.chat.line", name=name, text=text)
            conn.send(P.encode_message(P.ChatLine(line), self.version))

    # ------------------------------------------------------------------ changes
    def on_event(self, event: TableEvent) -> None:
        """The bus's delivery: any change of a table but a scored hand shows in the list."""
        if not isinstance(event, HandScored):
            self.changed(event.table_id)

    def changed(self, tid: int) -> None:
        """A table changed (or appeared, or left): its listeners hear of it shortly."""
        self._cache.pop(tid, None)
        table = self.directory.tables.get(tid)
        if table is not None and listed(table):
            op = CHANGE if tid in self._known else ADD
            self._known.add(tid)
            if self._pending.get(tid) != ADD:
                self._pending[tid] = op
        else:
            self._seen.pop(tid, None)
            self._watchers.pop(tid, None)
            if tid not in self._known:
                return
            self._known.discard(tid)
            if self._pending.pop(tid, None) != ADD:  # an add nobody heard of yet: silence
                self._pending[tid] = REMOVE
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                self.settings.lobby_coalesce, self.flush)

    def flush(self) -> None:
        """Send every pending change: one frame per listener."""
        self._timer = None
        pending, self._pending = self._pending, {}
        if not pending:
            return
        self.version += 1
        if not self.directory.lobby:
            return
        total = sum(1 for t in self.directory.tables.values() if listed(t))
        tables: dict[int, Table] = {}
        for tid, op in list(pending.items()):
            found = self.directory.tables.get(tid)
            if op == REMOVE:
                continue
            if found is None:  # gone since (expired): the listeners had heard of it
                pending[tid] = REMOVE
            else:
                tables[tid] = found
        shared: dict[str, tuple[list[dict[str, Any]], str]] = {}  # lang -> (changes, frame)
        for conn in list(self.directory.lobby):
            lang = conn.lang
            if lang not in shared:
                changes: list[dict[str, Any]] = [{"op": op, "id": tid} if op == REMOVE else
                           {"op": op, "id": tid, "table": personal(
                               tables[tid], self.summary(tables[tid], lang), None)}
                           for tid, op in pending.items()]
                diff = P.TablesDiff(changes, total, self._announcements(pending, tables, lang))
                shared[lang] = (changes, P.encode_message(diff, self.version))
            changes, frame = shared[lang]
            if any(any(owned_by(t, conn.uid)) for t in tables.values()):
                # This listener sits at a changed table: its own fields, its own frame.
                mine = [{**c, "table": personal(tables[int(c["id"])], self.summary(
                    tables[int(c["id"])], lang), conn.uid)} if "table" in c else c
                        for c in changes]
                diff = P.TablesDiff(mine, total, self._announcements(pending, tables, lang))
                frame = P.encode_message(diff, self.version)
            self.counts["frames"] += 1
            conn.send(frame)

    def _announcements(self, pending: dict[int, str], tables: dict[int, Table],
                       lang: str) -> list[str]:
        added = [tables[tid] for tid, op in pending.items() if op == ADD]
        if len(added) > ANNOUNCE_EACH:
            return [translate(lang, "lobby.new_tables", count=len(added))]
        return [translate(lang, "lobby.new_table", number=t.id,
                          preset=preset_name(t.preset, lang), free=free_seats(t))
                for t in added]

    # ------------------------------------------------------------------ the sweep
    async def _sweep_loop(self) -> None:
        interval = min(self.settings.lobby_sweep, self.settings.waiting_table_expiry / 4)
        while True:
            await asyncio.sleep(interval)
            try:
                self.sweep(time.monotonic())
            except Exception:  # the next sweep tries again; a failure is never silent
                self.counts["sweep_failed"] += 1
                log.exception("lobby sweep failed")

    def _present(self, table: Table, lobby_uids: set[str]) -> bool:
        """Whether a human seated here is connected: at the table, or in the lobby."""
        owners = {s.owner for s in table.seats if s.kind == "human" and s.owner is not None}
        return bool(owners & lobby_uids) or any(c.uid in owners for c in table.connections)

    def lobby_uids(self) -> set[str]:
        return {conn.uid for conn in self.directory.lobby if not conn.closed}

    def sweep(self, now: float) -> None:
        """Tell listeners of changed watcher counts; close tables left waiting too long."""
        lobby_uids = self.lobby_uids()
        for table in list(self.directory.tables.values()):
            tid = table.id
            if not listed(table):
                continue
            watchers = len(table.connections)
            if self._watchers.setdefault(tid, watchers) != watchers:
                self._watchers[tid] = watchers
                self.changed(tid)
            if table.game is not None:
                self._seen.pop(tid, None)  # a match in progress never expires
                continue
            if self._present(table, lobby_uids):
                self._seen[tid] = now
                continue
            since = self._seen.setdefault(tid, now)
            if now - since >= self.settings.waiting_table_expiry and tid not in self._expiring:
                self._expiring.add(tid)
                task = asyncio.create_task(self._expire(table, now - since))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _expire(self, table: Table, idle: float) -> None:
        tid = table.id
        try:
            # The room looks and closes in the table's own task (the bus tells the list).
            expired = await self.directory.expire(
                table, lambda: not self._present(table, self.lobby_uids()))
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
        for conn in list(table.connections):
            # Watchers are told why the table went, then their socket closes.
            conn.send(P.encode_message(P.Error("expired", translate(
                conn.lang, "lobby.table_expired", number=tid)), table.version))
            conn.close()
        deadline = time.monotonic() + DRAIN_SECONDS
        while table.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.05)  # their leave() runs in the table's task: let it
        await table.stop()


def page_number(text: str | None) -> int:
    """The ``page`` query parameter; raises ``ValueError`` unless it is a whole number >= 1."""
    if text is None or text == "":
        return 1
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise ValueError(f"bad page number {text[:20]!r}")
    return int(text)

