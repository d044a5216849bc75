"""Train the quick bot's bidding network from simulated contract values (issue 27, item 1).

1. **Self-play.**  Hands of the four-seat take-or-pass presets (``--presets``), the normal
   bot at every seat.  At each bidding decision where the seat may take (the turned suit, a
   named suit, senza, tutte), every such trump is valued as the expert values a bid
   (:class:`belote.ai.expert.ExpertBot`): ``--worlds`` whole deals drawn around the bidder's
   five cards (the turned card given to the bidder, the rest dealt at random within the
   rules' facts), each played out by the exact solver with that trump from the dealer's left,
   and the hand's score for the bidder's side (ours minus theirs, contract made or failed,
   capot; the rules' own scoring) averaged over the worlds.  Passing is worth 0 (nothing is
   standing in a take-or-pass auction): the label is the gain of taking.
2. **Training.**  An MLP (features -> hidden -> hidden -> 6 trumps, ReLU) fitted by Adam to
   the labels (squared error on the valued trumps only).  PyTorch, on CUDA when present.
3. **Writing.**  ``bidding.npz`` (float32 weights, the scale folded in) and
   ``bidding_check.npz`` (fixed inputs and the torch model's outputs on them, for
   ``tests/test_quick_bot.py``); the figures printed go to ``MODEL_CARD.md``.

    .venv/bin/python scripts/train_bidding.py --hands 600 --worlds 8 --workers 2 \\
        --data /tmp/bidding-data.npz
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from belote.ai import network
from belote.ai.expert import ExpertBot
from belote.ai.heuristic import HeuristicBot
from belote.ai.network.bidding import (
    BID_SIZE,
    TRUMPS,
    BidPolicy,
    bid_features,
    candidate_trump,
    labelled,
)
from belote.ai.network.features import SUIT_ORDER
from belote.engine.dealing import shuffled_deck
from belote.engine.observation import Observation
from belote.engine.state import CHANCE, Game, Phase
from belote.rules import PRESETS
from belote.rules.base import Rules

OUT = Path(network.__file__).resolve().parent / "data"  # the package's own (installed -e)
TAKE_OR_PASS = tuple(n for n, r in PRESETS.items() if labelled(r))
CHECK_INPUTS = 16  # fixed inputs stored with the torch model's outputs
SCALE = 100.0  # labels run to a few hundred points of score: learned in hundreds


def _real_trump(canonical: int, turned_suit: int) -> int:
    return SUIT_ORDER[turned_suit][canonical] if canonical < 4 else canonical


def label(expert: ExpertBot, obs_rules: Rules, obs: Observation, worlds: int
          ) -> tuple[np.ndarray, np.ndarray] | None:
    """(gains, valued) over the six canonical trumps of a bidder's view, or None."""
    assert obs.seat is not None and obs.turned is not None
    suit = obs.turned >> 3
    trumps = sorted({t for a in obs.legal_actions
                     if (t := candidate_trump(a, suit)) is not None})
    if not trumps:
        return None
    seat = obs.seat
    leader = (obs.dealer + 1) % 4
    real = [_real_trump(t, suit) for t in trumps]
    sums = np.zeros(TRUMPS, dtype=np.float64)
    done = 0
    for world in expert._worlds_for_bidding(obs, obs_rules, seat, worlds):
        values = expert._trump_values(obs_rules, world, leader, real, time.monotonic() + 3600)
        if values is None:
            continue
        for canonical, trump in zip(trumps, real, strict=True):
            outcomes = values[trump]
            sums[canonical] += sum(expert._contract_score(
                obs_rules, v, seat & 1, seat & 1, trump, 0, 1) for v in outcomes) / len(outcomes)
        done += 1
    if not done:
        return None
    valued = np.zeros(TRUMPS, dtype=np.bool_)
    valued[trumps] = True
    return (sums / done).astype(np.float32), valued


def _chunk(job: tuple[Sequence[str], Sequence[int], str, int]) -> dict[str, np.ndarray]:
    names, indices, seed, worlds = job
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    ms: list[np.ndarray] = []
    presets: list[int] = []
    hands: list[int] = []
    for index in indices:
        preset_no = index % len(names)
        rules = PRESETS[names[preset_no]]
        rng = random.Random(f"bidding:{seed}:{index}")
        expert = ExpertBot(rng.randrange(1 << 30))
        bots = [HeuristicBot(rng.randrange(1 << 30), name="normal") for _ in range(4)]
        game = Game(rules, index % 4)
        while game.phase != Phase.PLAYING and not game.is_terminal():
            mover = game.current_player()
            if mover == CHANCE:
                game.deal(shuffled_deck(rng))
                continue
            obs = game.observation(mover)
            if obs.turned is not None and game.phase == Phase.BIDDING:
                found = label(expert, rules, obs, worlds)
                if found is not None:
                    xs.append(bid_features(obs))
                    ys.append(found[0])
                    ms.append(found[1])
                    presets.append(preset_no)
                    hands.append(index)
            action = bots[mover].choose(obs)
            game.apply(action, mover)
    if not xs:
        return {"x": np.zeros((0, BID_SIZE), np.float32), "y": np.zeros((0, TRUMPS), np.float32),
                "valued": np.zeros((0, TRUMPS), np.bool_), "preset": np.zeros(0, np.int8),
                "hand": np.zeros(0, np.int32)}
    return {"x": np.stack(xs), "y": np.stack(ys), "valued": np.stack(ms),
            "preset": np.array(presets, np.int8), "hand": np.array(hands, np.int32)}


