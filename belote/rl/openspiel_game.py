"""Registering belote with OpenSpiel as a Python game (as ``python/games/kuhn_poker.py``).

Only for those who have ``open_spiel`` installed; nothing here imports it at module level.
``register(pyspiel)`` registers ``python_belote`` (parameters ``preset``, default "classic";
``max_deals``, default 1: one deal per episode, returns are the hand's score difference) and
returns a game made from the parameters given.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from belote.rl.actions import NUM_ACTIONS
from belote.rl.openspiel_state import BeloteState
from belote.rl.tensors import INFORMATION_STATE_SIZE, OBSERVATION_SIZE, _fill
from belote.rules import find_preset

SHORT_NAME = "python_belote"
MAX_GAME_LENGTH = 32 + 1000  # the deal's chance actions + a generous bound on bids and plays
MAX_UTILITY = 5000.0  # a hand's score difference, capot, multipliers and pot included


def register(pyspiel: Any, **params: Any) -> Any:
    """Register ``python_belote`` with ``pyspiel`` (once) and return a game."""
    game_type = pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Belote",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=False,
        provides_information_state_tensor=True,
        provides_observation_string=False,
        provides_observation_tensor=True,
        parameter_specification={"preset": "classic", "max_deals": 1},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=32, num_players=4,
        min_utility=-MAX_UTILITY, max_utility=MAX_UTILITY, utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
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

        def returns(self) -> list[float]:
            return self.inner.returns()

        def __str__(self) -> str:
            return str(self.inner)

    class _Observer:
        def __init__(self, iig_obs_type: Any, params: Any) -> None:
            self.history = iig_obs_type is None or iig_obs_type.perfect_recall
            size = INFORMATION_STATE_SIZE if self.history else OBSERVATION_SIZE
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"tensor": self.tensor}

        def set_from(self, state: Any, player: int) -> None:
            self.tensor.fill(0.0)
            _fill(state.inner.game, player, self.tensor, self.history)

        def string_from(self, state: Any, player: int) -> str:
            return ""

    class _Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game_type, game_info, params or {})
            values = self.get_parameters()
            self.rules = find_preset(values.get("preset", "classic"))
            self.max_deals = int(values.get("max_deals", 1))

        def new_initial_state(self) -> Any:
            return _State(self, BeloteState(self.rules, max_deals=self.max_deals))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(iig_obs_type, params)

    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(game_type, _Game)
    return pyspiel.load_game(SHORT_NAME, params)
