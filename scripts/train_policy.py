"""Distil the exact solver into the quick bot's card-play network (issue 27).

Three phases, each timed into the model card:

1. **Self-play.**  Hands of the four-seat presets (``--presets``, one after the other), the
   normal bot at every seat; at each card decision with two cards or more, the seat plays a
   uniformly random legal card with probability ``--eps`` (so that positions off the normal
   bot's path appear).  Every such decision is labelled with the EXACT value of each legal
   card on the TRUE deal (:class:`belote.engine.search.Solver`): the mover's side's points
   from here, less the best card's (0 for the best card, minus the regret otherwise), and
   encoded by :func:`belote.ai.network.features.features` (canonical suits, relative seats).
   The training hands and the validation hands come from different seeds.
2. **Training.**  An MLP (features -> hidden -> hidden -> 32 cards, ReLU) fitted by Adam to
   the labels, the squared error counted on the legal cards only.  PyTorch, on CUDA when
   ``torch.cuda.is_available()``, else the CPU (the script says which).
3. **Writing.**  ``policy.npz`` (float32 weights, the output scale folded in),
   ``policy_check.npz`` (fixed inputs and the torch model's outputs on them, for
   ``tests/test_quick_bot.py``) and ``MODEL_CARD.md`` (data, settings, machine, times,
   validation) into ``--out``.

    .venv/bin/python scripts/train_policy.py                       # the defaults (< 2 h, 2 cores)
    .venv/bin/python scripts/train_policy.py --hands 3000 --workers 2 --data /tmp/policy.npz
    .venv/bin/python scripts/train_policy.py --data /tmp/policy.npz --epochs 60  # retrain only

With ``--data`` the generated positions are saved there (and read back when the file exists,
so that training can be rerun without the self-play).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from belote.ai.base import DECLINE  # noqa: E402  (after the path: run as a script)
from belote.ai.expert import _position, team_score  # noqa: E402
from belote.ai.heuristic import HeuristicBot  # noqa: E402
from belote.ai.network.features import CANONICAL, OFFSETS, SIZE, features  # noqa: E402
from belote.ai.network.policy import Policy  # noqa: E402
from belote.cards import NUM_CARDS  # noqa: E402
from belote.engine import actions as A  # noqa: E402
from belote.engine.dealing import shuffled_deck  # noqa: E402
from belote.engine.search import Solver  # noqa: E402
from belote.engine.state import CHANCE, Game, Phase  # noqa: E402
from belote.rules import PRESETS  # noqa: E402
from belote.rules.base import Rules  # noqa: E402

FOUR_SEATS = tuple(name for name, rules in PRESETS.items() if rules.players == 4)
OUT = ROOT / "belote" / "ai" / "network" / "data"
# The regrets run to ~100 points; the network learns them in tens of points (better
# conditioned) and the scale is folded into its last layer when written.
SCALE = 10.0
CHECK_INPUTS = 16  # fixed inputs stored with the torch model's outputs
LABELS = {
    "points": "the mover's side's card points from here (last-trick and capot bonuses "
              "included, team 1's value taken as minus team 0's, which is what the solver "
              "optimises)",
    "score": "the hand's score for the mover's side, ours minus theirs, as the rules count "
             "it if the rest is played as the solver plays it (`belote.ai.expert.team_score`: "
             "contract made or failed, capot, belote said, declarations)",
}


# ----------------------------------------------------------------------------- self-play


class _Rows:
    """The positions of some hands, as lists to be stacked."""

    def __init__(self) -> None:
        self.x: list[np.ndarray] = []
        self.legal: list[np.ndarray] = []
        self.target: list[np.ndarray] = []
        self.normal: list[int] = []  # the normal bot's card (canonical)
        self.preset: list[int] = []
        self.trick: list[int] = []
        self.hand: list[int] = []  # the hand's index (the split is by hand)


def play_labelled_hand(rules: Rules, solver: Solver, index: int, seed: str, eps: float,
                       rows: _Rows, preset_no: int, label: str = "points") -> None:
    """Play hand ``index`` of stream ``seed`` under ``rules`` and record its decisions."""
    rng = random.Random(f"policy:{seed}:{index}")
    bots = [HeuristicBot(rng.randrange(1 << 30), name="normal") for _ in range(4)]
    game = Game(rules, index % 4)
    scored = game.hands_scored
    while game.hands_scored == scored and not game.is_terminal():
        mover = game.current_player()
        if mover == CHANCE:
            game.deal(shuffled_deck(rng))  # again after an all-pass
            continue
        obs = game.observation(mover)
        action = bots[mover].choose(obs)
        plays = sorted({a & 31 for a in obs.legal_actions if A.is_play(a)})
        if obs.phase == Phase.PLAYING and len(plays) > 1 and A.is_play(action):
            values = solver.solve(_position(obs, game.hands), check=False)
            trump = obs.trump
            assert trump is not None and obs.taker is not None
            if label == "score":
                # the hand's score, ours minus theirs, as the rules count it (the expert's
                # own conversion: contract made or failed, capot, belote said, declarations)
                worth = {card: team_score(rules, obs, v, mover & 1, obs.taker, trump,
                                          obs.contract_level, obs.contract_multiplier)
                         for card, v in values.items()}
            else:
                sign = 1 if mover % 2 == 0 else -1  # the solver's value is team 0's points
                worth = {card: float(sign * v) for card, v in values.items()}
            best = max(worth.values())
            canonical = CANONICAL[trump]
            legal = np.zeros(NUM_CARDS, dtype=np.bool_)
            target = np.zeros(NUM_CARDS, dtype=np.float32)
            for card, value in worth.items():
                legal[canonical[card]] = True
                target[canonical[card]] = value - best
            rows.x.append(features(obs).astype(np.float16))  # 0/1 and small fractions
            rows.legal.append(legal)
            rows.target.append(target)
            rows.normal.append(canonical[action & 31])
            rows.preset.append(preset_no)
            rows.trick.append(obs.trick_no)
            rows.hand.append(index)
            if rng.random() < eps:
                card = rng.choice(plays)
                action = A.play_announcing(card) if A.play_announcing(card) in \
                    obs.legal_actions else card
        game.apply(action, mover)
        for seat in game.seats_with_open_window():
            if bots[seat].choose(game.observation(seat)) != DECLINE:
                game.apply(A.ANNOUNCE_BELOTE, seat)


_SOLVERS: dict[str, Solver] = {}


def _chunk(job: tuple[Sequence[str], Sequence[int], str, float, str]
           ) -> dict[str, np.ndarray]:
    names, indices, seed, eps, label = job
    rows = _Rows()
    for index in indices:
        preset_no = index % len(names)
        rules = PRESETS[names[preset_no]]
        solver = _SOLVERS.setdefault(rules.name, Solver(rules))
        play_labelled_hand(rules, solver, index, seed, eps, rows, preset_no, label)
    return _stack(rows)


def _stack(rows: _Rows) -> dict[str, np.ndarray]:
    if not rows.x:
        return {"x": np.zeros((0, SIZE), np.float16), "legal": np.zeros((0, 32), np.bool_),
                "target": np.zeros((0, 32), np.float32), "normal": np.zeros(0, np.int8),
                "preset": np.zeros(0, np.int8), "trick": np.zeros(0, np.int8),
                "hand": np.zeros(0, np.int32)}
    return {"x": np.stack(rows.x), "legal": np.stack(rows.legal),
            "target": np.stack(rows.target), "normal": np.array(rows.normal, np.int8),
            "preset": np.array(rows.preset, np.int8), "trick": np.array(rows.trick, np.int8),
            "hand": np.array(rows.hand, np.int32)}


def generate(names: Sequence[str], hands: int, seed: str, eps: float, workers: int,
             first: int = 0, label: str = "points") -> dict[str, np.ndarray]:
    """The labelled positions of ``hands`` hands (indices ``first``...), ``workers``
    processes; the same whatever the number of workers."""
    size = 20
    jobs = [(tuple(names), range(i, min(i + size, first + hands)), seed, eps, label)
            for i in range(first, first + hands, size)]
    parts: list[dict[str, np.ndarray]] = []
    started = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            for done, part in enumerate(pool.imap(_chunk, jobs), 1):
                parts.append(part)
                _progress(seed, done, len(jobs), started)
    else:
        for done, job in enumerate(jobs, 1):
            parts.append(_chunk(job))
            _progress(seed, done, len(jobs), started)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _progress(seed: str, done: int, total: int, started: float) -> None:
    if done % 10 == 0 or done == total:
        print(f"  {seed}: {done}/{total} chunks, {time.perf_counter() - started:.0f} s",
              flush=True)


# ----------------------------------------------------------------------------- training


def build_model(hidden: int, dropout: float) -> Any:
    import torch
    return torch.nn.Sequential(
        torch.nn.Linear(SIZE, hidden), torch.nn.ReLU(), torch.nn.Dropout(dropout),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Dropout(dropout),
        torch.nn.Linear(hidden, NUM_CARDS))


def with_advice(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``data`` with the features' last part (the normal bot's card) when a cache written
    before that part lacks it: the stored ``normal`` card is the same bot's same answer."""
    x = data["x"]
    if x.shape[1] == SIZE:
        return data
    assert x.shape[1] == OFFSETS["normal"], f"a cache of {x.shape[1]} features, not {SIZE}"
    advice = np.zeros((len(x), NUM_CARDS), dtype=x.dtype)
    advice[np.arange(len(x)), data["normal"].astype(np.int64)] = 1
    return {**data, "x": np.concatenate([x, advice], axis=1)}


