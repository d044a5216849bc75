"""Bots: players that act through the same protocol as humans (:mod:`belote.ai.base`)."""

from __future__ import annotations

from collections.abc import Callable

from belote.ai import plugins
from belote.ai.base import DECLINE, Player
from belote.ai.expert import ExpertBot
from belote.ai.heuristic import HeuristicBot
from belote.ai.levels import LEVELS, EasyBot
from belote.ai.random_bot import RandomBot

BOTS: dict[str, Callable[[int | None], Player]] = {
    "random": lambda seed: RandomBot(seed),
    "heuristic": lambda seed: HeuristicBot(seed),
    "expert": lambda seed: ExpertBot(seed),
    # The expert at colver IS-DD's compute (20 worlds per card move, no time budget): for
    # equal-compute comparisons in the arena.
    "expert-w20": lambda seed: ExpertBot(seed, max_worlds=20, min_worlds=20,
                                         budget_ms=600_000, hard_ms=600_000),
    # The same with its worlds weighted by the likelihood of the cards seen (not the bids),
    # the normal bot as the opponent model (belote.ai.likelihood; eps 0.4, chosen with
    # benchmarks/world_likelihood.py at seed 7, not on any arena seed)
    "expert-w20-lw": lambda seed: ExpertBot(seed, name="expert-w20-lw", max_worlds=20,
                                            min_worlds=20, budget_ms=600_000,
                                            hard_ms=600_000, likelihood_eps=0.4),
    "expert-lw": lambda seed: ExpertBot(seed, name="expert-lw", likelihood_eps=0.4),
    # The expert at a fixed compute for the cards AND the bids (4 worlds per card move, 4
    # per bid, no time budget): its strength does not depend on how loaded the machine is
    # (cheap enough for 4 x 400 duplicate pairs on a busy 2-core machine).
    "expert-fixed": lambda seed: ExpertBot(seed, name="expert-fixed", max_worlds=4,
                                           min_worlds=4, budget_ms=600_000,
                                           hard_ms=600_000, bid_worlds=4, min_bid_worlds=4,
                                           bid_budget_ms=600_000, bid_hard_ms=600_000),
    "normal": lambda seed: HeuristicBot(seed, name="normal"),
    "easy": lambda seed: EasyBot(seed),
}


def make_bot(name: str, seed: int | None = None) -> Player:
    """A bot by name: a built-in one, ``module:Class`` or a ``belote.bots`` entry point
    (colver's agents among them: ``colver-heuristic``, ``colver-isdd``, ``colver-bid``,
    ``expert-w20-cbid``, declared by this package's pyproject.toml)."""
    if name in BOTS:
        return BOTS[name](seed)
    if ":" in name or name in plugins.entry_point_names():
        return plugins.load_plugin(name, seed)
    available = sorted({*BOTS, *plugins.entry_point_names()})
    raise ValueError(f"unknown bot {name!r}; available: {', '.join(available)}, "
                     "or a plug-in written module:Class")


__all__ = ["BOTS", "DECLINE", "LEVELS", "Player", "make_bot"]
