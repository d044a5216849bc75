"""Registering belote with OpenSpiel as a Python game (as ``python/games/kuhn_poker.py``).

Only for those who have ``open_spiel`` installed; nothing here imports it at module level.
``register(pyspiel)`` registers ``python_belote`` (parameters ``preset``, default "classic",
a four-seat preset; ``max_deals``, default 1: deals per episode) and returns a game made from
the parameters given.  Rewards follow OpenSpiel's REWARDS model: each hand's score difference
(a seat's partnership minus the other) is the reward of the decision that ends the hand, and
``returns()`` is their sum.  ``max_game_length`` counts decisions, ``max_deals`` times
:func:`~belote.rl.openspiel_state.max_decisions_per_deal`.

States support ISMCTS (``open_spiel.python.algorithms.ismcts``): ``resample_from_infostate
(player_id, probability_sampler)`` draws the hidden cards with :meth:`belote.engine.Game.resample`
seeded from one draw of the sampler, and ``information_state_string`` names one information
set (:meth:`BeloteState.information_state_string`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from belote.rl.actions import NUM_ACTIONS
from belote.rl.openspiel_state import (
    DECK_SIZE,
    SEATS,
    BeloteState,
    RandomSource,
    check_four_seats,
    max_decisions_per_deal,
)
from belote.rl.tensors import INFORMATION_STATE_SIZE, OBSERVATION_SIZE, _fill
from belote.rules import find_preset
from belote.rules.base import Rules

SHORT_NAME = "python_belote"
DEFAULT_PARAMETERS: dict[str, Any] = {"preset": "classic", "max_deals": 1}
MAX_HAND_UTILITY = 5000.0  # a hand's score difference, capot, multipliers and pot included


def max_game_length(rules: Rules, max_deals: int) -> int:
    """OpenSpiel's ``max_game_length``: the decisions (chance actions not counted) of an
    episode of ``max_deals`` deals under ``rules``."""
    return max_deals * max_decisions_per_deal(rules)


def game_settings(params: dict[str, Any] | None) -> tuple[Rules, int]:
    """The rules and ``max_deals`` that ``params`` name; ValueError for a preset with fewer
    than four seats, an unknown one, or fewer than one deal."""
    values = {**DEFAULT_PARAMETERS, **(params or {})}
    rules = find_preset(str(values["preset"]))
    check_four_seats(rules)
    max_deals = int(values["max_deals"])
    if max_deals < 1:
        raise ValueError(f"max_deals must be at least 1, not {max_deals}")
    return rules, max_deals


def register(pyspiel: Any, **params: Any) -> Any:
    """Register ``python_belote`` with ``pyspiel`` (once) and return a game."""
    game_type = pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Belote",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=SEATS,
        min_num_players=SEATS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMETERS,
    )

    class _State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any, inner: BeloteState) -> None:
            super().__init__(game)
            self.inner = inner

        def current_player(self) -> int:
            player = self.inner.current_player()
            if player == -1:
                return int(pyspiel.PlayerId.CHANCE)
            if player == -4:
                return int(pyspiel.PlayerId.TERMINAL)
            return player

        def _legal_actions(self, player: int) -> list[int]:
            return self.inner.legal_actions(player)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.inner.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self.inner.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self.inner.action_to_string(player, action)

        def is_terminal(self) -> bool:
            return self.inner.is_terminal()

        def rewards(self) -> list[float]:
            return self.inner.rewards()

        def returns(self) -> list[float]:
            return self.inner.returns()

        def resample_from_infostate(self, player_id: int,
                                    probability_sampler: RandomSource = None) -> Any:
            """A state ``player_id`` cannot tell from this one, replayed from the initial
            state so that its history is its own (as OpenSpiel's C++ games do).  The sampler
            (``pyspiel.UniformProbabilitySampler``, a seed or a ``random.Random``) seeds
            the draw."""
            state = self.get_game().new_initial_state()
            for action in self.inner.resample_history(player_id, probability_sampler):
                state.apply_action(action)
            return state

        def __str__(self) -> str:
            return str(self.inner)

    class _Observer:
        """Perfect recall (the default for information states): the information-state
        tensor and string; otherwise the observation tensor and string."""

        def __init__(self, iig_obs_type: Any, params: Any) -> None:
            if iig_obs_type is not None and (
                    not iig_obs_type.public_info
                    or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
                raise ValueError("python_belote observes one seat: its own cards and "
                                 "everything public (with perfect recall or not)")
            self.history = iig_obs_type is None or iig_obs_type.perfect_recall
            size = INFORMATION_STATE_SIZE if self.history else OBSERVATION_SIZE
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"tensor": self.tensor}

        def set_from(self, state: Any, player: int) -> None:
            self.tensor.fill(0.0)
            _fill(state.inner.game, player, self.tensor, self.history)

        def string_from(self, state: Any, player: int) -> str:
            if self.history:
                return str(state.inner.information_state_string(player))
            return str(state.inner.observation_string(player))

    class _Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            rules, max_deals = game_settings(params)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=DECK_SIZE,
                num_players=SEATS, min_utility=-MAX_HAND_UTILITY * max_deals,
                max_utility=MAX_HAND_UTILITY * max_deals, utility_sum=0.0,
                max_game_length=max_game_length(rules, max_deals),
            )
            super().__init__(game_type, game_info, params or {})
            self.rules = rules
            self.max_deals = max_deals

        def new_initial_state(self) -> Any:
            return _State(self, BeloteState(self.rules, max_deals=self.max_deals))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(iig_obs_type, params)

    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(game_type, _Game)
    return pyspiel.load_game(SHORT_NAME, params)
