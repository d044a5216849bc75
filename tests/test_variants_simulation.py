"""10,000 simulated hands per preset (all five) with seeded random players, checking the
engine's invariants as they go (RULES.md "Common ground"; the property tests of
tests/test_properties.py, extended to every preset).

At every step (cheap): the cards are conserved (hands + played + undealt = the 32 cards, each
once), a player who must act has a legal action, nothing raises, and every ``CardsDealt``
event is visible to its own seat only.  At every hand's end: the trick points of the hand
total the mode's total before the capot bonus (162 with one trump, 130 in senza, 258 in
tutte) and the hand's scored card points are that total (+ 90 for a capot) times the senza
multiplier.  Sampled (one hand in ``OBSERVE_EVERY``, every step of it): each seat's
observation shows its own hand and never another seat's cards; the spectator sees no hand.

The random players pass often in the bidding (so that redeals and short auctions happen),
announce belote with the card half of the time and out of turn now and then, and declare
whatever the engine offers.  Runtime: 5 to 12 s per preset (about 36 s in all) on the
development machine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from belote.cards import ALL_CARDS, NUM_CARDS
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import (
    ALL_TRUMP,
    NO_TRUMP,
    AllPassed,
    CardsDealt,
    ContractSet,
    HandScored,
    OttavaShown,
    TrickWon,
)
from belote.engine.state import CHANCE, Game, Phase
from belote.rules import PRESETS, Rules

HANDS_PER_PRESET = 10_000
OBSERVE_EVERY = 10  # the observation checks run on every step of one hand in ten
PASS_BIAS = 0.55  # probability of passing when a pass is legal in the bidding


def mode_total(trump: int) -> int:
    """Card points of one hand with the last trick's 10, before any capot bonus."""
    if trump == NO_TRUMP:
        return 4 * 30 + 10
    if trump == ALL_TRUMP:
        return 4 * 62 + 10
    return 152 + 10


def check_cards(game: Game) -> None:
    """Hands, cards played and cards not yet dealt: the 32 cards, each exactly once (while a
    hand is on: between hands the cards are collected)."""
    if game.phase != Phase.BIDDING and game.phase != Phase.PLAYING:
        return
    held = 0
    count = 0
    for hand in game.hands:
        held |= hand
        count += hand.bit_count()
    assert count == held.bit_count(), "a card is in two hands"
    assert held & game.played == 0, "a card is both held and played"
    undealt = 0
    if game.phase == Phase.BIDDING:
        dealt = sum(game.rules.deal_packets) * game.players
        for card in game.deck[dealt:]:
            undealt |= 1 << card
        assert len(game.deck) - dealt == undealt.bit_count()
    undealt |= game.widow  # fewer than four players: the monte, dealt to nobody
    assert (held | game.played | undealt) == ALL_CARDS
    assert count + game.played.bit_count() + undealt.bit_count() == NUM_CARDS


def check_observations(game: Game) -> None:
    dealt = game.phase == Phase.BIDDING or game.phase == Phase.PLAYING
    for seat in range(game.players):
        view = game.observation(seat)
        assert view.hand == (game.hands[seat] if dealt else 0)
        for other in range(game.players):
            if other != seat:
                assert view.hand & game.hands[other] == 0
        if dealt:
            assert view.hand_sizes == tuple(hand.bit_count() for hand in game.hands)
        if seat == game.current_player():
            assert view.legal_actions == tuple(game.legal_actions(seat))
    spectator = game.spectator_view()
    assert spectator.hand == 0 and spectator.legal_actions == ()


