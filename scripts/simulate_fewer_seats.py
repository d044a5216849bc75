"""Play many hands of 3- and 2-player valdostana with bots and check the invariants of each.

Seed 000: "è possibile giocare anche con numero ridotto a tre o addirittura a due".  Usage::

    python scripts/simulate_fewer_seats.py [--hands 10000] [--bots normal] [PRESET ...]

For every scored hand: each player held ``hand_size`` cards and played one to each of
``hand_size`` tricks of ``players`` cards; every card was dealt once (hands and monte); the
hand's card points add up to 162 (the monte with the last trick) plus the capot bonus; each
side's match total is the sum of its hand scores.  Prints the figures quoted in
docs/rules-2-3-players.md; exits 1 on the first broken invariant.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

if __name__ == "__main__":  # run as a script: make the checkout's package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from belote.ai import make_bot
from belote.cards import card_list
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import AllPassed, Event, HandScored
from belote.engine.state import Game
from belote.engine.tricks import CARD_POINTS
from belote.rules import PRESETS
from belote.rules.base import Rules
from belote.sim.match import play_step


class Broken(AssertionError):
    pass


def check_hand(game: Game, event: HandScored, totals: list[int]) -> None:
    rules = game.rules
    history = game.trick_history
    if len(history) != rules.hand_size or any(len(c) != rules.players for _, c in history):
        raise Broken(f"hand {event.hand_no}: {len(history)} tricks, not {rules.hand_size}")
    cards = [c for _, trick in history for c in trick]
    played = 0
    for card in cards:
        played |= 1 << card
    if len(cards) != len(set(cards)) or played & game.widow:
        raise Broken(f"hand {event.hand_no}: a card played twice or from the monte")
    if (played | game.widow) != 0xFFFFFFFF:
        raise Broken(f"hand {event.hand_no}: a card was never dealt")
    dead = (sum(CARD_POINTS[game.trump][c] for c in card_list(game.widow))
            if rules.widow == "dead" else 0)
    capot = rules.capot_bonus if event.capot_team is not None else 0
    if sum(event.card_points) + dead != 162 + capot:
        raise Broken(f"hand {event.hand_no}: card points {event.card_points}")
    for side, score in enumerate(event.scores):
        totals[side] += score
    if tuple(totals) != event.totals:
        raise Broken(f"hand {event.hand_no}: totals {event.totals}, scores add to {totals}")


def simulate(rules: Rules, hands: int, bots: str, seed: int = 0) -> dict[str, float]:
    outcomes: Counter[str] = Counter()
    stats: Counter[str] = Counter()
    started = time.perf_counter()
    match = 0
    while outcomes.total() < hands:
        players = [make_bot(bots, seed + match * 10 + s) for s in range(rules.players)]
        game = Game(rules, match % rules.players)
        source = seeded_deck_source(seed + match)
        totals = [0] * rules.sides

        def listen(g: Game, events: list[Event], totals: list[int] = totals) -> None:
            for event in events:
                if isinstance(event, HandScored):
                    check_hand(g, event, totals)
                    outcomes[event.outcome] += 1
                    stats["capot"] += event.capot_team is not None
                    stats["taker_points"] += event.card_points[rules.side_of(event.taker)]
                    stats["multiplied"] += g.contract is not None and g.contract.multiplier > 1
                elif isinstance(event, AllPassed):
                    stats["redeals"] += 1

        while not game.is_terminal() and outcomes.total() < hands:
            play_step(game, players, source, listen)
        stats["matches"] += game.is_terminal()
        match += 1
    n = outcomes.total()
    return {
        "hands": n,
        "matches_finished": stats["matches"],
        "made_%": 100 * outcomes["made"] / n,
        "failed_%": 100 * outcomes["failed"] / n,
        "litige_%": 100 * outcomes["litige"] / n,
        "capot_%": 100 * stats["capot"] / n,
        "contro_%": 100 * stats["multiplied"] / n,
        "redeals_per_hand": stats["redeals"] / n,
        "taker_card_points": stats["taker_points"] / n,
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=["valdostana3", "valdostana2"])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--bots", default="normal")
    args = parser.parse_args(argv)
    for name in args.presets:
        try:
            figures = simulate(PRESETS[name], args.hands, args.bots)
        except Broken as exc:
            print(f"{name}: invariant broken: {exc}")
            return 1
        shown = ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}"
                          for k, v in figures.items())
        print(f"{name} ({args.bots} bots): {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
