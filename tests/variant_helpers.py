"""Helpers for the rule tests of the presets other than ``classic``.

The auction presets (valdostana, coinche) deal all eight cards before the bidding, in packets
``rules.deal_packets`` (3, 2, 3) to each seat in order from ``dealer + 1``, with no turned card
(seed 000: "8 carte a testa in tre giri (prima 3 poi 2 poi 3"). :func:`deck_for_full` inverts
that deal as :func:`helpers.deck_for` inverts the take-or-pass deal.  Seats are numbered in
playing order; team 0 is seats 0 and 2, team 1 seats 1 and 3.  With ``dealer=3`` seat 0 speaks
and leads first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from helpers import cards, deck_for, full_hands

from belote.cards import Card
from belote.engine import actions as A
from belote.engine.events import Event, HandScored
from belote.engine.scoring import HandFacts, HandOutcome, Pot, score_hand
from belote.engine.state import Game, Phase
from belote.rules import Rules, find_preset

PINASCA = find_preset("pinasca")
ITALIAN = find_preset("italian")
VALDOSTANA = find_preset("valdostana")
COINCHE = find_preset("coinche")




def deck_for_full(
    hands: Mapping[int, str], dealer: int = 3, packets: Sequence[int] = (3, 2, 3)
) -> list[Card]:
    """A deck that, dealt by ``dealer`` in ``packets`` (all 8 cards), gives ``hands``."""
    if sum(packets) != 8:
        raise ValueError("the packets of a full deal add up to 8")
    full = full_hands(hands)
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    deck: list[Card] = []
    position = dict.fromkeys(order, 0)
    for packet in packets:
        for seat in order:
            deck.extend(full[seat][position[seat]:position[seat] + packet])
            position[seat] += packet
    assert sorted(deck) == list(range(32)), "internal: deck_for_full built a bad deck"
    return deck


def mask(text: str) -> int:
    return sum(1 << card for card in cards(text))


def auction_game(
    hands: Mapping[int, str], rules: Rules = VALDOSTANA, dealer: int = 3
) -> tuple[Game, list[Event]]:
    """An auction game dealt by ``dealer``, in the bidding phase, with exactly ``hands``."""
    game = Game(rules, first_dealer=dealer)
    events = game.deal(deck_for_full(hands, dealer, rules.deal_packets))
    if game.phase == Phase.CUT:
        events += game.apply(A.KNOCK)  # trust the dealer: the deck is dealt as built
    for seat, text in hands.items():
        assert game.hands[seat] == mask(text), seat
    return game, events


def calls(game: Game, *actions: int) -> list[Event]:
    """Apply bids in turn order."""
    events: list[Event] = []
    for action in actions:
        events += game.apply(action)
    return events


def level_index(rules: Rules, level: int) -> int:
    assert rules.auction is not None
    return rules.auction.levels.index(level)


def bid(rules: Rules, level: int, suit: int) -> int:
    """The action id of a contract ``level`` in ``suit``."""
    return A.contract_bid(level_index(rules, level), suit)


def italian_in_play(
    hands: Mapping[int, str],
    turned: str,
    taker: int,
    call: int,
    dealer: int = 3,
    rules: Rules = ITALIAN,
) -> tuple[Game, list[Event]]:
    """An italian game whose bidding is over: ``taker`` made ``call`` (TAKE in round 1, or a
    round-2 call: a suit, SENZA or TUTTE); the caller's partner lets a suit call stand."""
    game = Game(rules, first_dealer=dealer)
    events = game.deal(deck_for(hands, turned, dealer, taker, rules.deal_packets,
                                rest_from_taker=rules.deal_rest_from_taker))
    if call != A.TAKE:
        for _ in range(4):
            events += game.apply(A.PASS)
    while game.current_player() != taker:
        events += game.apply(A.PASS)
    events += game.apply(call)
    if game.phase == Phase.BIDDING:  # a suit call: the partner may override with senza
        events += game.apply(A.PASS)
    assert game.phase == Phase.PLAYING
    for seat, text in hands.items():
        assert game.hands[seat] == mask(text), seat
    return game, events


def finish_hand(game: Game, announce: bool = False) -> list[Event]:
    """Play the rest of the hand with each mover's lowest legal card; with ``announce`` a
    card that opens a belote announcement is played announcing it.  No declarations."""
    events: list[Event] = []
    while game.phase == Phase.PLAYING:
        legal = game.legal_actions()
        card = min(action for action in legal if action < A.PLAY_ANNOUNCE_BASE)
        if announce and A.play_announcing(card) in legal:
            events += game.apply(A.play_announcing(card))
        else:
            events += game.apply(card)
    return events


def scored(events: list[Event]) -> HandScored:
    found = [event for event in events if isinstance(event, HandScored)]
    assert len(found) == 1, found
    return found[0]


def outcome(
    rules: Rules,
    card_points: tuple[int, int],
    taker_team: int = 0,
    *,
    trump: int = 0,
    tricks_won: tuple[int, int] | None = None,
    belote: tuple[int, int] = (0, 0),
    declarations: tuple[int, int] = (0, 0),
    level: int = 0,
    capot_contract: bool = False,
    multiplier: int = 1,
    last_caller_team: int | None = None,
    pot: Pot | None = None,
) -> HandOutcome:
    """``score_hand`` for one hand; tricks default to 4-4 (8-0 when a team has every point
    of a one-trump hand)."""
    if tricks_won is None:
        tricks_won = (4, 4)
        if card_points[1] == 0:
            tricks_won = (8, 0)
        elif card_points[0] == 0:
            tricks_won = (0, 8)
    facts = HandFacts(
        taker_team=taker_team,
        trump=trump,
        card_points=card_points,
        tricks_won=tricks_won,
        belote=belote,
        declarations=declarations,
        level=level,
        capot_contract=capot_contract,
        multiplier=multiplier,
        last_caller_team=last_caller_team,
    )
    return score_hand(rules, facts, pot if pot is not None else Pot())


__all__ = [
    "COINCHE",
    "ITALIAN",
    "PINASCA",
    "VALDOSTANA",
    "auction_game",
    "bid",
    "calls",
    "deck_for_full",
    "finish_hand",
    "full_hands",
    "italian_in_play",
    "level_index",
    "mask",
    "outcome",
    "scored",
]
