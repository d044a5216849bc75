"""Take-or-pass bidding (classic, pinasca), RULES.md "Bidding systems".

Round 1, from the player after the dealer: take the turned card's suit or pass.  Round 2:
name another suit or pass.  All pass twice: the hand is redealt by the next dealer.
"""

from __future__ import annotations

from belote.cards import Rank
from belote.engine.actions import NAME_SUIT_BASE, PASS, TAKE
from belote.engine.bidding.base import BidState, Contract


class TakeOrPass:
    def start(self, dealer: int) -> BidState:
        return BidState(round=1, to_speak=(dealer + 1) % 4, passes=0)

    def legal_bids(self, bids: BidState, turned: int, jack_oblige: bool) -> list[int]:
        if bids.round == 1:
            if jack_oblige and turned & 7 == Rank.JACK and bids.passes == 0:
                return [TAKE]
            return [PASS, TAKE]
        turned_suit = turned >> 3
        return [PASS] + [NAME_SUIT_BASE + s for s in range(4) if s != turned_suit]

    def apply(self, bids: BidState, seat: int, action: int, turned: int) -> Contract | bool:
        if action == TAKE:
            return Contract(taker=seat, trump=turned >> 3)
        if action != PASS:
            return Contract(taker=seat, trump=action - NAME_SUIT_BASE)
        bids.passes += 1
        bids.to_speak = (seat + 1) % 4
        if bids.passes < 4:
            return False
        if bids.round == 2:
            return True
        bids.round, bids.passes = 2, 0
        return False