def choose(game: Game, seat: int, legal: list[int], rng: random.Random) -> int:
    if game.phase == Phase.BIDDING:
        if A.PASS in legal and rng.random() < PASS_BIAS:
            return A.PASS
        contracts = [a for a in legal if a >= A.CONTRACT_BASE]
        if contracts and rng.random() < 0.8:
            return rng.choice(contracts[:8])  # mostly the two lowest levels still open
        return rng.choice(legal)
    declarations = [a for a in legal if A.is_declaration(a)]
    if declarations and rng.random() < 0.7:
        return rng.choice(declarations)
    if A.OTTAVA in legal and rng.random() < 0.5:
        return A.OTTAVA
    plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE + 32]
    if plays:
        announcing = [a for a in plays if a >= A.PLAY_ANNOUNCE_BASE]
        if announcing and rng.random() < 0.5:
            return rng.choice(announcing)
        return rng.choice([a for a in plays if a < A.PLAY_ANNOUNCE_BASE])
    return rng.choice(legal)


def simulate(rules: Rules, hands: int, seed: int) -> Counter[str]:
    """Play ``hands`` scored hands under ``rules``, checking the invariants; return counts of
    what happened (modes, multipliers, outcomes, redeals)."""
    rng = random.Random(seed)
    decks = seeded_deck_source(seed)
    stats: Counter[str] = Counter()
    game = Game(rules, first_dealer=rng.randrange(rules.players))
    observe = False
    hand_points = 0
    trump = -1
    while stats["hands"] < hands:
        if game.is_terminal():
            stats["matches"] += 1
            game = Game(rules, first_dealer=rng.randrange(rules.players))
        mover = game.current_player()
        if mover == CHANCE:
            events = game.deal(decks())
            observe = stats["deals"] % OBSERVE_EVERY == 0
            stats["deals"] += 1
        else:
            legal = game.legal_actions()
            assert legal, f"seat {mover} must act and has no legal action"
            announcers = game.seats_with_open_window()
            if announcers and rng.random() < 0.3:
                seat = rng.choice(announcers)
                events = game.apply(A.ANNOUNCE_BELOTE, seat)
            else:
                events = game.apply(choose(game, mover, legal, rng), mover)
        check_cards(game)
        if observe:
            check_observations(game)
        for event in events:
            if isinstance(event, CardsDealt):
                assert event.visible_to(event.seat)
                assert not event.visible_to(None)
                assert not any(event.visible_to(s) for s in range(rules.players)
                               if s != event.seat)
            elif isinstance(event, ContractSet):
                trump = event.trump
                hand_points = 0
                stats[f"trump_{trump}"] += 1
                stats[f"x{event.multiplier}"] += 1
            elif isinstance(event, TrickWon):
                hand_points += event.points
            elif isinstance(event, HandScored):
                assert hand_points == mode_total(trump), (rules.name, trump, hand_points)
                capot = rules.capot_bonus if event.capot_team is not None else 0
                factor = rules.senza_multiplier if trump == NO_TRUMP else 1
                assert sum(event.card_points) == (hand_points + capot) * factor
                assert min(event.scores) >= 0
                assert event.totals == tuple(game.totals)
                stats["hands"] += 1
                stats[event.outcome] += 1
                stats["capot"] += event.capot_team is not None
            elif isinstance(event, AllPassed):
                stats["redeals"] += 1
            elif isinstance(event, OttavaShown):
                stats["ottava"] += 1
    return stats


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.slow
@pytest.mark.no_cover
def test_simulated_hands_keep_every_invariant(name: str) -> None:
    rules = PRESETS[name]
    stats = simulate(rules, HANDS_PER_PRESET, seed=2024 + len(name))
    assert stats["hands"] == HANDS_PER_PRESET
    # The walk reaches the rules' corners: redeals, both outcomes, ties, and every mode.
    assert stats["redeals"] > 0 and stats["made"] > 0 and stats["failed"] > 0
    assert stats["litige"] > 0
    if rules.allow_senza:
        assert stats[f"trump_{NO_TRUMP}"] > 0 and stats[f"trump_{ALL_TRUMP}"] > 0
    if rules.auction is not None:
        assert stats["x2"] > 0 and stats["x4"] > 0
