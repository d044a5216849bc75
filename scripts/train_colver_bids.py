"""Fit the learned colver bid model (:mod:`belote.ai.models.logit_bids`) to recorded auctions.

Reads the JSON lines of ``scripts/record_colver_auctions.py``, replays each auction on our
coinche table and fits the conditional logit's weights by maximum likelihood (L2 0.01,
L-BFGS); prints the held-out log-loss and how often the likeliest bid is the one made, and
writes the weights as package data.  Nothing of colver is imported here.

    PYTHONPATH=. python scripts/train_colver_bids.py --train train.jsonl --test test.jsonl \
        --out belote/ai/models/data/colver_bids.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from belote.ai.models.logit_bids import DIMENSION, Context, features
from belote.engine.bidding import bidding_system
from belote.rules import find_preset

RULES = find_preset("coinche")


def decisions(path: Path, limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature rows, each decision's first row and the row of the bid made."""
    assert RULES.auction is not None
    levels = RULES.auction.levels
    capot = RULES.auction.capot_level
    capot_index = levels.index(capot) if capot and capot in levels else -1
    system = bidding_system(RULES.bidding)
    rows: list[list[float]] = []
    starts: list[int] = []
    chosen: list[int] = []
    with path.open() as f:
        for number, line in enumerate(f):
            if number >= limit:
                break
            deal = json.loads(line)
            state = system.start(deal["dealer"])
            for who, action in deal["bids"]:
                legal = sorted(system.legal_bids(state, -1, RULES))
                if action not in legal:
                    raise ValueError(f"deal {number}: bid {action} not legal on our table")
                if len(legal) > 1:
                    ctx = Context(who, state.bidder, state.level_index, state.suit, levels,
                                  capot_index)
                    starts.append(len(rows))
                    chosen.append(len(rows) + legal.index(action))
                    rows.extend(features(deal["hands"][who], ctx, a) for a in legal)
                if system.apply(state, who, action, -1, RULES) is not False:
                    break
    return np.array(rows, dtype=np.float64), np.array(starts), np.array(chosen)


def loss(w: np.ndarray, x: np.ndarray, starts: np.ndarray, chosen: np.ndarray,
         l2: float) -> tuple[float, np.ndarray]:
    s = x @ w
    top = np.maximum.reduceat(s, starts)
    counts = np.diff(np.append(starts, len(s)))
    e = np.exp(s - np.repeat(top, counts))
    z = np.add.reduceat(e, starts)
    p = e / np.repeat(z, counts)
    n = len(starts)
    value = -(s[chosen] - top - np.log(z)).sum() / n + l2 * w @ w
    grad = (p @ x - x[chosen].sum(axis=0)) / n + 2 * l2 * w
    return float(value), grad


def accuracy(w: np.ndarray, x: np.ndarray, starts: np.ndarray, chosen: np.ndarray) -> float:
    s = x @ w
    ends = np.append(starts[1:], len(s))
    hits = sum(int(np.argmax(s[a:b])) + a == c for a, b, c in zip(starts, ends, chosen,
                                                                   strict=True))
    return hits / len(starts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--test", type=Path, required=True)
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    x, starts, chosen = decisions(args.train, args.deals)
    fit = minimize(loss, np.zeros(DIMENSION), args=(x, starts, chosen, args.l2), jac=True,
                   method="L-BFGS-B", options={"maxiter": 500})
    w = fit.x
    tx, ts, tc = decisions(args.test, args.deals)
    held_out = loss(w, tx, ts, tc, 0.0)[0]
    print(f"{len(starts)} decisions; train log-loss {loss(w, x, starts, chosen, 0.0)[0]:.4f},"
          f" held-out {held_out:.4f} on {len(ts)}; likeliest bid made: train "
          f"{accuracy(w, x, starts, chosen):.3f}, held-out {accuracy(w, tx, ts, tc):.3f}")
    args.out.write_text(json.dumps({
        "model": "belote.ai.models.logit_bids", "source": "colver-bid (improved_v2) self-play",
        "decisions": len(starts), "held_out_log_loss": round(held_out, 4),
        "held_out_accuracy": round(accuracy(w, tx, ts, tc), 4),
        "weights": [round(float(v), 5) for v in w]}, indent=0) + "\n")


if __name__ == "__main__":
    main()
