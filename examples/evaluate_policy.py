"""Evaluate a simple policy in the PettingZoo environment (docs/research.md).

Team 0 (player_0, player_2) plays the first legal action, team 1 plays at random; each
episode is one hand scored per hand; we report team 0's mean margin with a 95% interval.

    python -m examples.evaluate_policy
"""

from __future__ import annotations

import math

import numpy as np

from belote.rl import action_name
from belote.rl.pettingzoo_env import env as make_env


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def evaluate(episodes: int = 200, preset: str = "classic", seed: int = 0) -> tuple[float, float]:
    environment = make_env(preset=preset, reward="hand", max_hands=1)
    rng = np.random.default_rng(seed)
    margins = []
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        margin = 0.0
        for agent in environment.agent_iter():
            obs, reward, terminated, truncated, _ = environment.last()
            if agent == "player_0":
                margin += reward
            if terminated or truncated:
                environment.step(None)
                continue
            mask = obs["action_mask"]
            team = int(agent[-1]) % 2
            action = first_legal(mask) if team == 0 else int(rng.choice(np.flatnonzero(mask)))
            environment.step(action)
        margins.append(margin)
    mean = float(np.mean(margins))
    half = 1.96 * float(np.std(margins, ddof=1)) / math.sqrt(len(margins))
    return mean, half


if __name__ == "__main__":
    mean, half = evaluate()
    print(f"first legal vs random, margin per hand: {mean:+.1f} ± {half:.1f}")
    print("action 64 is", action_name(64))
