"""Compile the numba kernels into numba's cache, once, before the test workers start.

``cache=True`` keeps each kernel's machine code on disk (``belote/engine/__pycache__``), but
only for the source it was compiled from: after a change to ``belote/engine/_kernels.py``,
or in a fresh checkout, every pytest-xdist worker that reaches a kernel compiles it itself,
the workers the same kernels at once, each under coverage's tracer (numba's compiler is
Python).  Measured on 2 cores, 3 workers, coverage on: the three ``tests/test_rl_*`` files
took 292 s of CPU with the cache cold, 26 s with it warm.  ``./scripts/test`` runs this
beside mypy, untraced, so that the workers only load the kernels.

Each entry point is called once on a small case, with the argument types the wrappers
always pass (int64 arrays, ints): a kernel compiled here is the one the tests load.  A
kernel left out is compiled where it is first called, as before: nothing depends on this
script but the time.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

# This tree's kernels, whatever tree the environment's editable install points at (the
# cache is per source file: warming another tree's would leave this one's cold).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from belote.engine.search import Position, Solver, playout_outcomes, random_playouts
from belote.engine.search_seats import SeatSolver, SeatsPosition, lines_of
from belote.rl.batch import BatchedGames
from belote.rl.compiled import CompiledGame
from belote.rules import PRESETS


def four_seat_search() -> None:
    rules = PRESETS["coinche"]
    cards = list(range(32))
    random.Random(1).shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[s * 8:s * 8 + 2]) for s in range(4))
    position = Position((hands[0], hands[1], hands[2], hands[3]), (), 0, 0)
    solver = Solver(rules)
    solver.solve(position)
    full = tuple(sum(1 << c for c in cards[s * 8:s * 8 + 8]) for s in range(4))
    solver.value((full[0], full[1], full[2], full[3]), 0, 0, node_limit=2_000)
    random_playouts(rules, 2)
    playout_outcomes(rules, position, (hands[0] & -hands[0]).bit_length() - 1, 2, seed=1)


def seat_search() -> None:
    rules = PRESETS["valdostana3"]
    cards = list(range(32))
    random.Random(2).shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[s * 8:s * 8 + 2]) for s in range(rules.players))
    sides = lines_of(rules.players, 0, 0)
    SeatSolver(rules).solve(SeatsPosition(hands, (), 0, 0, sides))


def self_play() -> None:
    rules = PRESETS["coinche"]
    batch = BatchedGames(2, rules, seed=1)
    for _ in range(40):
        batch.step(batch.random_actions())
        batch.masks()
        batch.observations()
    batch.rollouts(2)
    game = CompiledGame(rules, seed=1)
    _, legal = game.reset(1)
    for _ in range(20):
        if not legal:
            break
        _, legal = game.step(legal[0])
    game.observation_tensor()
    game.legal_action_mask()
    game.rollout(2)


def main() -> int:
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return 0
    start = time.monotonic()
    for warm in (four_seat_search, seat_search, self_play):
        warm()
    print(f"numba kernels ready in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
