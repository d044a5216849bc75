"""Fuzz the rule flags: random flag changes on every preset, then whole bot matches.

Every single-flag change from a pool of values (valid, odd and absurd ones) is applied to every
preset, plus ``--pairs`` random two-flag changes.  A change is either *rejected* by
``Rules.with_flags`` (a ``ValueError``: the wanted outcome for a bad value), or the match is
played to its end by fast bots (random, easy, normal; never expert) on a short target.  What
goes wrong is counted:

* ``bad_error``: ``with_flags`` raised something other than ``ValueError``;
* ``crash``: the engine or a bot raised during the match;
* ``endless``: the match did not end within a bounded number of deals (the bound grows with
  the target: a healthy match scores far more than ``POINTS_PER_DEAL`` points a deal).

Usage: ``python scripts/fuzz_rules.py [--pairs N] [--seed S] [--show K]``.  It prints the
figures and the first ``K`` distinct failures (flag, value, error), and exits 1 if any.

``--domain`` sweeps the accepted settings instead (issue 21, item 10): every value of every
flag's domain (:func:`belote.rules.domain.flag_domain`: both booleans, every word, the
lowest and highest accepted numbers, tables from the smallest to the largest) on every
preset, ``--matches`` bot matches each (the target shortened unless the change is the
target), then ``--pairs`` random changes of two to four flags drawn from the domains.  Every
accepted setting must play: a crash or an endless match is a failure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Fuzz the checkout this script is in, not whichever belote the interpreter has installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belote.ai import make_bot
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game
from belote.rules import PRESETS, Rules
from belote.rules.domain import flag_domain
from belote.sim.match import play_step

SHORT_TARGET = 300  # the target of a fuzzed match unless the change is the target itself
POINTS_PER_DEAL = 5  # a match may take target / POINTS_PER_DEAL deals (redeals included)
MIN_DEALS = 200
MAX_DEALS = 5000  # past this, a match is endless for our purpose (a target of 1e5: ~1300)
BOTS = ("random", "easy", "normal")
HEURISTIC_BOTS = ("easy", "normal")

INTS: tuple[Any, ...] = (
    -1000, -1, 0, 1, 2, 3, 5, 8, 20, 82, 100, 162, 250, 1000, 100_000, 100_001, 2**31,
    2**63 - 1, 1.5, "10", True, None,
)
BOOLS: tuple[Any, ...] = (True, False, 0, 1, "yes", None)
WORDS: tuple[Any, ...] = ("bogus", "", 0, None)
PACKETS: tuple[Any, ...] = (
    [], [0], [1], [5], [8], [3, 2], [2, 3], [3, 3], [4, 4], [3, 2, 3], [3, 3, 2], [1] * 5,
    [1] * 8, [5, 3], [4, 1], [3, 2, 2], [-1, 6], [0, 5], [0, 8], [3, "2"], [[3]], [9], [32],
    [2**63 - 1], "3,2",
)
LEVELS: tuple[Any, ...] = (
    [], [1], [80], [0, 10], [-10, 10], [80, 70], [80, 80], [250, 80], [82, 2**63 - 1],
    [100_000], list(range(80, 161, 10)), [*range(80, 161, 10), 250], list(range(10, 1000, 10)),
    list(range(1, 81)), list(range(1, 82)), [80, "90"], [80.5], 80,
)
CARRES: tuple[Any, ...] = (
    [0] * 8, [100] * 8, [0, 0, 150, 100, 200, 100, 100, 100], [0] * 7, [0] * 9,
    [-100, 0, 150, 100, 200, 100, 100, 100], [0, 0, 150, 100, 2**63 - 1, 100, 100, 100],
)
SEQUENCES: tuple[Any, ...] = (
    [], [[3, 20]], [[1, 10]], [[2, 10]], [[8, 100]], [[9, 100]], [[3, -20]], [[0, 5]],
    [[3, 20], [3, 50]], [[4, 50], [3, 20]], [[3, 2**63 - 1]], [[3, 20, 5]], [[3, 20], [4, 50],
    [5, 100]], [[3, 20], [4, 50], [5, 100], [6, 150], [7, 200], [8, 1000]],
)
GROUP_VALUES: tuple[Any, ...] = (None, {}, 5, "x", [], {"no_such": 1})


def candidate_values(flag: str, current: Any) -> tuple[Any, ...]:
    """Values to try for ``flag`` (valid, odd and absurd), from the flag's kind."""
    leaf = flag.rpartition(".")[2]
    if flag in ("auction", "declarations"):
        return (*GROUP_VALUES, {"levels": [80, 90]}) if flag == "auction" else GROUP_VALUES
    if leaf == "deal_packets":
        return PACKETS
    if leaf == "levels":
        return LEVELS
    if leaf == "carre_points":
        return CARRES
    if leaf == "sequence_points":
        return SEQUENCES
    if leaf == "name":
        return ("colver", "", "x" * 1000, 5, None)
    if isinstance(current, bool):
        return BOOLS
    if isinstance(current, int) or current is None:
        return INTS
    if isinstance(current, str):
        return (*_literal_choices(flag), *WORDS)
    return INTS


