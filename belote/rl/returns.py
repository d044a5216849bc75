"""Rewards per hand and per match, one value per seat (partners always share theirs).

* per hand: the points the seat's team scored in the hand minus the opponents', as written
  on the score sheet (contract, belote, declarations, pot, multipliers included), divided by
  ``scale``; 0 on every step that scores no hand.
* per match: +1 for each seat of the winning team, -1 for the others, at the match's end
  (``Game.returns()``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from belote.engine.events import Event, HandScored
from belote.engine.state import Game

Returns = npt.NDArray[np.float32]


def hand_returns(events: Iterable[Event], scale: float = 1.0) -> Returns:
    """Per-seat rewards of the hands scored among ``events`` (what one ``apply`` returned)."""
    if scale <= 0:
        raise ValueError("scale must be positive")
    out = np.zeros(4, dtype=np.float32)
    for event in events:
        if isinstance(event, HandScored):
            diff = (event.scores[0] - event.scores[1]) / scale
            out += np.array((diff, -diff, diff, -diff), dtype=np.float32)
    return out


def match_returns(game: Game) -> Returns:
    """+1 / -1 per seat once the match is over, zeros before."""
    return np.array(game.returns(), dtype=np.float32)
