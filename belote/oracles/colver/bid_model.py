"""colver's bidder as the expert's model of the other seats' bids (arena only).

Against colver's players (``--bidder colver-bid``: colver's ``improved_v2`` at every seat,
ours included) the bidding system at the table is public and known, as a bridge
partnership's system is disclosed to its opponents: a seat that bid 100 in hearts holds a
hand with which ``improved_v2`` bids 100 in hearts.  :class:`ColverBidModel` counts, for a
world's four hands as dealt, the other seats' bids that ``improved_v2`` would not have
made; the expert draws its worlds among those it fits (``ExpertBot(bid_model=...)``,
level ``expert-w20-cbid``).  It sees only what the seat saw: the world is the expert's own
guess, the bids are public.
"""

from __future__ import annotations

from typing import Any

from belote.cards import CardSet
from belote.engine.observation import Observation
from belote.oracles.colver.agents import _colver, to_colver_bid
from belote.oracles.colver.bridge import to_colver_cards


class ColverBidModel:
    """:class:`belote.ai.likelihood.BidModel` of colver's ``improved_v2`` bidder."""

    def __init__(self) -> None:
        self._env: Any = _colver().Env  # raises ColverUnavailableError without colver

    def misfits(self, obs: Observation,
                hands: tuple[CardSet, CardSet, CardSet, CardSet]) -> int:
        env = self._env.deal_with_hands(obs.dealer, [to_colver_cards(h) for h in hands])
        wrong = 0
        for who, action in obs.bids:
            if env.current_player() != who:
                raise RuntimeError(f"colver's auction is out of step with ours at seat {who}")
            bid = to_colver_bid(action)
            if who != obs.seat and env.bid_improved() != bid:
                wrong += 1
            env.step(bid)
        return wrong
