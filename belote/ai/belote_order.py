"""Which of the belote's two cards a bot plays first.

Seed 002 (classic, flag ``belote_king_first``): "debe anunciar «belote» cuando juega el rey y
«rebelote» cuando juega la dama ... El rey y la dama deben jugarse en este orden para que se
conceda la bonificación; jugar la dama y luego el rey no es válido."  A bot that holds both
and chose the queen plays the king instead: the two are neighbours in the trump order (J 9 A
10 K Q 8 7), so the king wins wherever the queen would, and the queen first would void the
20 points.  Every bot level calls this on its final card (one home for the habit).
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.cards import Card, Rank
from belote.engine.observation import Observation
from belote.rules.vocabulary import ALL_TRUMP


def king_before_queen(obs: Observation, card: Card, plays: Sequence[Card]) -> Card:
    """``card``, or the king of its suit when ``card`` is a trump queen whose king is held
    and playable under king-first rules (otherwise the belote would be lost)."""
    rules = obs.ruleset
    if rules is None or not rules.belote_enabled or not rules.belote_king_first:
        return card
    trump = obs.trump
    suit = card >> 3
    if card & 7 != Rank.QUEEN or trump is None or not (trump == ALL_TRUMP or suit == trump):
        return card
    king = suit * 8 + Rank.KING
    return king if obs.hand >> king & 1 and king in plays else card


__all__ = ["king_before_queen"]
