"""The incremental tensors (``belote.rl.tracker``) equal the from-scratch ones at every step
of random matches of every preset, for every seat; a game moved behind the tracker's back is
noticed and rebuilt, never served stale."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.cards import ACES
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.errors import IllegalActionError
from belote.rl import (
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    information_state_tensor,
    observation_tensor,
)
from belote.rl.tracker import TensorTracker
from belote.rules import PRESETS


def assert_same(tracker: TensorTracker) -> None:
    for seat in range(4):
        assert np.array_equal(tracker.information_state(seat),
                              information_state_tensor(tracker.game, seat)), seat
        assert np.array_equal(tracker.observation(seat),
                              observation_tensor(tracker.game, seat)), seat


@pytest.mark.parametrize("preset", [p for p, r in PRESETS.items() if r.players == 4])
def test_tracked_tensors_equal_the_rebuilt_ones_at_every_step(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(7)
    source = seeded_deck_source(8)
    steps = 0
    for first_dealer in range(2):
        tracker = TensorTracker(Game(rules, first_dealer))
        while not tracker.game.is_terminal() and steps < 700:
            game = tracker.game
            assert_same(tracker)
            if game.current_player() == CHANCE:
                tracker.deal(source())
                continue
            seat = rng.choice([game.current_player(), *game.seats_with_open_window()])
            legal = game.legal_actions(seat)
            action = rng.choice(legal)
            if A.ASPETTO in legal and action in (A.PASS, A.ASPETTO):
                action = A.ASPETTO if game.hands[seat] & ACES else A.PASS  # said truthfully
            if A.PASS in legal and rng.random() < 0.5:
                action = A.PASS  # auctions that do not run to the top at once
            if seat == game.current_player() and rng.random() < 0.5:
                obs, next_legal = tracker.step(action)
                mover = game.current_player()
                assert next_legal == (game.legal_actions() if mover >= 0 else [])
                assert np.array_equal(obs, observation_tensor(game, mover if mover >= 0
                                                              else seat))
            else:
                tracker.apply(action, seat)
            steps += 1
        assert_same(tracker)
        assert tracker.rebuilds == 0


def test_a_game_moved_without_the_tracker_is_rebuilt_and_counted() -> None:
    game = Game(PRESETS["coinche"])
    tracker = TensorTracker(game)
    tracker.deal(seeded_deck_source(1)())
    game.apply(game.legal_actions()[-1])  # behind the tracker's back
    assert_same(tracker)
    assert tracker.rebuilds == 1
    game.undo()
    game.apply(game.legal_actions()[-2])  # same length of log, another action
    assert_same(tracker)
    assert tracker.rebuilds == 2


def test_an_illegal_action_changes_nothing_and_bad_arguments_are_refused() -> None:
    tracker = TensorTracker(Game(PRESETS["classic"]))
    tracker.deal(seeded_deck_source(2)())
    before = tracker.information_state(1)
    with pytest.raises(IllegalActionError):
        tracker.apply(A.CONTRO)
    assert np.array_equal(tracker.information_state(1), before)
    with pytest.raises(IllegalActionError):
        tracker.step(A.CONTRO)
    assert tracker.legal_actions() == tracker.game.legal_actions()
    assert np.array_equal(tracker.information_state(1), before)
    with pytest.raises(ValueError, match="seat"):
        tracker.observation(4)
    with pytest.raises(ValueError, match="out"):
        tracker.observation(0, out=np.zeros(3, dtype=np.float32))
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    assert tracker.observation(2, out=out) is out
    assert np.array_equal(out, observation_tensor(tracker.game, 2))
    assert tracker.information_state(0).shape == (INFORMATION_STATE_SIZE,)
