"""The compiled calls of :class:`belote.rl.compiled.CompiledGame`: one kernel call per step.

The game is the batched kernels' match (:mod:`belote.engine._kernels`, ``_bg_*``) with
``n = 1``, its arrays packed into one int64 row so that a step crosses from Python into
compiled code once, with four arguments: numba's dispatch costs per argument, and at a few
microseconds a step that cost is most of the step.  This module only composes the batched
kernels (it adds no rule of its own): their twin tests cover what it plays.

Imported on first use only (``CompiledGame`` imports it), so importing ``belote.rl``
compiles nothing; ``cache=True`` keeps the compiled code between runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from belote.engine._kernels import (
    _LCG_MASK,
    BG_DEAL_NO,
    BG_DEALER,
    BG_FIELDS,
    BG_PHASE,
    BG_RNG,
    BG_TO_ACT,
    BR_SIZE,
    _bg_bid,
    _bg_deal,
    _bg_legal,
    _bg_new_match,
    _bg_play,
    batch_observations,
)

# The state row ``S`` (shape (1, S_LEGAL + width)): the batched game's BG_* fields first,
# then these columns.
S_DECK = BG_FIELDS  # 32: the deck the hand in play was dealt from
S_N_LEGAL = S_DECK + 32  # how many legal actions
S_ENDED = S_N_LEGAL + 1  # what the last step ended (the GOING_ON.. codes of belote.rl.batch)
S_SCORES = S_ENDED + 1  # 2: the last scored hand's points by team
S_HANDS = S_SCORES + 2  # hands played to the end
S_LEGAL = S_HANDS + 1  # the sorted legal actions follow

# The parameter vector ``P``: the rules as the batched kernels read them (BR_* fields), then
# the 13 offsets of the observation's parts (belote.rl.batch._OBS_PARTS).
P_OFF = BR_SIZE
P_SIZE = P_OFF + 13

ILLEGAL = -1  # single_step's answer to an action that is not legal (nothing moved)


@njit(cache=True, error_model="numpy")
def single_reset(S: np.ndarray, P: np.ndarray, seed: int, obs: np.ndarray) -> int:
    """A new match (dealer seat 0), its first hand dealt by the game's generator, seeded
    anew from ``seed`` (``seed < 0``: the generator goes on); fills ``obs``; returns
    ``8 * number of legal actions``."""
    rng = S[0, BG_RNG]
    S[0, :] = 0
    S[0, BG_RNG] = rng if seed < 0 else (seed * 2654435761 + 88172645) & _LCG_MASK
    _bg_new_match(S, 0)
    _bg_deal(S, S[:, S_DECK:S_DECK + 32], 0, P)
    _bg_legal(S, 0, P, S[:, S_LEGAL:], S[:, S_N_LEGAL])
    batch_observations(S, P, P[P_OFF:P_SIZE], obs.reshape((1, obs.shape[0])))
    return int(8 * S[0, S_N_LEGAL])


@njit(cache=True, error_model="numpy")
def single_step(S: np.ndarray, P: np.ndarray, obs: np.ndarray, action: int) -> int:
    """Check ``action`` against the legal ones (:data:`ILLEGAL`, nothing moved, if it is
    not one), apply it as ``batch_step`` does (a hand that ends is scored and the next one
    dealt), fill ``obs`` with the next mover's observation; returns
    ``ended + 8 * number of legal actions``."""
    n = S[0, S_N_LEGAL]
    ok = False
    for k in range(n):
        if S[0, S_LEGAL + k] == action:
            ok = True
            break
    if not ok:
        return ILLEGAL
    decks = S[:, S_DECK:S_DECK + 32]
    seat = S[0, BG_TO_ACT]
    ended = 0
    if S[0, BG_PHASE] == 1:
        if _bg_bid(S, 0, seat, action, P) == 1:  # all passed: the next dealer deals anew
            ended = 1
            S[0, BG_DEALER] = (S[0, BG_DEALER] + 1) & 3
            S[0, BG_DEAL_NO] += 1
            _bg_deal(S, decks, 0, P)
    else:
        r = _bg_play(S, 0, seat, action, P, S[:, S_SCORES:S_SCORES + 2])
        if r != -2:
            S[0, S_HANDS] += 1
            ended = 2 if r == -1 else 3 + r
            if r >= 0:
                _bg_new_match(S, 0)
            _bg_deal(S, decks, 0, P)
    S[0, S_ENDED] = ended
    _bg_legal(S, 0, P, S[:, S_LEGAL:], S[:, S_N_LEGAL])
    batch_observations(S, P, P[P_OFF:P_SIZE], obs.reshape((1, obs.shape[0])))
    return int(ended + 8 * S[0, S_N_LEGAL])


@njit(cache=True, error_model="numpy")
def single_observation(S: np.ndarray, P: np.ndarray, obs: np.ndarray) -> None:
    """Fill ``obs`` with the observation of the player to move."""
    batch_observations(S, P, P[P_OFF:P_SIZE], obs.reshape((1, obs.shape[0])))
