"""Many matches stepped together on the compiled kernels, for self-play training loops.

``BatchedGames(n, rules, seed)`` holds ``n`` independent matches.  Each call of
:meth:`BatchedGames.step` takes one action per match (for its player to move) as a numpy
array and advances all of them in one compiled call; legal masks
(:meth:`~BatchedGames.masks`, ``(n, NUM_ACTIONS)`` int8) and observation tensors
(:meth:`~BatchedGames.observations`, ``(n, OBSERVATION_SIZE)`` float32, laid out as
:data:`belote.rl.tensors.OBSERVATION_LAYOUT`, seen by the player to move) come as arrays.
Action ids are the engine's (:mod:`belote.engine.actions`).  A hand that ends is scored and
the next one dealt within the same step (all four passing: dealt anew); a match that ends
starts a new one (dealer seat 0), so every match always has a player to move.

Scope: what the kernels model, checked by :func:`check_batch_rules` (BeloteError
otherwise): the auction without pass words, support calls or conventional bids (``coinche``,
``colver``), all
eight cards dealt before the bidding, belote with either announcement window, no
declarations, no ottava, the litige tie rule, the multiplier on the contract.  Belote is
announced by the player to move only (with the card, or ``announce_belote`` on their own
turn): the batch has no out-of-turn actions.

:meth:`BatchedGames.rollouts` plays each match's hand to its end ``n`` times by uniformly
random legal play, inside one compiled loop, without moving the matches: a value estimate,
and the like-for-like twin of colver's ``Env.rollout`` (``benchmarks/engine.py``).

The twin is :class:`belote.engine.state.Game`: ``tests/test_rl_batch.py`` replays batched
matches in it and compares legal actions, observations, points and scores at every step;
``tests/test_rl_rollout.py`` replays rollouts in it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from belote.engine.search import kernels, rule_flags
from belote.errors import BeloteError, IllegalActionError
from belote.rl.actions import NUM_ACTIONS
from belote.rl.tensors import OBSERVATION_LAYOUT, OBSERVATION_SIZE
from belote.rules.base import Rules

IntArray = npt.NDArray[np.int64]

#: ``ended`` codes of :meth:`BatchedGames.step`.
GOING_ON, ALL_PASSED, HAND_SCORED, MATCH_WON_BY_TEAM_0, MATCH_WON_BY_TEAM_1 = range(5)

_OBS_PARTS = ("phase", "dealer", "to_act", "hand", "trump", "taker", "contract",
              "hand_sizes", "current_trick", "played_by", "belote_said", "last_bid", "scores")


def batch_rule_problems(rules: Rules) -> list[str]:
    """What the batched kernels do not model in ``rules`` (empty: supported)."""
    problems: list[str] = []
    if rules.players != 4:
        problems.append(f"players {rules.players} (four only; fewer seats play through "
                        "belote.engine.state.Game and belote.engine.pysearch)")
    auction = rules.auction
    if rules.bidding != "auction" or auction is None:
        problems.append(f"bidding {rules.bidding!r} (only the auction)")
    else:
        if auction.pass_words:
            problems.append("auction.pass_words")
        if auction.support_calls:
            problems.append("auction.support_calls")
        if auction.conventional_bids:
            problems.append("auction.conventional_bids")
    if sum(rules.deal_packets) != 8 or len(rules.deal_packets) > 3:
        problems.append(f"deal_packets {rules.deal_packets} (all 8 cards, at most 3 packets)")
    if rules.declarations is not None:
        problems.append("declarations")
    if rules.ottava:
        problems.append("ottava")
    if rules.tie_rule != "litige":
        problems.append(f"tie_rule {rules.tie_rule!r}")
    if rules.doubled_tie != "litige":
        problems.append(f"doubled_tie {rules.doubled_tie!r}")
    if rules.capot_all_points:
        problems.append("capot_all_points")
    if rules.multiplier_scope != "contract":
        problems.append(f"multiplier_scope {rules.multiplier_scope!r}")
    return problems


def check_batch_rules(rules: Rules) -> None:
    """Refuse (BeloteError) rules the batched kernels do not model, naming each flag."""
    problems = batch_rule_problems(rules)
    if problems:
        raise BeloteError(
            f"the batched games do not model rules {rules.name!r}: {'; '.join(problems)} "
            "(supported: the auction without pass words or support calls, all cards dealt "
            "first, belote, no declarations; e.g. the coinche and colver presets)")


def rule_params(rules: Rules) -> IntArray:
    """The rules as the kernels read them (the ``BR_*`` fields of ``_kernels``)."""
    check_batch_rules(rules)
    k = kernels()
    auction = rules.auction
    assert auction is not None
    rp = np.zeros(k.BR_SIZE, dtype=np.int64)
    rp[k.BR_FLAGS] = rule_flags(rules)
    rp[k.BR_LEVELS] = len(auction.levels)
    rp[k.BR_CAPOT_LEVEL] = auction.capot_level
    rp[k.BR_CONTRO] = auction.contro_multiplier
    rp[k.BR_SURCONTRO] = auction.surcontro_multiplier
    rp[k.BR_BELOTE] = rules.belote_enabled
    rp[k.BR_BELOTE_POINTS] = rules.belote_points
    rp[k.BR_KING_FIRST] = rules.belote_king_first
    rp[k.BR_WINDOW_TRICK] = rules.belote_window == "trick"
    rp[k.BR_BELOTE_COUNTS] = rules.belote_counts_for_contract
    rp[k.BR_LAST_BONUS] = rules.last_trick_bonus
    rp[k.BR_CAPOT_BONUS] = rules.capot_bonus
    rp[k.BR_MUST_BEAT] = rules.taker_must_beat_defenders
    rp[k.BR_MADE_ADDS] = rules.made_adds_contract
    failed = rules.failed_defenders_points
    rp[k.BR_FAILED_POINTS] = -1 if failed is None else failed
    rp[k.BR_FAILED_ADDS] = rules.failed_adds_contract
    rp[k.BR_FAILED_TAKE_ALL] = rules.failed_defenders_take_all_declarations
    rp[k.BR_FAILED_KEEP_BELOTE] = rules.failed_takers_keep_belote
    rp[k.BR_TARGET] = rules.target_score
    rp[k.BR_TARGET_STRICT] = rules.target_strict
    for i, packet in enumerate(rules.deal_packets):
        rp[k.BR_PACKETS + i] = packet
    rp[k.BR_LEVEL0:k.BR_LEVEL0 + len(auction.levels)] = auction.levels
    return rp


class BatchedGames:
    """``n`` matches under ``rules``, stepped together (see the module's docstring)."""

    def __init__(self, n: int, rules: Rules, seed: int = 0) -> None:
        if type(n) is not int or n <= 0:
            raise ValueError(f"n must be a positive int, not {n!r}")
        if type(seed) is not int or seed < 0:
            raise ValueError(f"seed must be an int >= 0, not {seed!r}")
        self.n = n
        self.rules = rules
        self._rp = rule_params(rules)
        k = self._k = kernels()
        assert rules.auction is not None
        width = max(20, 2 + 4 * len(rules.auction.levels))
        self._st = np.zeros((n, k.BG_FIELDS), dtype=np.int64)
        self._decks = np.zeros((n, 32), dtype=np.int64)
        self._legal = np.zeros((n, width), dtype=np.int64)
        self._n_legal = np.zeros(n, dtype=np.int64)
        self._scores = np.zeros((n, 2), dtype=np.int64)
        self._ended = np.zeros(n, dtype=np.int64)
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._obs = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self._off = np.array([OBSERVATION_LAYOUT[p].start for p in _OBS_PARTS], dtype=np.int64)
        self._rng = np.array([(seed * 0x9E3779B1 + 12345) & ((1 << 48) - 1)], dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._rollout_sums = np.zeros((n, 2), dtype=np.int64)
        self._rollout_work = np.zeros((1, k.BG_FIELDS), dtype=np.int64)
        self._rollout_scores = np.zeros((1, 2), dtype=np.int64)
        self.hands_played = 0  # hands played to the end (all-pass hands not counted)
        k.batch_reset(self._st, self._decks, self._rp, seed, self._legal, self._n_legal)

    # ------------------------------------------------------------------ stepping
    def step(self, actions: npt.ArrayLike) -> IntArray:
        """Apply one action per match; returns ``ended`` (n,): :data:`GOING_ON`,
        :data:`ALL_PASSED`, :data:`HAND_SCORED` or ``MATCH_WON_BY_TEAM_0/1`` (the hand's
        scores in :attr:`hand_scores`).  An illegal action raises IllegalActionError and
        changes nothing.  The returned array is overwritten by the next step."""
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or acts.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be {self.n} integer ids (shape ({self.n},)), "
                f"not shape {acts.shape} of {acts.dtype}")
        acts = np.ascontiguousarray(acts, dtype=np.int64)
        bad = int(self._k.batch_check(acts, self._legal, self._n_legal))
        if bad >= 0:
            raise IllegalActionError(
                f"match {bad}: action {int(acts[bad])} is not legal; legal: "
                f"{self.legal_actions(bad)}")
        self.hands_played += int(self._k.batch_step(
            self._st, self._decks, acts, self._rp, self._legal, self._n_legal,
            self._scores, self._ended))
        return self._ended

    def random_actions(self) -> IntArray:
        """A uniformly drawn legal action per match (compiled; the batch's own generator,
        seeded from ``seed``).  Overwritten by the next call."""
        self._k.batch_random_actions(self._legal, self._n_legal, self._rng, self._actions)
        return self._actions

    def rollouts(self, n: int, trace: IntArray | None = None) -> npt.NDArray[np.float64]:
        """``(n_matches, 2)``: each match's hand played ``n`` times from its state to its end
        by uniformly random legal play, the mean score of the hand by team (team 0: seats 0
        and 2).  The matches do not move.  Like colver's ``Env.rollout(n)``: one compiled
        loop, no observation, no new deal; from the auction a bid is drawn among the legal
        bids (a hand all four pass scores 0 and counts), in the card play a card among the
        legal cards, the belote holder announcing whenever the card may carry it.  The
        batch's own generator draws (seeded from ``seed``).  ``trace`` (int64, filled as far
        as it goes): every action of every rollout in order, each rollout followed by -1
        (-2 if all passed), for replays in tests."""
        trace = rollout_trace(n, trace)
        self._k.batch_rollouts(self._st, self._rp, n, self._rng, self._rollout_sums, trace,
                               self._rollout_work, self._rollout_scores)
        means: npt.NDArray[np.float64] = self._rollout_sums / n
        return means

    # ------------------------------------------------------------------ arrays
    def masks(self) -> npt.NDArray[np.int8]:
        """``(n, NUM_ACTIONS)`` int8: 1 where the action is legal for the player to move.
        One buffer, refilled by each call: copy it to keep it."""
        self._k.batch_masks(self._legal, self._n_legal, self._mask)
        return self._mask

    def observations(self) -> npt.NDArray[np.float32]:
        """``(n, OBSERVATION_SIZE)`` float32: each match's observation tensor for its player
        to move (:func:`belote.rl.tensors.observation_tensor`).  One buffer, refilled by
        each call: copy it to keep it."""
        self._k.batch_observations(self._st, self._rp, self._off, self._obs)
        return self._obs

    def legal_actions(self, match: int) -> list[int]:
        """The sorted legal action ids of one match's player to move."""
        count = int(self._n_legal[match])
        return [int(a) for a in self._legal[match, :count]]

    @property
    def to_play(self) -> IntArray:
        """The seat to move in each match (a view: it changes with each step)."""
        return self._st[:, self._k.BG_TO_ACT]

    @property
    def hand_scores(self) -> IntArray:
        """(n, 2): what each team scored with the hand that ended at the last step (valid
        where ``ended >= HAND_SCORED``)."""
        return self._scores

    @property
    def totals(self) -> IntArray:
        """(n, 2): each match's totals by team (a copy)."""
        return self._st[:, self._k.BG_TOTALS:self._k.BG_TOTALS + 2].copy()

    @property
    def card_points(self) -> IntArray:
        """(n, 2): card points of the hand in play by team (a copy)."""
        return self._st[:, self._k.BG_POINTS:self._k.BG_POINTS + 2].copy()

    @property
    def decks(self) -> IntArray:
        """(n, 32): the deck each match's hand in play was dealt from (a copy)."""
        return self._decks.copy()


__all__ = [
    "ALL_PASSED",
    "GOING_ON",
    "HAND_SCORED",
    "MATCH_WON_BY_TEAM_0",
    "MATCH_WON_BY_TEAM_1",
    "BatchedGames",
    "batch_rule_problems",
    "check_batch_rules",
    "rule_params",
]


def rollout_trace(n: object, trace: npt.NDArray[np.int64] | None) -> npt.NDArray[np.int64]:
    """The rollouts' arguments checked (a bad one refused before any kernel runs): ``n`` a
    positive int, ``trace`` None (then an empty one) or a contiguous 1-d int64 array."""
    if type(n) is not int or n <= 0:
        raise ValueError(f"n must be a positive int, not {n!r}")
    if trace is None:
        return np.zeros(0, dtype=np.int64)
    if trace.dtype != np.int64 or trace.ndim != 1 or not trace.flags.c_contiguous:
        raise ValueError("trace must be a contiguous 1-d int64 array")
    return trace
