"""Sampling the hidden cards: worlds consistent with everything a seat has seen.

The code is the engine's (:mod:`belote.engine.knowledge`), shared with ``Game.resample``;
this module gives the expert its names.

From one seat's :class:`Observation` we infer, from public facts only:

* cards whose place is known: the turned card with the taker, the partner card of an
  announced belote (the queen after "belote" with the king), declarations shown;
* what each card played proves under the obligations of the rules in force
  (:func:`belote.engine.obligations.proven_absent`): a player who did not follow the led
  suit, where following is owed, has none of it; one who had to trump or to overtrump and
  did not holds no trump (or no trump above the one on the table then);
* auction words: "passo" says no ace, "aspetto" at least one (said truthfully by bots,
  RULES.md), "ancora" two cards of the partner's suit, "alzo" three or more; the conventional
  answers DO/ANCORA/ALZO 10/20 (seed 000);
* discard signals (rules ``discard_signals``, :mod:`belote.engine.signals`), weighed as soft
  evidence (``SIGNAL_ODDS``).

Then the unseen cards are dealt at random to the other seats within those constraints (most
constrained cards first, retrying on a dead end).  Hard constraints are always respected;
the ace and support-call counts are checked by rejection, and dropped only if a world cannot
be found in a reasonable number of tries.
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
    knowledge,
    sample_world,
)

__all__ = ["Knowledge", "_allowed", "_deal_once", "_infer_play", "knowledge", "sample_world",
           "trump_is_suit"]


def trump_is_suit(trump: int | None) -> bool:
    return trump is not None and trump != NO_TRUMP and trump != ALL_TRUMP