def train(data: dict[str, np.ndarray], args: argparse.Namespace) -> tuple[Any, str, list[str]]:
    """The fitted model: the epoch whose network has the least regret on the dev hands (one
    training hand in ten, held out of the fit; the validation hands stay unseen)."""
    import torch
    torch.manual_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    print(f"training on {device} (torch {torch.__version__})", flush=True)
    if device == "cpu":
        torch.set_num_threads(max(1, args.threads))
    is_dev = data["hand"] % 10 == 0
    dev = _subset(data, is_dev)
    fit = _subset(data, ~is_dev)
    x = torch.tensor(fit["x"].astype(np.float32), device=device)
    legal = torch.tensor(fit["legal"].astype(np.float32), device=device)
    y = torch.tensor(fit["target"] / SCALE, device=device)
    model = build_model(args.hidden, args.dropout).to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.l2)
    steps = args.epochs * ((len(x) + args.batch - 1) // args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=steps)
    generator = torch.Generator(device="cpu").manual_seed(args.seed)
    log: list[str] = []
    best: tuple[float, int, dict[str, Any]] | None = None
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(x), generator=generator).to(device)
        total = 0.0
        for start in range(0, len(x), args.batch):
            batch = order[start:start + args.batch]
            out = model(x[batch])
            mask = legal[batch]
            loss = ((out - y[batch]) ** 2 * mask).sum() / mask.sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
        model.eval()
        with torch.no_grad():
            values = model(torch.tensor(dev["x"].astype(np.float32), device=device))
        dev_regret = regrets(dev, values.cpu().numpy())["network"]
        line = (f"epoch {epoch + 1}: fit mse {total / len(x) * SCALE ** 2:.1f} points^2, "
                f"dev regret {dev_regret:.3f} points per decision")
        print(line, flush=True)
        log.append(line)
        if best is None or dev_regret < best[0]:
            state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
            best = (dev_regret, epoch + 1, state)
    assert best is not None
    model.load_state_dict(best[2])
    log.append(f"kept epoch {best[1]} (dev regret {best[0]:.3f}; {len(dev['x'])} dev "
               f"positions of {len(np.unique(dev['hand']))} hands)")
    print(log[-1], flush=True)
    return model.cpu().eval(), device, log


