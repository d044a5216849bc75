"""The player protocol: humans, bots and remote clients all act through it.

A player receives the events its seat may see (``notify``) and, when it must act, its
seat's :class:`~belote.engine.observation.Observation` (``choose``), and returns an action id
from ``observation.legal_actions``.  When only an optional announcement is on offer (a belote
window right after the player's own card), ``choose`` may return ``DECLINE``.
"""

from __future__ import annotations

from typing import Protocol

from belote.engine.events import Event
from belote.engine.observation import Observation

DECLINE = -1


class Player(Protocol):
    name: str

    def notify(self, event: Event) -> None: ...

    def choose(self, observation: Observation) -> int: ...
