"""Our exact solver against colver's (``Env.solve_scores``) on random positions, by depth.

For each trick depth 0..7 (tricks already played), ``--n`` positions: a random deal (one in
four skewed towards one team, so that capot lines are common), a random dealer, trump suit
and taker, then ``4 * depth + k`` cards (``k`` random in 0..3: any place in the trick) played
by a random policy (uniformly random legal cards, or, one hand in two, a greedy player who
tries to take the trick).  At the position, every legal card's value must be the same in both
solvers: ours is team 0's points from the cards on the table and in hand; colver's
``solve_scores`` is N-S's points over the whole hand, from which N-S's points so far
(``env.get_points()[0]``) are subtracted.  Rules: ours aligned to colver's (classic without
compulsory undertrumping); trump suits only (colver has no senza or tutte).

    python scripts/check_solver_vs_colver.py [--n 2000] [--seed 2026] [--depths 0-7]

``tests/test_solver.py`` runs the same check with 250 positions per depth.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote.engine.obligations import legal_plays
from belote.engine.search import Position, Solver
from belote.engine.tricks import WIN_KEY, trick_winner
from belote.oracles.colver.bridge import (
    colver_current_trick,
    colver_env_at,
    colver_hands,
    from_colver_card,
)
from belote.rules import find_preset

RULES = find_preset("classic").with_flags(must_undertrump=False)


@dataclass
class Case:
    """A position and how it was reached (enough for colver to replay it)."""

    initial: list[int]  # the four 8-card hands, by seat
    dealer: int
    trump: int
    taker_team: int
    plays: list[int]
    position: Position


def _deal(rng: random.Random, trump: int) -> list[int]:
    deck = list(range(32))
    if rng.random() < 0.25:
        # skewed: one team gets most of the strong cards (trumps first, then aces...)
        team = rng.randrange(2)
        bias = rng.uniform(0.5, 3.0)
        deck.sort(key=lambda c: rng.random() - bias * WIN_KEY[trump][c >> 3][c] / 24)
        strong, weak = deck[:16], deck[16:]
        seats = [team, team + 2, 1 - team, 3 - team]
        hands = [0, 0, 0, 0]
        for i, c in enumerate(strong):
            hands[seats[i % 2]] |= 1 << c
        for i, c in enumerate(weak):
            hands[seats[2 + i % 2]] |= 1 << c
        return hands
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[s * 8:s * 8 + 8]) for s in range(4)]


def random_case(rng: random.Random, depth: int) -> Case:
    """A position after ``depth`` complete tricks and 0..3 cards of the next one."""
    trump = rng.randrange(4)
    initial = _deal(rng, trump)
    dealer = rng.randrange(4)
    greedy = rng.random() < 0.5
    hands = list(initial)
    leader = (dealer + 1) % 4
    trick: list[int] = []
    won = 0
    plays: list[int] = []
    for _ in range(4 * depth + rng.randrange(4)):
        seat = (leader + len(trick)) % 4
        legal = legal_plays(hands[seat], trick, trump, RULES)
        cards = [c for c in range(32) if legal >> c & 1]
        if greedy and rng.random() < 0.8:
            led = (trick[0] if trick else cards[0]) >> 3
            card = max(cards, key=lambda c: (WIN_KEY[trump][led][c], rng.random()))
        else:
            card = rng.choice(cards)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        plays.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            won |= 1 << (leader & 1)
            trick = []
    position = Position((hands[0], hands[1], hands[2], hands[3]), tuple(trick), leader,
                        trump, won)
    return Case(initial, dealer, trump, rng.randrange(2), plays, position)


def colver_values(case: Case) -> dict[int, int]:
    """colver's value of each legal card, as team 0's points from here on."""
    env = colver_env_at(case.dealer, case.initial, case.trump, case.taker_team, case.plays)
    # the replayed env is at our position
    assert colver_hands(env) == list(case.position.hands)
    assert colver_current_trick(env) == (case.position.leader, list(case.position.trick))
    so_far = env.get_points()[0]
    return {from_colver_card(c): v - so_far for c, v in env.solve_scores()["scores"]}


@dataclass
class DepthResult:
    depth: int
    positions: int = 0
    mismatches: int = 0
    cards: int = 0
    ours_s: float = 0.0
    colver_s: float = 0.0
    won: Counter[int] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)


def check_depth(solver: Solver, depth: int, n: int, rng: random.Random,
                progress: bool = False) -> DepthResult:
    result = DepthResult(depth)
    for i in range(n):
        case = random_case(rng, depth)
        start = time.perf_counter()
        ours = solver.solve(case.position)
        result.ours_s += time.perf_counter() - start
        start = time.perf_counter()
        theirs = colver_values(case)
        result.colver_s += time.perf_counter() - start
        result.positions += 1
        result.cards += len(ours)
        result.won[case.position.won] += 1
        if ours != theirs:
            result.mismatches += 1
            if len(result.examples) < 5:
                result.examples.append(f"{case}: ours {ours} colver {theirs}")
        if progress and (i + 1) % 50 == 0:
            print(f"\r  depth {depth}: {i + 1}/{n} positions, {result.mismatches} mismatches",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return result


def parse_depths(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(d) for d in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="positions per trick depth")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--depths", default="0-7", help="e.g. 0-7 or 0,3,7")
    args = parser.parse_args()
    import colver

    start = time.perf_counter()
    solver = Solver(RULES)
    solver.solve(Position((0xFF, 0xFF00, 0xFF0000, 0xFF000000), (), 0, 0))
    print(f"colver {getattr(colver, '__version__', '?')}; rules classic without "
          f"must_undertrump; {args.n} positions per depth, seed {args.seed}; "
          f"compile or cache load {time.perf_counter() - start:.1f} s")
    rng = random.Random(args.seed)
    results = []
    for depth in parse_depths(args.depths):
        results.append(check_depth(solver, depth, args.n, rng, progress=True))
    print(f"{'depth':>5} {'positions':>9} {'cards':>7} {'mismatches':>10} {'ours ms':>8} "
          f"{'colver ms':>9}  won flags 0/1/2/3")
    for r in results:
        won = "/".join(str(r.won[w]) for w in range(4))
        print(f"{r.depth:>5} {r.positions:>9} {r.cards:>7} {r.mismatches:>10} "
              f"{1000 * r.ours_s / r.positions:>8.2f} {1000 * r.colver_s / r.positions:>9.2f}"
              f"  {won}")
        for example in r.examples:
            print("   ", example)
    total = sum(r.positions for r in results)
    bad = sum(r.mismatches for r in results)
    print(f"total: {total} positions, {sum(r.cards for r in results)} card values, "
          f"{bad} mismatches; ours {sum(r.ours_s for r in results):.1f} s, colver "
          f"{sum(r.colver_s for r in results):.1f} s; wall "
          f"{time.perf_counter() - start:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
