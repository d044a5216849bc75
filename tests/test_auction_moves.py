"""The other seats' bids as their bidders saw them (belote.ai.models.auction): what the seat
models read, for every auction kind, from a seat's view and from a spectator's."""

from __future__ import annotations

import dataclasses
import random

import pytest

from belote.ai.heuristic import HeuristicBot
from belote.ai.models.auction import auction_moves, bid_view, hands_at_deal
from belote.cards import CardSet
from belote.engine.state import CHANCE, Game, Phase
from belote.rules import find_preset
from belote.sim.match import play_step

Bid = tuple[int, int, tuple[int, ...]]  # (seat, bid made, legal bids then)


def _played(preset: str, seed: int, cards: int = 99) -> tuple[Game, list[Bid], list[CardSet]]:
    """A hand of normal bots from seed ``seed``, stopped after ``cards`` cards of play (or at
    the hand's end), with every bid made and what was legal then, and the hands as dealt
    (after the auction: with a turned card, the whole eight)."""
    rules = find_preset(preset)
    game = Game(rules, 0)
    rng = random.Random(seed)
    players = [HeuristicBot(seed + s) for s in range(rules.players)]
    bids: list[Bid] = []
    dealt: list[CardSet] = []

    def deck() -> list[int]:
        cards = list(range(32))
        rng.shuffle(cards)
        return cards

    while not game.is_terminal():
        mover = game.current_player()
        if mover != CHANCE and game.phase == Phase.PLAYING:
            if not dealt:
                dealt = list(game.hands)
            if 8 * rules.players - sum(h.bit_count() for h in game.hands) >= cards:
                break
        if mover == CHANCE:
            bids.clear()  # a fresh deal (the first, or a redeal after all passed)
        elif game.phase == Phase.BIDDING:
            legal = tuple(sorted(game.legal_actions(mover)))
            play_step(game, players, deck)
            bids.append((mover, game.observation(None).bids[-1][1], legal))
            continue
        play_step(game, players, deck)
        if game.phase != Phase.PLAYING and dealt:
            break
    return game, bids, dealt


def _with_choice(bids: list[Bid]) -> list[Bid]:
    return [bid for bid in bids if len(bid[2]) > 1]


@pytest.mark.parametrize("preset", ["classic", "coinche", "valdostana"])
def test_a_spectator_reads_every_seats_bids_with_what_was_legal_then(preset: str) -> None:
    game, bids, _ = _played(preset, 11, cards=1)
    spectator = game.observation(None)
    moves = auction_moves(spectator)
    assert [(who, action, legal) for who, action, legal, _ in moves] == _with_choice(bids)
    for who, action, legal, before in moves:
        assert action in legal
        assert spectator.bids[:len(before)] == before  # the bids heard before it
        assert (who, action) == spectator.bids[len(before)]


@pytest.mark.parametrize("preset", ["classic", "coinche"])
def test_a_seat_reads_the_other_seats_bids_never_its_own(preset: str) -> None:
    game, bids, _ = _played(preset, 5, cards=1)
    for seat in range(4):
        moves = auction_moves(game.observation(seat))
        assert [(w, a, legal) for w, a, legal, _ in moves] == [
            bid for bid in _with_choice(bids) if bid[0] != seat]


def test_take_or_pass_is_read_only_with_the_turned_card() -> None:
    game, _, _ = _played("classic", 3, cards=1)
    spectator = game.observation(None)
    assert spectator.turned is not None and auction_moves(spectator)
    # the bids' legal sets depend on the turned card's suit: without it, nothing is read
    assert auction_moves(dataclasses.replace(spectator, turned=None)) == ()


def test_no_auction_is_read_without_rules_bids_or_four_seats() -> None:
    game, _, _ = _played("coinche", 2, cards=1)
    spectator = game.observation(None)
    assert auction_moves(dataclasses.replace(spectator, ruleset=None)) == ()
    assert auction_moves(dataclasses.replace(spectator, bids=())) == ()
    three, bids, _ = _played("valdostana3", 2, cards=1)
    assert _with_choice(bids)  # bids with a choice were made, but the models seat four
    assert auction_moves(three.observation(None)) == ()


def test_a_bid_view_is_the_bidders_seat_at_its_bid_holding_the_given_hand() -> None:
    game, _, dealt = _played("coinche", 7, cards=6)
    obs = game.observation(0)
    move = auction_moves(obs)[-1]
    who, _action, legal, before = move
    view = bid_view(obs, move, dealt[who])
    assert (view.seat, view.hand, view.legal_actions, view.bids) == (who, dealt[who], legal,
                                                                    before)
    assert view.phase == Phase.BIDDING and view.current_player == who
    assert view.trick == () and view.tricks == () and view.trump is None  # no play yet
    assert view.contract_level == 0 and view.taker is None  # no contract yet at its bid


@pytest.mark.parametrize("preset, cards", [("coinche", 14), ("classic", 9),
                                           ("valdostana3", 7)])
def test_hands_at_deal_give_back_each_seats_cards_as_dealt(preset: str, cards: int) -> None:
    game, _, dealt = _played(preset, 4, cards=cards)
    assert game.phase == Phase.PLAYING
    spectator = game.observation(None)
    assert spectator.trick or spectator.tricks  # cards were played: a trick under way too
    assert hands_at_deal(spectator, list(game.hands)) == tuple(dealt)
