"""Who sits where: the public composition of the table, as a bot may be told it.

A table's seats are public (the room shows each seat's level, or a person's name): a bot
may use them to choose its model of each seat (:mod:`belote.ai.models.seats`).  A bot that
wants them has an optional ``meet(seats)`` method; whoever seats the players (the arena,
the room) calls it before a hand with one :class:`TableSeat` per seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableSeat:
    """One seat as the table shows it.  ``level``: the bot's level name (None: a person);
    ``bids``: the level that makes the seat's bids (the arena's common bidder, else the
    level itself; None: a person)."""

    level: str | None
    bids: str | None = None

    @classmethod
    def bot(cls, level: str, bidder: str | None = None) -> TableSeat:
        return cls(level, bidder or level)

    @classmethod
    def person(cls) -> TableSeat:
        return cls(None, None)


def meet_all(players: Iterable[object], seats: Sequence[TableSeat]) -> int:
    """Tell every player with a ``meet`` method who sits where; how many were told."""
    told = 0
    for player in players:
        meet = getattr(player, "meet", None)
        if callable(meet):
            meet(tuple(seats))
            told += 1
    return told
