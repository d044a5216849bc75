"""The expert in a loaded room, and what its stand-in costs (issue 27, item 4).

When an expert bot of La Sala does not answer in time (or fails), the bot pool plays the
quick bot's network for it (``belote.server.bots.pool.STAND_IN``); before the network it was
the normal bot.  Both run in microseconds to a millisecond, so a room plays the same moves
with either, except at the stand-in's positions: the two rooms differ only there.  This
benchmark measures that difference on the positions a loaded room really produced, paired
(the same positions for every candidate), instead of two loaded runs whose positions and
loads would differ:

1. **Load.**  ``benchmarks/room_load.py`` with expert bots at every seat of ``--tables``
   tables (no scripted human), for ``--seconds``, its database kept; or ``--db FILE``, an
   earlier run's SQLite file, read again.
2. **Positions.**  Each table's log replayed (``start``, ``deal``, ``act``): every card
   decision with two legal cards or more; the act's ``quick`` key says that a stand-in
   played it, and why (``late``, ``failed``, ...).
3. **Quality.**  On every stand-in position, and on a sample of the expert's own moves,
   each candidate card is valued by the exact solver on the TRUE deal (regret: what the
   mover's side loses against the best card, in card points and in the hand's score as the
   rules count it, ``belote.ai.expert.team_score``): the card the room played, the quick
   bot's, the normal bot's, and on up to ``--reference`` positions the expert's own card on
   an idle machine (its full budget) and its card with no world solved (``max_worlds=0``:
   cards valued by random playouts, what its search plays when its clock runs out first).

The true-deal regret knows every hand, which no player does: it ranks cards as a perfect
observer would, the same way for every candidate (the quick bot's model card uses it too).

    .venv/bin/python benchmarks/loaded_fallbacks.py                    # 100 tables, 60 s
    .venv/bin/python benchmarks/loaded_fallbacks.py --tables 150 --seconds 90
    .venv/bin/python benchmarks/loaded_fallbacks.py --db /tmp/loaded.sqlite   # read again
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from belote.ai.expert import ExpertBot, _position, team_score
from belote.ai.heuristic import HeuristicBot
from belote.ai.quick import QuickBot
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.engine.search import Solver
from belote.engine.state import Game, Phase
from belote.rules import find_preset
from belote.rules.base import Rules

ROOM_LOAD = Path(__file__).with_name("room_load.py")


@dataclass(frozen=True)
class Position:
    """One card decision of the room: the mover's view, every hand (the true deal), the
    card the room played and, if a stand-in played it, why."""

    table: int
    obs: Observation
    hands: tuple[int, ...]
    played: int
    stand_in: str | None


def positions(db: Path) -> Iterator[Position]:
    """Every card decision with two legal cards or more in the database's table logs."""
    with sqlite3.connect(db) as conn:
        tables = conn.execute("SELECT id, preset, flags FROM tables ORDER BY id").fetchall()
        for table_id, preset, flags in tables:
            rules = find_preset(preset).with_flags(**json.loads(flags))
            log = conn.execute("SELECT kind, data FROM table_log WHERE table_id = ? "
                               "ORDER BY version", (table_id,)).fetchall()
            yield from _replayed(table_id, rules, log)


def _replayed(table_id: int, rules: Rules, log: list[tuple[str, str]]) -> Iterator[Position]:
    game: Game | None = None
    for kind, text in log:
        data = json.loads(text)
        if kind == "start":
            game = Game(rules, data["first_dealer"])
        elif kind == "deal" and game is not None:
            game.deal(data["deck"])
        elif kind == "act" and game is not None:
            seat, action = int(data["seat"]), int(data["action"])
            obs = game.observation(seat)
            plays = {a & 31 for a in obs.legal_actions if A.is_play(a)}
            if obs.phase == Phase.PLAYING and len(plays) > 1 and A.is_play(action):
                # Cards only (a declaration beside them is another decision): every
                # candidate then answers with a card.
                cards = tuple(a for a in obs.legal_actions if A.is_play(a))
                yield Position(table_id, dataclasses.replace(obs, legal_actions=cards),
                               tuple(game.hands), action & 31,
                               str(data["quick"]) if data.get("quick") else None)
            game.apply(action, seat)


