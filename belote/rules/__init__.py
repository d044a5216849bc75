"""Rules as data: the frozen :class:`Rules` object and the preset registry."""

from __future__ import annotations

from belote.rules.base import Rules
from belote.rules.presets import PLANNED, PRESETS


def find_preset(name: str) -> Rules:
    """The preset called ``name``; a clear error lists the ones available."""
    try:
        return PRESETS[name]
    except KeyError:
        hint = f" ({name} is planned but not yet playable)" if name in PLANNED else ""
        available = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown preset {name!r}{hint}; available: {available}") from None


__all__ = ["PRESETS", "Rules", "find_preset"]
