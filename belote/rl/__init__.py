"""For reinforcement-learning research: tensors, masks, returns (numpy only), a PettingZoo
environment (:mod:`belote.rl.pettingzoo_env`, extra ``rl``) and an OpenSpiel-style state
(:mod:`belote.rl.openspiel_state`), and the compiled per-step game (:class:`CompiledGame`,
:mod:`belote.rl.compiled`).  See docs/research.md."""

from belote.rl.actions import NUM_ACTIONS, action_name, legal_action_mask
from belote.rl.compiled import CompiledGame
from belote.rl.returns import hand_returns, match_returns
from belote.rl.tensors import (
    INFORMATION_STATE_SIZE,
    LAYOUT,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    STATE_LAYOUT,
    STATE_SIZE,
    information_state_tensor,
    observation_tensor,
    state_tensor,
)

__all__ = [
    "INFORMATION_STATE_SIZE",
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "STATE_LAYOUT",
    "STATE_SIZE",
    "CompiledGame",
    "action_name",
    "hand_returns",
    "information_state_tensor",
    "legal_action_mask",
    "match_returns",
    "observation_tensor",
    "state_tensor",
]
