"""Exact solver and random playouts: ours (numba) against colver (Rust), same deals, one run.

* ``solve``: a full deal (8 cards each, before the first card), every first card of the
  leader scored exactly; median and p90 milliseconds over the same deals for both solvers,
  interleaved deal by deal.  Rules aligned to colver's (classic with ``must_undertrump``
  off: partner master frees, undertrumping optional), trump and leader vary by deal.
* ``playouts``: random hands per second, both sides from the first card of the play to the
  last (ours: the compiled ``random_hands`` kernel, which also shuffles and deals a new deck
  and draws a trump for every hand; colver: ``Env.rollout`` from one deal whose contract is
  set, so that it starts at the card play too; before issue 23 colver started at its
  bidding, a slower path of its, which flattered the ratio: 1.68 then, about 1.0 from the
  same phase).  Same policy: a card drawn uniformly among the legal ones.  The like-for-like
  rows against ``Env.rollout`` from either phase, on the same deals, are in
  ``benchmarks/engine.py`` (issue 23 item 6).

    python benchmarks/solver.py [--deals N] [--playouts N] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from belote.engine.dealing import seeded_deck_source
from belote.engine.search import Position, Solver, kernels, random_playouts
from belote.rules import find_preset

RULES = find_preset("classic").with_flags(must_undertrump=False)


def deals(n: int, seed: int) -> list[tuple[list[int], int, int]]:
    """(hands as masks, dealer, trump) for ``n`` seeded deals."""
    source = seeded_deck_source(seed)
    out = []
    for i in range(n):
        deck = source()
        hands = [sum(1 << c for c in deck[s * 8:s * 8 + 8]) for s in range(4)]
        out.append((hands, i % 4, (i * 7) % 4))
    return out


def time_ours(solver: Solver, hands: list[int], dealer: int, trump: int) -> tuple[float, dict]:
    position = Position((hands[0], hands[1], hands[2], hands[3]), (), (dealer + 1) % 4, trump)
    start = time.perf_counter()
    values = solver.solve(position, check=False)
    return time.perf_counter() - start, values


def time_colver(hands: list[int], dealer: int, trump: int) -> tuple[float, dict]:
    from belote.oracles.colver.bridge import colver_env_at, from_colver_card

    env = colver_env_at(dealer, hands, trump, 0, [])
    start = time.perf_counter()
    result = env.solve_scores()
    elapsed = time.perf_counter() - start
    return elapsed, {from_colver_card(c): v for c, v in result["scores"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import colver
    except ImportError:
        colver = None

    start = time.perf_counter()
    kernels()
    solver = Solver(RULES)
    warm = deals(1, 0)[0]
    time_ours(solver, *warm)
    random_playouts(RULES, 100)
    warmup = time.perf_counter() - start

    ours_ms: list[float] = []
    colver_ms: list[float] = []
    mismatches = 0
    for hands, dealer, trump in deals(args.deals, args.seed):
        t_ours, v_ours = time_ours(solver, hands, dealer, trump)
        ours_ms.append(t_ours * 1000)
        if colver is not None:
            t_colver, v_colver = time_colver(hands, dealer, trump)
            colver_ms.append(t_colver * 1000)
            mismatches += v_ours != v_colver

    t = time.perf_counter()
    random_playouts(RULES, args.playouts, seed=1)
    ours_rate = args.playouts / (time.perf_counter() - t)
    colver_rate = None
    if colver is not None:
        from belote.oracles.colver.bridge import colver_env_at

        hands, dealer, trump = deals(1, args.seed + 1)[0]
        env = colver_env_at(dealer, hands, trump, 0, [])  # the card play, as ours
        t = time.perf_counter()
        env.rollout(args.playouts)
        colver_rate = args.playouts / (time.perf_counter() - t)

    def p90(values: list[float]) -> float:
        return sorted(values)[int(0.9 * (len(values) - 1))]

    result = {
        "machine": f"Python {platform.python_version()}, {platform.machine()}",
        "deals": args.deals,
        "compile_or_cache_load_s": round(warmup, 2),
        "ours_solve_ms": {"median": round(statistics.median(ours_ms), 1),
                          "p90": round(p90(ours_ms), 1)},
        "ours_playouts_per_s": round(ours_rate),
    }
    if colver is not None:
        result |= {
            "colver_solve_ms": {"median": round(statistics.median(colver_ms), 1),
                                "p90": round(p90(colver_ms), 1)},
            "solve_ratio_ours_over_colver": round(
                statistics.median(ours_ms) / statistics.median(colver_ms), 2),
            "value_mismatches": mismatches,
            "colver_rollouts_per_s": round(colver_rate or 0),
            "playout_ratio_ours_over_colver": round(ours_rate / (colver_rate or 1), 2),
        }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"machine: {result['machine']}; {args.deals} deals, rules classic without "
          f"must_undertrump (colver's); compile or cache load {warmup:.1f} s")
    print(f"{'':24}{'ours':>12}{'colver':>12}{'ratio':>8}")
    if colver is not None:
        print(f"{'solve median (ms)':24}{result['ours_solve_ms']['median']:>12}"
              f"{result['colver_solve_ms']['median']:>12}"
              f"{result['solve_ratio_ours_over_colver']:>8}   (goal <= 1.5)")
        print(f"{'solve p90 (ms)':24}{result['ours_solve_ms']['p90']:>12}"
              f"{result['colver_solve_ms']['p90']:>12}")
        print(f"{'playouts from the play':24}{result['ours_playouts_per_s']:>12,}"
              f"{result['colver_rollouts_per_s']:>12,}"
              f"{result['playout_ratio_ours_over_colver']:>8}   (goal >= 0.7)")
        print(f"value mismatches against colver: {mismatches} of {args.deals} deals")
    else:
        print(f"solve median {result['ours_solve_ms']['median']} ms, playouts "
              f"{result['ours_playouts_per_s']:,}/s (colver not installed)")


if __name__ == "__main__":
    main()
