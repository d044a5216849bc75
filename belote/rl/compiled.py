"""One match on the compiled kernels, stepped one action at a time: the fast per-step API.

``CompiledGame(rules, seed)`` is the per-step call of a learning loop, shaped as colver's
``Env.step`` and as :meth:`belote.rl.tracker.TensorTracker.step`: ``step(action)`` applies
the action of the player to move and returns the observation tensor of the next player to
move (float32, :data:`belote.rl.tensors.OBSERVATION_LAYOUT`, a new array each step) and
that player's sorted legal actions (the engine's ids, :mod:`belote.engine.actions`).  One
compiled call per step (``single_step`` in :mod:`belote.engine._kernels`) checks the action,
plays it and builds the observation.

Like :class:`belote.rl.batch.BatchedGames` (the same kernels, ``n = 1``), the game never
waits: a hand that ends is scored and the next one dealt from the game's own generator
within the same step (all four passing: dealt anew by the next dealer), and a match that
ends starts a new one (dealer seat 0).  :attr:`ended` says what the last step ended;
:meth:`hand_returns` and :meth:`returns` give the rewards of that step.

Rules: what the kernels model (:func:`belote.rl.batch.batch_rule_problems`): the auction
without pass words or support calls, all cards dealt before the bidding, belote, no
declarations (the ``coinche`` and ``colver`` presets and flag changes of them).  Other rules
are refused with a BeloteError naming each flag.  Belote is announced by the player to move
only (the card with its announcement, 32..63, or 72 on their own turn).

Its twin is :class:`belote.engine.state.Game` driven by a
:class:`~belote.rl.tracker.TensorTracker`: ``tests/test_rl_compiled.py`` plays random
matches in both, step by step, and compares observations, legal actions, scores, totals and
returns.
"""

from __future__ import annotations

import operator
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from belote.engine.search import kernels
from belote.errors import BeloteError, IllegalActionError
from belote.rl.actions import NUM_ACTIONS
from belote.rl.batch import (
    _OBS_PARTS,
    GOING_ON,
    HAND_SCORED,
    batch_rule_problems,
    rollout_trace,
    rule_params,
)
from belote.rl.tensors import OBSERVATION_LAYOUT, OBSERVATION_SIZE, Tensor
from belote.rules.base import Rules

_empty = np.empty
_FLOAT32 = np.float32


def check_compiled_rules(rules: Rules) -> None:
    """Refuse (BeloteError) rules the compiled game does not model, naming each flag."""
    problems = batch_rule_problems(rules)
    if problems:
        raise BeloteError(
            f"the compiled game does not model rules {rules.name!r}: {'; '.join(problems)} "
            "(supported: the auction without pass words or support calls, all cards dealt "
            "first, belote, no declarations; e.g. the coinche and colver presets)")


