"""Random-play throughput: our engine against colver's Python step loop.

Measures, in one run and interleaved (the order of the loops rotates each repeat):

* ``ours``    complete random hands per second through our public API: ``Game(rules)``,
  ``deal(deck_source())``, then ``apply(rng.choice(legal_actions()))`` through the bidding
  and the card play; a new ``Game`` when the match is over.
* ``colver``  ``belote.oracles.colver.bridge.colver_random_hand_loop``: colver's ``Env.reset`` and a
  Python loop of ``Env.step(rng.choice(legal))`` (Rust engine, Python driving it).
* ``fast``    our internal fast path, NOT public API: the same loop calling ``Game._deal``
  and ``Game._push`` (no validation of the deck or of the action).

Convention (the same for all three): a hand is counted when its card play is over; hands
where everybody passed (we redeal, colver stops) are timed but not counted.

    python benchmarks/engine.py [--hands N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game, Phase
from belote.rules import Rules, find_preset

BIDDING, PLAYING, MATCH_OVER = Phase.BIDDING, Phase.PLAYING, Phase.MATCH_OVER


def ours_random_hand_loop(n_hands: int, seed: int, rules: Rules) -> float:
    """Complete random hands per second through the public ``Game`` API."""
    rng = random.Random(seed)
    choice = rng.choice
    deck_source = seeded_deck_source(seed)
    game = Game(rules)
    done = 0
    start = time.perf_counter()
    while done < n_hands:
        if game.phase == MATCH_OVER:
            game = Game(rules)
        game.deal(deck_source())
        while game.phase == BIDDING or game.phase == PLAYING:
            game.apply(choice(game.legal_actions()))
        if game.trick_no == 8:  # card play finished (an all-pass leaves it at 0)
            done += 1
    return done / (time.perf_counter() - start)


def fast_random_hand_loop(n_hands: int, seed: int, rules: Rules) -> float:
    """Same loop on the internal unchecked path (``_deal``/``_push``): not public API."""
    rng = random.Random(seed)
    choice = rng.choice
    deck_source = seeded_deck_source(seed)
    game = Game(rules)
    done = 0
    start = time.perf_counter()
    while done < n_hands:
        if game.phase == MATCH_OVER:
            game = Game(rules)
        game._deal(tuple(deck_source()))
        push, legal_actions, current_player = game._push, game.legal_actions, game.current_player
        while game.phase == BIDDING or game.phase == PLAYING:
            push(current_player(), choice(legal_actions()))
        if game.trick_no == 8:
            done += 1
    return done / (time.perf_counter() - start)


def colver_version() -> str | None:
    try:
        import colver
    except ImportError:
        return None
    return getattr(colver, "__version__", "?")


def cpu_model() -> str | None:
    """The CPU model name from /proc/cpuinfo (Linux), if there is one."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine() -> dict[str, object]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "colver": colver_version(),
    }


def run(n_hands: int, repeat: int, rules: Rules) -> dict[str, object]:
    loops: dict[str, Callable[[int, int], float]] = {
        "ours": lambda n, seed: ours_random_hand_loop(n, seed, rules),
    }
    if colver_version() is not None:
        from belote.oracles.colver.bridge import colver_random_hand_loop

        loops["colver"] = colver_random_hand_loop
    loops["fast"] = lambda n, seed: fast_random_hand_loop(n, seed, rules)

    names = list(loops)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeat):
        order = names[r % len(names):] + names[:r % len(names)]  # rotate for fairness
        for name in order:
            rates[name].append(loops[name](n_hands, r))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    result: dict[str, object] = {
        "machine": machine(),
        "rules": rules.name,
        "hands": n_hands,
        "repeat": repeat,
        "rates": rates,
        "medians": medians,
    }
    if "colver" in medians:
        result["ratio_ours_colver"] = medians["ours"] / medians["colver"]
        result["ratio_fast_colver"] = medians["fast"] / medians["colver"]
    return result


def print_table(result: dict[str, object]) -> None:
    m = result["machine"]
    assert isinstance(m, dict)
    print(
        f"machine: Python {m['python']} ({m['implementation']}), {m['platform']}, "
        f"processor {m['processor']!r}, {m['cpu_count']} CPUs; colver {m['colver'] or 'absent'}"
    )
    if m["cpu_model"]:
        print(f"cpu: {m['cpu_model']}")
    print(
        f"random hands per second, {result['hands']} hands x {result['repeat']} repeats, "
        f"rules {result['rules']}, interleaved"
    )
    rates = result["rates"]
    medians = result["medians"]
    assert isinstance(rates, dict) and isinstance(medians, dict)
    labels = {"ours": "ours (API)", "colver": "colver step", "fast": "ours _push*"}
    names = list(rates)
    print("repeat  " + "".join(f"{labels[n]:>14}" for n in names))
    for r in range(len(rates[names[0]])):
        print(f"{r + 1:>6}  " + "".join(f"{rates[n][r]:>14,.0f}" for n in names))
    print("median  " + "".join(f"{medians[n]:>14,.0f}" for n in names))
    if "ratio_ours_colver" in result:
        ratio = result["ratio_ours_colver"]
        verdict = "goal met" if ratio >= 1.0 else "goal NOT met"
        print(f"ratio ours/colver (medians): {ratio:.2f}  (goal >= 1.0: {verdict})")
        print(f"ratio fast/colver (medians): {result['ratio_fast_colver']:.2f}")
    else:
        print("colver is not installed: our loops only (pip install colver==0.11.1)")
    print("* ours _push: internal unchecked fast path (Game._deal/_push), not public API")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per timed loop")
    parser.add_argument("--repeat", type=int, default=5, help="repeats of each loop")
    parser.add_argument("--rules", default="classic", help="rules preset for our engine")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.hands <= 0 or args.repeat <= 0:
        parser.error("--hands and --repeat must be positive")
    result = run(args.hands, args.repeat, find_preset(args.rules))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
