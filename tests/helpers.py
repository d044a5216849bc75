"""Helpers that build exact positions for rule tests.

``Game.deal`` deals the deck from index 0: with dealer ``d`` the first player is ``(d+1) % 4``;
packets of ``rules.deal_packets`` (3 then 2) go to each seat in order from ``d+1``; the next card
is turned; after the bidding, from the next card on, each seat in order from ``d+1`` gets 3 more,
the taker only 2 (the taker also receives the turned card).  :func:`deck_for` inverts this so
that each seat ends the deal with an exact 8-card hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from belote.ai.heuristic import HeuristicBot
from belote.cards import Card, card_list
from belote.engine import actions as A
from belote.engine.dealing import DeckSource, seeded_deck_source
from belote.engine.events import Event, HandScored
from belote.engine.state import CHANCE, Game, Phase
from belote.notation import parse_card, to_card
from belote.rules import PRESETS, Rules, find_preset

CLASSIC = find_preset("classic")


def cards(text: str) -> list[Card]:
    """Cards of a space-separated list, in the order written ("JH 9H AH")."""
    return [parse_card(token) for token in text.split()]


def c(text: str) -> Card:
    return parse_card(text)


def play(text: str) -> int:
    """The action id that plays a card ("JH")."""
    return A.play(parse_card(text))


def play_belote(text: str) -> int:
    """The action id that plays a card and announces belote/rebelote with it."""
    return A.play_announcing(parse_card(text))


def full_hands(hands: Mapping[int, str]) -> dict[int, list[Card]]:
    """Each seat's 8 cards in the order written; seats left out share the other cards."""
    result = {seat: cards(text) for seat, text in hands.items()}
    used = [card for hand in result.values() for card in hand]
    if len(used) != len(set(used)):
        raise ValueError("a card is given to two seats (or twice to one)")
    rest = [card for card in range(32) if card not in used]
    for seat in range(4):
        if seat not in result:
            result[seat], rest = rest[:8], rest[8:]
    for seat, hand in result.items():
        if len(hand) != 8:
            raise ValueError(f"seat {seat} must get 8 cards, not {len(hand)}")
    return result


def _complete_hands(hands: Mapping[int, str], turned: Card) -> dict[int, list[Card]]:
    """:func:`full_hands`, checking that the turned card is in one of them."""
    result = full_hands(hands)
    if all(turned not in hand for hand in result.values()):
        raise ValueError("the turned card must be in the taker's hand")
    return result


def deck_for(
    hands: Mapping[int, str],
    turned: str,
    dealer: int = 0,
    taker: int | None = None,
    packets: tuple[int, ...] = (3, 2),
    rest_from_taker: bool = False,
) -> list[Card]:
    """A deck that, dealt by ``dealer`` with the contract to ``taker``, gives ``hands``;
    ``rest_from_taker``: the rest of the deal starts from the taker (``deal_rest_from_taker``).

    ``hands`` maps seats to 8 cards each; seats left out share the other cards, in order.
    The turned card must be in the taker's hand; ``taker`` defaults to the seat holding it.
    """
    turned_card = parse_card(turned)
    full = _complete_hands(hands, turned_card)
    holder = next(seat for seat, hand in full.items() if turned_card in hand)
    if taker is None:
        taker = holder
    if taker != holder:
        raise ValueError(f"the turned card {turned} must be in the taker's (seat {taker}) hand")
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    first = sum(packets)
    pending = {seat: [card for card in full[seat] if card != turned_card] for seat in order}
    deck: list[Card] = []
    position = {seat: 0 for seat in order}
    for packet in packets:
        for seat in order:
            deck.extend(pending[seat][position[seat]:position[seat] + packet])
            position[seat] += packet
    deck.append(turned_card)
    if rest_from_taker:
        order = [(taker + i) % 4 for i in range(4)]
    for seat in order:
        deck.extend(pending[seat][first:])
    assert sorted(deck) == list(range(32)), "internal: deck_for built a bad deck"
    return deck


def bid_to(game: Game, taker: int, trump: int | None = None) -> list[Event]:
    """Run take-or-pass bidding so that ``taker`` takes ``trump`` (default: the turned suit)."""
    events: list[Event] = []
    turned_suit = game.turned >> 3
    if trump is None or trump == turned_suit:
        action = A.TAKE
    else:
        action = A.name_suit(trump)
        for _ in range(4):  # round 1: everybody passes
            events += game.apply(A.PASS)
    while game.current_player() != taker:
        events += game.apply(A.PASS)
    events += game.apply(action)
    assert game.phase == Phase.PLAYING
    return events