class CompiledGame:
    """One match under ``rules`` on the compiled kernels (see the module's docstring)."""

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        check_compiled_rules(rules)
        k = self._k = kernels()  # compiled on first use, then loaded from numba's cache
        self.rules = rules
        auction = rules.auction
        assert auction is not None
        # the packed arrays of the kernels' single_* calls (see there): S[0] the game's
        # BG_* fields, S[1] its deck, S[2] its legal actions, S[3, 0] its counters, S[4]
        # the last scored hand
        width = max(k.BG_FIELDS, 32, 2 + 4 * len(auction.levels))
        self._S = np.zeros((5, 1, width), dtype=np.int64)
        self._st = self._S[0, 0]
        self._legal_row = self._S[2, 0]
        self._counters = self._S[3, 0]
        self._P = np.zeros((2, k.BR_SIZE), dtype=np.int64)
        self._P[0] = rule_params(rules)
        self._P[1, :len(_OBS_PARTS)] = [OBSERVATION_LAYOUT[p].start for p in _OBS_PARTS]
        self._step = k.single_step
        # Env.rollout's twin (:meth:`rollout`): its own generator and scratch buffers
        self._rollout_rng = np.zeros(1, dtype=np.int64)
        self._rollout_sums = np.zeros((1, 2), dtype=np.int64)
        self._rollout_work = np.zeros((1, width), dtype=np.int64)
        self._rollout_scores = np.zeros((1, 2), dtype=np.int64)
        self.reset(seed)

    # ------------------------------------------------------------------ stepping
    def reset(self, seed: int | None = None) -> tuple[Tensor, list[int]]:
        """A new match (dealer seat 0), its first hand dealt.  With ``seed`` the game's
        generator starts anew from it (the same seed deals the same decks); without, it
        goes on (the next decks).  Returns the first mover's observation and legal
        actions."""
        if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 48):
            raise ValueError(f"seed must be an int from 0 to 2**48 - 1, not {seed!r}")
        if seed is not None:
            self._rollout_rng[0] = (seed * 0x9E3779B1 + 12345) & ((1 << 48) - 1)
        obs = _empty(OBSERVATION_SIZE, _FLOAT32)
        code = int(self._k.single_reset(self._S, self._P, -1 if seed is None else seed, obs))
        legal: list[int] = self._legal_row[:code >> 3].tolist()
        return obs, legal

    def step(self, action: SupportsIndex) -> tuple[Tensor, list[int]]:
        """The player to move takes ``action``; returns the next mover's observation (a new
        array) and legal actions (a new list).  An action that is not legal raises
        IllegalActionError naming the legal ones, and nothing moves."""
        if type(action) is not int:
            action = _action_id(action)
        obs = _empty(OBSERVATION_SIZE, _FLOAT32)
        try:
            code = self._step(self._S, self._P, obs, action)
        except OverflowError:  # an int past int64: no action id
            code = -1
        if code < 0:
            raise IllegalActionError(f"action {action} is not legal for seat {self.to_play}; "
                                     f"legal: {self.legal_actions()}")
        legal: list[int] = self._legal_row[:code >> 3].tolist()
        return obs, legal

    def rollout(self, n: int, trace: npt.NDArray[np.int64] | None = None
                ) -> tuple[float, float]:
        """The hand in play played ``n`` times from here to its end by uniformly random
        legal play; the mean score of the hand by team (team 0: seats 0 and 2).  The game
        does not move.  The twin of colver's ``Env.rollout(n)``, with the policy of
        :meth:`belote.rl.batch.BatchedGames.rollouts` (``trace`` as there)."""
        trace = rollout_trace(n, trace)
        self._k.batch_rollouts(self._S[0], self._P[0], n, self._rollout_rng,
                               self._rollout_sums, trace, self._rollout_work,
                               self._rollout_scores)
        return (int(self._rollout_sums[0, 0]) / n, int(self._rollout_sums[0, 1]) / n)

    # ------------------------------------------------------------------ reading
    def legal_actions(self) -> list[int]:
        """The sorted legal actions of the player to move (a new list)."""
        legal: list[int] = self._legal_row[:self._counters[self._k.SG_N_LEGAL]].tolist()
        return legal

    def legal_action_mask(self) -> npt.NDArray[np.int8]:
        """``(NUM_ACTIONS,)`` int8: 1 where the action is legal for the player to move."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def observation_tensor(self) -> Tensor:
        """The observation tensor of the player to move (a new array), as
        ``observation_tensor(game, game.current_player())``."""
        obs = _empty(OBSERVATION_SIZE, _FLOAT32)
        self._k.single_observation(self._S, self._P, obs)
        return obs

    @property
    def to_play(self) -> int:
        """The seat to move (there always is one)."""
        return int(self._st[self._k.BG_TO_ACT])

    @property
    def hands_played(self) -> int:
        """Hands played to the end since the last reset (all-pass hands not counted)."""
        return int(self._counters[self._k.SG_HANDS])

    @property
    def ended(self) -> int:
        """What the last step ended: ``GOING_ON``, ``ALL_PASSED``, ``HAND_SCORED`` or
        ``MATCH_WON_BY_TEAM_0/1`` (:mod:`belote.rl.batch`); GOING_ON after a reset."""
        return int(self._counters[self._k.SG_ENDED])

    @property
    def hand_scores(self) -> tuple[int, int]:
        """What each team scored with the hand the last step ended (zeros if none did)."""
        if self.ended < HAND_SCORED:
            return (0, 0)
        scores = self._S[4, 0]
        return (int(scores[0]), int(scores[1]))

    @property
    def totals(self) -> tuple[int, int]:
        """The match's totals by team (after a match ends: the new match's, zeros)."""
        at = self._k.BG_TOTALS
        return (int(self._st[at]), int(self._st[at + 1]))

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points of the hand in play by team."""
        at = self._k.BG_POINTS
        return (int(self._st[at]), int(self._st[at + 1]))

    @property
    def deck(self) -> list[int]:
        """The deck the hand in play was dealt from (``Game.deal`` of it deals the same):
        every hand, for replays and tests, never for the agent's eyes."""
        deck: list[int] = self._S[1, 0, :32].tolist()
        return deck

    def hand_returns(self, scale: float = 1.0) -> npt.NDArray[np.float32]:
        """Per seat: the hand the last step ended, its team's score minus the opponents',
        divided by ``scale`` (zeros if it ended none), as
        :func:`belote.rl.returns.hand_returns` of the same step's events."""
        if scale <= 0:
            raise ValueError("scale must be positive")
        ours, theirs = self.hand_scores
        diff = (ours - theirs) / scale
        return np.array((diff, -diff, diff, -diff), dtype=np.float32)

    def returns(self) -> npt.NDArray[np.float32]:
        """Per seat, +1 / -1 on the step that ended a match (its winners +1), zeros on every
        other step: ``Game.returns()`` of the match that just ended."""
        ended = self.ended
        if ended <= HAND_SCORED:
            return np.zeros(4, dtype=np.float32)
        win = 1.0 if ended == HAND_SCORED + 1 else -1.0  # team 0 won
        return np.array((win, -win, win, -win), dtype=np.float32)


def _action_id(action: SupportsIndex) -> int:
    """An action id from an int-like value (numpy integers); anything else is refused."""
    if isinstance(action, bool):
        raise IllegalActionError(f"an action is an int id, not {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(f"an action is an int id, not {action!r}") from None


__all__ = ["GOING_ON", "CompiledGame", "check_compiled_rules"]
