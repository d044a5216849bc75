"""Record colver-bid's auctions in self-play: the data the learned colver bid model is fitted to.

Each line of the output (JSON lines) is one deal: the dealer, the four hands as dealt (our
card ints) and the auction as our action ids, every seat bidding with colver's
``improved_v2`` (``Env.bid_improved``, the bidder of the arena's ``colver-bid``).  The deals
are uniformly random (``random.Random(seed)``).  This script is the only place colver's
bidder runs for the model: the model itself (:mod:`belote.ai.models.network_bids`) reads
these auctions' fitted parameters, never colver.

    python scripts/record_colver_auctions.py --deals 60000 --seed 1 --out train.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from belote.oracles.colver.agents import _colver, from_colver_bid
from belote.oracles.colver.bridge import to_colver_cards


def record(deals: int, seed: int) -> list[dict[str, object]]:
    env_class = _colver().Env
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for _ in range(deals):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s:8 * s + 8]) for s in range(4)]
        dealer = rng.randrange(4)
        env = env_class.deal_with_hands(dealer, [to_colver_cards(h) for h in hands])
        bids: list[tuple[int, int]] = []
        while env.phase() == 0:
            who = env.current_player()
            bid = env.bid_improved()
            bids.append((who, from_colver_bid(bid)))
            env.step(bid)
        out.append({"dealer": dealer, "hands": hands, "bids": bids})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    with args.out.open("w") as f:
        for deal in record(args.deals, args.seed):
            f.write(json.dumps(deal) + "\n")


if __name__ == "__main__":
    main()