def predict(model: Any, x: np.ndarray) -> np.ndarray:
    import torch
    with torch.no_grad():
        out = model(torch.tensor(x.astype(np.float32))).numpy()
    return np.asarray(out * SCALE, dtype=np.float32)


# ----------------------------------------------------------------------------- validation


def regrets(data: dict[str, np.ndarray], values: np.ndarray) -> dict[str, float]:
    """Mean regret (points per decision) and top-1 agreement with the solver's best card of
    the network (``values``), the normal bot and a uniformly random legal card."""
    legal, target = data["legal"], data["target"]
    masked = np.where(legal, values, -np.inf)
    chosen = masked.argmax(axis=1)
    rows = np.arange(len(target))
    net = -target[rows, chosen]
    normal = -target[rows, data["normal"].astype(np.int64)]
    rand = -(target * legal).sum(axis=1) / legal.sum(axis=1)
    best_share = ((target == 0) & legal).sum(axis=1) / legal.sum(axis=1)
    return {"positions": float(len(target)), "network": float(net.mean()),
            "normal": float(normal.mean()), "random": float(rand.mean()),
            "network_top1": float((net == 0).mean()), "normal_top1": float((normal == 0).mean()),
            "random_top1": float(best_share.mean())}


def _subset(data: dict[str, np.ndarray], keep: np.ndarray) -> dict[str, np.ndarray]:
    return {key: value[keep] for key, value in data.items()}


# ----------------------------------------------------------------------------- writing


