"""What a resample and an undo cost along a match (issue 23: cost flat in the match, <= 1 ms
per resample in classic at any point; ``undo`` O(1) in the match's length).

Normal bots play a match; in the 1st and the 10th hand, at the first trick and mid-hand, the
player to move's game is resampled ``--repeat`` times (the first call of a game draws and
keeps its finished hands: shown apart as "first"), and the last action is undone and
replayed.  Also the cost of ``apply`` (a whole hand's actions, applied to a clone).

    python benchmarks/resample.py [--repeat N] [--presets classic,valdostana] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from belote.ai.registry import make_bot
from belote.engine import CHANCE, Game, Phase, seeded_deck_source
from belote.engine import actions as A
from belote.rules import PRESETS


def play_until(rules_name: str, seed: int, hand: int, trick: int) -> Game | None:
    """A match of normal bots stopped in hand ``hand`` (1-based) at trick ``trick``."""
    rules = PRESETS[rules_name]
    source = seeded_deck_source(seed)
    bots = [make_bot("normal", seed + s) for s in range(rules.players)]
    game = Game(rules, 0)
    while not game.is_terminal():
        if (game.phase == Phase.PLAYING and game.hands_scored == hand - 1
                and game.trick_no == trick and not game.trick):
            return game
        if game.current_player() == CHANCE:
            game.deal(source())
            continue
        for s in game.seats_with_open_window():
            game.apply(A.ANNOUNCE_BELOTE, s)
        seat = game.current_player()
        if seat >= 0:
            game.apply(bots[seat].choose(game.observation(seat)), seat)
    return None


def measure(game: Game, repeat: int) -> tuple[float, float, float, float]:
    """(first resample, later resamples, undo, apply) in ms."""
    seat = game.current_player()
    rng = random.Random(1)
    fresh = game.clone()
    fresh._resample_cache = {}
    started = time.perf_counter()
    fresh.resample(seat, rng)
    first = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(repeat):
        fresh.resample(seat, rng)
    later = (time.perf_counter() - started) / repeat
    last = game.log[-1]
    undone = 0.0
    for _ in range(repeat):
        copy = game.clone()
        started = time.perf_counter()
        copy.undo()
        undone += time.perf_counter() - started
    assert copy.log == game.log[:-1] and last[0] != CHANCE
    copy = game.clone()
    legal = copy.legal_actions()
    started = time.perf_counter()
    for _ in range(repeat):
        other = copy.clone()
        other.apply(legal[0])
    applied = (time.perf_counter() - started) / repeat
    return first * 1e3, later * 1e3, undone / repeat * 1e3, applied * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--presets", default="classic,valdostana")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(f"{'preset':12} {'hand':>4} {'trick':>5} {'first ms':>9} {'resample ms':>12} "
          f"{'undo ms':>8} {'clone+apply ms':>15}")
    for preset in args.presets.split(","):
        for hand in (1, 10):
            for trick in (0, 4):
                seed = args.seed
                game = None
                while game is None:  # a match long enough
                    game = play_until(preset, seed, hand, trick)
                    seed += 1
                first, later, undo, apply = measure(game, args.repeat)
                print(f"{preset:12} {hand:4} {trick:5} {first:9.2f} {later:12.3f} "
                      f"{undo:8.3f} {apply:15.4f}", flush=True)


if __name__ == "__main__":
    main()
