"""Tensors for learning code (OpenSpiel observers): equal information states give equal
tensors, the mask is ``legal_actions()``, the layout's named slices tile the vector."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_resample import positions

from belote.engine import CHANCE, Game, seeded_deck_source
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
    for layout, size in ((LAYOUT, INFORMATION_STATE_SIZE), (OBSERVATION_LAYOUT, OBSERVATION_SIZE)):
        stop = 0
        for part in layout.values():
            assert part.start == stop
            stop = part.stop
        assert stop == size
    assert all(LAYOUT[name] == part for name, part in OBSERVATION_LAYOUT.items())


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
