"""An OpenSpiel-style state over the engine (``spiel.h``'s ``State``), with no OpenSpiel needed.

``current_player()`` (``CHANCE`` = -1 while cards are dealt, ``TERMINAL`` = -4 at the end),
``legal_actions()`` (sorted ids), ``apply_action``, ``chance_outcomes()``, ``returns()``,
``information_state_tensor(player)``, ``observation_tensor(player)``, ``clone()``,
``resample_from_infostate(player, rng)``.

Dealing is a chance node one card at a time, as in OpenSpiel's euchre: 32 chance actions
(the card ids 0..31, each remaining card equally likely) fill the deck, which is then dealt by
the engine's own rules.  An episode ends with the match, or after ``max_deals`` deals (redeals
after four passes included) when given.  Returns: ``"hand"`` sums each hand's score
difference (a seat's team minus the other, zero-sum); ``"match"`` is +1/-1 at the match's end
and 0 when cut by ``max_deals``.
"""

from __future__ import annotations

import random

import numpy as np

from belote.engine import CHANCE, TERMINAL, Game
from belote.engine.events import HandScored
from belote.rl.actions import action_name
from belote.rl.tensors import Tensor, information_state_tensor, observation_tensor
from belote.rules.base import Rules


class BeloteState:
    """One OpenSpiel-style state: a :class:`Game` plus the deck being dealt."""

    def __init__(self, rules: Rules, first_dealer: int = 0, max_deals: int | None = None,
                 reward: str = "hand") -> None:
        if reward not in ("hand", "match"):
            raise ValueError(f"reward must be 'hand' or 'match', not {reward!r}")
        if max_deals is not None and max_deals < 1:
            raise ValueError("max_deals must be at least 1")
        self.game = Game(rules, first_dealer)
        self.max_deals = max_deals
        self.reward = reward
        self._deck: list[int] = []
        self._hand_returns = [0.0, 0.0, 0.0, 0.0]

    # -------------------------------------------------------------- queries
    def is_terminal(self) -> bool:
        if self.game.is_terminal():
            return True
        return (self.max_deals is not None and self.game.deal_no >= self.max_deals
                and self.game.current_player() == CHANCE and not self._deck)

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.game.current_player()

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal ids: undealt cards on a chance node, else the player's actions."""
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [c for c, _ in self.chance_outcomes()]
        return sorted(self.game.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise ValueError("not a chance node")
        left = [c for c in range(32) if c not in self._deck]
        return [(c, 1.0 / len(left)) for c in left]

    def returns(self) -> list[float]:
        if self.reward == "hand":
            return list(self._hand_returns)
        return list(self.game.returns())

    def information_state_tensor(self, player: int) -> Tensor:
        return information_state_tensor(self.game, player)

    def observation_tensor(self, player: int) -> Tensor:
        return observation_tensor(self.game, player)

    def action_to_string(self, player: int, action: int) -> str:
        return f"deal_{action}" if player == CHANCE else action_name(action)

    # -------------------------------------------------------------- changes
    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the player to move (a card to deal on a chance node);
        IllegalActionError or ValueError on a bad one, the state unchanged."""
        if self.is_terminal():
            raise ValueError("the game is over")
        action = int(action)
        if self.is_chance_node():
            if not 0 <= action < 32 or action in self._deck:
                raise ValueError(f"card {action} cannot be dealt now")
            self._deck.append(action)
            if len(self._deck) == 32:
                self.game.deal(self._deck)
                self._deck = []
            return
        for event in self.game.apply(action):
            if isinstance(event, HandScored):
                diff = float(event.scores[0] - event.scores[1])
                for seat in range(4):
                    self._hand_returns[seat] += diff if seat % 2 == 0 else -diff

    def clone(self) -> BeloteState:
        other = BeloteState.__new__(BeloteState)
        other.game = self.game.clone()
        other.max_deals = self.max_deals
        other.reward = self.reward
        other._deck = self._deck[:]
        other._hand_returns = self._hand_returns[:]
        return other

    def resample_from_infostate(self, player: int,
                                rng: random.Random | int | None = None) -> BeloteState:
        """A state ``player`` cannot tell from this one (:func:`Game.resample`); cards
        being dealt, which nobody has seen yet, are drawn afresh."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        other = self.clone()
        other.game = self.game.resample(player, rng)
        other._deck = rng.sample(range(32), len(self._deck))
        return other

    def __str__(self) -> str:
        return str(self.game.log)


def returns_array(state: BeloteState) -> np.ndarray:
    """``returns()`` as a float32 array (for batching)."""
    return np.array(state.returns(), dtype=np.float32)
