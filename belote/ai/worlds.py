"""Sampling the hidden cards: worlds consistent with everything a seat has seen.

The code and its account of what is a fact (cards seen, voids proven by the obligations,
declarations shown or named, belote claims, the monte) and what is evidence (the bots'
conventions: :class:`~belote.engine.convention_evidence.ConventionEvidence`) live in the
engine, :mod:`belote.engine.knowledge`, shared with ``Game.resample``; this module gives the
expert its names.
"""

from __future__ import annotations

from belote.engine.convention_evidence import SIGNAL_ODDS, WORD_ODDS, ConventionEvidence
from belote.engine.events import ALL_TRUMP, NO_TRUMP

# The sampling itself lives in the engine (belote.engine.knowledge), the one home that
# Game.resample draws from as well; the expert imports it from here.
from belote.engine.knowledge import (
    Knowledge,
    ResampleError,
    _infer_play,
    fits,
    knowledge,
    sample_whole_world,
    sample_world,
    world_of,
)

__all__ = ["SIGNAL_ODDS", "WORD_ODDS", "ConventionEvidence", "Knowledge", "ResampleError",
           "_infer_play", "fits", "knowledge", "sample_whole_world", "sample_world",
           "trump_is_suit", "world_of"]


def trump_is_suit(trump: int | None) -> bool:
    return trump is not None and trump != NO_TRUMP and trump != ALL_TRUMP
