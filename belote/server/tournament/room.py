"""Tournament games played online: the room opens one table per game with the tournament's
rules and the drawn players' seats reserved, and a finished table's match totals (the bus's
``TableFinished``) are reported to the tournament.

Seats: each seat is held for its drawn player (``owner`` is ``tournament:<game id>:<seat>``,
a label naming the place, never the player: names are not unique), until the player claims
it from the tournament page with the seat code that is theirs alone
(:mod:`belote.tournament.codes`; a name typed at sign-in takes no seat).  The code names a
place (side, seat in the side), and that place is the seat taken.  Tables opened before
seats were held by place (``tournament:<name key>``) are still claimed, at the code's own
place only.  If the
organiser allows stand-ins, a bot plays a seat until its player comes; the table starts at
once.  Otherwise the table starts
when the four players have claimed their seats.

A table finishes in its own task; the report to the tournament is a task of its own.  A
server killed between the two loses nothing: when the room opens, every running game whose
table is finished and stored but whose result is missing is recorded from the table's
stored record (:meth:`TournamentRoom.reconcile`).

Stand-ins are marked: before a finished table's result is recorded, its stored log says
which seats a bot played for their absent player (an action made while the seat's player
was stood in for, :func:`stood_in`); those seats go to the tournament as a ``standins``
event, and the exports and standings say so ("a bot for Anna").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from belote.server.directory import HeldSeat, TournamentTables
from belote.server.events import TableEvent, TableFinished
from belote.server.heavy import HeavyFailed
from belote.server.name_keys import name_key
from belote.server.persistence import LogEntry, TableRow
from belote.server.table import TableError
from belote.server.tournament.service import Offload, Tournaments
from belote.server.tournament.store import TournamentStore
from belote.tournament.model import Game, TournamentError

log = logging.getLogger(__name__)
RESERVED = "tournament:"
REPORTER = "table"  # who recorded an online result, in the audit log
# Sides and seats: side 0 sits North and South (team 0), side 1 East and West (team 1).
SEATS_OF_SIDE = ((0, 2), (1, 3))
TABLE_NAME = 40  # characters of a table name in the room (as the lobby form allows)
OPEN_PER_ACCOUNT = 10  # tournaments not finished that one account may hold (docs/tournaments.md)


def held_for(game_id: int, seat_no: int) -> str:
    """The owner label of a seat held for its drawn player: the place, not the name."""
    return f"{RESERVED}{game_id}:{seat_no}"


def held_labels(game: Game) -> tuple[tuple[str, ...], ...]:
    """Each seat's labels: the place (``held_for``), and, for a table opened before seats
    were held by place, the player's name key (taken at that same place only)."""
    labels: list[tuple[str, ...]] = [() for _ in range(4)]
    for side, seat_numbers in enumerate(SEATS_OF_SIDE):
        for player, seat_no in zip(game.lineup[side], seat_numbers, strict=True):
            labels[seat_no] = (held_for(game.id, seat_no), RESERVED + name_key(player))
    return tuple(labels)


class StoredTables(Protocol):
    """What tournaments read of the stored tables, to catch up at a start (the room's
    :class:`~belote.server.persistence.Store` is one)."""

    async def table(self, table_id: int) -> TableRow | None: ...

    async def log(self, table_id: int) -> list[LogEntry]: ...


def stood_in(log: list[LogEntry]) -> set[int]:
    """The seats of a table's stored ``log`` where a bot made an action for the seat's
    human player (the seat stood in for at that moment): not a seat merely held by a bot
    until its player came, before any card of theirs was played."""
    standin: dict[int, bool] = {}
    played: set[int] = set()
    for entry in log:
        if entry.kind == "seats":
            standin = {n: bool(seat and seat.get("kind") == "human" and seat.get("standin"))
                       for n, seat in enumerate(entry.data.get("seats") or [])}
        elif entry.kind == "act" and standin.get(int(entry.data.get("seat", -1))):
            played.add(int(entry.data["seat"]))
    return played


