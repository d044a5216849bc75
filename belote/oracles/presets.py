"""The rules the arena plays by name: every preset, and the rivals' alignments.

``colver`` is coinche aligned with colver's rules (:data:`belote.oracles.colver.agents.
COLVER_RULES`, ``docs/arena.md``).  The name lives here, beside the rival it aligns with, so
that the arena (:mod:`belote.sim.arena`, which takes a :class:`Rules`) imports nothing from
the oracles; ``belote arena --preset`` and the benchmarks read it.
"""

from __future__ import annotations

from belote.oracles.colver.agents import COLVER_RULES
from belote.rules import find_preset
from belote.rules.base import Rules


def arena_rules(preset: str) -> Rules:
    """A preset by name; ``colver`` is coinche aligned with colver's rules (COLVER_RULES)."""
    if preset == "colver":
        return COLVER_RULES
    return find_preset(preset)


__all__ = ["arena_rules"]
