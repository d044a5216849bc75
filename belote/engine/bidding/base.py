"""What a bidding system provides to the game state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Contract:
    taker: int
    trump: int  # a suit 0..3, NO_TRUMP or ALL_TRUMP
    takes_turned_card: bool = True


@dataclass(slots=True)
class BidState:
    """The mutable part of an auction; owned by the game state and copied with it."""

    round: int = 1
    to_speak: int = 0
    passes: int = 0


class BiddingSystem(Protocol):
    def start(self, dealer: int) -> BidState: ...

    def legal_bids(self, bids: BidState, turned: int, jack_oblige: bool) -> list[int]: ...

    def apply(self, bids: BidState, seat: int, action: int, turned: int) -> Contract | bool:
        """Record a bid: a Contract when bidding ends with one, True when all passed
        (redeal), False when bidding goes on."""
        ...