def _literal_choices(flag: str) -> tuple[str, ...]:
    choices = {
        "direction": ("clockwise", "counterclockwise"),
        "bidding": ("take_or_pass", "auction"),
        "belote_window": ("next_card", "trick"),
        "tie_rule": ("litige", "prigione"),
        "doubled_tie": ("last_caller_loses", "litige"),
        "multiplier_scope": ("lines", "contract"),
        "declarations.policy": ("best_team", "same_length", "best_team_all"),
        "declarations.declarations_to": ("best", "contract"),
        "declarations.tie_break": ("nobody", "first"),
        "declarations.same_length_scope": ("table", "team"),
    }
    return choices.get(flag, ())


def flag_pool(rules: Rules) -> list[tuple[str, Any]]:
    """Every (flag, value) change to try on ``rules``."""
    pool: list[tuple[str, Any]] = []
    flags = dict(rules.flag_items())
    for group in ("auction", "declarations"):
        flags.setdefault(group, getattr(rules, group))
    for flag, current in flags.items():
        pool += [(flag, value) for value in candidate_values(flag, current)]
    return pool


def apply_flags(rules: Rules, flags: dict[str, Any]) -> Rules:
    """``rules`` with ``flags``, through the same checks as a table host's flags."""
    return rules.with_flags(**flags)


def play_bounded(rules: Rules, seed: int) -> tuple[Game, bool]:
    """Play a bot match; (game, ended) where ``ended`` is False past the bound on deals."""
    rng = random.Random(seed)
    # Every other match has no random bot: the others bid only what their hand is worth, so a
    # rule that leaves them nothing to bid shows up as an endless match.
    bots = BOTS if seed % 2 else HEURISTIC_BOTS
    players = [make_bot(rng.choice(bots), seed * 4 + seat) for seat in range(rules.players)]
    game = Game(rules, seed % rules.players)
    decks = seeded_deck_source(seed)
    max_deals = min(MAX_DEALS, MIN_DEALS + rules.target_score // POINTS_PER_DEAL
                    + 3 * rules.match_hands)  # a fixed number of hands, redeals besides
    while not game.is_terminal():
        if game.deal_no > max_deals:
            return game, False
        play_step(game, players, decks)
    return game, True


