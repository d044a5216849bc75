"""Arena levels for measuring the seat models (``module:Class`` names for ``make_bot``):
the room's expert without its models, the baseline of "the expert with its model vs
without" (issue 23, item 2b)."""

from __future__ import annotations

from belote.ai.expert import ExpertBot


class ExpertWithoutModels(ExpertBot):
    """The room's expert (its budgets) drawing its worlds within the facts only: it ignores
    who sits where (``meet``)."""

    name = "expert-nomodel"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, name=type(self).name, seat_models=False)


class ExpertW20WithoutModels(ExpertBot):
    """``expert-w20`` (20 worlds per card move, no time budget) without the seat models."""

    name = "expert-w20-nomodel"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, name=type(self).name, max_worlds=20, min_worlds=20,
                         budget_ms=600_000, hard_ms=600_000, seat_models=False)
