"""Take-or-pass bidding (classic, pinasca) and the italian call, RULES.md "Bidding systems".

Round 1, from the player after the dealer: take the turned card's suit or pass.  Round 2:
name another suit or pass; with the italian flags also senza or tutte, and the partner of a
round-2 suit caller may at once replace it with senza (seed 000: "quest'ultimo può imporre
la propria scelta dichiarandolo subito").  All pass twice: redeal by the next dealer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belote.cards import Rank
from belote.engine.actions import NAME_SUIT_BASE, PASS, SENZA, TAKE, TUTTE
from belote.engine.bidding.base import BidState, Contract
from belote.engine.events import ALL_TRUMP, NO_TRUMP

if TYPE_CHECKING:
    from belote.rules.base import Rules


class TakeOrPass:
    def start(self, dealer: int, players: int = 4) -> BidState:
        # Written for four seats only (rules.validation refuses fewer with take-or-pass).
        return BidState(round=1, to_speak=(dealer + 1) % 4, passes=0)

    def legal_bids(self, bids: BidState, turned: int, rules: Rules) -> list[int]:
        if bids.pending is not None:
            return [PASS, SENZA]
        if bids.round == 1:
            if rules.jack_oblige and turned & 7 == Rank.JACK and bids.passes == 0:
                return [TAKE]
            return [PASS, TAKE]
        turned_suit = turned >> 3
        legal = [PASS] + [NAME_SUIT_BASE + s for s in range(4) if s != turned_suit]
        if rules.allow_senza:
            legal.append(SENZA)
        if rules.allow_tutte:
            legal.append(TUTTE)
        return legal

    def apply(self, bids: BidState, seat: int, action: int, turned: int,
              rules: Rules) -> Contract | bool:
        if bids.pending is not None:
            pending, bids.pending = bids.pending, None
            if action == SENZA:
                return Contract(taker=seat, trump=NO_TRUMP)
            return pending
        if action == TAKE:
            return Contract(taker=seat, trump=turned >> 3)
        if action == SENZA:
            return Contract(taker=seat, trump=NO_TRUMP)
        if action == TUTTE:
            return Contract(taker=seat, trump=ALL_TRUMP)
        if action != PASS:
            contract = Contract(taker=seat, trump=action - NAME_SUIT_BASE)
            if rules.senza_override and rules.allow_senza:
                bids.pending = contract
                bids.to_speak = (seat + 2) % 4
                return False
            return contract
        bids.passes += 1
        bids.to_speak = (seat + 1) % 4
        if bids.passes < 4:
            return False
        if bids.round == 2:
            return True
        bids.round, bids.passes = 2, 0
        return False