def write(model: Any, val: dict[str, np.ndarray], out: Path) -> None:
    linear = [m for m in model if hasattr(m, "weight")]
    layers = []
    for i, layer in enumerate(linear):
        w = layer.weight.detach().numpy().T.astype(np.float32)  # (in, out): x @ w + b
        b = layer.bias.detach().numpy().astype(np.float32)
        if i == len(linear) - 1:
            w, b = w * SCALE, b * SCALE
        layers.append((w, b))
    Policy(tuple(layers)).save(out / "policy.npz")  # its shape checked as the bot reads it
    inputs = val["x"][:CHECK_INPUTS].astype(np.float32)
    np.savez(out / "policy_check.npz", inputs=inputs, outputs=predict(model, inputs))


def model_card(args: argparse.Namespace, names: Sequence[str], train_data: dict[str, np.ndarray],
               val: dict[str, np.ndarray], scores: dict[str, dict[str, float]],
               times: dict[str, float], device: str, log: list[str], out: Path) -> None:
    import torch
    weights = np.load(out / "policy.npz")
    params = sum(int(v.size) for v in weights.values())
    size_kb = (out / "policy.npz").stat().st_size / 1024
    rows = "\n".join(
        f"| {name} | {int(s['positions'])} | {s['network']:.2f} | {s['normal']:.2f} | "
        f"{s['random']:.2f} | {100 * s['network_top1']:.1f}% | {100 * s['normal_top1']:.1f}% | "
        f"{100 * s['random_top1']:.1f}% |" for name, s in scores.items())
    command = " ".join(["scripts/train_policy.py", *sys.argv[1:]])
    text = f"""# Model card: the quick bot's card-play network (`policy.npz`)

Written by `{command}` (seed {args.seed}); every figure below is that run's.

## What it does
Given what one seat of four sees when it must play a card
(`belote.ai.network.features.features`: its hand, the cards each seat played, the trick, the
cards shown, voids shown, trump, taker, contract, points, rule flags, and the card the
normal bot would play; canonical suits, seats relative to the viewer), it predicts for
each of the 32 cards the points of the mover's side from here relative to the best card
(its regret, <= 0): the card played is the legal card with the highest prediction.
Bids, declarations, belote and the cut are the normal bot's.

## Data
- Presets: {", ".join(names)} (in turn, hand by hand); four seats only.
- Self-play: the normal bot (`HeuristicBot`) at all four seats; at each card decision with
  two cards or more a uniformly random legal card with probability eps = {args.eps}, so that
  positions off the normal bot's path appear.  Forced moves are not recorded.
- Training: {args.hands} hands, {len(train_data['x'])} positions (seed stream
  `policy:{args.seed}`); validation: {args.val_hands} other hands, {len(val['x'])} positions
  (seed stream `policy:{args.seed}-val`), never trained on.
- Label (`--label {args.label}`): at every recorded decision each legal card is valued by
  the exact solver (`Solver.solve`) on the TRUE deal: {LABELS[args.label]}, minus the best
  legal card's.  So 0 for the best card, minus the regret in points otherwise.

### Why labels from the true deal are sound for an input that does not see it
The network sees only the seat's features f; the label is the exact value on the true deal
d.  The least-squares fit of a label given f converges to its mean over the deals consistent
with f, weighed as they occur in the self-play: E[v(card, d) - max v(d) | f].  Subtracting
the deal's best value changes no card's rank within a deal's labels, and for the argmax of
expectations the term E[max v(d) | f] is common to all cards, so the argmax is that of
E[v(card, d) | f]: the card with the best average double-dummy value over an implicit world
sampler whose hidden cards follow the real distribution of the self-play (who holds what
given how the normal bots bid and played), with no sampler to write.
Its biases: (1) it is the normal bots' distribution of hidden cards (their bids, their
play, eps random cards): against other players the inference from their play is off;
(2) double-dummy optimism: each label assumes everyone plays the rest perfectly knowing all
hands, so plays that only pay against a misguess (and the value of hiding information) are
not learned, as in every PIMC/IS-DD bot; (3) the labels are card points, not the rules'
score (contract made or failed, belote, declarations): the contract level is an input, the
score swing is not modelled.

## Settings
MLP {SIZE} -> {args.hidden} -> {args.hidden} -> 32 (ReLU), {params} parameters, float32
({size_kb:.0f} KB), dropout {args.dropout} after each hidden layer; squared error on the
legal cards only, targets / {SCALE:g} (folded back into the last layer); AdamW (lr
{args.lr}, one-cycle, weight decay {args.l2}), batch {args.batch}, {args.epochs} epochs,
the epoch kept the one with the least regret on the dev hands (one training hand in ten,
held out of the fit); torch seed {args.seed}.

## Machine and times
{platform.platform()}, Python {platform.python_version()}, torch {torch.__version__}, training on
{device}; {os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f} at the end: the run's own
processes, and other jobs if above them), data generation with {args.workers} process(es).
| phase | wall time |
|---|---|
| self-play and labels (training hands) | {times['train_data']:.0f} s |
| self-play and labels (validation hands) | {times['val_data']:.0f} s |
| training | {times['training']:.0f} s |
| total | {sum(times.values()):.0f} s |

## Validation (held-out hands)
Mean regret in points per decision (decisions with two cards or more; the points the
mover's side loses against the solver's best card on the true deal) and top-1 agreement
with the solver's best card (a tie counts for each tied card).  Random: a uniformly random
legal card (its expectation).  The positions come from the same eps-explored self-play.

| preset | positions | network | normal | random | network top-1 | normal top-1 | random top-1 |
|---|---|---|---|---|---|---|---|
{rows}

## Training log
```
{chr(10).join(log)}
```
"""
    (out / "MODEL_CARD.md").write_text(text, encoding="utf-8")


