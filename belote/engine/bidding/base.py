"""What a bidding system provides to the game state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from belote.engine.obligations import Refusal
    from belote.rules.base import Rules


@dataclass(frozen=True, slots=True)
class Contract:
    taker: int
    trump: int  # a suit 0..3, NO_TRUMP or ALL_TRUMP
    takes_turned_card: bool = True
    level: int = 0  # auction level (82..802, 80..160); 0 for take-or-pass
    multiplier: int = 1  # contro x2, surcontro x4
    capot: bool = False  # won only by taking every trick (coinche's capot bid)
    last_caller: int | None = None  # the seat that made the auction's last call


@dataclass(slots=True)
class BidState:
    """The mutable part of the bidding; owned by the game state and copied with it."""

    round: int = 1
    to_speak: int = 0
    passes: int = 0
    # take-or-pass: a round-2 suit call waiting for the caller's partner (senza override)
    pending: Contract | None = None
    # auction: the standing contract (level index, suit, seat), contro/surcontro, last caller
    level_index: int = -1
    suit: int = -1
    bidder: int = -1
    doubled: int = 0
    last_caller: int = -1


class BiddingSystem(Protocol):
    def start(self, dealer: int, players: int = 4) -> BidState: ...

    def legal_bids(self, bids: BidState, turned: int, rules: Rules) -> list[int]: ...

    def apply(self, bids: BidState, seat: int, action: int, turned: int,
              rules: Rules) -> Contract | bool:
        """Record a bid: a Contract when bidding ends with one, True when all passed
        (redeal), False when bidding goes on."""
        ...

    def refusal(self, bids: BidState, action: int, turned: int, rules: Rules) -> Refusal:
        """Why the player to speak may not make ``action``, a bid that :meth:`legal_bids`
        leaves out now, with the facts its sentence names (the one home of these reasons,
        next to the conditions they explain)."""
        ...
