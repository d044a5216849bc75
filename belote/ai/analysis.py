"""Post-mortem analysis of one card play: what each legal card was worth to the player.

The player's information set is all the analysis may use: worlds are drawn with
:meth:`belote.engine.state.Game.resample` for the seat about to play (the other hands at
random among those consistent with everything that seat had seen), each world is solved
with the expert's own machinery (the exact solver, or random playouts where the expert
itself would not solve exactly, see :func:`belote.ai.expert.exact_search`), and each card's
value is the expert's: our team's hand score minus the opponents', averaged over the worlds.

The card the expert would have played is the best average (ties: the lowest card, so that
the answer is the same on every run).  The real hands are never looked at: an analysis of a
card says nothing the player could not have worked out at the table.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from belote.ai.expert import PLAYOUTS, SAFETY, exact_search, team_score
from belote.engine import actions as A
from belote.engine.observation import observe
from belote.engine.search import Position, Solver, playout_outcomes
from belote.engine.state import Game, Phase
from belote.errors import BeloteError
from belote.rules.base import Rules

DEFAULT_WORLDS = 16
# A kernel call holds the interpreter (the kernels do not release the GIL): one world's
# search is given at most this long (about 15 ms is usual where the expert solves exactly);
# a world that needs more is left out, and an analysis with no world solved is refused.
WORLD_SECONDS = 0.5


@dataclass(frozen=True)
class PlayAnalysis:
    seat: int
    played: int  # the card played
    values: dict[int, float]  # legal card -> average hand margin for the player's team
    best: int  # the card the expert would have played
    worlds: int  # worlds averaged
    method: str  # "exact" or "playouts"
    skipped: int = 0  # worlds whose search ran out of its time and were left out

    @property
    def cost(self) -> float:
        """How much worse the card played was than the best (0 when it was the best)."""
        return self.values[self.best] - self.values[self.played]


class AnalysisError(BeloteError):
    """The position is not a card play that can be analysed."""


def analyse_play(before: Game, action: int, worlds: int = DEFAULT_WORLDS,
                 seed: int = 0, deadline: float | None = None,
                 solvers: dict[Rules, Solver] | None = None) -> PlayAnalysis:
    """Analyse ``action`` (a card, possibly announcing belote) played in ``before`` by the
    player to move.  At most ``worlds`` worlds; none started after ``deadline``
    (``time.monotonic()``), but at least one is always solved."""
    if before.phase != Phase.PLAYING or not A.is_play(action):
        raise AnalysisError("not a card play")
    if worlds < 1:
        raise AnalysisError(f"at least one world, not {worlds}")
    seat = before.to_play
    card = A.played_card(action)
    rules = before.rules
    plays = [c for c in range(32) if before.legal_plays(seat) >> c & 1]
    if card not in plays:
        raise AnalysisError("the card was not legal there")
    obs = observe(before, seat)
    assert obs.taker is not None and obs.trump is not None
    solver = _solver(rules, solvers)
    rng = random.Random(seed)
    exact = exact_search(rules, before.hands[seat].bit_count())
    totals = dict.fromkeys(plays, 0.0)
    scores: dict[int, float] = {}
    solved = skipped = 0
    while solved < worlds:
        if solved and deadline is not None and time.monotonic() >= deadline:
            break
        world = before.resample(seat, rng)
        position = Position((world.hands[0], world.hands[1], world.hands[2], world.hands[3]),
                            tuple(world.trick), world.leader, world.trump,
                            (1 if world.tricks_won[0] else 0) | (2 if world.tricks_won[1] else 0))
        if exact:
            found = solver.solve(position, check=False,
                                 node_limit=solver.nodes_for(SAFETY * WORLD_SECONDS))
            if solver.aborted:
                skipped += 1
                if skipped > worlds:
                    break
                continue
            outcomes = {c: [found[c]] for c in plays}
        else:
            outcomes = {c: playout_outcomes(rules, position, c, PLAYOUTS, rng.getrandbits(32))
                        for c in plays}
        for c in plays:
            for v in outcomes[c]:
                if v not in scores:
                    scores[v] = team_score(rules, obs, v, seat & 1, obs.taker, obs.trump,
                                           obs.contract_level, obs.contract_multiplier)
                totals[c] += scores[v] / len(outcomes[c])
        solved += 1
    if not solved:
        raise AnalysisError("no world could be solved in time")
    values = {c: totals[c] / solved for c in plays}
    best = max(plays, key=lambda c: (values[c], -c))
    return PlayAnalysis(seat, card, values, best, solved, "exact" if exact else "playouts",
                        skipped)


def _solver(rules: Rules, solvers: dict[Rules, Solver] | None) -> Solver:
    if solvers is None:
        return Solver(rules)
    if rules not in solvers:
        solvers[rules] = Solver(rules)
    return solvers[rules]

