"""A complete bot plug-in: it always takes its first legal action.

    belote arena examples.first_legal_bot:FirstLegalBot random --deals 20
"""

from __future__ import annotations

from belote.engine.events import Event
from belote.engine.observation import Observation


class FirstLegalBot:
    name = "first-legal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # a deterministic bot needs no randomness

    def notify(self, event: Event) -> None:
        """Every event the seat may see arrives here; this bot keeps no memory."""

    def choose(self, observation: Observation) -> int:
        return min(observation.legal_actions)
