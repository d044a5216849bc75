"""Rules as data: the frozen :class:`Rules` object and the preset registry."""

from __future__ import annotations

from belote.rules.base import AuctionRules, Rules
from belote.rules.presets import PRESETS
from belote.rules.target import match_winner
from belote.rules.validation import FlagError


def find_preset(name: str) -> Rules:
    """The preset called ``name``; a clear error lists the ones available."""
    try:
        return PRESETS[name]
    except KeyError:
        available = ", ".join(PRESETS)
        raise ValueError(f"unknown preset {name!r}; available: {available}") from None


__all__ = ["PRESETS", "AuctionRules", "FlagError", "Rules", "find_preset", "match_winner"]
