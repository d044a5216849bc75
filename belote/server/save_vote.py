"""Saving a table to resume it later: who must agree, and the vote that asks them.

A seated person asks to save the match (docs/room.md, "Saved games").  Every other person
seated at the table (whose seat is not kept for them already) is asked and must agree
within :data:`VOTE_SECONDS`; one refusal, or the time running out, ends the vote and the
table plays on.  With nobody else to ask (bots only), the table is saved at once.  The vote
lives in the table's actor, in memory: it lasts a minute, and a table that moves to
another process (or a restart) simply ends it unanswered, as a timeout would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from belote.server.limits import TokenBucket
from belote.server.seats import Seat

VOTE_SECONDS = 60.0  # how long the people asked have to answer
# Seconds a saved table resumed waits for somebody to open it before it is saved again.
HOLD_SECONDS = 300.0


@dataclass(slots=True)
class SaveVote:
    """An open request to save the table: ``asker`` asked; ``asked`` must all agree."""

    asker: int
    asked: frozenset[int]
    ends: float  # time.monotonic() when the vote times out
    agreed: set[int] = field(default_factory=set)

    @property
    def complete(self) -> bool:
        return self.agreed >= self.asked

    def seconds_left(self) -> int:
        return max(0, round(self.ends - time.monotonic()))

    def to_view(self) -> dict[str, object]:
        """What every viewer is shown of the vote (nothing hidden: who asked, who agreed)."""
        return {"asker": self.asker, "asked": sorted(self.asked),
                "agreed": sorted(self.agreed), "seconds": self.seconds_left()}


@dataclass(slots=True)
class Saving:
    """A table's side of saving: the vote open (if any) and its clock, the clock of a
    resumed table that nobody opens, each person's requests (a limit), and ``keep``, the
    room's, which stores the saved table and lets it go (raising the room's ``TableError``
    when it cannot); ``done``: kept, this copy of the table is going."""

    vote: SaveVote | None = None
    vote_seconds: float = VOTE_SECONDS
    hold_seconds: float = HOLD_SECONDS
    vote_timer: asyncio.Task[None] | None = None
    hold_timer: asyncio.Task[None] | None = None
    asks: dict[str, TokenBucket] = field(default_factory=dict)
    keep: Callable[[], Awaitable[None]] | None = None
    done: bool = False


def save_refusal(seats: Sequence[Seat], asker: int) -> str | None:
    """Why the table cannot be saved at ``asker``'s request (an ``error.web.*`` code), or
    None.  Every person seated must have an account: a saved seat is kept for an account,
    and a guest's session ends with its browser, so a guest could never come back to it."""
    if seats[asker].account is None:
        return "saved_sign_in"
    if any(s.kind == "human" and s.account is None for s in seats):
        return "saved_guest"
    return None


def who_must_agree(seats: Sequence[Seat], asker: int) -> frozenset[int]:
    """The seats of the people to ask: every person seated but the asker and those whose
    seat is kept for them already (they agreed when the table was saved before)."""
    return frozenset(n for n, s in enumerate(seats)
                     if s.kind == "human" and n != asker and not s.reserved)


def new_vote(seats: Sequence[Seat], asker: int, seconds: float = VOTE_SECONDS) -> SaveVote:
    return SaveVote(asker, who_must_agree(seats, asker), time.monotonic() + seconds)


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A person's seat at a saved table: kept for the account, by its id."""

    seat: int
    account: int
    name: str


@dataclass(frozen=True, slots=True)
class SavedTable:
    """What the room hands the saved games to store when a table is saved (plain data)."""

    table_id: int
    preset: str
    seats: tuple[KeptSeat, ...]
    hands: int  # hands scored so far
    totals: tuple[int, ...]  # the match's score, by team (or by player)
