"""Fit the learned colver bid model (:mod:`belote.ai.models.network_bids`) to recorded auctions.

Reads the JSON lines of ``scripts/record_colver_auctions.py``, replays each auction on our
coinche table (every bid must be legal there) and fits the network by maximum likelihood of
the bids made (softmax over each decision's legal bids; L2 on the weights; L-BFGS on the
whole set, in numpy: no training framework); prints the log-loss and how often the likeliest
bid is the one made, on the training deals and on held-out deals, and writes the weights as
package data.  Nothing of colver is imported here.

    python scripts/train_colver_bids.py --train train.jsonl --test test.jsonl \\
        --out belote/ai/network/data/colver_bids.npz
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

from belote.ai.models.network_bids import INPUTS, NetworkBidder, bid_rows, slipped
from belote.engine.bidding import bidding_system
from belote.rules import find_preset

RULES = find_preset("coinche")
Array = npt.NDArray[np.float64]


class Decisions:
    """Every bid decision with a choice in the recorded deals: the legal bids' rows, where
    each decision's rows start and the row of the bid made."""

    def __init__(self, path: Path, limit: int) -> None:
        assert RULES.auction is not None
        levels = RULES.auction.levels
        system = bidding_system(RULES.bidding)
        blocks: list[npt.NDArray[np.float32]] = []
        starts: list[int] = []
        chosen: list[int] = []
        count = 0
        with path.open() as f:
            for number, line in enumerate(f):
                if number >= limit:
                    break
                deal = json.loads(line)
                state = system.start(deal["dealer"])
                bids: list[tuple[int, int]] = []
                for who, action in deal["bids"]:
                    legal = tuple(sorted(system.legal_bids(state, -1, RULES)))
                    if action not in legal:
                        raise ValueError(f"deal {number}: bid {action} not legal on our table")
                    if len(legal) > 1:
                        starts.append(count)
                        chosen.append(count + legal.index(action))
                        blocks.append(bid_rows(deal["hands"][who], who, tuple(bids),
                                               levels, legal))
                        count += len(legal)
                    bids.append((who, action))
                    if system.apply(state, who, action, -1, RULES) is not False:
                        break
        if not blocks:
            raise ValueError(f"{path}: no bid with a choice in its first {limit} deals")
        self.rows = np.concatenate(blocks)
        self.starts = np.array(starts)
        self.chosen = np.array(chosen)
        self.counts = np.diff(np.append(self.starts, len(self.rows)))

    def __len__(self) -> int:
        return len(self.starts)


def shapes(hidden: tuple[int, ...]) -> list[tuple[int, int]]:
    sizes = (INPUTS, *hidden, 1)
    return list(itertools.pairwise(sizes))


def unpack(theta: Array, hidden: tuple[int, ...]) -> list[tuple[Array, Array]]:
    layers, at = [], 0
    for n_in, n_out in shapes(hidden):
        w = theta[at:at + n_in * n_out].reshape(n_in, n_out)
        at += n_in * n_out
        layers.append((w, theta[at:at + n_out]))
        at += n_out
    return layers


def start(hidden: tuple[int, ...], seed: int) -> Array:
    rng = np.random.default_rng(seed)
    parts: list[Array] = []
    for n_in, n_out in shapes(hidden):
        parts += [rng.normal(0.0, np.sqrt(2.0 / n_in), n_in * n_out), np.zeros(n_out)]
    return np.concatenate(parts)


