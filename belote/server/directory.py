"""What features ask of the room's tables, by id: the narrow interfaces the room implements.

A feature (the lobby, tournaments) hears of tables from the table-event bus
(:mod:`belote.server.events`) and asks the room for the little the events do not say through
one of the protocols below; it never holds a :class:`~belote.server.table.Table`.  Every
method takes and returns plain data (ids, strings, numbers, tuples of them, the frozen
records here) and is ``async``: an implementation in another process (the multi-process
room) answers them over a wire, as the bus carries the events.  A session id (a seat's
``owner``) never comes back: a feature may only ask whether the people it names (its own
sockets' uids) sit somewhere.

:class:`belote.server.room.Room` implements both protocols.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Attendance:
    """Who is at a table now."""

    watchers: int  # connections open at the table (players and spectators)
    present: bool  # a seated human is connected: at the table, or among the uids asked about


@dataclass(frozen=True, slots=True)
class SeatHeld:
    """``uid`` sits at seat ``seat`` of table ``table_id``."""

    uid: str
    table_id: int
    seat: int


class LobbyTables(Protocol):
    """What the lobby asks of the room: the viewer's own seats, who attends a table, and the
    expiry of a table nobody attends."""

    async def seats_held(self, table_ids: Collection[int],
                         uids: Collection[str]) -> list[SeatHeld]:
        """The seats that these people (the lobby's own listeners) hold at these tables."""
        ...

    async def attendance(self, table_ids: Collection[int],
                         uids: Collection[str]) -> dict[int, Attendance]:
        """Who attends each of these tables (those still in the room); ``present`` counts
        ``uids`` (the people in the lobby) as connected."""
        ...

    async def expire(self, table_id: int, uids: Collection[str]) -> bool:
        """Close the table if it still waits for players and no seated human is connected
        (``uids``, the people in the lobby, count as connected): stored as expired, its
        watchers told and let go, ``TableClosed`` published; whether it did."""
        ...


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat held for a person chosen elsewhere (a tournament's draw) until they claim it."""

    name: str  # the person's name, shown at the table
    label: str  # what the seat is held under (never a session id); a claim names it
    standin: bool = False  # a bot plays the seat until its person comes


class TournamentTables(Protocol):
    """What tournaments ask of the room: open a table, hold its seats for the drawn players,
    let a player take the seat held for them, and start the match."""

    async def open_table(self, preset: str, flag_texts: Sequence[str], *,
                         name: str = "") -> int:
        """A new table with these rules (``ValueError`` for bad ones); its id."""
        ...

    async def hold_seats(self, table_id: int, seats: Sequence[HeldSeat], *,
                         start: int | None = None) -> None:
        """Seat the table as ``seats`` say, in one stored change; with ``start``, then start
        the match with that first dealer, in the same step of the table."""
        ...

    async def claim_seat(self, table_id: int, seat: int, labels: Collection[str], uid: str,
                         account: int | None = None, *, held: Collection[str] = (),
                         start: int | None = None) -> bool:
        """The person ``uid`` takes seat ``seat`` if it is held under one of ``labels``
        (``False``: it is not, nothing changed); with ``start``, once no seat is held any
        more under one of ``held`` (a seat a stand-in plays aside), the match starts with
        that first dealer, in the same step.  ``TableError("no_table")``: no such table."""
        ...

    async def table_status(self, table_id: int) -> str | None:
        """``waiting``, ``playing``, ``finished`` or ``broken``; None: not in the room."""
        ...


class FixedDealTables(Protocol):
    """What the daily duplicate asks of the room: a table of one fixed deal, and the seat
    held at it for its entrant (:meth:`TournamentTables.claim_seat`'s contract)."""

    async def open_fixed_deal(self, preset: str, deck: Sequence[int], first_dealer: int,
                              seats: Sequence[HeldSeat], bots: dict[int, str], *,
                              name: str = "") -> int:
        """A new private table (no invitation code: only its seated person enters) that
        deals ``deck`` once with ``first_dealer`` dealing, ends when that deal is over, and
        lets no bot stand in; the seats in ``bots`` (seat: level) are bots, the others held
        as ``seats`` say.  Its match starts at once; its id."""
        ...

    async def hand_to_bots(self, table_id: int) -> None:
        """The fixed deal's day closed: a bot finishes it for its player unless they are at
        the table now.  ``TableError("no_table")``: no such table in the room."""
        ...

    async def claim_seat(self, table_id: int, seat: int, labels: Collection[str], uid: str,
                         account: int | None = None, *, held: Collection[str] = (),
                         start: int | None = None) -> bool:
        """:meth:`TournamentTables.claim_seat`."""
        ...

    async def table_status(self, table_id: int) -> str | None:
        """:meth:`TournamentTables.table_status`."""
        ...
