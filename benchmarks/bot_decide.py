"""What an inline bot decision costs the event loop (issue 22, item 3): the levels that do
not search (easy, normal; random) decide on the loop, so each must take well under a
millisecond.  Times ``decide`` on N observations of random games (every preset: bids, cuts,
cards, announcements), the bot alone and through the room's path (``BotPool.decide``, which
adds its checks and counters), and prints p50/p99/max in milliseconds.

    python benchmarks/bot_decide.py [--observations 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time

from belote.ai import make_decider
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine.observation import Observation
from belote.rules import PRESETS
from belote.server.bots import BotPool
from belote.server.bots.stats import percentile

LEVELS = ("random", "easy", "normal")


def observations(count: int, seed: int) -> list[Observation]:
    """The movers' observations of random games, the presets in turn."""
    rng = random.Random(seed)
    decks = seeded_deck_source(seed)
    presets = sorted(PRESETS)
    seen: list[Observation] = []
    while len(seen) < count:
        game = Game(PRESETS[presets[len(seen) % len(presets)]])
        while not game.is_terminal() and len(seen) < count:
            mover = game.current_player()
            if mover == CHANCE:
                game.deal(decks())
                continue
            seen.append(game.observation(mover))
            game.apply(rng.choice(game.legal_actions()), mover)
    return seen


def bot_alone(level: str, seen: list[Observation]) -> list[float]:
    bot = make_decider(level, 1)
    times = []
    for observation in seen:
        started = time.perf_counter()
        bot.decide(observation, None)
        times.append(time.perf_counter() - started)
    return times


async def through_the_path(level: str, seen: list[Observation]) -> list[float]:
    pool = BotPool(0, 10.0)
    try:
        times = []
        for observation in seen:
            started = time.perf_counter()
            await pool.decide(level, observation, table=1)
            times.append(time.perf_counter() - started)
        assert pool.stats.inline == len(seen) and pool.stats.fallback_total == 0
        return times
    finally:
        pool.close()


def line(what: str, times: list[float]) -> str:
    ordered = sorted(times)
    p50, p99 = percentile(ordered, 50), percentile(ordered, 99)
    assert p50 is not None and p99 is not None
    return (f"{what:<22} p50 {p50 * 1000:6.3f} ms  p99 {p99 * 1000:6.3f} ms  "
            f"max {ordered[-1] * 1000:7.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seen = observations(args.observations, args.seed)
    print(f"{len(seen)} observations of random games ({len(PRESETS)} presets); "
          f"load average {os.getloadavg()[0]:.2f}")
    for level in LEVELS:
        print(line(f"{level}, bot alone", bot_alone(level, seen)))
        print(line(f"{level}, the path", asyncio.run(through_the_path(level, seen))))


if __name__ == "__main__":
    main()
