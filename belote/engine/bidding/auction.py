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

from functools import cache
from typing import TYPE_CHECKING

from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.bidding.base import BidState, Contract
from belote.engine.obligations import LevelTable, Refusal
from belote.engine.obligations import RefusalReason as R

if TYPE_CHECKING:
    from belote.rules.base import AuctionRules, Rules

PASSING = frozenset({A.PASS, A.ASPETTO, A.ANCORA, A.ALZO})
# Calls of take-or-pass that no auction has.
_NOT_AUCTION = frozenset({A.TAKE, A.SENZA, A.TUTTE})


@cache
def _contracts_from(start: int, levels: int) -> tuple[int, ...]:
    """Every contract bid from level index ``start`` up (four suits each).  Kept: the
    valdostana table has 50 levels, and building its 200 bids at every call was most of the
    auction's time."""
    return tuple(A.contract_bid(i, s) for i in range(start, levels) for s in range(4))


def _table(rules: Rules) -> AuctionRules:
    if rules.auction is None:
        raise ValueError(f"rules {rules.name!r} have no auction table")
    return rules.auction


def lowest_level(bids: BidState, rules: Rules) -> int | None:
    """The lowest contract level the player to speak may bid now: the level above the
    standing contract; None when a contro is on or no level is higher."""
    levels = _table(rules).levels
    following = bids.level_index + 1
    return None if bids.doubled or following >= len(levels) else levels[following]


def level_refusal(bids: BidState, level: int, rules: Rules) -> Refusal:
    """Why a contract at ``level`` points, a number that is not a level of the table (as a
    player types it: 50, 900), is refused: the table, and the lowest level allowed now."""
    table = _table(rules)
    return Refusal(R.LEVEL_NOT_IN_TABLE, level=level, lowest=lowest_level(bids, rules),
                   table=LevelTable.of(table.levels, table.capot_level))


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
            legal.extend(_contracts_from(bids.level_index + 1, len(table.levels)))
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

    def refusal(self, bids: BidState, action: int, turned: int, rules: Rules) -> Refusal:
        """Why the player to speak may not call ``action`` now; the conditions are those of
        :meth:`legal_bids`, read in the order a player would ask: does the game have that
        call, is a contro on, whose contract stands."""
        table = _table(rules)
        seat = bids.to_speak
        lowest = lowest_level(bids, rules)
        levels = LevelTable.of(table.levels, table.capot_level)
        support = action in (A.ANCORA, A.ALZO)
        if (action in _NOT_AUCTION or (action == A.ASPETTO and not table.pass_words)
                or (support and not table.support_calls)
                or (C.is_raise(action) and not table.conventional_bids)):
            return Refusal(R.NOT_A_CALL_HERE)
        if action == A.SURCONTRO:
            return Refusal(R.SURCONTRO_ONLY_AFTER_CONTRO)
        if bids.doubled:
            return Refusal(R.AFTER_CONTRO)  # contro said: passes, or the doubled side's surcontro
        if C.is_suit_only(action):
            suit = action - A.NAME_SUIT_BASE
            if lowest is None:
                return Refusal(R.NO_HIGHER_CONTRACT, table=levels, suit=suit)
            reason = R.SUIT_ONLY_OPENS if table.conventional_bids else R.SUIT_NEEDS_LEVEL
            return Refusal(reason, lowest=lowest, table=levels, suit=suit)
        if action == A.CONTRO:
            return Refusal(R.CONTRO_ONLY_OPPONENTS)
        if support or C.is_raise(action):
            if not rules.partners:
                return Refusal(R.NO_PARTNER)
            if bids.bidder < 0 or bids.bidder != (seat + 2) % 4:
                return Refusal(R.SUPPORT_ONLY_PARTNER)
            if C.is_raise(action):  # on the partner's contract: only the top stops a raise
                target = table.levels[bids.level_index] + C.RAISES[action][1]
                return Refusal(R.RAISE_PAST_TOP, level=target, table=levels)
        if A.CONTRACT_BASE <= action < A.CONTRACT_END:
            level = table.levels[A.contract_level_index(action)]
            if lowest is None:
                return Refusal(R.NO_HIGHER_CONTRACT, level=level, table=levels)
            return Refusal(R.CONTRACT_TOO_LOW, level=level, lowest=lowest, table=levels)
        return Refusal(R.BID_NOT_ALLOWED)

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
