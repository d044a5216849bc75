"""Tournaments as the room and `belote tournament` change them: one change at a time per
tournament, checked, stored, then applied (a refusal or a failed write changes nothing).

Shared by the web room and the offline CLI (the same store and migrations on a local SQLite
file).

The event loop is never held by a tournament's size: checking a change, copying the
tournament and applying it run in a worker thread (:func:`asyncio.to_thread`), and a draw's
pairing (a maximum-weight matching over every entrant, pure Python: seconds for a mêlée of
1,024) runs where ``offload`` sends it: in the room, the heavy-work process
(:meth:`belote.server.heavy.HeavyWork.run`: niced, a timeout that kills a hung draw and
releases the tournament, every failure logged and counted), so that it does not even compete
with the loop for the interpreter lock; offline (no ``offload``), a worker thread.  The loop
only awaits them and the store.

The room and ``belote tournament`` may change one SQLite file.  A cached tournament is
checked against the stored log before every read and change (:meth:`Tournaments.get`: its
count of events, one indexed query), and the events another process stored meanwhile are
applied; a change that lost the race for its number is checked again on the fresh log
(:data:`RETRIES` times), and a database locked past its busy timeout is refused with
``busy``, in words.

Limits: at most ``MAX_ENTRANTS`` entrants a tournament (:mod:`belote.tournament.events`), and
in the room at most ``open_per_owner`` tournaments not finished per account (``None``
offline).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from belote.server.tournament.store import StaleLog, StoreBusy, TournamentStore
from belote.tournament.codes import issue_codes
from belote.tournament.events import Event, Tournament
from belote.tournament.formats import draw
from belote.tournament.model import Game, Settings, Source, TournamentError

# Runs a picklable function with its arguments elsewhere and gives its answer (the room's
# heavy-work process); it raises TournamentError when the work is lost.
Offload = Callable[..., Awaitable[Any]]
RETRIES = 5  # a change built on a log another writer changed meanwhile: checked again


class Tournaments:
    def __init__(self, store: TournamentStore, rng: random.Random | None = None,
                 open_per_owner: int | None = None, offload: Offload | None = None) -> None:
        self.store = store
        self.rng = rng or random.SystemRandom()
        self.open_per_owner = open_per_owner
        self.offload = offload
        self._cache: dict[int, Tournament] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, tid: int) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    async def create(self, data: dict[str, Any], owner: str) -> int:
        fresh = Tournament()
        event = fresh.check(Event("created", data, owner, _stamp()))
        fresh.apply(event)
        # The count and the new row in one transaction of the store (every process's).
        tid = await self.store.create(event, owner, self.open_per_owner)
        self._cache[tid] = fresh
        return tid

    async def get(self, tid: int) -> Tournament:
        """Tournament ``tid`` as stored now: the cached one, brought up to date if another
        process (``belote tournament`` on the room's file) stored events since."""
        found = self._cache.get(tid)
        stored = await self.store.count(tid)
        if found is not None and stored == len(found.audit):
            return found
        if found is not None and stored > len(found.audit):
            later = await self.store.events(tid, after=len(found.audit))
            found = await asyncio.to_thread(_caught_up, found, later)
        else:  # not cached, or the log is shorter than what was read: read it whole
            found = await self.store.load(tid)
        if found is None:
            self._cache.pop(tid, None)
            raise TournamentError("no_tournament")
        self._cache[tid] = found
        return found

    async def change(self, tid: int, kind: str, data: dict[str, Any], by: str) -> Event:
        """Check, store and apply one change of tournament ``tid``."""
        async with self._lock(tid):
            return await self._change(tid, Event(kind, data, by, _stamp()))

    async def _change(self, tid: int, event: Event) -> Event:
        return (await self._change_all(tid, [event]))[0]

    async def change_all(self, tid: int, changes: list[tuple[str, dict[str, Any]]],
                         by: str) -> list[Event]:
        """Several changes, each checked on the tournament after the ones before it, stored
        in one transaction: all or none (a registration file refused at its last line
        stores nothing)."""
        async with self._lock(tid):
            stamp = _stamp()
            return await self._change_all(tid, [Event(k, d, by, stamp) for k, d in changes])

    async def _change_all(self, tid: int, events: list[Event]) -> list[Event]:
        for attempt in range(RETRIES):
            current = await self.get(tid)
            # Seat codes are drawn here (the core draws nothing at random), then the check,
            # the copy and the apply run off the event loop: their cost grows with the
            # tournament.
            checked, after = await asyncio.to_thread(_checked_all, current, events)
            try:
                await self.store.append_all(tid, after, checked)
            except StaleLog:
                # Another process stored a change first: read it, check this one again.
                await asyncio.sleep(0.05 * (attempt + 1))
                continue
            except StoreBusy:
                raise TournamentError("busy") from None
            self._cache[tid] = after
            return checked
        raise TournamentError("busy")

    async def draw(self, tid: int, by: str) -> Tournament:
        async with self._lock(tid):
            current = await self.get(tid)
            # The pairing (a maximum-weight matching) is the heaviest work: off the loop.
            if self.offload is not None:
                event: Event = await self.offload(_draw_seeded, current,
                                                  self.rng.getrandbits(64), by)
            else:
                event = await asyncio.to_thread(draw, current, self.rng, by)
            await self._change(tid, Event(event.kind, event.data, by, _stamp()))
        return await self.get(tid)

    async def record(self, tid: int, game_id: int, totals: list[int], source: Source,
                     by: str) -> Event:
        return await self.change(tid, "result", {"game": game_id, "totals": totals,
                                                 "source": source}, by)

    async def settings(self, tid: int) -> Settings:
        return (await self.get(tid)).s

    async def game_of_table(self, table_id: int) -> tuple[int, Game] | None:
        """The tournament game an online table plays, as stored now (None: the table plays
        no tournament's game).

        The stored games say which tournament the table belongs to, not this process's
        cache: another process of the room (issue 26), or ``belote tournament``, may have
        made the tournament or opened the table since this one last read it.  The
        tournament is then read as :meth:`get` reads it (brought up to date), so the game's
        result is the stored one too."""
        tid = await self.store.tournament_of_table(table_id)
        if tid is None:
            return None
        try:
            t = await self.get(tid)
        except TournamentError:
            return None  # gone meanwhile
        for game in t.games():
            if game.table_id == table_id:
                return tid, game
        return None

    async def load_running(self) -> list[int]:
        """Load every tournament that is not finished (the room's start)."""
        running = [row.id for row in await self.store.list() if row.state != "finished"]
        for tid in running:
            await self.get(tid)
        return running


def _checked_all(current: Tournament, events: list[Event]) -> tuple[list[Event], Tournament]:
    """``events`` checked one after another (codes drawn where a change seats players), and
    the tournament after them (``current`` is left as it was)."""
    after = current.copy()
    out = []
    for event in events:
        data = issue_codes(after.game, event.kind, event.data)
        checked = after.check(Event(event.kind, data, event.by, event.at))
        after.apply(checked)
        out.append(checked)
    return out, after


def _caught_up(cached: Tournament, later: list[Event]) -> Tournament:
    """The cached tournament with the events another process stored since (a copy)."""
    after = cached.copy()
    for event in later:
        after.apply(event)
    return after


def _draw_seeded(current: Tournament, seed: int, by: str) -> Event:
    """The draw, in the heavy-work process: its randomness from the room's own generator."""
    return draw(current, random.Random(seed), by)


def _stamp() -> str:
    return datetime.now(UTC).isoformat()