# ----------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default=",".join(FOUR_SEATS),
                        help="comma-separated four-seat presets (default: all of them)")
    parser.add_argument("--hands", type=int, default=20000, help="training hands")
    parser.add_argument("--val-hands", type=int, default=600, help="validation hands")
    parser.add_argument("--eps", type=float, default=0.1,
                        help="probability of a random legal card at a decision")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--label", choices=("points", "score"), default="points",
                        help="a card's worth: the mover's side's card points from here (the "
                             "solver's value), or the hand's score for the mover's side, ours "
                             "minus theirs, by the rules (contract made or failed)")
    parser.add_argument("--workers", type=int, default=2, help="self-play processes")
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    parser.add_argument("--data", type=Path, help="cache of the generated positions (.npz)")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--l2", type=float, default=1e-2, help="AdamW's weight decay")
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    names = [n for n in args.presets.split(",") if n]
    for name in names:
        if name not in PRESETS or PRESETS[name].players != 4:
            parser.error(f"the network plays four-seat presets only ({', '.join(FOUR_SEATS)}), "
                         f"not {name!r}")
    times: dict[str, float] = {"train_data": 0.0, "val_data": 0.0}
    if args.data is not None and args.data.exists():
        with np.load(args.data) as cached:
            loaded = {key: cached[key] for key in cached.files}
        train_data = {k[6:]: v for k, v in loaded.items() if k.startswith("train_")}
        val = {k[4:]: v for k, v in loaded.items() if k.startswith("val_")}
        times["train_data"], times["val_data"] = (float(loaded["times"][0]),
                                                  float(loaded["times"][1]))
        # a cache written before --label existed holds card points
        args.label = str(loaded["label"]) if "label" in loaded else "points"
        print(f"read {len(train_data['x'])} + {len(val['x'])} positions from {args.data}")
    else:
        started = time.perf_counter()
        val = generate(names, args.val_hands, f"{args.seed}-val", args.eps, args.workers,
                       label=args.label)
        times["val_data"] = time.perf_counter() - started
        started = time.perf_counter()
        train_data = generate(names, args.hands, str(args.seed), args.eps, args.workers,
                              label=args.label)
        times["train_data"] = time.perf_counter() - started
        if args.data is not None:
            np.savez(args.data, times=np.array([times["train_data"], times["val_data"]]),
                     label=np.array(args.label),
                     **{f"train_{k}": v for k, v in train_data.items()},
                     **{f"val_{k}": v for k, v in val.items()})
        print(f"{len(train_data['x'])} training positions in {times['train_data']:.0f} s, "
              f"{len(val['x'])} validation positions in {times['val_data']:.0f} s", flush=True)
    train_data, val = with_advice(train_data), with_advice(val)
    started = time.perf_counter()
    model, device, log = train(train_data, args)
    times["training"] = time.perf_counter() - started
    values = predict(model, val["x"])
    scores = {"all": regrets(val, values)}
    for number, name in enumerate(names):
        keep = val["preset"] == number
        if keep.any():
            scores[name] = regrets(_subset(val, keep), values[keep])
    for name, s in scores.items():
        print(f"{name}: {s}")
    args.out.mkdir(parents=True, exist_ok=True)
    write(model, val, args.out)
    model_card(args, names, train_data, val, scores, times, device, log, args.out)
    print(f"wrote {args.out / 'policy.npz'} and its model card")


if __name__ == "__main__":
    main()
