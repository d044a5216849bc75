"""The card-play network at play: a small MLP run in numpy, no torch.

The weights ship as package data (``data/policy.npz``, written by
``scripts/train_policy.py`` with its ``MODEL_CARD.md``): ``w0, b0, w1, b1, w2, b2``, the
layers ``x @ w + b`` with ReLU between them, :data:`~belote.ai.network.features.SIZE`
inputs and 32 outputs, one per canonical card (:data:`~belote.ai.network.features.
CARD_ORDER`).  An output is the card's predicted points for the mover's side from here,
relative to the best card (a regret, so about 0 for the best and negative for the others):
only the order of the legal cards' outputs matters.

The default network is read once per process (:func:`default_policy`); another one (a new
training run) is ``Policy.load(path)`` (the MLP itself: :mod:`belote.ai.network.mlp`).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from belote.ai.network.features import CANONICAL, CARDS, SIZE, features
from belote.ai.network.mlp import Mlp
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.errors import BeloteError
from belote.rules import PRESETS
from belote.rules.base import Rules

FOUR_SEAT_PRESETS: tuple[str, ...] = tuple(n for n, r in PRESETS.items() if r.players == 4)


def check_four_seats(rules: Rules | None) -> None:
    """Refuse (BeloteError) a table of fewer than four seats: the network was trained on
    two partnerships of two and its features have four seats."""
    if rules is not None and rules.players != 4:
        raise BeloteError(
            f"the card-play network plays four-seat presets only "
            f"({', '.join(FOUR_SEAT_PRESETS)}), not {rules.players} players "
            f"(rules {rules.name!r})")


class Policy(Mlp):
    """The card-play network: :data:`~belote.ai.network.features.SIZE` features in, 32
    canonical cards out."""

    def check_shape(self, inputs: int, outputs: int) -> None:
        if inputs != SIZE or outputs != CARDS:
            raise BeloteError(f"a card-play network reads {SIZE} features and writes {CARDS} "
                              f"cards, not {inputs} and {outputs}")

    def card_values(self, observation: Observation) -> dict[int, float]:
        """Each legal card action of ``observation`` (a seat of four in the card play) and
        its predicted value (points relative to the best card: higher is better)."""
        check_four_seats(observation.ruleset)
        out = self.outputs(features(observation))
        trump = observation.trump
        assert trump is not None  # features() refused an observation without one
        canonical = CANONICAL[trump]
        return {a: float(out[canonical[a & 31]]) for a in observation.legal_actions
                if A.is_play(a)}

    def best_card(self, observation: Observation) -> int:
        """The legal card (0..31) with the highest predicted value."""
        check_four_seats(observation.ruleset)
        out = self.outputs(features(observation))
        trump = observation.trump
        assert trump is not None
        canonical = CANONICAL[trump]
        best, best_value = -1, -np.inf
        for action in observation.legal_actions:
            if A.is_play(action):
                card = action & 31
                value = out[canonical[card]]
                if value > best_value:
                    best, best_value = card, value
        if best < 0:
            raise BeloteError("no card to play in this observation")
        return best


@cache
def default_policy() -> Policy:
    """The shipped network (``data/policy.npz``), read once per process."""
    return Policy.shipped("policy.npz")


def card_values(observation: Observation) -> dict[int, float]:
    """:meth:`Policy.card_values` of the shipped network."""
    return default_policy().card_values(observation)


def best_card(observation: Observation) -> int:
    """:meth:`Policy.best_card` of the shipped network."""
    return default_policy().best_card(observation)