def loss(theta: Array, data: Decisions, hidden: tuple[int, ...], l2: float,
         ) -> tuple[float, Array]:
    """Mean negative log-likelihood of the bids made (plus L2) and its gradient."""
    kind = data.rows.dtype  # float32 to train (half the memory and time); float64 to check
    layers = [(w.astype(kind), b.astype(kind)) for w, b in unpack(theta, hidden)]
    acts = [data.rows]
    for i, (w, b) in enumerate(layers):
        z = acts[-1] @ w + b
        acts.append(np.maximum(z, 0.0) if i < len(layers) - 1 else z)
    s = acts[-1][:, 0].astype(np.float64)
    n = len(data)
    delta, log_norm = choice_probabilities(s, data)
    value = (log_norm - s[data.chosen]).sum() / n
    delta[data.chosen] -= 1.0
    back = (delta / n).astype(kind)[:, None]
    grads: list[Array] = []
    for i in range(len(layers) - 1, -1, -1):
        w, _ = layers[i]
        grads = [(acts[i].T @ back).astype(np.float64).ravel(),
                 back.sum(axis=0).astype(np.float64), *grads]
        if i:
            back = (back @ w.T) * (acts[i] > 0)
    weights = np.concatenate([w.ravel() for w, _ in unpack(theta, hidden)])
    grad = np.concatenate(grads)
    at = 0
    for n_in, n_out in shapes(hidden):  # L2 on the weights, not on the biases
        grad[at:at + n_in * n_out] += 2 * l2 * theta[at:at + n_in * n_out]
        at += n_in * n_out + n_out
    return float(value + l2 * weights @ weights), grad


def choice_probabilities(s: Array, data: Decisions) -> tuple[Array, Array]:
    """Each row's probability within its decision (the softmax of the scores ``s`` over
    the decision's legal bids), and each decision's log-normaliser."""
    top = np.maximum.reduceat(s, data.starts)
    e = np.exp(s - np.repeat(top, data.counts))
    z = np.add.reduceat(e, data.starts)
    return e / np.repeat(z, data.counts), top + np.log(z)


def measures(theta: Array, data: Decisions, hidden: tuple[int, ...],
             ) -> tuple[float, float, float]:
    """The log-loss per bid of the network alone, the same with the slip (the model as the
    expert reads it: :func:`slipped`), and how often the bid made is the likeliest as the
    bidder's ``choose`` takes it (the first of equal scores)."""
    s = network(theta, hidden).outputs(data.rows)[:, 0].astype(np.float64)
    p, log_norm = choice_probabilities(s, data)
    fitted = p[data.chosen]
    ends = np.append(data.starts[1:], len(s))
    firsts = np.array([a + int(np.argmax(s[a:b])) for a, b in zip(data.starts, ends,
                                                                   strict=True)])
    return (float(np.mean(log_norm - s[data.chosen])),
            float(-np.mean(np.log(slipped(fitted, data.counts)))),
            float(np.mean(firsts == data.chosen)))


def network(theta: Array, hidden: tuple[int, ...]) -> NetworkBidder:
    return NetworkBidder(tuple((w.astype(np.float32), b.astype(np.float32))
                               for w, b in unpack(theta, hidden)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--test", type=Path, required=True)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--hidden", type=int, nargs="+", default=[32, 32])
    parser.add_argument("--l2", type=float, default=1e-5)
    parser.add_argument("--iterations", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    hidden = tuple(args.hidden)
    train, test = Decisions(args.train, args.deals), Decisions(args.test, args.deals)
    fit = minimize(loss, start(hidden, args.seed), args=(train, hidden, args.l2), jac=True,
                   method="L-BFGS-B", options={"maxiter": args.iterations})
    theta = fit.x
    print(f"L-BFGS: {fit.nit} iterations, {fit.message}")
    train_loss, _, train_hits = measures(theta, train, hidden)
    test_loss, test_slipped, test_hits = measures(theta, test, hidden)
    print(f"{len(train)} decisions, {len(theta)} weights; log-loss per bid: train "
          f"{train_loss:.4f}, held-out {test_loss:.4f} ({len(test)} decisions; with the slip "
          f"{test_slipped:.4f}); likeliest bid made: train {train_hits:.3f}, held-out "
          f"{test_hits:.3f}")
    network(theta, hidden).save(args.out)


if __name__ == "__main__":
    main()
