"""The auction (valdostana; coinche with its own table), RULES.md "auction".

From the player after the dealer, calls go round until closed: passes ("passo" no ace /
"aspetto" at least one ace, and the support calls "ancora"/"alzo" on the partner's standing
contract); contracts (level + suit, each higher than the last); "contro" on an opponents'
contract, after which only "surcontro" (by the doubled side, closing at once) or passes.
A contract or a contro followed by three passes closes the auction; four passes with no
contract: redeal.  With ``conventional_bids`` (valdostana) also the suit-only opening and
the do/ancora/alzo 10/20 raises (:mod:`belote.engine.bidding.conventions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.bidding.base import BidState, Contract

if TYPE_CHECKING:
    from belote.rules.base import AuctionRules, Rules

PASSING = frozenset({A.PASS, A.ASPETTO, A.ANCORA, A.ALZO})


def _table(rules: Rules) -> AuctionRules:
    if rules.auction is None:
        raise ValueError(f"rules {rules.name!r} have no auction table")
    return rules.auction


class Auction:
    def start(self, dealer: int, players: int = 4) -> BidState:
        return BidState(round=1, to_speak=(dealer + 1) % players)

    def legal_bids(self, bids: BidState, turned: int, rules: Rules) -> list[int]:
        table = _table(rules)
        seat = bids.to_speak
        legal = [A.PASS]
        if table.pass_words:
            legal.append(A.ASPETTO)
        has_contract = bids.bidder >= 0
        ours = has_contract and rules.side_of(bids.bidder) == rules.side_of(seat)
        if bids.doubled == 0:
            # Support calls answer a partner: none without partnerships (fewer than four).
            if (table.support_calls and has_contract and rules.partners
                    and bids.bidder == (seat + 2) % 4):
                legal += [A.ANCORA, A.ALZO]
            if table.conventional_bids:
                legal += self._conventions(bids, seat, table.levels, rules.partners)
            if has_contract and not ours:
                legal.append(A.CONTRO)
            start = bids.level_index + 1
            legal.extend(A.contract_bid(i, s) for i in range(start, len(table.levels))
                         for s in range(4))
        elif bids.doubled == 1 and ours:
            legal.append(A.SURCONTRO)
        return sorted(legal)

    def apply(self, bids: BidState, seat: int, action: int, turned: int,
              rules: Rules) -> Contract | bool:
        table = _table(rules)
        n = rules.players
        bids.to_speak = (seat + 1) % n
        if action in PASSING:
            bids.passes += 1
            if bids.bidder < 0:
                return bids.passes >= n  # everyone passed: redeal
            # A contract (or contro) closes when every other player has passed.
            return self._close(bids, table) if bids.passes >= n - 1 else False
        bids.passes = 0
        bids.last_caller = seat
        if action == A.CONTRO:
            bids.doubled = 1
            return False
        if action == A.SURCONTRO:
            bids.doubled = 2
            return self._close(bids, table)
        if C.is_raise(action):  # the partner keeps the contract, raised in its suit
            index = C.raised_index(table.levels, bids.level_index, action)
            if index is None or bids.bidder != (seat + 2) % 4:
                raise ValueError(f"raise {action} without the partner's contract to raise")
            bids.level_index = index
            return False
        if C.is_suit_only(action):  # seed 000: the number omitted, the lowest level
            bids.level_index, bids.suit = 0, action - A.NAME_SUIT_BASE
        else:
            bids.level_index = A.contract_level_index(action)
            bids.suit = A.contract_suit(action)
        bids.bidder = seat
        return False

    @staticmethod
    def _conventions(bids: BidState, seat: int, levels: tuple[int, ...],
                     partners: bool) -> list[int]:
        """Seed 000's conventional bids open to ``seat`` (no contro said yet)."""
        if bids.bidder < 0:
            return [A.name_suit(s) for s in range(4)]  # the suit-only opening
        # The raises answer a partner: none without partnerships (fewer than four players).
        if not partners or bids.bidder != (seat + 2) % 4:
            return []
        return [a for a in C.RAISES if C.raised_index(levels, bids.level_index, a) is not None]

    def _close(self, bids: BidState, table: AuctionRules) -> Contract:
        level = table.levels[bids.level_index]
        multiplier = (1, table.contro_multiplier, table.surcontro_multiplier)[bids.doubled]
        return Contract(
            taker=bids.bidder,
            trump=bids.suit,
            takes_turned_card=False,
            level=level,
            multiplier=multiplier,
            capot=bool(table.capot_level) and level == table.capot_level,
            last_caller=bids.last_caller,
        )
