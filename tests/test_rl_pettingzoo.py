"""The PettingZoo environment passes PettingZoo's own conformance test (``api_test``) on
every preset; skipped where the ``rl`` extra (pettingzoo) is not installed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from belote.rl import pettingzoo_env
from belote.rules import PRESETS

# api_test advises a bare array to every environment not on its own list (chess, go, ...),
# even though those use the same {"observation", "action_mask"} dict as this one.
DICT_SPACE_ADVICE = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning")


@DICT_SPACE_ADVICE
@pytest.mark.parametrize("preset", [p for p, r in PRESETS.items() if r.players == 4])
def test_environment_passes_pettingzoo_api_test(preset: str) -> None:
    api_test(pettingzoo_env.env(preset=preset), num_cycles=300)


@DICT_SPACE_ADVICE
def test_raw_environment_passes_api_test_with_match_rewards_and_observation_tensor() -> None:
    api_test(pettingzoo_env.raw_env(reward="match", observation="observation"), num_cycles=300)


def _play(env: object, seed: int) -> dict[str, float]:
    env.reset(seed=seed)  # type: ignore[attr-defined]
    totals = dict.fromkeys(env.possible_agents, 0.0)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)  # type: ignore[attr-defined]
    return totals


def test_one_hand_episode_pays_partners_alike_and_opponents_the_opposite() -> None:
    totals = _play(pettingzoo_env.env(preset="coinche", max_hands=1), seed=4)
    assert totals["player_0"] == totals["player_2"] == -totals["player_1"]


def test_the_seed_fixes_the_episode() -> None:
    a = _play(pettingzoo_env.env(max_hands=2), seed=9)
    b = _play(pettingzoo_env.env(max_hands=2), seed=9)
    assert a == b


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        pettingzoo_env.raw_env(reward="trick")
    with pytest.raises(ValueError):
        pettingzoo_env.raw_env(preset="nope")
    with pytest.raises(ValueError):
        pettingzoo_env.raw_env(flags={"no_such_flag": 1})
