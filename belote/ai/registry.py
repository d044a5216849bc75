"""The bots by name: the built-in ones, made when first asked for (making the expert loads
its compiled solver: nobody who only reads a level's name pays for it), and plug-ins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from belote.ai import plugins
from belote.ai.base import Player
from belote.ai.decision import Bot, as_bot
from belote.errors import BeloteError
from belote.rules.base import Rules


def _random(seed: int | None) -> Player:
    from belote.ai.random_bot import RandomBot
    return RandomBot(seed)


def _heuristic(name: str) -> Callable[[int | None], Player]:
    def make(seed: int | None) -> Player:
        from belote.ai.heuristic import HeuristicBot
        return HeuristicBot(seed, name=name)
    return make


def _easy(seed: int | None) -> Player:
    from belote.ai.easy import EasyBot
    return EasyBot(seed)


def _liar(seed: int | None) -> Player:
    from belote.ai.liar import LiarBot
    return LiarBot(seed)


def _quick(seed: int | None) -> Player:
    from belote.ai.quick import QuickBot
    return QuickBot(seed)


def _expert(**options: Any) -> Callable[[int | None], Player]:
    def make(seed: int | None) -> Player:
        from belote.ai.expert import ExpertBot
        return ExpertBot(seed, **options)
    return make


BOTS: dict[str, Callable[[int | None], Player]] = {
    "random": _random,
    "heuristic": _heuristic("heuristic"),
    "expert": _expert(),
    # The expert at colver IS-DD's compute (20 worlds per card move, no time budget): for
    # equal-compute comparisons in the arena.
    "expert-w20": _expert(max_worlds=20, min_worlds=20, budget_ms=600_000, hard_ms=600_000),
    # The same with its worlds weighted by the likelihood of the cards seen (not the bids),
    # the normal bot as the opponent model (belote.ai.likelihood; eps 0.4, chosen with
    # benchmarks/world_likelihood.py at seed 7, not on any arena seed)
    "expert-w20-lw": _expert(name="expert-w20-lw", max_worlds=20, min_worlds=20,
                             budget_ms=600_000, hard_ms=600_000, likelihood_eps=0.4),
    "expert-lw": _expert(name="expert-lw", likelihood_eps=0.4),
    # The expert at a fixed compute for the cards AND the bids (4 worlds per card move, 4
    # per bid, no time budget): its strength does not depend on how loaded the machine is
    # (cheap enough for 4 x 400 duplicate pairs on a busy 2-core machine).
    "expert-fixed": _expert(name="expert-fixed", max_worlds=4, min_worlds=4,
                            budget_ms=600_000, hard_ms=600_000, bid_worlds=4,
                            min_bid_worlds=4, bid_budget_ms=600_000, bid_hard_ms=600_000),
    # The room's expert and expert-w20 drawing their worlds within the facts only, deaf to
    # who sits where and to every word said: the baselines of "the expert with its models
    # against without" (issue 23, item 2b, docs/bots.md).
    "expert-nomodel": _expert(name="expert-nomodel", seat_models=False),
    "expert-w20-nomodel": _expert(name="expert-w20-nomodel", max_worlds=20, min_worlds=20,
                                  budget_ms=600_000, hard_ms=600_000, seat_models=False),
    "normal": _heuristic("normal"),
    # Bids and cards by small networks (belote.ai.network); the normal bot's bids where the
    # bidding network does not read the auction.
    "quick": _quick,
    "easy": _easy,
    # The normal bot saying passo/aspetto, ancora/alzo and its first discard at random: the
    # conventions read as evidence must never fail on it (issue 23).
    "liar": _liar,
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


def make_decider(name: str, seed: int | None = None) -> Bot:
    """:func:`make_bot` under the bot contract (``decide``): a plug-in that only
    ``choose``\\s is adapted (:func:`belote.ai.decision.as_bot`)."""
    return as_bot(make_bot(name, seed))


def check_seatable(player: Player, rules: Rules) -> None:
    """Refuse, before any play, a bot that cannot sit at a table of ``rules``: a bot says
    so with ``check_table(rules)`` (the quick bot's network has four seats); the refusal
    comes as a ValueError with the bot's own words."""
    check = getattr(player, "check_table", None)
    if callable(check):
        try:
            check(rules)
        except BeloteError as refused:
            raise ValueError(str(refused)) from refused
