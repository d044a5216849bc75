"""The OpenSpiel-style state: chance dealing card by card, sorted legal actions, zero-sum
returns, clones independent, resampling keeps the information state.  The second part
registers belote with OpenSpiel and runs its random-simulation test; it is skipped when
``open_spiel`` is not importable (it is not a dependency: docs/research.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.engine import CHANCE, TERMINAL
from belote.rl.openspiel_state import BeloteState
from belote.rules import PRESETS


def _random_play(state: BeloteState, rng: random.Random, stop: int | None = None) -> None:
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_action(rng.choice(outcomes)[0])
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal)
            state.apply_action(rng.choice(legal))
        steps += 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_one_deal_episode_ends_with_zero_sum_returns(preset: str) -> None:
    state = BeloteState(PRESETS[preset], max_deals=1)
    _random_play(state, random.Random(1))
    assert state.current_player() == TERMINAL
    assert sum(state.returns()) == 0
    assert state.returns()[0] == state.returns()[2]


def test_clone_is_independent_and_resample_keeps_the_information_state() -> None:
    state = BeloteState(PRESETS["classic"], max_deals=2)
    _random_play(state, random.Random(2), stop=50)
    twin = state.clone()
    _random_play(twin, random.Random(3))
    assert not state.is_terminal()
    player = state.current_player()
    if player == CHANCE:
        player = 0
    other = state.resample_from_infostate(player, random.Random(4))
    assert np.array_equal(other.information_state_tensor(player),
                          state.information_state_tensor(player))


def test_bad_chance_action_is_refused() -> None:
    state = BeloteState(PRESETS["classic"])
    state.apply_action(5)
    with pytest.raises(ValueError):
        state.apply_action(5)


def test_openspiel_random_simulation_test() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from belote.rl.openspiel_game import register

    game = register(pyspiel)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
