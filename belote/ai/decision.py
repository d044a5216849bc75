"""The bot contract: ``decide(observation, deadline) -> Decision``.

Every bot the room seats answers through it, and every decision the room asks for (a card, a
bid, a declaration, a belote window) comes back as a :class:`Decision`: the action, how the
bot reached it (:class:`DecisionMethod`), the worlds its search solved and the milliseconds it
took.  Whoever asks reads the answer, never the bot's attributes after the call.

A bot of the older player protocol alone (``choose(observation) -> action``, as third-party
plug-ins and colver's agents are written) is given the contract by one adapter,
:func:`as_bot`: it says nothing of how it decided (``DecisionMethod.UNSAID``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, cast

from belote.ai.base import Player
from belote.engine import actions as A
from belote.engine.events import Event
from belote.engine.observation import Observation


class DecisionMethod(StrEnum):
    """How a bot reached its action: what the built-in bots do today."""

    ONLY_MOVE = "only_move"  # one legal action: nothing to decide
    RULE = "rule"  # a fixed rule (announce belote with the card, declare all, table talk)
    RANDOM = "random"  # a uniformly random legal action (the random bot, an easy bot's slip)
    HEURISTIC = "heuristic"  # rules of thumb (normal, easy; the expert's unsearched moves)
    # a learned card-play network's best legal card (the quick bot, belote.ai.network): no
    # search at decision time, its values distilled from the exact solver
    NETWORK = "network"
    EXACT = "exact"  # sampled worlds, each solved exactly (the expert's cards)
    PLAYOUTS = "playouts"  # sampled worlds valued by random playouts (too deep to solve)
    SIMULATED = "simulated"  # a bid chosen by simulating sampled deals (the expert)
    ESTIMATED = "estimated"  # no world solved exactly in time: cards valued by playouts
    HURRIED = "hurried"  # a searching bot with no world in time: its heuristic's move
    UNSAID = "unsaid"  # a bot of the player protocol alone: it does not say
    FALLBACK = "fallback"  # not the bot's: a stand-in played (``Decision.fallback``)


class Fallback(StrEnum):
    """Why a stand-in played instead of the seat's own bot (the pool's: the quick bot where
    it can sit, else the normal one), or, ``HURRIED``, the bot's own heuristic."""

    LATE = "late"  # no answer within the time limit
    FAILED = "failed"  # the decision raised (or answered no Decision)
    ILLEGAL = "illegal"  # the answer is not a legal action
    POOL_BROKEN = "pool_broken"  # a worker died while the decision was in the pool
    HURRIED = "hurried"  # answered in time, with the heuristic's move (no world solved)


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's answer.  ``worlds``: the worlds its search solved (None: it ran no search).
    ``ms``: how long it took, in milliseconds: the bot's own time as the bot returns it, from
    the request to the answer as the room's bot path returns it.  ``fallback``: why a
    stand-in played (None: none did), set by the path, never by a bot."""

    action: int
    method: DecisionMethod
    worlds: int | None = None
    ms: float = 0.0
    fallback: Fallback | None = None

    @property
    def seconds(self) -> float:
        return self.ms / 1000.0


class Bot(Protocol):
    """A player that says how it decided: what the room seats."""

    name: str

    def notify(self, event: Event) -> None: ...

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        """The action for ``observation``; ``deadline`` (``time.monotonic()`` seconds, None:
        none) is when the answer is wanted: a searching bot starts no new work after it."""
        ...


def elapsed_ms(started: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()`` reading)."""
    return (time.perf_counter() - started) * 1000.0


def only_move(observation: Observation, method: DecisionMethod) -> DecisionMethod:
    """``ONLY_MOVE`` when the seat had a single legal action, else ``method``.  A belote
    window's lone announcement is no forced move: the bot may let it go (``DECLINE``)."""
    legal = observation.legal_actions
    if len(legal) == 1 and legal[0] != A.ANNOUNCE_BELOTE:
        return DecisionMethod.ONLY_MOVE
    return method


class PlayerBot:
    """The one adapter: a player protocol bot (``choose``) under the bot contract."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name

    def notify(self, event: Event) -> None:
        self.player.notify(event)

    def choose(self, observation: Observation) -> int:
        return self.player.choose(observation)

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        started = time.perf_counter()
        action = self.player.choose(observation)
        return Decision(action, DecisionMethod.UNSAID, None, elapsed_ms(started))


def as_bot(player: Player) -> Bot:
    """``player`` under the bot contract: itself when it has ``decide``, else adapted."""
    if callable(getattr(player, "decide", None)):
        return cast(Bot, player)
    return PlayerBot(player)
