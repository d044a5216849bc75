"""Soft evidence about the hidden hands: how likely a world makes what the other seats did.

The rules' facts (cards seen, voids the obligations prove, declarations shown or named,
belote claims, the monte) constrain which worlds are possible: :mod:`belote.engine.knowledge`
draws among those, uniformly.  What a player *says by convention* (passo, aspetto, ancora,
a discard signal) or how they bid and play is something else: evidence about their hand that
a person may contradict at will.  An :class:`Evidence` turns it into a weight, never into a
constraint: a world it finds unlikely stays possible.

Implementations live where their knowledge does (the bots' own conventions beside the
sampler, models of a seat's bidder and learned models of people with the bots); the sampler
and ``Game.resample(seat, rng, model=...)`` take any of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from belote.cards import CardSet
from belote.engine.observation import Observation


@dataclass(frozen=True)
class World:
    """One guess at every hand, as the evidence reads it.

    ``hands``: each seat's cards in hand now (the observing seat's own included);
    ``dealt``: each seat's cards as dealt this hand (in hand now, plus played, plus the
    turned card for the seat that took it); ``first``: each seat's cards dealt before the
    auction where a turned card splits the deal (take-or-pass: 5 of the 8), else ``dealt``.
    """

    hands: tuple[CardSet, ...]
    dealt: tuple[CardSet, ...]
    first: tuple[CardSet, ...]


class Evidence(Protocol):
    """A model of how the other seats act, read as evidence about their hands."""

    def log_likelihood(self, obs: Observation, world: World) -> float:
        """log P(what the seats other than ``obs.seat`` said and played, as seen in ``obs``
        | ``world``), up to a constant that does not depend on the world.  Must be finite
        (a model that thinks an action impossible still gives it a small probability: a
        person may do anything)."""
        ...
