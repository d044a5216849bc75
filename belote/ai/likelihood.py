"""How likely a sampled world makes the cards seen so far: weights for the expert's worlds.

Worlds are dealt uniformly within the hard facts (:mod:`belote.ai.worlds`), but players do
not play at random: a world in which the opponents' cards were the obvious ones to play is
likelier than one in which they made odd choices.  The field's answer (GIB's and Kermit's
"inference", colver's weighted worlds) is to weight each world by the probability that an
**opponent model** makes the moves seen, given that world's hands.

The model here is the normal bot (:class:`belote.ai.heuristic.HeuristicBot`), softened: at a
move with ``n`` legal cards it plays its own choice with probability ``1 - eps`` and each
other legal card with ``eps / (n - 1)``.  ``eps`` says how much the model is trusted: the
opponents are not the normal bot, so a move it would not make must not rule a world out.
Moves with one legal card say nothing and count 1.  The result is a log-likelihood, to be
normalised over the worlds of one decision by the caller.
"""

from __future__ import annotations

import dataclasses
import math

from belote.ai.heuristic import HeuristicBot
from belote.engine.obligations import legal_plays
from belote.engine.observation import Observation


def play_log_likelihood(obs: Observation, world: tuple[int, int, int, int],
                        model: HeuristicBot, eps: float) -> float:
    """Log-probability that ``model`` (softened by ``eps``) plays the cards seen in this
    hand for the other three seats, had they held ``world``'s cards (each seat's cards
    still in hand; ``obs.seat``'s own entry is ignored).

    The seats' hands at each past move are rebuilt from ``world`` plus the cards each seat
    has played since; the model sees what that seat saw then (its hand, the cards played,
    the trick so far)."""
    if not 0.0 < eps < 1.0:
        raise ValueError("eps must be strictly between 0 and 1")
    rules = obs.ruleset
    seat = obs.seat
    if rules is None or seat is None or obs.trump is None or obs.taker is None:
        raise ValueError("a card-play observation with its rules, seat and contract")
    tricks = list(obs.tricks)
    if obs.trick:
        tricks.append((obs.trick[0][0], tuple(c for _, c in obs.trick)))
    hands = list(world)
    for leader, cards in tricks:  # back to the hands as they were before the first trick
        for i, card in enumerate(cards):
            hands[(leader + i) % 4] |= 1 << card
    keep, switch = math.log(1.0 - eps), math.log(eps)
    total = 0.0
    played = 0
    for number, (leader, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            who = (leader + i) % 4
            on_table = cards[:i]
            if who != seat:
                legal = legal_plays(hands[who], on_table, obs.trump, rules)
                n = legal.bit_count()
                if not legal >> card & 1:
                    return -math.inf  # the world cannot have played it (not expected)
                if n > 1:
                    plays = tuple(c for c in range(32) if legal >> c & 1)
                    view = dataclasses.replace(
                        obs, seat=who, hand=hands[who], played=played,
                        trick=tuple(((leader + j) % 4, c) for j, c in enumerate(on_table)),
                        trick_no=number, current_player=who, legal_actions=plays,
                        leader=leader)
                    choice = model.choose(view) & 31
                    total += keep if choice == card else switch - math.log(n - 1)
            hands[who] &= ~(1 << card)
            played |= 1 << card
    return total


def normalised(log_weights: list[float]) -> list[float]:
    """Weights summing to 1 from log-weights (all -inf: equal weights)."""
    top = max(log_weights, default=-math.inf)
    if top == -math.inf:
        return [1.0 / len(log_weights)] * len(log_weights) if log_weights else []
    raw = [math.exp(w - top) for w in log_weights]
    scale = sum(raw)
    return [w / scale for w in raw]
