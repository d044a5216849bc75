"""belote registered with OpenSpiel (``python_belote``): OpenSpiel's own random-simulation
test with one to three deals, the game type agreeing with what the states provide, the
length bound, fewer-seat presets refused at load, resampling as OpenSpiel's ISMCTS calls it,
and ISMCTSBot through a whole hand.  Skipped where ``open_spiel`` (test extra) is not
importable."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from belote.rl.openspiel_game import max_game_length, register
from belote.rules import PRESETS

pyspiel = pytest.importorskip("pyspiel")

FOUR_SEATS = [name for name, rules in PRESETS.items() if rules.players == 4]


@pytest.fixture(scope="module")
def game() -> Any:
    return register(pyspiel)


def _load(preset: str = "classic", max_deals: int = 1) -> Any:
    return pyspiel.load_game("python_belote", {"preset": preset, "max_deals": max_deals})


def _to_first_decision(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_random_simulation_test(game: Any) -> None:
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("max_deals", [1, 2, 3])
@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_random_simulation_test_with_several_deals(game: Any, preset: str,
                                                    max_deals: int) -> None:
    # Issue 23: with max_deals > 1 the returns grew mid-episode while the rewards stayed 0.
    # random_sim_test checks the REWARDS model at every decision, the length bound, the
    # strings and tensors the game type declares, and the serialisation (first episode).
    pyspiel.random_sim_test(_load(preset, max_deals), num_sims=2, serialize=max_deals == 1,
                            verbose=False)


def test_game_type_agrees_with_the_states(game: Any) -> None:
    kind = game.get_type()
    assert kind.reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert kind.provides_information_state_string
    assert kind.provides_information_state_tensor
    assert kind.provides_observation_string
    assert kind.provides_observation_tensor
    state = game.new_initial_state()
    _to_first_decision(state, random.Random(1))
    for seat in range(4):
        assert state.information_state_string(seat)
        assert state.observation_string(seat)
        assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()
        assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    assert state.information_state_string(0) != state.information_state_string(1)


def test_observers_other_than_one_seat_are_refused(game: Any) -> None:
    public_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="observes one seat"):
        game.make_py_observer(public_only)


@pytest.mark.parametrize("preset", ["classic", "valdostana"])
def test_max_game_length_follows_max_deals(game: Any, preset: str) -> None:
    lengths = [_load(preset, deals).max_game_length() for deals in (1, 2, 3)]
    assert lengths == [max_game_length(PRESETS[preset], deals) for deals in (1, 2, 3)]
    assert lengths[2] == 3 * lengths[0]


@pytest.mark.parametrize("preset", [n for n, r in PRESETS.items() if r.players < 4])
def test_fewer_seat_preset_is_refused_at_load(game: Any, preset: str) -> None:
    with pytest.raises(ValueError, match=f"preset '{preset}' seats"):
        _load(preset)


def test_bad_max_deals_is_refused_at_load(game: Any) -> None:
    with pytest.raises(ValueError, match="max_deals"):
        _load("classic", 0)


def test_resample_as_ismcts_calls_it_keeps_the_information_state(game: Any) -> None:
    rng = random.Random(2)
    state = _load("pinasca", 2).new_initial_state()
    for _ in range(60):  # into the card play of the first deal
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    assert player >= 0
    for sampler in (pyspiel.UniformProbabilitySampler(0.0, 1.0), random.Random(3), 4):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.current_player() == player
        assert other.legal_actions() == state.legal_actions()
        assert len(other.history()) == len(state.history())
        assert other.inner.game.hands[player] == state.inner.game.hands[player]
    # The hidden hands are drawn, not copied: some draw differs from the true deal.
    draws = {tuple(state.resample_from_infostate(player, seed).history()) for seed in range(8)}
    assert len(draws) > 1


def test_ismcts_bot_plays_a_whole_hand(game: Any) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    seed = 5
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=16,
                           random_state=np.random.RandomState(seed))
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            action = bot.step(state)  # asserts each sampled root has the root's string
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions >= 32  # the bidding and the eight tricks
    returns = state.returns()
    assert sum(returns) == 0 and returns[0] == returns[2]
