"""Expert bot thinking time per decision, cards and bids, per preset (p50/p95/p99/max ms).

Four expert bots play whole hands with their own bidding (by simulation, nothing swapped
in); every card decision with more than one legal card and every bid with more than one
legal word is timed (forced moves take no search and are left out, which only makes the
figures worse).  Goals on this 2-core machine, on every preset: per card p95 <= 200 ms and
max <= 400 ms; per bid p95 <= 400 ms.  The "goal" line checks every one of them.

    python benchmarks/expert.py [--hands N] [--presets classic,coinche] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from typing import Any

from belote.ai.expert import ExpertBot
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.events import AllPassed, HandScored
from belote.engine.observation import Observation
from belote.rules import PRESETS
from belote.server.bots.worker import warm_up

CARD_P95_MS = 200.0
CARD_MAX_MS = 400.0
BID_P95_MS = 400.0


class TimedExpert(ExpertBot):
    """The expert, timing each decision that has a choice: cards and bids apart."""

    def __init__(self, seed: int, cards: list[float], bids: list[float],
                 methods: Counter[tuple[str, str]]) -> None:
        super().__init__(seed)
        self.cards, self.bids, self.methods = cards, bids, methods

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions
        self.last_method = ""
        start = time.perf_counter()
        action = super().choose(observation)
        elapsed = time.perf_counter() - start
        if legal[0] >= A.PASS:
            if len(legal) > 1:
                self.bids.append(elapsed)
                self.methods["bids", self.last_method] += 1
        elif len([a for a in legal if a < A.PLAY_ANNOUNCE_BASE]) > 1:
            self.cards.append(elapsed)
            self.methods["cards", self.last_method] += 1
        return action


def run(preset: str, hands: int, seed: int
        ) -> tuple[list[float], list[float], Counter[tuple[str, str]]]:
    rules = PRESETS[preset]
    cards: list[float] = []
    bids: list[float] = []
    methods: Counter[tuple[str, str]] = Counter()
    players = [TimedExpert(seed * 4 + s, cards, bids, methods) for s in range(rules.players)]
    source = seeded_deck_source(seed)
    played = 0
    dealer = 0
    while played < hands:
        game = Game(rules, dealer)
        dealer = (dealer + 1) % rules.players
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
    return cards, bids, methods


def summary(seconds: list[float]) -> dict[str, float | int]:
    ms = sorted(t * 1000 for t in seconds)
    if not ms:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}

    def at(q: float) -> float:
        return round(ms[min(len(ms) - 1, int(q * len(ms)))], 1)

    return {"n": len(ms), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99),
            "max": round(ms[-1], 1)}


def met(result: dict[str, Any]) -> list[str]:
    """The goals a preset's figures miss (empty: all met)."""
    card, bid = result["cards"], result["bids"]
    missed = []
    if card["p95"] > CARD_P95_MS:
        missed.append(f"card p95 {card['p95']} > {CARD_P95_MS:.0f}")
    if card["max"] > CARD_MAX_MS:
        missed.append(f"card max {card['max']} > {CARD_MAX_MS:.0f}")
    if bid["p95"] > BID_P95_MS:
        missed.append(f"bid p95 {bid['p95']} > {BID_P95_MS:.0f}")
    return missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    warm_up()  # load (or compile) the kernels first, as the room's bot workers do
    results: dict[str, dict[str, Any]] = {}
    for preset in args.presets.split(","):
        cards, bids, methods = run(preset, args.hands, args.seed)
        results[preset] = {
            "cards": summary(cards), "bids": summary(bids),
            # the heuristic's move (no world solved in time), and cards valued by playouts
            "hurried": {k: methods[k, "heuristic"] + methods[k, "unsearchable"]
                        for k in ("cards", "bids")},
            "estimated": methods["cards", "estimated"],
        }
    missed = {p: met(r) for p, r in results.items()}
    if args.json:
        print(json.dumps({"results": results, "missed": missed}, indent=1))
        return
    print(f"Python {platform.python_version()}; expert bots (their own bidding), "
          f"{args.hands} hands per preset; ms per decision with a choice")
    print(f"{'preset':12}{'kind':6}{'n':>6}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}"
          f"{'hurried':>9}{'estimated':>10}")
    for preset, r in results.items():
        for kind in ("cards", "bids"):
            f = r[kind]
            print(f"{preset:12}{kind:6}{f['n']:>6}{f['p50']:>8}{f['p95']:>8}{f['p99']:>8}"
                  f"{f['max']:>8}{r['hurried'][kind]:>9}"
                  f"{r['estimated'] if kind == 'cards' else '':>10}")
    all_met = not any(missed.values())
    print(f"goal (every preset: card p95 <= {CARD_P95_MS:.0f} ms and max <= "
          f"{CARD_MAX_MS:.0f} ms, bid p95 <= {BID_P95_MS:.0f} ms): "
          + ("met" if all_met else "NOT met: " + "; ".join(
              f"{p}: {', '.join(m)}" for p, m in missed.items() if m)))


if __name__ == "__main__":
    main()