def game_in_play(
    hands: Mapping[int, str],
    turned: str,
    taker: int,
    dealer: int = 0,
    trump: int | None = None,
    rules: Rules = CLASSIC,
) -> tuple[Game, list[Event]]:
    """A game dealt by ``dealer`` whose bidding is over: ``taker`` took ``trump``.

    ``trump`` defaults to the turned card's suit (taken in round 1); another suit is named in
    round 2.  Returns the game and every event so far.
    """
    game = Game(rules, first_dealer=dealer)
    deck = deck_for(hands, turned, dealer, taker, rules.deal_packets,
                    rest_from_taker=rules.deal_rest_from_taker)
    events = game.deal(deck)
    events += bid_to(game, taker, trump)
    for seat, text in hands.items():
        assert game.hands[seat] == sum(1 << card for card in cards(text)), seat
    return game, events


def play_cards(game: Game, texts: str) -> list[Event]:
    """Play cards in turn order ("7H 8H 9H 10H"); "KH+" plays and announces belote."""
    events: list[Event] = []
    for token in texts.split():
        if token.endswith("+"):
            events += game.apply(play_belote(token[:-1]))
        else:
            events += game.apply(play(token))
    return events


def legal_cards(game: Game) -> set[str]:
    """The cards (not the action ids) the player to move may play, as strings."""
    return {to_card(card) for card in card_list(game.legal_plays())}


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to compare before/after an operation."""
    views = tuple(game.observation(seat) for seat in (0, 1, 2, 3, None))
    legal = tuple(tuple(game.legal_actions(seat)) for seat in range(4))
    return (
        views,
        legal,
        game.log,
        tuple(game.totals),
        game.pot,
        tuple(game.hands),
        game.deck,
        game.current_player(),
        game.phase,
        game.dealer,
        game.deal_no,
        tuple(game.belote_points),
        game.winner,
    )


def of_kind(events: list[Event], kind: type[Event]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]



def play_random_hand(game: Game, deck_source: DeckSource, rng: random.Random) -> list[Event]:
    """Deal (redealing after all-pass) and play one hand with random legal actions.

    The announce-only action is never chosen; the combined play+announce ids are.
    Stops after the hand is scored (or the match is over).
    """
    events: list[Event] = []
    while True:
        if game.is_terminal():
            return events
        if game.current_player() == CHANCE:
            if any(isinstance(event, HandScored) for event in events):
                return events
            events += game.deal(deck_source())
            continue
        choices = [a for a in game.legal_actions() if a != A.ANNOUNCE_BELOTE]
        events += game.apply(rng.choice(choices))

__all__ = [
    "CHANCE",
    "CLASSIC",
    "bid_to",
    "c",
    "cards",
    "deck_for",
    "game_in_play",
    "legal_cards",
    "of_kind",
    "play",
    "play_belote",
    "play_cards",
    "play_random_hand",
    "snapshot",
]


def play_every_seat_legally(rules: Rules, bot: Any, steps: int, seed: int = 2) -> Game:
    """``bot`` plays every seat of a seeded game for up to ``steps`` decisions (deals
    between), each of its choices asserted legal; the game as it ends."""
    game = Game(rules, 0)
    source = seeded_deck_source(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        if game.current_player() == CHANCE:
            game.deal(source())
            continue
        seat = game.current_player()
        obs = game.observation(seat)
        action = bot.choose(obs)
        assert action in obs.legal_actions
        game.apply(action, seat)
    return game


def normal_bots_midway(preset: str, seed: int, cards: int) -> Game:
    """A hand of ``preset`` played by four normal bots until ``cards`` cards are down."""
    bots = [HeuristicBot(s) for s in range(4)]
    for attempt in range(20):
        game = Game(PRESETS[preset], 0)
        source = seeded_deck_source(seed + attempt)
        while not game.is_terminal():
            if game.phase == Phase.PLAYING and game.played.bit_count() >= cards:
                return game
            if game.current_player() == CHANCE:
                if game.deal_no:
                    break  # all passed: try another deck
                game.deal(source())
                continue
            seat = game.current_player()
            game.apply(bots[seat].choose(game.observation(seat)), seat)
    raise AssertionError("no hand was played")