def changes(seed: int, pairs: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(preset name, flags): every single change, then ``pairs`` random two-flag changes."""
    pools = {name: flag_pool(rules) for name, rules in PRESETS.items()}
    for name, pool in pools.items():
        for flag, value in pool:
            yield name, {flag: value}
    rng = random.Random(seed)
    for _ in range(pairs):
        name = rng.choice(list(pools))
        (f1, v1), (f2, v2) = rng.sample(pools[name], 2)
        if f1.partition(".")[0] == f2.partition(".")[0] and f1 != f2 and "." not in f1 + f2:
            continue
        yield name, {f1: v1, f2: v2}


def domain_changes(seed: int, matches: int, combos: int
                   ) -> Iterator[tuple[str, dict[str, Any]]]:
    """(preset name, flags): every single change of every flag's domain, ``matches`` times
    each, then ``combos`` random changes of two to four flags of one preset's domain."""
    domains = {name: flag_domain(rules) for name, rules in PRESETS.items()}
    for name, domain in domains.items():
        for flag, value in domain:
            for _ in range(matches):
                yield name, {flag: value}
    rng = random.Random(seed)
    for _ in range(combos):
        name = rng.choice(list(domains))
        picked: dict[str, Any] = {}
        for flag, value in rng.sample(domains[name], rng.randint(2, 4)):
            group = flag.partition(".")[0]
            if flag in picked or (group in picked and "." in flag) or (
                    "." not in flag and any(f.startswith(flag + ".") for f in picked)):
                continue  # a group and its own flags: one or the other
            picked[flag] = value
        yield name, picked


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def run(seed: int, pairs: int, show: int, domain: bool = False, matches: int = 1) -> int:
    counts: Counter[str] = Counter()
    seen: Counter[str] = Counter()  # matches per distinct failure
    failures: dict[str, str] = {}
    started = time.perf_counter()
    tried = domain_changes(seed, matches, pairs) if domain else changes(seed, pairs)
    for i, (name, flags) in enumerate(tried):
        counts["tried"] += 1
        base = PRESETS[name]
        try:
            rules = apply_flags(base, flags)
        except ValueError:
            counts["rejected"] += 1
            continue
        except Exception as exc:  # counted: the point of the fuzzer
            counts["bad_error"] += 1
            failures.setdefault(f"bad_error {type(exc).__name__} {sorted(flags)}",
                                f"{name} {short(flags)}: {exc!r}")
            continue
        if "target_score" not in flags and rules.target_score > SHORT_TARGET:
            rules = rules.with_flags(target_score=SHORT_TARGET)
        counts["accepted"] += 1
        try:
            game, ended = play_bounded(rules, seed + i)
        except Exception as exc:
            counts["crash"] += 1
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            where = f"{frame.filename.rpartition('belote/')[2]}:{frame.lineno}"
            key = f"crash {type(exc).__name__} {where} {sorted(flags)}"
            seen[key] += 1
            failures.setdefault(key, f"{name} {short(flags)}: {type(exc).__name__}: {exc} "
                                f"@ {where}")
            continue
        if not ended:
            # every deal passed out (nobody ever scored): cautious bots on a rule that
            # leaves them little to bid, or a match that does not move towards its end
            idle = not any(game.totals)
            counts["endless"] += 1
            counts["endless_all_passed" if idle else "endless_scoring"] += 1
            key = f"endless {sorted(flags)}"
            seen[key] += 1
            why = ("every deal passed out" if idle
                   else f"totals {list(game.totals)} after {game.deal_no} deals")
            failures.setdefault(key, f"{name} {short(flags)} ({why})")
        else:
            counts["finished"] += 1
    elapsed = time.perf_counter() - started
    bad = counts["crash"] + counts["endless"] + counts["bad_error"]
    print(f"tried {counts['tried']} changes in {elapsed:.0f}s: rejected {counts['rejected']}, "
          f"accepted {counts['accepted']} (finished {counts['finished']}, crash "
          f"{counts['crash']}, endless {counts['endless']}: every deal passed out "
          f"{counts['endless_all_passed']}, scoring but past the bound "
          f"{counts['endless_scoring']}), bad_error {counts['bad_error']}")
    print(f"distinct failures (by error and flags): {len(failures)}")
    for key, line in list(failures.items())[:show]:
        print(f"  {line} [{seen[key] or 1} match(es)]")
    return 1 if bad else 0


def run_expert(deals: int, show: int) -> int:
    """The room's expert on every accepted single change of every preset's domain: the
    first ``deals`` deals, expert bots at every seat with small budgets (two worlds, a few
    milliseconds), so that a setting the expert's search cannot handle shows up as a crash."""
    from belote.ai.expert import ExpertBot

    counts: Counter[str] = Counter()
    failures: dict[str, str] = {}
    started = time.perf_counter()
    for name, base in PRESETS.items():
        for i, (flag, value) in enumerate(flag_domain(base)):
            try:
                rules = base.with_flags(**{flag: value})
            except ValueError:
                continue
            counts["accepted"] += 1
            bots = [ExpertBot(seat, max_worlds=2, budget_ms=2, hard_ms=30, bid_worlds=2,
                              bid_budget_ms=2, bid_hard_ms=30) for seat in range(rules.players)]
            game = Game(rules, i % rules.players)
            decks = seeded_deck_source(i)
            try:
                while not game.is_terminal() and game.deal_no <= deals:
                    play_step(game, bots, decks)
            except Exception as exc:
                counts["crash"] += 1
                frame = traceback.extract_tb(exc.__traceback__)[-1]
                where = f"{frame.filename.rpartition('belote/')[2]}:{frame.lineno}"
                failures.setdefault(f"{type(exc).__name__} {where}",
                                    f"{name} {flag}={short(value)}: {exc!r} @ {where}")
    print(f"expert on {counts['accepted']} accepted settings, {deals} deal(s) each, in "
          f"{time.perf_counter() - started:.0f}s: crash {counts['crash']}")
    for line in list(failures.values())[:show]:
        print("  " + line)
    return 1 if counts["crash"] else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", type=int, default=2000, help="random two-flag changes")
    parser.add_argument("--show", type=int, default=40, help="distinct failures to print")
    parser.add_argument("--domain", action="store_true",
                        help="sweep every accepted value of every flag's domain instead")
    parser.add_argument("--matches", type=int, default=1,
                        help="with --domain: matches per single change")
    parser.add_argument("--expert", type=int, default=0, metavar="DEALS",
                        help="instead: the expert plays DEALS deals of every accepted single "
                             "change of every preset's domain")
    args = parser.parse_args()
    if args.expert:
        sys.exit(run_expert(args.expert, args.show))
    sys.exit(run(args.seed, args.pairs, args.show, args.domain, args.matches))


if __name__ == "__main__":
    main()