@dataclass
class Regrets:
    """Each candidate's regrets (points, score) on the positions valued, in order."""

    points: dict[str, list[float]] = field(default_factory=dict)
    score: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, points: float, score: float) -> None:
        self.points.setdefault(name, []).append(points)
        self.score.setdefault(name, []).append(score)


class Judge:
    """The true deal's regret of a card: the exact solver, once per position."""

    def __init__(self) -> None:
        self._solvers: dict[Rules, Solver] = {}

    def regrets(self, position: Position) -> tuple[dict[int, float], dict[int, float]]:
        obs = position.obs
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None and obs.trump is not None
        assert obs.taker is not None
        solver = self._solvers.get(rules)
        if solver is None:
            solver = self._solvers[rules] = Solver(rules)
        values = solver.solve(_position(obs, position.hands), check=False)
        sign = 1 if obs.seat % 2 == 0 else -1  # the solver's value is team 0's points
        points = {card: float(sign * v) for card, v in values.items()}
        score = {card: team_score(rules, obs, v, obs.seat & 1, obs.taker, obs.trump,
                                  obs.contract_level, obs.contract_multiplier)
                 for card, v in values.items()}
        best_points, best_score = max(points.values()), max(score.values())
        return ({c: best_points - v for c, v in points.items()},
                {c: best_score - v for c, v in score.items()})


