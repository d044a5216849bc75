"""The action space for learning code: its size, a numpy legal mask and readable names.

Ids are the engine's (:mod:`belote.engine.actions`): cards 0..31, card + belote 32..63,
bids and announcements 64..87 (knock 84, request to show 85, refute 86, bluff 87), the
conventional raises 90..95 (valdostana), auction contracts from 100, cuts from 420.  Ids 88,
89 and 96..99 are never legal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from belote.engine import actions as A
from belote.notation import SUIT_LETTERS, to_card

if TYPE_CHECKING:
    from belote.engine.state import Game

NUM_ACTIONS = A.ACTION_END  # 452: every id the engine can ever offer is below this

_NAMED = {
    A.PASS: "pass", A.TAKE: "take", A.SENZA: "senza", A.TUTTE: "tutte",
    A.ANNOUNCE_BELOTE: "announce_belote", A.ASPETTO: "aspetto", A.ANCORA: "ancora",
    A.ALZO: "alzo", A.CONTRO: "contro", A.SURCONTRO: "surcontro", A.DECLARE: "declare",
    A.OTTAVA: "ottava", A.KNOCK: "knock", A.REQUEST_SHOW: "request_show",
    A.REFUTE: "refute", A.BLUFF: "bluff",
    A.DO_10: "do_10", A.DO_20: "do_20", A.ANCORA_10: "ancora_10", A.ANCORA_20: "ancora_20",
    A.ALZO_10: "alzo_10", A.ALZO_20: "alzo_20",
}
_SUITS = SUIT_LETTERS


def action_name(action: int) -> str:
    """A short stable name: ``play_JH``, ``play_KS_belote``, ``name_suit_D``, ``contract_3_C``
    (the level index, not the points, since presets differ), ``declare_tierce``."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no action {action}: ids run from 0 to {NUM_ACTIONS - 1}")
    if action < A.PLAY_ANNOUNCE_BASE:
        return f"play_{to_card(action)}"
    if action < A.PASS:
        return f"play_{to_card(action & 31)}_belote"
    if action in _NAMED:
        return _NAMED[action]
    if A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4:
        return f"name_suit_{_SUITS[action - A.NAME_SUIT_BASE]}"
    if A.DECLARE_NAME_BASE <= action < A.DECLARE_NAME_BASE + len(A.DECLARE_NAMES):
        return f"declare_{A.DECLARE_NAMES[action - A.DECLARE_NAME_BASE]}"
    if action > A.CUT_BASE:
        return f"cut_{A.cut_depth(action)}"
    if A.CONTRACT_BASE <= action < A.CONTRACT_END:
        return f"contract_{A.contract_level_index(action)}_{_SUITS[A.contract_suit(action)]}"
    return f"unused_{action}"


def legal_action_mask(game: Game, seat: int | None = None) -> npt.NDArray[np.int8]:
    """1 for each action id ``seat`` (default: the player to move) may take now, else 0."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    legal = game.legal_actions(seat)
    if legal:
        mask[legal] = 1
    return mask
