"""What one card decision of the quick bot costs (issue 27: p95 <= 100 us per decision, the
features included).  Collects the card decisions (two cards or more) of the normal bot's
self-play on every four-seat preset, then times on each of them the features alone, the
network's pass alone, ``best_card`` (both, and the legal argmax) and ``QuickBot.decide`` (the
bot contract's whole call), one thread, and prints p50/p95/max in microseconds.

    python benchmarks/quick_bot.py [--positions 4000] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np

from belote.ai.heuristic import HeuristicBot
from belote.ai.network.features import features
from belote.ai.network.policy import FOUR_SEAT_PRESETS, default_policy
from belote.ai.quick import QuickBot
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.rules import PRESETS
from belote.sim.match import play_step


def positions(count: int, seed: int) -> list[Observation]:
    """Card decisions with two cards or more of the normal bot's hands, presets in turn."""
    deals = seeded_deck_source(seed)
    bots = [HeuristicBot(seed + i) for i in range(4)]
    seen: list[Observation] = []
    number = 0
    while len(seen) < count:
        game = Game(PRESETS[FOUR_SEAT_PRESETS[number % len(FOUR_SEAT_PRESETS)]], number % 4)
        number += 1
        while game.hands_scored == 0 and not game.is_terminal():
            mover = game.current_player()
            if mover != CHANCE:
                obs = game.observation(mover)
                if obs.phase == Phase.PLAYING and len({a & 31 for a in obs.legal_actions
                                                        if A.is_play(a)}) > 1:
                    seen.append(obs)
            play_step(game, bots, deals)
    return seen[:count]


def timings(call: Callable[[Observation], object], seen: list[Observation],
            repeat: int) -> np.ndarray:
    best = np.full(len(seen), np.inf)
    for _ in range(repeat):  # each position's fastest of ``repeat``: the machine is shared
        for i, obs in enumerate(seen):
            started = time.perf_counter_ns()
            call(obs)
            best[i] = min(best[i], (time.perf_counter_ns() - started) / 1000.0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    seen = positions(args.positions, args.seed)
    policy = default_policy()
    bot = QuickBot(1)
    vectors = {id(obs): features(obs) for obs in seen}
    rows: list[tuple[str, Callable[[Observation], object]]] = [
        ("features", features),
        ("network pass", lambda obs: policy.outputs(vectors[id(obs)])),
        ("best_card", policy.best_card),
        ("QuickBot.decide", lambda obs: bot.decide(obs, None)),
    ]
    print(f"{len(seen)} card decisions (two cards or more) of {', '.join(FOUR_SEAT_PRESETS)}; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}, Python {platform.python_version()}, "
          f"numpy {np.__version__}; fastest of {args.repeat} per position")
    print(f"{'what':<18}{'p50 us':>9}{'p95 us':>9}{'max us':>9}")
    for name, call in rows:
        t = timings(call, seen, args.repeat)
        print(f"{name:<18}{np.percentile(t, 50):9.1f}{np.percentile(t, 95):9.1f}{t.max():9.1f}")


if __name__ == "__main__":
    main()