class TournamentRoom:
    def __init__(self, directory: TournamentTables, stored: StoredTables, store: TournamentStore,
                 offload: Offload | None = None) -> None:
        """``directory`` opens and seats tables by id (the room); ``offload`` runs a draw's
        pairing elsewhere (the app passes :meth:`belote.server.heavy.HeavyWork.run`); None:
        a worker thread."""
        self.directory = directory
        self.stored = stored
        self._offload = offload
        self.service = Tournaments(store,
                                   open_per_owner=OPEN_PER_ACCOUNT,
                                   offload=self._elsewhere if offload is not None else None)
        self._tasks: set[asyncio.Task[None]] = set()
        self._reported: set[int] = set()  # tables whose result is being or was reported
        self.report_failures = 0  # results a finished table could not record (logged)

    async def _elsewhere(self, function: Callable[..., Any], *args: Any) -> Any:
        """A draw in the heavy-work process; lost (hung and killed, or the process died,
        logged and counted there): refused with its reason, the tournament as it was."""
        assert self._offload is not None
        try:
            return await self._offload(function, *args)
        except HeavyFailed as error:
            log.error("tournament draw lost: %r", error)
            raise TournamentError("draw_failed") from error

    async def open(self) -> None:
        await self.service.load_running()
        await self.reconcile()

    async def close(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------ opening tables
    async def open_tables(self, tid: int, by: str) -> int:
        """Open an online table for each game of the current round that has none."""
        t = await self.service.get(tid)
        if t.current is None or t.current.closed:
            raise TournamentError("no_open_round")
        opened = 0
        flags = [f"{name}={value}" for name, value in t.s.flags]
        if t.s.deals:
            # A concours round of a fixed number of deals: the table plays exactly that many
            # (a tie plays one more hand online, where no game can be left drawn).
            flags.append(f"match_hands={t.s.deals}")
        else:
            flags.append(f"target_score={t.s.target}")
        for game in t.current.games:
            if game.bye or game.table_id is not None or game.result is not None:
                continue
            # Named after the tournament, its round and table, as the console lists them.
            suffix = f" · {game.round}.{game.table}"
            name = t.s.name[:TABLE_NAME - len(suffix)].rstrip() + suffix
            table_id = await self.directory.open_table(t.s.preset, flags, name=name)
            await self.service.change(tid, "table", {"game": game.id, "table_id": table_id},
                                      by)
            await self._seat(table_id, game, t.s.standins)
            opened += 1
        return opened

    async def _seat(self, table_id: int, game: Game, standins: bool) -> None:
        """Each seat held for its drawn player; with stand-ins the match starts at once."""
        seats = [HeldSeat("", "") for _ in range(4)]
        for side, seat_numbers in enumerate(SEATS_OF_SIDE):
            for player, seat_no in zip(game.lineup[side], seat_numbers, strict=True):
                seats[seat_no] = HeldSeat(player, held_for(game.id, seat_no), standins)
        await self.directory.hold_seats(table_id, seats,
                                        start=game.id if standins else None)

    async def claim(self, tid: int, game_id: int, seat: tuple[int, int], uid: str,
                    account: int | None = None) -> int:
        """The person ``uid``, who gave the code of ``seat`` (side, seat in the side), takes
        the seat held for that seat's player; returns its table."""
        t = await self.service.get(tid)
        game = t.game(game_id)
        table_id = game.table_id
        if table_id is None or await self.directory.table_status(table_id) is None:
            raise TournamentError("no_table")
        seat_no = SEATS_OF_SIDE[seat[0]][seat[1]]
        # The place the code names; once no seat is held for its player any more (a
        # stand-in's aside), the match starts, in the same step of the table.
        labels = held_labels(game)
        try:
            taken = await self.directory.claim_seat(
                table_id, seat_no, labels[seat_no], uid, account,
                held=[label for seat_labels in labels for label in seat_labels],
                start=game.id)
        except TableError as error:
            if error.code == "no_table":  # gone since the look (the room let it go)
                raise TournamentError("no_table") from None
            raise
        if not taken:
            raise TournamentError("not_your_seat")
        return table_id

    # ------------------------------------------------------------------ results
    def on_event(self, event: TableEvent) -> None:
        """The bus's delivery: a finished table reports its result."""
        if not isinstance(event, TableFinished) or event.table_id in self._reported:
            return
        self._reported.add(event.table_id)
        task = asyncio.create_task(self._report(event.table_id, list(event.totals)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _report(self, table_id: int, totals: list[int]) -> None:
        found = await self.service.game_of_table(table_id)
        if found is None:
            return  # not a tournament table
        tid, game = found
        if game.result is not None:
            return
        try:
            await self._mark_standins(tid, game, table_id)
            await self.service.record(tid, game.id, totals, "online", REPORTER)
        except Exception as error:
            # Never silent: logged and counted; the organiser sees the table still playing
            # and may record the result by hand; reconcile() retries at the next start.
            self.report_failures += 1
            log.error("tournament %s game %s: table %s's result %s not recorded: %r", tid,
                      game.id, table_id, totals, error)

    async def _mark_standins(self, tid: int, game: Game, table_id: int) -> None:
        """The seats a bot played at the game's table, as a ``standins`` event (side and
        position of each; nothing when every seat was played by its player)."""
        seats = stood_in(await self.stored.log(table_id))
        where = [[side, place] for side, numbers in enumerate(SEATS_OF_SIDE)
                 for place, seat_no in enumerate(numbers) if seat_no in seats]
        if where:
            await self.service.change(tid, "standins", {"game": game.id, "seats": where},
                                      REPORTER)

    async def reconcile(self) -> int:
        """Record the results of finished tables that were not reported (a restart)."""
        recorded = 0
        for tid in await self.service.load_running():
            t = await self.service.get(tid)
            for game in t.games():
                if game.result is not None or game.table_id is None:
                    continue
                row = await self.stored.table(game.table_id)
                record: dict[str, Any] | None = None if row is None else row.record
                if row is None or row.status != "finished" or record is None:
                    continue
                await self._report(game.table_id, list(record["result"]["totals"]))
                recorded += 1
        if recorded:
            log.info("tournaments: %d results of finished tables recorded at start", recorded)
        return recorded