def generate(names: Sequence[str], hands: int, seed: str, worlds: int, workers: int,
             first: int = 0) -> dict[str, np.ndarray]:
    size = 10
    jobs = [(tuple(names), range(i, min(i + size, first + hands)), seed, worlds)
            for i in range(first, first + hands, size)]
    parts: list[dict[str, np.ndarray]] = []
    started = time.perf_counter()
    with Pool(workers) as pool:
        for done, part in enumerate(pool.imap(_chunk, jobs), 1):
            parts.append(part)
            if done % 5 == 0 or done == len(jobs):
                print(f"  {seed}: {done}/{len(jobs)} chunks, "
                      f"{time.perf_counter() - started:.0f} s", flush=True)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def train(data: dict[str, np.ndarray], val: dict[str, np.ndarray], hidden: int, epochs: int,
          seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray]],
                              tuple[np.ndarray, np.ndarray], dict[str, float]]:
    import torch

    torch.manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    print(f"training on {device}", flush=True)
    model = torch.nn.Sequential(
        torch.nn.Linear(BID_SIZE, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, TRUMPS)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    x = torch.tensor(data["x"], device=device)
    y = torch.tensor(data["y"] / SCALE, device=device)
    m = torch.tensor(data["valued"], device=device).float()
    vx = torch.tensor(val["x"], device=device)
    vy = torch.tensor(val["y"] / SCALE, device=device)
    vm = torch.tensor(val["valued"], device=device).float()
    n = len(x)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(n, device=device)
        for i in range(0, n, 256):
            idx = perm[i:i + 256]
            loss = (((model(x[idx]) - y[idx]) ** 2) * m[idx]).sum() / m[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9 or epoch == epochs - 1:
            model.eval()
            with torch.no_grad():
                vloss = (((model(vx) - vy) ** 2) * vm).sum() / vm.sum()
            print(f"  epoch {epoch + 1}: validation rmse {math.sqrt(vloss.item()) * SCALE:.1f}",
                  flush=True)
    model.eval()
    with torch.no_grad():  # fixed inputs and the torch model's outputs, for the tests
        check_x = vx[:CHECK_INPUTS]
        check = (check_x.cpu().numpy(), model(check_x).cpu().numpy() * SCALE)
    layers = [(mod.weight.detach().cpu().numpy().T.copy(),
               mod.bias.detach().cpu().numpy().copy())
              for mod in model if isinstance(mod, torch.nn.Linear)]
    w, b = layers[-1]
    layers[-1] = (w * SCALE, b * SCALE)
    with torch.no_grad():
        pred = model(vx).cpu().numpy() * SCALE
    return layers, check, _report(pred, val)


def _worth(row: np.ndarray, choice: int | None) -> float:
    return 0.0 if choice is None else float(row[choice])


def _report(pred: np.ndarray, val: dict[str, np.ndarray]) -> dict[str, float]:
    """Validation: rmse, and how often the network's decision (take the best valued trump if
    its gain passes the margin, else pass) matches the labels' and what it costs."""
    from belote.ai.expert import BID_MARGIN

    valued, y = val["valued"], val["y"]
    err = (pred - y)[valued]
    same = cost = normal_cost = 0.0
    normal = val["x"][:, -7:].argmax(axis=1)
    for i in range(len(y)):
        trumps = np.flatnonzero(valued[i])
        best_true = max(trumps, key=lambda t: y[i, t])
        true_choice = best_true if y[i, best_true] > BID_MARGIN else None
        best_pred = max(trumps, key=lambda t: pred[i, t])
        choice = best_pred if pred[i, best_pred] > BID_MARGIN else None
        same += choice == true_choice
        row = y[i]
        cost += _worth(row, true_choice) - _worth(row, choice)
        advice = None if normal[i] == 0 else int(normal[i]) - 1
        normal_cost += _worth(row, true_choice) - _worth(
            row, advice if advice in trumps else None)
    count = max(len(y), 1)
    return {"rmse": float(np.sqrt((err ** 2).mean())), "agree": same / count,
            "regret": cost / count, "normal_regret": normal_cost / count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", nargs="+", default=list(TAKE_OR_PASS))
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--val-hands", type=int, default=120)
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--seed", default="27")
    parser.add_argument("--data", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.data and args.data.exists():
        with np.load(args.data) as f:
            both = {k: f[k] for k in f.files}
        data = {k[2:]: v for k, v in both.items() if k.startswith("t_")}
        val = {k[2:]: v for k, v in both.items() if k.startswith("v_")}
    else:
        data = generate(args.presets, args.hands, f"train-{args.seed}", args.worlds,
                        args.workers)
        val = generate(args.presets, args.val_hands, f"val-{args.seed}", args.worlds,
                       args.workers)
        if args.data:
            np.savez(args.data, **{f"t_{k}": v for k, v in data.items()},
                     **{f"v_{k}": v for k, v in val.items()})
    made = time.perf_counter() - started
    print(f"{len(data['x'])} training and {len(val['x'])} validation positions, "
          f"{made:.0f} s", flush=True)
    layers, check, report = train(data, val, args.hidden, args.epochs, int(args.seed))
    args.out.mkdir(parents=True, exist_ok=True)
    BidPolicy(tuple(layers)).save(args.out / "bidding.npz")  # its shape checked as read
    np.savez(args.out / "bidding_check.npz", inputs=check[0], outputs=check[1])
    print(f"validation: {report}; {time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
