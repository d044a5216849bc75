"""Expert bot thinking time: milliseconds per card decision (median, p95, max) per preset.

Four expert bots play whole hands (heuristic bidding, so that every preset's contracts occur);
every card decision with more than one legal card is timed (decisions with one legal card
take no search and are left out, which only makes the figures worse).  The goal for the
expert level is p95 <= 250 ms per card on this 2-core machine.

    python benchmarks/expert.py [--hands N] [--presets classic,coinche] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from belote.ai.expert import ExpertBot
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.events import AllPassed, HandScored
from belote.rules import PRESETS


class TimedExpert(ExpertBot):
    """Bids like the heuristic bot; records the time of each card decision."""

    def __init__(self, seed: int, times: list[float]) -> None:
        super().__init__(seed)
        self.times = times

    def _bid(self, obs):  # type: ignore[no-untyped-def]
        return self.fallback.choose(obs)

    def choose(self, observation):  # type: ignore[no-untyped-def]
        plays = [a for a in observation.legal_actions if a < A.PLAY_ANNOUNCE_BASE]
        start = time.perf_counter()
        action = super().choose(observation)
        if len(plays) > 1 and observation.legal_actions[0] < A.PASS:
            self.times.append(time.perf_counter() - start)
        return action


def run(preset: str, hands: int, seed: int) -> list[float]:
    rules = PRESETS[preset]
    times: list[float] = []
    players = [TimedExpert(seed * 4 + s, times) for s in range(4)]
    source = seeded_deck_source(seed)
    played = 0
    dealer = 0
    while played < hands:
        game = Game(rules, dealer)
        dealer = (dealer + 1) % 4
        done = False
        while not done:
            if game.current_player() == CHANCE:
                events = game.deal(source())
            else:
                seat = game.current_player()
                events = game.apply(players[seat].choose(game.observation(seat)), seat)
            for s in game.seats_with_open_window():
                events += game.apply(A.ANNOUNCE_BELOTE, s)
            for event in events:
                if isinstance(event, HandScored):
                    played += 1
                    done = True
                elif isinstance(event, AllPassed):
                    done = True
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ExpertBot(0).solver(PRESETS["classic"])  # compile or load the kernels first
    results = {}
    for preset in args.presets.split(","):
        ms = sorted(t * 1000 for t in run(preset, args.hands, args.seed))
        results[preset] = {
            "decisions": len(ms),
            "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1),
            "max_ms": round(ms[-1], 1),
        }
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"Python {platform.python_version()}; expert bots, {args.hands} hands per preset; "
          "goal p95 <= 250 ms per card")
    print(f"{'preset':12}{'cards':>8}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}")
    for preset, r in results.items():
        print(f"{preset:12}{r['decisions']:>8}{r['median_ms']:>11}{r['p95_ms']:>9}"
              f"{r['max_ms']:>9}")


if __name__ == "__main__":
    main()
