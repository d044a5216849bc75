"""The expert bot: information-set search with an exact solver, bidding by simulation.

Card play (the GIB / Kermit / colver recipe): sample worlds consistent with everything
public (:mod:`belote.ai.worlds`), solve each world exactly (:class:`belote.engine.search.
Solver`), turn each card's value into the hand's score for our team with the rules' own
scoring (contract made or failed, capot, litige) and play the card with the best average.
Worlds are sampled until the per-move time budget is spent.

Bidding: for every candidate contract, deal worlds for the cards still unseen (including the
cards still to be dealt in take-or-pass), solve each world's whole hand, score it as that
contract, and bid the candidate whose average beats passing.

Announcements (belote, declarations, ottava) follow the heuristic bot: always.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from belote.ai.belote_order import king_before_queen
from belote.ai.bidding import pass_word
from belote.ai.decision import Decision, DecisionMethod, elapsed_ms, only_move
from belote.ai.fitting import EvidenceWorlds, FittingWorlds
from belote.ai.heuristic import HeuristicBot
from belote.ai.likelihood import BidModel, auction_moves, normalised, play_log_likelihood
from belote.ai.models import SeatContext, SeatModels, TableSeat, models_at, models_for
from belote.ai.models.network_bids import NetworkBidder
from belote.ai.showing import table_talk
from belote.ai.worlds import ConventionEvidence, Knowledge, knowledge, sample_whole_world
from belote.cards import ALL_CARDS, card_list
from belote.engine import actions as A
from belote.engine.events import CardPlayed, Event, HandScored, HandStarted
from belote.engine.evidence import Evidence
from belote.engine.evidence import World as EvidenceWorld
from belote.engine.observation import Observation
from belote.engine.pysearch import SeatPosition, playouts, side_totals, solve
from belote.engine.scoring import HandFacts, Pot, hand_total, score_hand
from belote.engine.search import Position, Solver, playout_outcomes
from belote.engine.search_seats import SeatSolver, SeatsPosition, lines_of
from belote.engine.tricks import CARD_POINTS
from belote.rules.base import Rules

# The bots' conventions (passo, aspetto, ancora/alzo, signals), read as soft evidence where
# the sampler used to take them as facts (issue 23): the default expert's model of a table
# it was not told about (see ExpertBot._world_model).
CONVENTIONS = ConventionEvidence()
log = logging.getLogger(__name__)

# Double-dummy worlds flatter the taker (every finesse works): a bid must beat passing by
# this many points per hand on average.
BID_MARGIN = 30.0
# Doubling doubles the swing (and both sides trust their own worlds): a contro or surcontro
# must gain this much more on average.  Conservative, not tuned.
DOUBLE_MARGIN = 60.0
# Without the follow-suit obligation nearly every card is legal at every turn and one exact
# search of a whole deal takes seconds (tens of millions of nodes, against about 15 ms with
# it): such positions are estimated by random playouts in each world (the kernels apply every
# obligation flag), and solved exactly from this many tricks left.
EXACT_TRICKS_FREE_PLAY = 4
PLAYOUTS = 24  # per card and world, where the search is not exact
# A search gets this share of the time left as its node limit: the rest covers the Python
# around it (sampling, scoring) and a machine busier than the measured rate says.
SAFETY = 0.75
# Bidding worlds weighed by the seat models are drawn by rejection: at most this many draws
# per world (a draw is cheap next to its solving).
BID_DRAWS = 50
# Bidding values whole deals within this many points (fewer MTD(f) passes, so more worlds
# in the bid's time: half the mean cost of 4 points, a tenth of the tail): the sampling's
# own noise is far larger.
BID_TOLERANCE = 10
# A bid's average over worlds counts less BID_CONFIDENCE standard errors (see _lower_bound),
# more when it is the best of several candidates (the expected best of K noisy averages
# sits sqrt(2 ln K) standard errors above its truth: the winner's curse).  The spread is
# believed proportional to what the contract puts at stake (BID_PRIOR_SHARE of the score
# swing between taking nearly every point and nearly none, see ExpertBot._stake) until the
# worlds say otherwise, as if BID_PRIOR_WORLDS worlds had shown it, so that one world can
# be enough to bid (a busy room's deadline) and a few worlds that agree by chance do not
# look certain.  The share is measured, not tuned: the standard deviation over 16 worlds of
# a candidate's difference with passing (median 119 points on classic's and italian's bids,
# 217 on coinche's, 12 deals each, seed 21) over the stake (152 in classic, 231..271 for
# coinche's 80..120 contracts), docs/bots.md.
BID_CONFIDENCE = 1.0
BID_PRIOR_SHARE = 0.8
BID_PRIOR_WORLDS = 2
# Solving times of sampled worlds vary a hundredfold (a first trick: 15 ms at the median,
# 0.5 s at the worst), so under a deadline no world may take more than WORLD_SHARE of the
# time left (all of it once that share is under WORLD_FLOOR seconds): a world that would is
# given up for the next one (counted in ``given_up``), since an easy world solved says more
# than a hard one cut short.
WORLD_SHARE = 0.5
WORLD_FLOOR = 0.03
# The draws of an estimate's worlds (below) may take this many seconds in all: its
# deadline has passed already, and a weighed draw could otherwise take long.
ESTIMATE_DRAW_SECONDS = 0.02
# Card play with no world solved exactly by the hard deadline: the cards are valued by
# PLAYOUTS random playouts in each of this many sampled worlds instead ("estimated",
# counted).  Measured on 203 positions of the first two tricks of classic against 40 exact
# worlds: 3.8 points lost per decision, the heuristic's choice 4.2 and one exact world 5.0,
# all within noise of each other (docs/bots.md): the search's own roughest answer.
ESTIMATE_WORLDS = 16
# Fewer than four players without the follow-suit obligation (no playout kernel for them):
# the pure-Python search solves exactly from this many tricks left, and estimates earlier
# positions by this many playouts per card and world (counted as a seat fallback).
PY_EXACT_TRICKS = 3
PY_PLAYOUTS = 8
# Two players know every card after the deal, but a whole 16-trick deal takes 10 to 35 s to
# solve (docs/rules-2-3-players.md): with more tricks left than this no search is tried and
# the heuristic plays (counted as hurried: no time is spent on a search that cannot end).
SEAT_EXACT_TRICKS_TWO = 12
# The seat solver's first-trick worlds are slower than four seats' (three players: 33 ms at
# the median, 120 ms at p90), so with fewer seats a card's search stops at this many
# seconds at most; with no world solved by then the cards are valued by the pure-Python
# playouts in SEAT_ESTIMATE_WORLDS worlds (about 15 ms each; counted in ``estimated``).
SEAT_HARD = 0.2
SEAT_ESTIMATE_WORLDS = 2


def _widow_points(obs: Observation, world: Sequence[int]) -> int:
    """The monte's card points in a sampled world: what no hand holds and nobody has
    played goes with the last trick (``rules.widow == "last_trick"``), so a world's monte is
    part of its value."""
    rules = obs.ruleset
    assert rules is not None and obs.trump is not None
    if rules.widow != "last_trick":
        return 0
    out = ALL_CARDS & ~obs.played  # played includes the cards on the table
    for hand in world:
        out &= ~hand
    return sum(CARD_POINTS[obs.trump][c] for c in card_list(out))


def _position(obs: Observation, world: Sequence[int]) -> Position:
    """The four-seat solver's position for ``world`` (every hand) as ``obs`` sees the
    table: the trick, its leader, the trump and which teams have won a trick."""
    assert obs.trump is not None
    leader = obs.trick[0][0] if obs.trick else obs.leader
    won = (1 if obs.tricks_won[0] else 0) | (2 if obs.tricks_won[1] else 0)
    return Position((world[0], world[1], world[2], world[3]), tuple(c for _, c in obs.trick),
                    leader, obs.trump, won)


def _card_scores(obs: Observation, outcomes: dict[int, list[int]],
                 cache: dict[int, float]) -> dict[int, float]:
    """Each card's average score for our team over its ``outcomes`` (team 0's points from
    here), the hand scored by the rules (``cache``: score by points, for one decision)."""
    rules = obs.ruleset
    assert rules is not None and obs.seat is not None and obs.trump is not None
    assert obs.taker is not None
    scores = {}
    for card, values in outcomes.items():
        for v in values:
            if v not in cache:
                cache[v] = team_score(rules, obs, v, obs.seat & 1, obs.taker, obs.trump,
                                      obs.contract_level, obs.contract_multiplier)
        scores[card] = sum(cache[v] for v in values) / len(values)
    return scores


def exact_search(rules: Rules, tricks_left: int) -> bool:
    """Whether the expert solves positions of ``rules`` with ``tricks_left`` exactly (else it
    estimates them by playouts)."""
    return rules.must_follow_suit or tricks_left <= EXACT_TRICKS_FREE_PLAY


def team_score(rules: Rules, obs: Observation, team0_from_here: int, team: int,
               taker: int, trump: int, level: int, multiplier: int) -> float:
    """Our team's score minus theirs for the hand, if team 0 makes ``team0_from_here``
    points from the cards still in play (the solver's value)."""
    so_far = obs.card_points
    remaining = hand_total(rules, trump) - so_far[0] - so_far[1]
    capot0 = team0_from_here > remaining
    points0 = so_far[0] + (team0_from_here - rules.capot_bonus if capot0 else team0_from_here)
    points1 = hand_total(rules, trump) - points0
    capot1 = points0 == 0 and obs.tricks_won[0] == 0 and team0_from_here == 0
    tricks = (8, 0) if capot0 else (0, 8) if capot1 else (4, 4)
    belote = [0, 0]
    said: dict[int, int] = {}
    for seat, _word in obs.belote_said:
        said[seat] = said.get(seat, 0) + 1
    for seat in said:  # a "belote" already said is counted as completed
        belote[seat & 1] += rules.belote_points
    facts = HandFacts(
        taker_team=taker & 1,
        trump=trump,
        card_points=(points0, points1),
        tricks_won=tricks,
        belote=(belote[0], belote[1]),
        declarations=obs.declaration_points,
        level=level,
        capot_contract=bool(rules.auction and rules.auction.capot_level
                            and level == rules.auction.capot_level),
        multiplier=multiplier,
    )
    result = score_hand(rules, facts, Pot(obs.pot, None))
    return float(result.scores[team] - result.scores[1 - team])


@dataclass(frozen=True)
class Clock:
    """A decision's deadlines (``time.monotonic()`` seconds): no new world is started after
    ``soft`` once ``least`` worlds are in, and no search runs past ``hard`` (the solver's
    node limit stops it there, see :meth:`belote.engine.search.Solver.nodes_for`)."""

    soft: float
    hard: float
    least: int

    def stop_before(self, worlds: int) -> float:
        """The time the next world's search must end by (passed: stop)."""
        return self.hard if worlds < self.least else self.soft

    def world_stop(self, worlds: int, now: float) -> float:
        """The time the next world's search must end by, given up otherwise: until
        ``least`` worlds are in, a share of the time to ``hard`` (see :func:`world_time`),
        so that one hard world does not take it all; then all the time to ``soft``."""
        stop = self.stop_before(worlds)
        return now + world_time(stop - now) if worlds < self.least else stop


def make_clock(budget: float, hard: float, least: int, deadline: float | None) -> Clock:
    """Deadlines from now: ``budget`` (soft) and ``hard`` seconds.  A caller's earlier
    ``deadline`` (the room's, from when a worker took the decision) cuts the soft one and
    asks for one world only; the hard one stays, so the first world still has its time and
    every decision ends by it."""
    now = time.monotonic()
    soft, stop = now + budget, now + max(hard, budget)
    if deadline is not None and deadline < soft:
        soft, least = max(now, deadline), 1
    return Clock(soft, stop, least)


def world_time(left: float) -> float:
    """The seconds one world may take with ``left`` seconds to the clock's stop (see
    WORLD_SHARE)."""
    return left if left * WORLD_SHARE <= WORLD_FLOOR else WORLD_SHARE * left


def _lower_bound(values: list[float], prior_sd: float, choices: int = 1) -> float:
    """The mean less standard errors: BID_CONFIDENCE of them, sqrt(2 ln ``choices``) when
    that is more (with the few worlds a bid's deadline allows, the best of ``choices``
    noisy averages is too often a lucky one: the winner's curse).  The variance starts from
    the prior (``prior_sd`` over BID_PRIOR_WORLDS), so one world can be enough."""
    n = len(values)
    mean = sum(values) / n
    squares = sum((v - mean) ** 2 for v in values)
    var = (squares + BID_PRIOR_WORLDS * prior_sd ** 2) / (n - 1 + BID_PRIOR_WORLDS)
    z = max(BID_CONFIDENCE, math.sqrt(2 * math.log(choices))) if choices > 1 else BID_CONFIDENCE
    return mean - z * math.sqrt(var / n)


# How each of the expert's ways to decide (``ExpertBot.last_method``) is told to the room.
_METHODS = {
    "exact": DecisionMethod.EXACT, "python-exact": DecisionMethod.EXACT,
    "playouts": DecisionMethod.PLAYOUTS, "python-playouts": DecisionMethod.PLAYOUTS,
    "estimated": DecisionMethod.ESTIMATED, "bid": DecisionMethod.SIMULATED,
    # no world in time (a search tried), or a position too large to try: the heuristic's
    "heuristic": DecisionMethod.HURRIED, "unsearchable": DecisionMethod.HURRIED,
}


class ExpertBot:
    """Information-set search with exact solving, under deadlines: ``budget_ms`` per card
    (``hard_ms`` at most, the first world included), ``bid_budget_ms`` per bid
    (``bid_hard_ms`` at most).  The searches stop at the deadline and the decision uses the
    worlds solved by then.  A card with no world solved exactly is valued by playouts
    (counted in ``estimated``); a bid with no world solved is the heuristic's (counted in
    ``hurried``)."""

    def __init__(self, seed: int | None = None, name: str = "expert", budget_ms: float = 150.0,
                 max_worlds: int = 48, min_worlds: int = 1, bid_budget_ms: float = 250.0,
                 bid_worlds: int = 32, min_bid_worlds: int = 1,
                 bid_margin: float | None = None, hard_ms: float = 300.0,
                 bid_hard_ms: float = 800.0, likelihood_eps: float | None = None,
                 likelihood_bids: bool = False, bid_model: BidModel | None = None,
                 seat_models: bool = True,
                 learned_bidders: dict[str, NetworkBidder] | None = None) -> None:
        self.name = name
        self.rng = random.Random(seed)
        # The table's composition once told (``meet``): the other seats' models are built
        # from it (belote.ai.models) and the worlds drawn weighed by them (EvidenceWorlds),
        # unless ``seat_models`` is off or a bid model is given.  Never told: no model.
        self.use_seat_models = seat_models
        self.learned_bidders = dict(learned_bidders or {})
        self.seats: tuple[TableSeat, ...] | None = None
        self.models: SeatModels | None = None
        self.evidence: EvidenceWorlds | None = None
        self._models_seat: int | None = None
        self._hand_cards: list[int] = []  # each seat's cards played this hand (learning)
        self._hand_obs: Observation | None = None  # this hand's last observation
        # None: worlds are drawn within the hard facts only; else among those whose hands
        # the bid model says would have made the bids heard (belote.ai.fitting)
        self.fitting = None if bid_model is None else FittingWorlds(bid_model, self.rng)
        # the last card decision's solved worlds the bid model did not fit (None: no
        # model).  With a model the bot keeps the hand's fitting worlds between decisions
        # (belote.ai.fitting): a speed-up only, each is checked again against the facts.
        self.last_misfits: int | None = None if bid_model is None else 0
        # None: every sampled world counts the same; else each world is weighted by how
        # likely the normal bot, softened by this eps, makes the cards seen in it
        # (belote.ai.likelihood)
        if likelihood_eps is not None and not 0.0 < likelihood_eps < 1.0:
            raise ValueError("likelihood_eps must be strictly between 0 and 1")
        self.likelihood_eps = likelihood_eps
        # whether the auction's bids count in the weights (where the model can read them):
        # off by default, the normal bot's bidder reads colver's bids poorly (docs/bots.md)
        self.likelihood_bids = likelihood_bids
        self.budget = budget_ms / 1000.0
        self.hard = hard_ms / 1000.0
        self.bid_budget = bid_budget_ms / 1000.0
        self.bid_hard = bid_hard_ms / 1000.0
        self.bid_worlds = bid_worlds
        self.min_bid_worlds = min_bid_worlds
        self.bid_margin = BID_MARGIN if bid_margin is None else bid_margin
        self.max_worlds = max_worlds
        self.min_worlds = min_worlds
        self.fallback = HeuristicBot(seed)
        self._solvers: dict[Rules, Solver] = {}
        self.last_worlds = 0
        # How the last decision was made: "exact" or "playouts" (how cards valued worlds;
        # "python-..." with fewer seats), "estimated" (cards by playouts, no world solved
        # exactly in time), "bid" (by simulation), "heuristic" (no world in time),
        # "unsearchable" (the heuristic's, no search tried: see SEAT_EXACT_TRICKS_TWO); ""
        # for the heuristic's own decisions (announcements)
        self.last_method = ""
        self.hurried = 0  # decisions that had to be the heuristic's (no world in time)
        self.estimated = 0  # cards valued by playouts (no world solved exactly in time)
        self.given_up = 0  # worlds given up for taking more than their share of the time
        self.bid_misfits = 0  # bidding worlds the seat models did not accept in BID_DRAWS
        self.bids_kept = 0  # bids where the worlds did not overturn the heuristic's choice
        # Decisions with fewer than four players made without the compiled solver: bids
        # by the heuristic, cards by the pure-Python search where the exact search is too
        # large (no follow-suit obligation) (counted and logged).
        self.seat_fallbacks = 0
        self._seat_solvers: dict[Rules, SeatSolver] = {}
        self.deadline: float | None = None  # the current decision's outside deadline

    @property
    def bid_model(self) -> BidModel | None:
        return None if self.fitting is None else self.fitting.model

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        """The bot contract (:mod:`belote.ai.decision`): :meth:`choose_by`, how the bot
        decided and the worlds its search solved (None: no search ran)."""
        started = time.perf_counter()
        self.last_method, self.last_worlds = "", 0  # a move that searches nothing says ""
        action = self.choose_by(observation, deadline)
        method = _METHODS.get(self.last_method)
        if method is None:  # no search: an announcement, table talk, a forced or seat move
            method = only_move(observation, DecisionMethod.HEURISTIC)
            return Decision(action, method, None, elapsed_ms(started))
        worlds = None if self.last_method == "unsearchable" else self.last_worlds
        return Decision(action, method, worlds, elapsed_ms(started))

    def decide_at(self, observation: Observation, deadline: float | None,
                  table: SeatContext) -> Decision:
        """:meth:`decide` at a room table: the seat models are built from ``table`` (who
        sits where, the counts the table learned of each seat) for this decision alone and
        forgotten after it, so that one bot serves every table of a worker with nothing of
        one table reaching another."""
        kept = self.seats, self.models, self.evidence, self._models_seat, self._hand_obs
        if self.use_seat_models and self.fitting is None and observation.seat is not None:
            self.seats = table.seats
            self.models = models_at(table, observation.seat,
                                    learned_bidders=self.learned_bidders)
            self.evidence = EvidenceWorlds(self.models, self.rng)
            self._models_seat = observation.seat
        try:
            return self.decide(observation, deadline)
        finally:
            self.seats, self.models, self.evidence, self._models_seat, self._hand_obs = kept

    def choose_by(self, observation: Observation, deadline: float | None) -> int:
        """:meth:`choose` with a soft deadline of the caller's (``time.monotonic()``
        seconds), on top of the bot's own budgets (see :func:`make_clock`): the room's bot
        pool gives one measured from when a worker took the decision."""
        self.deadline = deadline
        try:
            return self.choose(observation)
        finally:
            self.deadline = None

    def meet(self, seats: tuple[TableSeat, ...]) -> None:
        """The table's composition (:mod:`belote.ai.models.table`): each seat's level, or
        a person.  The models of the other seats are built at this seat's next decision and
        kept (and learned) while the table stays the same."""
        if seats != self.seats:
            self.seats = tuple(seats)
            self.models, self.evidence, self._models_seat = None, None, None

    def _seat_evidence(self, obs: Observation) -> EvidenceWorlds | None:
        """The worlds weighed by the other seats' models, where they read something."""
        if not self.use_seat_models or self.seats is None or obs.seat is None:
            return None
        if self.models is None or self._models_seat != obs.seat:
            self.models = models_for(self.seats, obs.seat,
                                     learned_bidders=self.learned_bidders)
            self.evidence = EvidenceWorlds(self.models, self.rng)
            self._models_seat = obs.seat
            if not obs.played:  # built before any card: this hand can be learned from
                self._hand_cards = [0, 0, 0, 0]
        assert self.evidence is not None
        return self.evidence if self.evidence.applies(obs) else None

    def _world_model(self, obs: Observation) -> Evidence | None:
        """The soft evidence every world the bot draws is weighed by (card play, bidding,
        estimates, fewer seats): the seat models once the table is told (``meet``) and
        they read something here; the bots' conventions (CONVENTIONS) for an expert never
        told who sits where, the default (a bot's table, the conventions RULES.md gives
        the bots); none for the no-model baseline (``seat_models=False``): the facts only,
        uniformly."""
        if not self.use_seat_models:
            return None
        if self.seats is None:
            return CONVENTIONS
        evidence = self._seat_evidence(obs)
        return None if evidence is None else evidence.evidence

    def notify(self, event: Event) -> None:
        """Learning: once a hand is played out every card is known, and the seat models
        score each seat's words and bids against its real hand."""
        if self.models is None:
            return
        if isinstance(event, HandStarted):
            self._hand_cards, self._hand_obs = [0, 0, 0, 0], None
        elif isinstance(event, CardPlayed) and len(self._hand_cards) == 4:
            self._hand_cards[event.seat] |= 1 << event.card
        elif isinstance(event, HandScored) and self._hand_obs is not None:
            dealt = self._hand_cards
            if len(dealt) == 4 and all(h.bit_count() == 8 for h in dealt):
                self.models.learn(self._hand_obs, dealt)
            self._hand_cards, self._hand_obs = [], None

    def solver(self, rules: Rules) -> Solver:
        if rules not in self._solvers:
            self._solvers[rules] = Solver(rules)
        return self._solvers[rules]

    def seat_solver(self, rules: Rules) -> SeatSolver:
        if rules not in self._seat_solvers:
            self._seat_solvers[rules] = SeatSolver(rules)
        return self._seat_solvers[rules]

    def choose(self, observation: Observation) -> int:
        self._hand_obs = observation
        legal = observation.legal_actions
        if A.ANNOUNCE_BELOTE in legal or A.OTTAVA in legal or A.KNOCK in legal:
            return self.fallback.choose(observation)
        if any(A.is_declaration(a) for a in legal):
            return self.fallback.choose(observation)
        if any(A.is_table_talk(a) for a in legal):
            talk = table_talk(observation)  # the heuristic's rule (belote.ai.showing)
            if talk is not None:
                return talk
            legal = tuple(a for a in legal if not A.is_table_talk(a))
        rules = observation.ruleset
        four = rules is None or rules.players == 4
        if legal[0] >= A.PASS:
            if not four:
                self._count_seat_fallback("bid by the heuristic")
                return self.fallback.choose(observation)
            return self._bid(observation)
        plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
        if len(plays) == 1:
            card = plays[0]
        elif four:
            card = self._play(observation, plays)
        elif (rules is not None and rules.players == 2
              and observation.hand.bit_count() > SEAT_EXACT_TRICKS_TWO):
            self.last_worlds = 0
            self.hurried += 1
            self.last_method = "unsearchable"
            log.info("expert: two players, %d tricks left: too large to search, the "
                     "heuristic's card (%d such decisions so far)",
                     observation.hand.bit_count(), self.hurried)
            card = self.fallback.choose(observation) & 31
        elif rules is not None and exact_search(rules, observation.hand.bit_count()):
            card = self._play_seats_exact(observation, plays)
        else:
            self._count_seat_fallback("card by the pure-Python search")
            card = self._play_seats(observation, plays)
        card = king_before_queen(observation, card, plays)  # a king-first belote is kept
        announce = A.PLAY_ANNOUNCE_BASE + card
        return announce if announce in legal else card

    # ------------------------------------------------------------------ card play
    def _play(self, obs: Observation, plays: list[int]) -> int:
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None and obs.trump is not None
        assert obs.taker is not None
        info = knowledge(obs)
        solver = self.solver(rules)
        # per world: its log-weight and each card's score there
        solved: list[tuple[float, dict[int, float]]] = []
        cache: dict[int, float] = {}
        exact = exact_search(rules, obs.hand.bit_count())  # our cards: the tricks left
        clock = make_clock(self.budget, self.hard, self.min_worlds, self.deadline)
        auction = (auction_moves(obs)
                   if self.likelihood_eps is not None and self.likelihood_bids else ())
        worlds = 0
        # worlds that fit the bids heard, where a model reads them
        fitting: FittingWorlds | EvidenceWorlds | None = (
            self.fitting if self.fitting and FittingWorlds.applies(obs)
            else None if self.fitting else self._seat_evidence(obs))
        kept = [] if fitting is None else fitting.kept(obs, info)
        misfits = 0  # worlds solved that the bid model did not fit
        while (drawn := self._next_world(info, obs, clock, worlds, fitting, kept)) is not None:
            world, left, fitted = drawn
            position = _position(obs, world)
            outcomes: dict[int, list[int]]
            if exact:
                values = solver.solve(position, check=False,
                                      node_limit=solver.nodes_for(SAFETY * left))
                if solver.aborted:
                    self.given_up += 1  # out of its time: it does not count
                    continue
                outcomes = {card: [values[card]] for card in plays}
            else:
                outcomes = self._playouts(rules, position, plays)
            scores = _card_scores(obs, outcomes, cache)
            weight = 0.0
            if self.likelihood_eps is not None:
                weight = play_log_likelihood(obs, (world[0], world[1], world[2], world[3]),
                                             self.fallback, self.likelihood_eps, auction)
            solved.append((weight, scores))
            worlds += 1
            misfits += not fitted
        self.last_worlds = worlds
        if fitting is not None:
            self.last_misfits = misfits
        elif self.fitting is None:
            self.last_misfits = None
        self.last_method = "exact" if exact else "playouts"
        preferred = self.fallback.choose(obs) & 31
        if worlds == 0:
            solved = self._estimate(obs, plays, info, cache)
        totals = dict.fromkeys(plays, 0.0)
        for share, (_, scores) in zip(normalised([w for w, _ in solved]), solved, strict=True):
            for card in plays:
                totals[card] += share * scores[card]
        best = max(totals.values())
        # ties: keep the heuristic's human-like choice when it is among the best
        choices = [c for c in plays if totals[c] >= best - 1e-9]
        return preferred if preferred in choices else min(choices)

    def _count_seat_fallback(self, what: str) -> None:
        self.seat_fallbacks += 1
        log.info("expert: %s with fewer than four seats (%d such decisions so far)",
                 what, self.seat_fallbacks)

    def _play_seats_exact(self, obs: Observation, plays: list[int]) -> int:
        """Card play with fewer than four players: sampled worlds solved exactly by the
        compiled seat solver (:mod:`belote.engine.search_seats`), our line's card points
        from here (the taker against the others as one line), under the same deadlines as
        :meth:`_play` (node limit from the time left; a world cut short does not count)."""
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None and obs.trump is not None
        info = knowledge(obs)
        solver = self.seat_solver(rules)
        lines = lines_of(rules.players, obs.seat, obs.taker)
        trick = tuple(c for _, c in obs.trick)
        leader = obs.trick[0][0] if obs.trick else obs.leader
        totals = dict.fromkeys(plays, 0.0)
        clock = make_clock(self.budget, min(self.hard, SEAT_HARD), self.min_worlds,
                           self.deadline)
        worlds = 0
        while (drawn := self._next_world(info, obs, clock, worlds)) is not None:
            world, left, _ = drawn
            position = SeatsPosition(world, trick, leader, obs.trump, lines,
                                     _widow_points(obs, world))
            values = solver.solve(position, check=False,
                                  node_limit=solver.nodes_for(SAFETY * left))
            if solver.aborted:
                self.given_up += 1  # out of its time: it does not count
                continue
            for card in plays:
                totals[card] += values[card]
            worlds += 1
        self.last_worlds = worlds
        self.last_method = "exact"
        preferred = self.fallback.choose(obs) & 31
        if worlds == 0:
            totals = self._estimate_seats(obs, plays, info)
        best = max(totals.values())
        choices = [c for c in plays if totals[c] >= best - 1e-9]
        return preferred if preferred in choices else min(choices)

    def _estimate_seats(self, obs: Observation, plays: list[int],
                        info: Knowledge) -> dict[int, float]:
        """Our side's card points from here by each card, in pure-Python random playouts
        in SEAT_ESTIMATE_WORLDS sampled worlds: fewer seats' :meth:`_estimate` (counted and
        logged)."""
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None and obs.trump is not None
        side = rules.side_of(obs.seat)
        trick = tuple(c for _, c in obs.trick)
        leader = obs.trick[0][0] if obs.trick else obs.leader
        totals = dict.fromkeys(plays, 0.0)
        model = self._world_model(obs)
        deadline = time.monotonic() + ESTIMATE_DRAW_SECONDS
        for _ in range(SEAT_ESTIMATE_WORLDS):
            world = sample_whole_world(info, self.rng, deadline=deadline, model=model)
            position = SeatPosition(rules, world, trick, leader, obs.trump,
                                    _widow_points(obs, world))
            for card in plays:
                totals[card] += side_totals(playouts(position, card, PY_PLAYOUTS, self.rng),
                                            side)
        self._count_estimate()
        return totals

    def _play_seats(self, obs: Observation, plays: list[int]) -> int:
        """Card play with fewer than four players where the exact search is too large (no
        follow-suit obligation, more than EXACT_TRICKS_FREE_PLAY tricks left): sampled worlds
        valued by the pure-Python search (:mod:`belote.engine.pysearch`), our own side's
        card points from here."""
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None and obs.trump is not None
        info = knowledge(obs)
        side = rules.side_of(obs.seat)
        trick = tuple(c for _, c in obs.trick)
        leader = obs.trick[0][0] if obs.trick else obs.leader
        totals = dict.fromkeys(plays, 0.0)
        exact = obs.hand.bit_count() <= PY_EXACT_TRICKS
        clock = make_clock(self.budget, self.hard, self.min_worlds, self.deadline)
        worlds = 0
        while (drawn := self._next_world(info, obs, clock, worlds)) is not None:
            world = drawn[0]
            widow = _widow_points(obs, world)
            position = SeatPosition(rules, world, trick, leader, obs.trump, widow)
            if exact:
                values = solve(position, side)
                for card in plays:
                    totals[card] += values[card]
            else:
                for card in plays:
                    totals[card] += side_totals(
                        playouts(position, card, PY_PLAYOUTS, self.rng), side)
            worlds += 1
        self.last_worlds = worlds
        self.last_method = "python-exact" if exact else "python-playouts"
        preferred = self.fallback.choose(obs) & 31
        if worlds == 0:
            self._hurry()
            return preferred
        best = max(totals.values())
        choices = [c for c in plays if totals[c] >= best - 1e-9]
        return preferred if preferred in choices else min(choices)

    def _next_world(self, info: Knowledge, obs: Observation, clock: Clock, worlds: int,
                    fitting: FittingWorlds | EvidenceWorlds | None = None,
                    kept: list[tuple[int, ...]] | None = None,
                    ) -> tuple[tuple[int, ...], float, bool] | None:
        """The next sampled world (every hand, ours included), the seconds left to solve
        it and whether it fits the bids, or None once ``max_worlds`` are solved or the
        clock says stop.  With ``fitting``: the ``kept`` worlds first, then fresh ones
        drawn to fit the bids heard (belote.ai.fitting)."""
        if worlds >= self.max_worlds:
            return None
        stop = clock.stop_before(worlds)
        now = time.monotonic()
        if now >= stop:
            return None
        assert obs.seat is not None
        if kept:
            return kept.pop(), clock.world_stop(worlds, now) - now, True
        if fitting is not None:
            world, fitted = fitting.draw(info, obs, stop)
            now = time.monotonic()
            return world, clock.world_stop(worlds, now) - now, fitted
        world = sample_whole_world(info, self.rng, deadline=stop,
                                   model=self._world_model(obs))
        now = time.monotonic()
        return world, clock.world_stop(worlds, now) - now, True

    def _estimate(self, obs: Observation, plays: list[int], info: Knowledge,
                  cache: dict[int, float]) -> list[tuple[float, dict[int, float]]]:
        """Each card's score by random playouts in ESTIMATE_WORLDS sampled worlds, for a
        decision whose deadline came before any world was solved exactly (counted and
        logged: the search's roughest answer, measured as good as the heuristic's choice,
        see ESTIMATE_WORLDS)."""
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None
        scores = dict.fromkeys(plays, 0.0)
        model = self._world_model(obs)
        deadline = time.monotonic() + ESTIMATE_DRAW_SECONDS
        for _ in range(ESTIMATE_WORLDS):
            world = sample_whole_world(info, self.rng, deadline=deadline, model=model)
            outcomes = self._playouts(rules, _position(obs, world), plays)
            in_world = _card_scores(obs, outcomes, cache)
            for card in plays:
                scores[card] += in_world[card] / ESTIMATE_WORLDS
        self._count_estimate()
        return [(0.0, scores)]

    def _playouts(self, rules: Rules, position: Position,
                  plays: list[int]) -> dict[int, list[int]]:
        """Team 0's points after each card in PLAYOUTS random playouts (one seed for all)."""
        seed = self.rng.getrandbits(32)
        return {card: playout_outcomes(rules, position, card, PLAYOUTS, seed) for card in plays}

    def _count_estimate(self) -> None:
        """Count a card decision valued by playouts (no world solved exactly in time)."""
        self.estimated += 1
        self.last_method = "estimated"
        log.info("expert: no world solved exactly before the deadline (%d so far); cards "
                 "valued by playouts", self.estimated)

    def _hurry(self) -> None:
        """Count a decision whose deadline came before any world was solved."""
        self.hurried += 1
        self.last_method = "heuristic"
        log.info("expert: no world solved before the deadline (%d so far); the heuristic's "
                 "choice", self.hurried)

    # ------------------------------------------------------------------ bidding
    def _bid(self, obs: Observation) -> int:
        rules = obs.ruleset
        assert rules is not None and obs.seat is not None
        candidates = self._candidates(obs, rules)
        if not candidates:
            return self.fallback.choose(obs)
        diffs = self._simulate_bids(obs, rules, candidates)
        if diffs is None:
            self._hurry()
            return self.fallback.choose(obs)
        if A.TAKE in obs.legal_actions and len(obs.legal_actions) == 1:
            return A.TAKE  # jack oblige
        # each candidate's gain over passing world by world, less what it must beat by
        gains = {a: [v - self._margin(a) for v in d] for a, d in diffs.items()}
        spread = {a: BID_PRIOR_SHARE * self._stake(rules, candidates[a]) for a in candidates}
        choices = len(gains)

        def bound(action: int) -> float:
            return _lower_bound(gains[action], spread[action], choices)

        best = max(gains, key=bound)
        chosen = best if bound(best) > 0 else None  # None: pass
        # The heuristic's bid is the prior: the worlds overturn it only when they say with
        # the same confidence that the other choice is better (few worlds, as in a busy
        # room, are noisier than the heuristic's judgement; many worlds decide alone).
        prior = self.fallback.choose(obs)
        prior_pass = prior not in candidates
        if prior_pass and prior not in (A.PASS, A.ASPETTO):
            return self._pass_word(obs) if chosen is None else chosen  # prior not valued
        if chosen == (None if prior_pass else prior):
            return prior  # the worlds agree with the heuristic
        zeros = [0.0] * len(gains[best])
        ours, theirs = (zeros if chosen is None else gains[chosen],
                        zeros if prior_pass else gains[prior])
        at_stake = max(spread[a] for a in (chosen, prior) if a in spread)
        paired = [a - b for a, b in zip(ours, theirs, strict=True)]
        if _lower_bound(paired, at_stake, choices) > 0:
            return self._pass_word(obs) if chosen is None else chosen
        self.bids_kept += 1
        return prior

    def _margin(self, action: int) -> float:
        """What a candidate must gain over passing, on average, to be worth bidding."""
        return self.bid_margin + (DOUBLE_MARGIN if action in (A.CONTRO, A.SURCONTRO) else 0.0)

    def _stake(self, rules: Rules, candidate: tuple[int, int, int, int]) -> float:
        """Half the swing of our score between the taking team making all but 10 of the
        hand's points and only 10: how far one world's value of ``candidate`` (trump,
        level, multiplier, taking team) can fall from another's."""
        trump, level, mult, taker_team = candidate
        total = hand_total(rules, trump)
        us = taker_team  # the swing is the same seen from either team

        def ours(taker_points: int) -> float:
            team0 = taker_points if taker_team == 0 else total - taker_points
            return self._contract_score(rules, team0, us, taker_team, trump, level, mult)

        return abs(ours(total - 10) - ours(10)) / 2

    def _pass_word(self, obs: Observation) -> int:
        word = pass_word(obs)
        return self.fallback.choose(obs) if word is None else word

    def _candidates(self, obs: Observation,
                    rules: Rules) -> dict[int, tuple[int, int, int, int]]:
        """Bids worth simulating: action -> (trump, level, multiplier, taking team)."""
        legal = obs.legal_actions
        assert obs.seat is not None
        us = obs.seat & 1
        out: dict[int, tuple[int, int, int, int]] = {}
        for action in legal:
            if action == A.TAKE and obs.turned is not None:
                out[action] = (obs.turned >> 3, 0, 1, us)
            elif A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4:
                out[action] = (action - A.NAME_SUIT_BASE, 0, 1, us)
            elif action in (A.SENZA, A.TUTTE):
                out[action] = (4 if action == A.SENZA else 5, 0, 1, us)
        standing = self._standing(obs, rules)
        if standing is not None and rules.auction is not None:
            taker, trump, level, _mult = standing
            if A.CONTRO in legal:  # double the opponents' contract
                out[A.CONTRO] = (trump, level, rules.auction.contro_multiplier, taker & 1)
            if A.SURCONTRO in legal:  # redouble ours
                out[A.SURCONTRO] = (trump, level, rules.auction.surcontro_multiplier, taker & 1)
        if rules.auction is not None:
            levels = rules.auction.levels
            contracts = [a for a in legal if A.CONTRACT_BASE <= a < A.CONTRACT_END]
            # the lowest legal level in each suit, and a few higher ones
            by_suit: dict[int, list[int]] = {}
            for a in contracts:
                by_suit.setdefault(A.contract_suit(a), []).append(a)
            for suit, actions in by_suit.items():
                for a in actions[:6]:
                    out[a] = (suit, levels[A.contract_level_index(a)], 1, us)
        return out

    def _worlds_for_bidding(self, obs: Observation, rules: Rules, taker: int,
                            count: int) -> Iterable[tuple[int, int, int, int]]:
        """Whole deals (8 cards each) as they would be if ``taker`` took: the cards not yet
        dealt are dealt at random too."""
        seat = obs.seat
        assert seat is not None
        info = knowledge(obs)
        mine = obs.hand
        turned = obs.turned
        unseen = ALL_CARDS & ~mine & ~(1 << turned if turned is not None else 0)
        for _ in range(count):
            cards = [c for c in range(32) if unseen >> c & 1]
            self.rng.shuffle(cards)
            hands = [0, 0, 0, 0]
            hands[seat] = mine
            if turned is not None:
                hands[taker] |= 1 << turned
            for s in range(4):
                while hands[s].bit_count() < 8:
                    card = next((c for c in cards if not info.forbidden[s] >> c & 1), cards[0])
                    cards.remove(card)
                    hands[s] |= 1 << card
            yield (hands[0], hands[1], hands[2], hands[3])

    def _weighed(self, obs: Observation, rules: Rules, seat: int,
                 count: int) -> Iterable[tuple[int, int, int, int]]:
        """``count`` bidding worlds (:meth:`_worlds_for_bidding`) weighed by the world
        model (:meth:`_world_model`): accepted with chance ``exp(log_likelihood)``, at most
        BID_DRAWS draws each (past that the last draw, counted in ``bid_misfits``); with
        no model (or a bid model's FittingWorlds, which weighs the card play only), the
        deals as drawn.  Never more than ``count``: runs with and without a model bid on
        as many worlds."""
        evidence = self._world_model(obs) if self.fitting is None else None
        if evidence is None:
            yield from self._worlds_for_bidding(obs, rules, seat, count)
            return
        turned = obs.turned
        tries = 0
        yielded = 0
        for deal in self._worlds_for_bidding(obs, rules, seat, BID_DRAWS * count):
            if yielded >= count:
                return
            tries += 1
            first = list(deal)
            if turned is not None:  # take-or-pass: each seat bids with 5 of its 8
                for s in range(4):
                    if s != obs.seat:
                        pool = [c for c in range(32)
                                if deal[s] >> c & 1 and c != turned]
                        first[s] = sum(1 << c for c in self.rng.sample(pool, 5))
            world = EvidenceWorld(deal, deal, tuple(first))
            ll = evidence.log_likelihood(obs, world)
            if tries < BID_DRAWS and ll < 0.0 and self.rng.random() >= math.exp(ll):
                continue
            if tries >= BID_DRAWS and ll < 0.0:
                self.bid_misfits += 1
            tries = 0
            yielded += 1
            yield deal

    def _standing(self, obs: Observation, rules: Rules) -> tuple[int, int, int, int] | None:
        """The auction's standing contract as (taker seat, trump, level, multiplier)."""
        standing = obs.standing_contract()
        if standing is None or rules.auction is None:
            return None
        bidder, index, suit, doubled = standing
        multipliers = (1, rules.auction.contro_multiplier, rules.auction.surcontro_multiplier)
        return bidder, suit, rules.auction.levels[index], multipliers[doubled]

    def _simulate_bids(self, obs: Observation, rules: Rules,
                       candidates: dict[int, tuple[int, int, int, int]]
                       ) -> dict[int, list[float]] | None:
        """Each candidate's score minus passing's (the standing contract stays, or nothing
        is played), world by world on the same worlds; None if no world was solved in
        time."""
        seat = obs.seat
        assert seat is not None
        leader = (obs.dealer + 1) % 4
        clock = make_clock(self.bid_budget, self.bid_hard, self.min_bid_worlds, self.deadline)
        standing = self._standing(obs, rules)
        trumps = sorted({c[0] for c in candidates.values()}
                        | ({standing[1]} if standing is not None else set()))
        # each candidate's score minus passing's, world by world (paired: same worlds)
        diffs: dict[int, list[float]] = {a: [] for a in candidates}
        counted = 0
        for world in self._weighed(obs, rules, seat, self.bid_worlds):
            stop = clock.stop_before(counted)
            now = time.monotonic()
            if now >= stop:
                break
            values = self._trump_values(rules, world, leader, trumps,
                                        clock.world_stop(counted, now))
            if values is None:
                self.given_up += 1  # out of its time: it does not count
                continue

            def score(trump: int, taker_team: int, level: int, mult: int,
                      values: dict[int, list[int]] = values) -> float:
                outcomes = values[trump]
                return sum(self._contract_score(rules, v, seat & 1, taker_team, trump, level,
                                                mult) for v in outcomes) / len(outcomes)

            passing = 0.0
            if standing is not None:
                taker, trump, level, mult = standing
                passing = score(trump, taker & 1, level, mult)
            for action, (trump, level, mult, taker_team) in candidates.items():
                diffs[action].append(score(trump, taker_team, level, mult) - passing)
            counted += 1
        self.last_worlds = counted
        self.last_method = "bid"
        return diffs if counted else None

    def _trump_values(self, rules: Rules, world: tuple[int, int, int, int], leader: int,
                      trumps: list[int], stop: float) -> dict[int, list[int]] | None:
        """Team 0's points in ``world`` with each trump: exact, or the outcomes of random
        playouts (see ``exact_search``); None if the searches did not all end by ``stop``."""
        solver = self.solver(rules)
        values: dict[int, list[int]] = {}
        for trump in trumps:
            now = time.monotonic()
            if now >= stop:
                return None
            if exact_search(rules, 8):
                limit = solver.nodes_for(SAFETY * (stop - now), whole_deal=True)
                found = solver.value(world, leader, trump, node_limit=limit,
                                     tolerance=BID_TOLERANCE)
                if found is None:
                    return None
                values[trump] = [found]
            else:
                values[trump] = self._deal_playouts(rules, world, leader, trump)
        return values

    def _deal_playouts(self, rules: Rules, world: tuple[int, int, int, int], leader: int,
                       trump: int) -> list[int]:
        """Team 0's points over a whole deal in random playouts, one per first card of
        ``leader`` (every card of the deal is played)."""
        position = Position(world, (), leader, trump)
        seed = self.rng.getrandbits(32)
        return [v for card in range(32) if world[leader] >> card & 1
                for v in playout_outcomes(rules, position, card, PLAYOUTS // 8 or 1, seed)]

    @staticmethod
    def _contract_score(rules: Rules, team0_points: int, team: int, taker_team: int,
                        trump: int, level: int, multiplier: int) -> float:
        """Our team's score minus theirs if team 0 takes ``team0_points`` in a whole hand
        played under the given contract."""
        total = hand_total(rules, trump)
        capot0 = team0_points > total
        points0 = team0_points - rules.capot_bonus if capot0 else team0_points
        capot1 = points0 == 0
        tricks = (8, 0) if capot0 else (0, 8) if capot1 else (4, 4)
        facts = HandFacts(taker_team=taker_team, trump=trump,
                          card_points=(points0, total - points0), tricks_won=tricks,
                          belote=(0, 0), level=level,
                          capot_contract=bool(rules.auction and rules.auction.capot_level
                                              and level == rules.auction.capot_level),
                          multiplier=multiplier)
        result = score_hand(rules, facts)
        return float(result.scores[team] - result.scores[1 - team])


    # ------------------------------------------------------------------ learning kept
    def learned(self) -> TableMemory | None:
        """What this bot has learned of its table (the seat models, their tallies), for a
        new bot at the same seat of the same table to go on from (:meth:`go_on_from`: the
        arena, across duplicate pairs); None: nothing built yet."""
        if self.models is None or self.seats is None or self._models_seat is None:
            return None
        return TableMemory(self.seats, self._models_seat, self.models)

    def go_on_from(self, memory: TableMemory) -> None:
        """Take over ``memory``'s models (:meth:`learned`) where the table is the one this
        bot was told (``meet``); another table's are ignored."""
        if memory.seats == self.seats and self.use_seat_models:
            self.models, self._models_seat = memory.models, memory.seat
            self.evidence = EvidenceWorlds(memory.models, self.rng)


@dataclass(frozen=True)
class TableMemory:
    """The seat models one expert built and trained at a table (``seats``, from ``seat``):
    what :meth:`ExpertBot.learned` hands to the next bot of that seat."""

    seats: tuple[TableSeat, ...]
    seat: int
    models: SeatModels
