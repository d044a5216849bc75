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
from belote.engine.obligations import Refusal
from belote.engine.obligations import RefusalReason as R

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

    def refusal(self, bids: BidState, action: int, turned: int, rules: Rules) -> Refusal:
        """Why the player to speak may not call ``action`` now (the conditions of
        :meth:`legal_bids`); the sentences name the turned card's suit."""
        turned_suit = turned >> 3
        named = NAME_SUIT_BASE <= action < NAME_SUIT_BASE + 4
        if not (action in (PASS, TAKE) or named or (action == SENZA and rules.allow_senza)
                or (action == TUTTE and rules.allow_tutte)):
            return Refusal(R.NOT_A_CALL_HERE)  # the auction's calls, or senza/tutte off
        if bids.pending is not None:
            return Refusal(R.OVERRIDE_ONLY_SENZA)
        if bids.round == 1:
            if action == PASS:  # the only pass refused: a turned jack (jack_oblige)
                return Refusal(R.JACK_MUST_BE_TAKEN, suit=turned_suit)
            return Refusal(R.ROUND_ONE_TAKE_OR_PASS, suit=turned_suit)
        if action == TAKE:
            return Refusal(R.TAKE_ONLY_ROUND_ONE, suit=turned_suit)
        if action == NAME_SUIT_BASE + turned_suit:
            return Refusal(R.TURNED_SUIT_ROUND_TWO, suit=turned_suit)
        return Refusal(R.BID_NOT_ALLOWED)

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
