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
from collections.abc import Callable
from dataclasses import dataclass

from belote.ai.expert import PLAYOUTS, SAFETY, SEAT_EXACT_TRICKS_TWO, exact_search, team_score
from belote.cards import ALL_CARDS, card_list
from belote.engine import actions as A
from belote.engine.observation import observe
from belote.engine.search import Position, Solver, playout_outcomes
from belote.engine.search_seats import SeatSolver, SeatsPosition, lines_of
from belote.engine.state import Game, Phase
from belote.engine.tricks import CARD_POINTS
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


class AnalysisUnavailable(AnalysisError):
    """A card play the analysis does not search: with fewer than four players, a position
    the expert itself would not solve exactly (no obligation to follow suit early in the
    hand; two players with more than ``SEAT_EXACT_TRICKS_TWO`` tricks left)."""


def seats_analysable(rules: Rules, tricks_left: int) -> bool:
    """Whether a card of a game of fewer than four players with ``tricks_left`` tricks
    left is analysed: where the expert solves it exactly with the seat solver."""
    if rules.players == 2 and tricks_left > SEAT_EXACT_TRICKS_TWO:
        return False
    return exact_search(rules, tricks_left)


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
    if rules.players != 4:
        return _analyse_seats(before, seat, card, plays, worlds, seed, deadline)
    solver = _solver(rules, solvers)
    rng = random.Random(seed)
    exact = exact_search(rules, before.hands[seat].bit_count())
    scores: dict[int, float] = {}
    taker, trump = obs.taker, obs.trump  # narrowed once: the closure cannot see the assertion

    def value_world(world: Game) -> dict[int, float] | None:
        position = Position((world.hands[0], world.hands[1], world.hands[2], world.hands[3]),
                            tuple(world.trick), world.leader, world.trump,
                            (1 if world.tricks_won[0] else 0) | (2 if world.tricks_won[1] else 0))
        if exact:
            found = solver.solve(position, check=False,
                                 node_limit=solver.nodes_for(SAFETY * WORLD_SECONDS))
            if solver.aborted:
                return None
            outcomes = {c: [found[c]] for c in plays}
        else:
            outcomes = {c: playout_outcomes(rules, position, c, PLAYOUTS, rng.getrandbits(32))
                        for c in plays}
        values = dict.fromkeys(plays, 0.0)
        for c in plays:
            for v in outcomes[c]:
                if v not in scores:
                    scores[v] = team_score(rules, obs, v, seat & 1, taker, trump,
                                           obs.contract_level, obs.contract_multiplier)
                values[c] += scores[v] / len(outcomes[c])
        return values

    totals, solved, skipped = _over_worlds(before, seat, plays, worlds, rng, deadline,
                                           value_world)
    values = {c: totals[c] / solved for c in plays}
    best = max(plays, key=lambda c: (values[c], -c))
    return PlayAnalysis(seat, card, values, best, solved, "exact" if exact else "playouts",
                        skipped)


def _analyse_seats(before: Game, seat: int, card: int, plays: list[int], worlds: int,
                   seed: int, deadline: float | None) -> PlayAnalysis:
    """:func:`analyse_play` with fewer than four players: worlds solved by the seat solver
    (the expert's own machinery there), each card valued as the player's line's card points
    from here minus the other line's (the hand's card points still to win)."""
    rules = before.rules
    tricks_left = before.hands[seat].bit_count()
    if not seats_analysable(rules, tricks_left):
        raise AnalysisUnavailable(f"{rules.players} players, {tricks_left} tricks left: "
                                  "the expert does not search this card exactly")
    obs = observe(before, seat)
    assert obs.trump is not None
    solver = SeatSolver(rules)
    lines = lines_of(rules.players, seat, obs.taker)
    rng = random.Random(seed)
    trump = obs.trump  # narrowed once: the closure below cannot see the assertion
    points = CARD_POINTS[trump]

    def value_world(world: Game) -> dict[int, float] | None:
        held = 0
        for hand in world.hands:
            held |= hand
        widow = ALL_CARDS & ~world.played & ~held
        widow_points = (sum(points[c] for c in card_list(widow))
                        if rules.widow == "last_trick" else 0)
        position = SeatsPosition(tuple(world.hands), tuple(world.trick), world.leader,
                                 trump, lines, widow_points)
        found = solver.solve(position, check=False,
                             node_limit=solver.nodes_for(SAFETY * WORLD_SECONDS))
        if solver.aborted:
            return None
        # everything still to win: the cards in hand and on the table, the last trick's
        # bonus and the monte (the solver's values are the mover's line's share of it)
        at_stake = (sum(points[c] for c in card_list(held)) + sum(points[c] for c in world.trick)
                    + rules.last_trick_bonus + widow_points)
        return {c: 2.0 * found[c] - at_stake for c in plays}

    totals, solved, skipped = _over_worlds(before, seat, plays, worlds, rng, deadline,
                                           value_world)
    values = {c: totals[c] / solved for c in plays}
    best = max(plays, key=lambda c: (values[c], -c))
    return PlayAnalysis(seat, card, values, best, solved, "exact", skipped)


def _over_worlds(before: Game, seat: int, plays: list[int], worlds: int, rng: random.Random,
                 deadline: float | None,
                 value_world: Callable[[Game], dict[int, float] | None],
                 ) -> tuple[dict[int, float], int, int]:
    """Each play's value summed over at most ``worlds`` worlds drawn for ``seat``, with how
    many were solved and skipped (``value_world`` gave up: over its node budget).  None is
    started after ``deadline``, but one is always tried; more skipped than ``worlds`` ends
    it.  Raises :class:`AnalysisError` when no world was solved."""
    totals = dict.fromkeys(plays, 0.0)
    solved = skipped = 0
    while solved < worlds:
        if solved and deadline is not None and time.monotonic() >= deadline:
            break
        values = value_world(before.resample(seat, rng))
        if values is None:
            skipped += 1
            if skipped > worlds:
                break
            continue
        for c in plays:
            totals[c] += values[c]
        solved += 1
    if not solved:
        raise AnalysisError("no world could be solved in time")
    return totals, solved, skipped


def _solver(rules: Rules, solvers: dict[Rules, Solver] | None) -> Solver:
    if solvers is None:
        return Solver(rules)
    if rules not in solvers:
        solvers[rules] = Solver(rules)
    return solvers[rules]

