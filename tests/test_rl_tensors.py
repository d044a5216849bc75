"""Tensors for learning code (OpenSpiel observers): equal information states give equal
tensors, the information state remembers the cards the seat bid on, the mask is
``legal_actions()``, the layout's named slices tile the vector; the global state holds
every hand."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_resample import positions

from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.events import HandScored
from belote.rl import (
    INFORMATION_STATE_SIZE,
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    action_name,
    hand_returns,
    information_state_tensor,
    legal_action_mask,
    match_returns,
    observation_tensor,
)
from belote.rl.tensors import STATE_LAYOUT, STATE_SIZE, bidding_hand, state_tensor
from belote.rules import PRESETS


@pytest.mark.parametrize("preset", [p for p, r in PRESETS.items() if r.players == 4])
def test_same_information_state_gives_the_same_tensors(preset: str) -> None:
    rng = random.Random(2)
    for game, seat in positions(preset, seed=21, count=15):
        other = game.resample(seat, rng)  # another deal that agrees on what seat knows
        assert np.array_equal(information_state_tensor(game, seat),
                              information_state_tensor(other, seat))
        assert np.array_equal(observation_tensor(game, seat), observation_tensor(other, seat))


@pytest.mark.parametrize("preset", [p for p, r in PRESETS.items() if r.players == 4])
def test_mask_matches_legal_actions(preset: str) -> None:
    for game, seat in positions(preset, seed=22, count=30):
        for who in (None, seat):
            mask = legal_action_mask(game, who)
            assert mask.shape == (NUM_ACTIONS,)
            assert list(np.flatnonzero(mask)) == sorted(game.legal_actions(who))


def test_tensors_hold_only_the_seats_own_hand() -> None:
    game, _ = next(p for p in positions("classic", seed=23, count=50) if p[0].phase == 2)
    for seat in range(4):
        hand = information_state_tensor(game, seat)[LAYOUT["hand"]]
        assert list(np.flatnonzero(hand)) == [c for c in range(32) if game.hands[seat] >> c & 1]


def test_layouts_tile_their_vectors() -> None:
    for layout, size in ((LAYOUT, INFORMATION_STATE_SIZE), (OBSERVATION_LAYOUT, OBSERVATION_SIZE),
                         (STATE_LAYOUT, STATE_SIZE)):
        stop = 0
        for part in layout.values():
            assert part.start == stop
            stop = part.stop
        assert stop == size
    assert all(LAYOUT[name] == part for name, part in OBSERVATION_LAYOUT.items())
    assert all(STATE_LAYOUT[name] == part for name, part in LAYOUT.items())


def _taken(deck: list[int]) -> Game:
    """A classic hand dealt from ``deck`` (East deals), South passes, West takes."""
    game = Game(PRESETS["classic"], first_dealer=1)
    game.deal(deck)
    game.apply(A.PASS)
    game.apply(A.TAKE)
    return game


def test_information_state_remembers_which_cards_the_seat_bid_on() -> None:
    # Classic deals five cards (3 then 2) before the auction and three after it (seed 002):
    # two deals that end in the same hands, one of West's first five swapped with one it got
    # after the auction, differ for West only in the cards it took on.
    deck = list(range(32))
    random.Random(31).shuffle(deck)
    west = 3
    one = _taken(deck)
    first = bidding_hand(one, west)
    later = one.hands[west] & ~first & ~(1 << one.turned)  # the taker: turned card and 2 more
    assert first.bit_count() == 5 and later.bit_count() == 2
    i = next(i for i, c in enumerate(deck) if first >> c & 1)
    j = next(j for j, c in enumerate(deck) if later >> c & 1)
    swapped = deck[:]
    swapped[i], swapped[j] = swapped[j], swapped[i]
    other = _taken(swapped)
    assert other.hands == one.hands and bidding_hand(other, west) != first
    assert np.array_equal(observation_tensor(one, west), observation_tensor(other, west))
    a, b = information_state_tensor(one, west), information_state_tensor(other, west)
    differ = np.flatnonzero(a != b)
    part = LAYOUT["bidding_hand"]
    assert differ.size and all(part.start <= k < part.stop for k in differ)
    assert list(np.flatnonzero(a[part])) == [c for c in range(32) if first >> c & 1]
    for seat in (0, 1, 2):  # the others' bidding hands did not change
        assert np.array_equal(information_state_tensor(one, seat),
                              information_state_tensor(other, seat))


@pytest.mark.parametrize("preset", [p for p, r in PRESETS.items() if r.players == 4])
def test_bidding_hand_is_the_hand_of_the_auction(preset: str) -> None:
    for game, seat in positions(preset, seed=24, count=30):
        bid_on = bidding_hand(game, seat)
        if game.phase == 1:
            assert bid_on == game.hands[seat]
        if game.phase == 2:
            played = sum(1 << c for lead, cards in
                         (*game.trick_history, (game.leader, tuple(game.trick)))
                         for i, c in enumerate(cards) if (lead + i) % 4 == seat)
            assert bid_on & ~(game.hands[seat] | played) == 0
            assert bid_on.bit_count() == sum(game.rules.deal_packets)


def test_state_tensor_is_seat_0s_view_with_every_hand() -> None:
    for game, _ in positions("classic", seed=25, count=20):
        state = state_tensor(game)
        assert state.shape == (STATE_SIZE,) and state.dtype == np.float32
        assert np.array_equal(state[:INFORMATION_STATE_SIZE], information_state_tensor(game, 0))
        if game.phase in (1, 2):
            for part, cards in (("hands", game.hands),
                                ("bidding_hands", [bidding_hand(game, s) for s in range(4)])):
                block = state[STATE_LAYOUT[part]].reshape(4, 32)
                for seat in range(4):
                    assert list(np.flatnonzero(block[seat])) == \
                        [c for c in range(32) if cards[seat] >> c & 1]


def test_action_names_are_distinct_and_bad_ids_refused() -> None:
    names = [action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert action_name(0).startswith("play_") and action_name(64) == "pass"
    with pytest.raises(ValueError):
        action_name(NUM_ACTIONS)


def test_bad_seat_is_refused() -> None:
    game = Game(PRESETS["classic"])
    with pytest.raises(ValueError, match="seat"):
        information_state_tensor(game, 4)


def test_hand_returns_are_the_score_difference_and_match_returns_the_result() -> None:
    game = Game(PRESETS["classic"])
    deck = seeded_deck_source(3)
    rng = random.Random(3)
    total = np.zeros(4, dtype=np.float32)
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            game.deal(deck())
            continue
        events = game.apply(rng.choice(game.legal_actions()))
        reward = hand_returns(events)
        scored = [e for e in events if isinstance(e, HandScored)]
        assert bool(scored) == bool(reward.any()) or reward.sum() == 0
        total += reward
    assert total[0] == game.totals[0] - game.totals[1] == -total[1]
    assert np.array_equal(match_returns(game), np.array(game.returns(), dtype=np.float32))
