"""The exact solver for fewer seats (``SeatSolver``, kernel ``solve_root_n``): time per decision.

For ``valdostana3`` and ``valdostana2``: seeded deals, seat 0 takes (a random suit), random
legal cards up to the decision; the player to move samples the expert's number of worlds
(``ExpertBot().max_worlds``) from his own observation, as the expert does, and every world is
solved exactly (every legal card valued), one solver per preset as the expert keeps.  Printed
per preset and tricks left: median and p90 milliseconds per world, the median per decision
(all worlds), and how many worlds passed the node cap (``--cap`` million nodes; such a world
is cut there, so its time is a lower bound).

    python benchmarks/seat_solver.py [--deals N] [--tricks-left 10 8] [--cap M] [--worlds W]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from belote.ai.expert import ExpertBot
from belote.ai.worlds import knowledge, sample_world
from belote.cards import ACES, card_list
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.search_seats import SeatSolver, SeatsPosition, lines_of
from belote.engine.state import Game, Phase
from belote.engine.tricks import CARD_POINTS
from belote.rules import PRESETS, Rules


def game_at(rules: Rules, seed: int, tricks_left: int) -> Game:
    """A deal of ``seed``, seat 0 taking, played at random to ``tricks_left`` tricks left."""
    rng = random.Random(seed)
    game = Game(rules, 0)
    game.deal(seeded_deck_source(seed)())
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)
    while game.phase == Phase.BIDDING:
        legal = game.legal_actions()
        if game.current_player() == 0 and game.contract is None:
            game.apply(next(a for a in legal if A.CONTRACT_BASE <= a < A.CONTRACT_END
                            and A.contract_suit(a) == seed % 4))
        elif A.ASPETTO in legal and game.hands[game.current_player()] & ACES:
            game.apply(A.ASPETTO)  # truthful, as the bots: "passo" says no ace
        else:
            game.apply(A.PASS)
    while game.hands[game.current_player()].bit_count() > tricks_left or game.trick:
        game.apply(rng.choice([a for a in game.legal_actions()
                               if A.is_play(a) and not A.announces(a)]))
    return game


def decision(solver: SeatSolver, game: Game, worlds: int, cap: int,
             rng: random.Random) -> tuple[list[float], int]:
    """Milliseconds per world solved for the player to move, and how many hit the cap."""
    rules = game.rules
    seat = game.current_player()
    obs = game.observation(seat)
    info = knowledge(obs)
    lines = lines_of(rules.players, seat, obs.taker)
    times, capped = [], 0
    for _ in range(worlds):
        world = list(sample_world(info, rng))
        world[seat] = obs.hand
        out = 0xFFFFFFFF & ~obs.played
        for hand in world:
            out &= ~hand
        widow = (sum(CARD_POINTS[game.trump][c] for c in card_list(out))
                 if rules.widow == "last_trick" else 0)
        position = SeatsPosition(tuple(world), (), game.leader, game.trump, lines, widow)
        start = time.perf_counter()
        solver.solve(position, node_limit=cap)
        times.append((time.perf_counter() - start) * 1000)
        capped += solver.aborted
    return times, capped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--tricks-left", type=int, nargs="*", default=None,
                        help="decision points (default: first trick, 14 12 10 8 6 below it)")
    parser.add_argument("--worlds", type=int, default=ExpertBot().max_worlds)
    parser.add_argument("--cap", type=float, default=5.0, help="million nodes per world")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cap = int(args.cap * 1_000_000)
    rows = []
    for name in ("valdostana3", "valdostana2"):
        rules = PRESETS[name]
        solver = SeatSolver(rules)
        decision(solver, game_at(rules, 0, 2), 1, cap, random.Random(0))  # compile or load
        points = args.tricks_left or sorted({rules.hand_size} | {t for t in (14, 12, 10, 8, 6)
                                                              if t < rules.hand_size},
                                             reverse=True)
        for left in points:
            per_world: list[float] = []
            per_decision: list[float] = []
            capped = 0
            for d in range(args.deals):
                game = game_at(rules, args.seed + d, left)
                times, hit = decision(solver, game, args.worlds, cap, random.Random(d))
                per_world += times
                per_decision.append(sum(times))
                capped += hit
            per_world.sort()
            rows.append({
                "preset": name, "tricks_left": left, "deals": args.deals,
                "worlds": args.worlds,
                "ms_per_world_median": round(statistics.median(per_world), 1),
                "ms_per_world_p90": round(per_world[int(0.9 * (len(per_world) - 1))], 1),
                "ms_per_decision_median": round(statistics.median(per_decision), 1),
                "worlds_capped": capped,
            })
            if not args.json:
                r = rows[-1]
                print(f"{name:12} {left:2} tricks left: {r['ms_per_world_median']:8.1f} ms/world "
                      f"median, {r['ms_per_world_p90']:8.1f} p90, "
                      f"{r['ms_per_decision_median']:9.1f} ms per decision of {args.worlds} "
                      f"worlds, capped {capped}/{args.deals * args.worlds}", flush=True)
    if args.json:
        print(json.dumps({"machine": f"Python {platform.python_version()}, "
                                     f"{platform.machine()}", "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
