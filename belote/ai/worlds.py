"""Sampling the hidden cards: worlds consistent with everything a seat has seen.

The code and its account of what is inferred (card play, auction words, conventional
answers, discard signals) live in the engine, :mod:`belote.engine.knowledge`, shared with
``Game.resample``; this module gives the expert its names.
"""

from __future__ import annotations

from belote.engine.events import ALL_TRUMP, NO_TRUMP

# The sampling itself lives in the engine (belote.engine.knowledge), the one home that
# Game.resample draws from as well; the expert imports it from here.
from belote.engine.knowledge import (
    Knowledge,
    _allowed,
    _deal_once,
    _infer_play,
    fits,
    knowledge,
    sample_whole_world,
    sample_world,
)

__all__ = ["Knowledge", "_allowed", "_deal_once", "_infer_play", "fits", "knowledge",
           "sample_whole_world", "sample_world", "trump_is_suit"]


def trump_is_suit(trump: int | None) -> bool:
    return trump is not None and trump != NO_TRUMP and trump != ALL_TRUMP