def mean_ci(values: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-width (normal approximation)."""
    if not values:
        return math.nan, math.nan
    if len(values) == 1:
        return values[0], math.nan
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def run_room(args: argparse.Namespace, db: Path) -> None:
    """The loaded room: room_load.py with expert bots at every seat, the database kept."""
    command = [sys.executable, str(ROOM_LOAD), "--tables", str(args.tables), "--humans", "0",
               "--bot-level", "expert", "--seconds", str(args.seconds),
               "--preset", args.preset, "--db", f"sqlite:///{db}"]
    print("load:", " ".join(command[1:]), flush=True)
    # room_load.py exits 1 when its own goal (a p99 of the humans' latency) is not met: no
    # human here, so that says nothing; the database is what is read.
    subprocess.run(command, check=False)


def card_of(decide: Callable[[Observation], int]) -> Callable[[Observation], int]:
    return lambda obs: decide(obs) & 31


def candidates(seed: int) -> dict[str, Callable[[Observation], int]]:
    quick, normal = QuickBot(seed), HeuristicBot(seed)
    return {"played": lambda obs: -1,  # filled from the position
            "quick (network)": card_of(quick.choose),
            "normal (heuristic)": card_of(normal.choose)}


def references(seed: int) -> dict[str, Callable[[Observation], int]]:
    expert, no_world = ExpertBot(seed), ExpertBot(seed, max_worlds=0)
    return {"expert, idle machine": card_of(expert.choose),
            "expert, no world (playouts)": card_of(no_world.choose)}


def value(judge: Judge, chosen: list[Position], bots: dict[str, Callable[[Observation], int]],
          regrets: Regrets) -> None:
    for position in chosen:
        points, score = judge.regrets(position)
        for name, choose in bots.items():
            card = position.played if name == "played" else choose(position.obs)
            regrets.add(name, points[card], score[card])


QUICK, NORMAL, PLAYED = "quick (network)", "normal (heuristic)", "played"
IDLE, NO_WORLD = "expert, idle machine", "expert, no world (playouts)"


def report(title: str, regrets: Regrets, pairs: list[tuple[str, str]]) -> None:
    """Each candidate's mean regret, then each pair's paired difference (``worse`` minus
    ``better``: > 0 when ``better`` loses less)."""
    names = list(regrets.points)
    count = len(regrets.points[names[0]]) if names else 0
    print(f"\n{title}: {count} positions; mean regret per decision on the true deal, 95% CI")
    print(f"  {'card':36} {'card points':>16} {'hand score':>16}")
    for name in names:
        p, ph = mean_ci(regrets.points[name])
        s, sh = mean_ci(regrets.score[name])
        print(f"  {name:36} {p:6.2f} ± {ph:<7.2f} {s:6.2f} ± {sh:<7.2f}")
    for worse, better in pairs:
        p, ph = mean_ci(paired(regrets.points, worse, better))
        s, sh = mean_ci(paired(regrets.score, worse, better))
        print(f"  {worse} - {better} (paired; > 0: {better} loses less)")
        print(f"  {'':36} {p:+6.2f} ± {ph:<7.2f} {s:+6.2f} ± {sh:<7.2f}")


def paired(values: dict[str, list[float]], worse: str, better: str) -> list[float]:
    return [w - b for w, b in zip(values[worse], values[better], strict=True)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of expert bots")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the measure")
    parser.add_argument("--preset", default="classic", help="rules of every table")
    parser.add_argument("--db", type=Path, default=None,
                        help="read this SQLite file of an earlier run instead of loading a room")
    parser.add_argument("--own", type=int, default=0,
                        help="the expert's own moves valued (a random sample; 0: all)")
    parser.add_argument("--reference", type=int, default=300,
                        help="stand-in positions on which the expert is asked again")
    parser.add_argument("--seed", type=int, default=5, help="sampling and bots' seed")
    args = parser.parse_args(argv)

    started = time.monotonic()
    if args.db is None:
        folder = Path(tempfile.mkdtemp(prefix="belote-loaded-"))
        db = folder / "room.sqlite"
        run_room(args, db)
        print(f"\nthe room's database, kept: {db}")
    else:
        db = args.db
    seen = list(positions(db))
    stand_ins = [p for p in seen if p.stand_in is not None]
    own = [p for p in seen if p.stand_in is None]
    reasons = Counter(p.stand_in for p in stand_ins)
    tables = len({p.table for p in seen})
    percent = 100 * len(stand_ins) / max(len(seen), 1)
    print(f"\n{len(seen)} card decisions with a choice at {tables} tables; "
          f"{len(stand_ins)} played by the stand-in ({percent:.1f}%, {dict(reasons)}), "
          f"{len(own)} by the expert itself")

    rng = random.Random(args.seed)
    judge = Judge()
    if stand_ins:
        at_stand_ins = Regrets()
        value(judge, stand_ins, candidates(args.seed), at_stand_ins)
        report("the stand-in's positions", at_stand_ins, [(NORMAL, QUICK)])
        sample = rng.sample(stand_ins, min(args.reference, len(stand_ins)))
        against = Regrets()
        value(judge, sample, candidates(args.seed) | references(args.seed), against)
        report("a sample of them, with the expert asked again", against,
               [(NORMAL, QUICK), (PLAYED, IDLE), (NO_WORLD, QUICK)])
    if own:
        # A stand-in is asked at any position whose decision comes late: every position of
        # the loaded room is one it may meet, so the network and the heuristic are also
        # compared on the expert's own positions (many more, a tighter interval).
        mine = Regrets()
        sample = rng.sample(own, len(own) if args.own == 0 else min(args.own, len(own)))
        value(judge, sample, candidates(args.seed), mine)
        report("the expert's own positions under load", mine, [(NORMAL, QUICK), (QUICK, PLAYED)])
        # What the load cost the expert's own moves: the same positions asked again.
        again = Regrets()
        value(judge, sample[:args.reference], candidates(args.seed) | references(args.seed),
              again)
        report("a part of them, with the expert asked again", again,
               [(PLAYED, IDLE), (NO_WORLD, QUICK), (NORMAL, QUICK)])
        share = len(stand_ins) / len(seen)
        gain, half = mean_ci(paired(mine.points, NORMAL, QUICK))
        print(f"\nthe network as the stand-in instead of the heuristic, the stand-in playing "
              f"{100 * share:.1f}% of the room's card decisions: {100 * share * gain:+.2f} ± "
              f"{100 * share * half:.2f} card points per 100 card decisions of the room")
    print(f"\n{os.cpu_count()} CPUs; {time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
