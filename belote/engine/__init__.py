"""The pure game engine: state, events, observations.  No I/O, no clock, no numba."""

from belote.engine.dealing import DeckSource, secure_deck_source, seeded_deck_source
from belote.engine.events import ALL_TRUMP, NO_TRUMP, Event
from belote.engine.observation import Observation
from belote.engine.state import CHANCE, TERMINAL, Game, Phase

__all__ = [
    "ALL_TRUMP",
    "CHANCE",
    "NO_TRUMP",
    "TERMINAL",
    "DeckSource",
    "Event",
    "Game",
    "Observation",
    "Phase",
    "secure_deck_source",
    "seeded_deck_source",
]
