"""What one seat (or a spectator) may see of a game: the only view that leaves the engine.

A seat sees its own hand, everything public (bids, the turned card, cards played, tricks,
announcements, scores) and how many cards each other seat holds; never another hand.  A
spectator sees only the public part.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from belote.cards import CardSet
from belote.engine.bidding.conventions import standing
from belote.rules.base import Rules

if TYPE_CHECKING:
    from belote.engine.state import Game


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int | None  # None: a spectator
    rules: str
    phase: int
    deal_no: int
    dealer: int
    current_player: int
    hand: CardSet  # this seat's cards (0 for a spectator)
    hand_sizes: tuple[int, ...]
    turned: int | None
    bids: tuple[tuple[int, int], ...]
    taker: int | None
    trump: int | None
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    trick_no: int
    last_trick: tuple[tuple[int, int], ...] | None
    played: CardSet
    tricks_won: tuple[int, ...]
    card_points: tuple[int, ...]
    belote_said: tuple[tuple[int, str], ...]
    totals: tuple[int, ...]
    pot: int
    legal_actions: tuple[int, ...]  # what this seat may do now (empty for a spectator)
    winner: int | None
    declarations_said: tuple[tuple[int, tuple[str, ...]], ...] = ()
    # every finished trick of the hand: (leader, cards in play order) (public)
    tricks: tuple[tuple[int, tuple[int, ...]], ...] = ()
    declaration_points: tuple[int, ...] = (0, 0)  # public once resolved (first trick)
    contract_level: int = 0
    contract_multiplier: int = 1
    # cards each seat has shown to everybody (declarations shown at the second trick)
    shown: tuple[int, ...] = (0, 0, 0, 0)
    ruleset: Rules | None = None  # the table's rules (flags included), for bots

    def standing_contract(self) -> tuple[int, int, int, int] | None:
        """The auction's last contract so far as (bidder, level index, suit, doubled: 0, 1
        contro, 2 surcontro), or None before any contract; suit-only openings and conventional
        raises included (:mod:`belote.engine.bidding.conventions`)."""
        auction = self.ruleset.auction if self.ruleset is not None else None
        return standing(self.bids, auction.levels if auction is not None else ())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["ruleset"]
        return data


def observe(game: Game, seat: int | None) -> Observation:
    from belote.engine.state import Phase

    dealt = game.phase in (Phase.BIDDING, Phase.PLAYING)
    n = game.players
    trick = tuple(((game.leader + i) % n, card) for i, card in enumerate(game.trick))
    last = None
    if game.last_trick is not None:
        leader, cards = game.last_trick
        last = tuple(((leader + i) % n, card) for i, card in enumerate(cards))
    contract = game.contract
    return Observation(
        seat=seat,
        rules=game.rules.name,
        phase=int(game.phase),
        deal_no=game.deal_no,
        dealer=game.dealer,
        current_player=game.current_player(),
        hand=game.hands[seat] if seat is not None and dealt else 0,
        hand_sizes=tuple(h.bit_count() for h in game.hands) if dealt else (0,) * n,
        turned=game.turned if dealt and game.turned >= 0 else None,
        bids=tuple(game.bid_history),
        taker=contract.taker if contract else None,
        trump=contract.trump if contract else None,
        leader=game.leader,
        trick=trick,
        trick_no=game.trick_no,
        last_trick=last,
        played=game.played,
        tricks_won=tuple(game.tricks_won),
        card_points=tuple(game.card_points),
        belote_said=tuple(game.belote_said),
        totals=tuple(game.totals),
        pot=game.pot,
        legal_actions=tuple(game.legal_actions(seat)) if seat is not None else (),
        winner=game.winner,
        declarations_said=tuple(game.declarations_said),
        tricks=tuple(game.trick_history),
        declaration_points=game.declaration_points,
        contract_level=contract.level if contract else 0,
        contract_multiplier=contract.multiplier if contract else 1,
        shown=tuple(game.shown_cards),
        ruleset=game.rules,
    )
