"""``expert-w20-learned``: the expert at colver's table reading colver-bid's bids through a
model LEARNED from colver-bid's recorded auctions (:mod:`belote.ai.models.network_bids`,
fitted by ``scripts/train_colver_bids.py`` to ``scripts/record_colver_auctions.py``'s
self-play), never through colver's code: unlike ``expert-w20-cbid``
(:class:`~belote.oracles.colver.bid_model.ColverBidModel`), it needs no colver installed and
weighs the bids as evidence, never as fact.  It learns who bids with colver-bid from the
table's composition (``meet``: the arena tells it)."""

from __future__ import annotations

from belote.ai.expert import ExpertBot
from belote.ai.models.network_bids import colver_bidder


class ExpertWithLearnedColverBids(ExpertBot):
    """``expert-w20`` (20 worlds per card move) with the seat models, colver-bid's seats
    read by the learned bidder."""

    name = "expert-w20-learned"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, name=type(self).name, max_worlds=20, min_worlds=20,
                         budget_ms=600_000, hard_ms=600_000,
                         learned_bidders={"colver-bid": colver_bidder()})
