"""Bots: players that act through the same protocol as humans (:mod:`belote.ai.base`), and
the bot contract the room asks them through (:mod:`belote.ai.decision`).

Importing this package makes no bot: the registry (:mod:`belote.ai.registry`) imports each
built-in bot when one is first made.  The room's levels are the room's
(:mod:`belote.server.levels`).
"""

from __future__ import annotations

from belote.ai import plugins
from belote.ai.base import DECLINE, Player
from belote.ai.decision import Bot, Decision, DecisionMethod, Fallback, as_bot
from belote.ai.registry import BOTS, make_bot, make_decider

__all__ = ["BOTS", "DECLINE", "Bot", "Decision", "DecisionMethod", "Fallback", "Player",
           "as_bot", "make_bot", "make_decider", "plugins"]
