"""Random-play throughput, like for like: our engine against colver's, one run.

First, the like-for-like rows of issue 23 item 6 (printed first, with their own verdict):
colver's native ``Env.rollout(n)`` (Rust, one thread, no observation) against our batch's
``BatchedGames.rollouts(n)`` (one compiled loop, one thread, no observation), under colver's
rules (``COLVER_RULES``, ``--rules colver``), on the same 16 deals, from the same phase:

* ``colver rollout bid`` / ``batch rollout bid``: from the start of the auction.  What
  ``Env.rollout`` plays, found by experiment (colver 0.11.1; its stub says only "random
  rollouts from current state"): from the env's current state, which it leaves as it is,
  every action drawn uniformly among ``Env.legal_actions()`` (bids, coinche and surcoinche
  included; card play among the legal cards, not ``legal_actions_reduced``: on a fixed deal
  its mean rewards agree with a Python loop of uniform ``legal_actions`` within the noise,
  and differ by 6 standard errors from uniform ``legal_actions_reduced``); the same deal
  every time (no redeal); a hand all four pass scores 0 and counts.  Ours plays the same
  policy (the belote holder announcing with each card that may carry it, since colver's
  belote needs no word).
* ``colver rollout play`` / ``batch rollout play``: from the first card, the first speaker
  having bid 80 in a suit that varies by deal and the others passed (colver:
  ``set_contract`` + ``set_phase_playing``); each side's first player and legal cards are
  checked to agree.

The verdict needs both ratios >= 1.0, colver's rules, and each side on one thread (CPU time
over wall time <= 1.2 in every rollout row; our kernels use no numba parallelism).  The
ratios in CPU time are printed beside them, for a loaded machine.  For information, the
batch's step loop (``batch``, below) over colver's rollouts from the auction: the unlike
comparison the issue measured at 0.33 (new decks, sorted legal lists, one Python call per
step on our side).  ``--rollouts-only`` runs just these rows (a few seconds).

The other rows compare every hand from the first bid to the last card, an action drawn
uniformly among the legal ones at every step, against colver's Python-driven ``Env.step``
loop.  They run in one process, interleaved (the order rotates each repeat); each prints
its hands per second and its steps (actions) per hand, so that the ratios compare the same
work.

Without a tensor:

* ``ours``          ``Game.deal`` then ``apply(choice(legal_actions()))``: public API.
* ``colver -obs*``  colver's ``Env.step`` loop *less its observation*: colver cannot step
  without building its 415-float observation, so this is an estimate, ``2 t1 - t2`` per hand
  from ``colver`` (t1: one observation per step) and ``colver +obs`` (t2: ``Env.step`` plus
  one more ``Env.get_observation()``).

With the tensor or observation of the player to move, built at every step (its cost per step
is also measured alone: the same recorded hands replayed through ``Game.apply`` with and
without it, hand by hand, in CPU time, ``time.process_time``):

* ``ours +scratch`` the loop of ``ours`` plus ``observation_tensor(game, mover)`` (rebuilt).
* ``ours +tracked`` ``TensorTracker.apply`` plus ``tracker.observation(mover)`` (incremental).
* ``ours step``     ``TensorTracker.step(action) -> (observation, legal)``: the per-step call
  of the ``Game`` API, shaped as colver's ``Env.step -> (observation, reward, done, legal)``.
* ``compiled step`` ``belote.rl.compiled.CompiledGame.step(action) -> (observation, legal)``:
  the same per-step call on the compiled kernels (one compiled call checks the action,
  plays it, deals the next hand when one ends and builds the observation).
* ``colver``        ``belote.oracles.colver.bridge.colver_random_hand_loop``: ``Env.step``.

Batched (``belote.rl.batch.BatchedGames``, 1024 matches, compiled): ``batch`` steps with
``random_actions()``; ``batch +obs`` also fills the observation tensors and the legal masks
of all matches at every step.

Convention (the same for all): a hand counts when its card play is over; hands where
everybody passed (we redeal, colver stops) are timed but not counted.  Still different:
colver's scorer differs from ours on two points that no flag covers (docs/arena.md), which
changes no step; colver's ``Env.step`` does not check the action, ours do.

The last lines check issue 15's item 5 on this run's figures, each condition on its own line,
then "goal met" or "goal not met": the per-step public API with our tensor,
``CompiledGame.step``, at least on par with colver's ``Env.step`` (``compiled step /
colver`` >= 1.0), its tensor built in under 5 us per step, the batch with observations and
masks >= 10x colver's hands per second.  The ``Game`` API's tracked tensor gets its own line
against 5 us, for information (see :func:`goal`).

    python benchmarks/engine.py [--hands N] [--repeat R] [--rules colver] [--json]
                                [--rollouts-only]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game, Phase
from belote.oracles.presets import arena_rules
from belote.rl.batch import BatchedGames, batch_rule_problems
from belote.rl.compiled import CompiledGame
from belote.rl.tensors import observation_tensor
from belote.rl.tracker import TensorTracker
from belote.rules import Rules

# Rollouts (issue 23, item 6): ``Env.rollout(n)`` against ``BatchedGames.rollouts(n)`` on the
# same deals, from the same phase.
ROLLOUT_DEALS = 16
ROLLOUT_SCALE = 100  # rollouts per timed loop: --hands x 100 (a rollout is ~1 us)
PHASES = ("bid", "play")

BIDDING, PLAYING, MATCH_OVER = Phase.BIDDING, Phase.PLAYING, Phase.MATCH_OVER
BATCH = 1024

Result = tuple[float, float]  # hands per second, steps per hand
Loop = Callable[[int, int], Result]


def ours_loop(n_hands: int, seed: int, rules: Rules, tensor: str = "") -> Result:
    """Complete random hands through the public ``Game`` API; ``tensor``: "" none,
    "scratch" rebuilt each step, "tracked" a TensorTracker, "step" ``TensorTracker.step``."""
    rng = random.Random(seed)
    choice = rng.choice
    deck_source = seeded_deck_source(seed)
    game = Game(rules)
    tracker = TensorTracker(game)
    done = steps = 0
    start = time.perf_counter()
    while done < n_hands:
        if game.phase == MATCH_OVER:
            game = Game(rules)
            tracker = TensorTracker(game)
        if tensor:
            tracker.deal(deck_source())
        else:
            game.deal(deck_source())
        if tensor == "step":
            legal = tracker.legal_actions()
            while legal:
                _, legal = tracker.step(choice(legal))
                steps += 1
        else:
            while game.phase == BIDDING or game.phase == PLAYING:
                action = choice(game.legal_actions())
                if tensor == "tracked":
                    tracker.apply(action)
                    mover = game.current_player()
                    if mover >= 0:
                        tracker.observation(mover)
                else:
                    game.apply(action)
                    if tensor == "scratch":
                        mover = game.current_player()
                        if mover >= 0:
                            observation_tensor(game, mover)
                steps += 1
        if game.trick_no == 8:  # card play finished (an all-pass leaves it at 0)
            done += 1
    return done / (time.perf_counter() - start), steps / n_hands


def colver_loop(n_hands: int, seed: int, extra_observation: bool = False) -> Result:
    """``belote.oracles.colver.bridge.colver_random_hand_loop`` with its steps counted;
    ``extra_observation``: one more ``Env.get_observation()`` per step."""
    from colver import Env

    rng = random.Random(seed)
    choice = rng.choice
    env = Env.deal(seed=seed)
    reset, step, play_order, observe = env.reset, env.step, env.get_play_order, env.get_observation
    done_hands = steps = 0
    start = time.perf_counter()
    while done_hands < n_hands:
        legal = reset()[1]
        done = False
        while not done:
            _, _, done, legal = step(choice(legal))
            if extra_observation:
                observe()
            steps += 1
        if play_order():
            done_hands += 1
    return done_hands / (time.perf_counter() - start), steps / n_hands


def batch_loop(n_hands: int, seed: int, rules: Rules, tensors: bool = False) -> Result:
    """``BatchedGames(1024)`` stepped with its own random legal actions until ``n_hands``
    hands are over; ``tensors``: observations and masks filled at every step."""
    games = BatchedGames(BATCH, rules, seed=seed)
    steps = 0
    start = time.perf_counter()
    while games.hands_played < n_hands:
        if tensors:
            games.observations()
            games.masks()
        games.step(games.random_actions())
        steps += BATCH
    return games.hands_played / (time.perf_counter() - start), steps / games.hands_played


def compiled_loop(n_hands: int, seed: int, rules: Rules) -> Result:
    """``CompiledGame.step`` driven as colver's loop is: the action drawn with
    ``random.choice`` from the legal actions the previous step returned, the next mover's
    observation tensor built by every step (one compiled call)."""
    rng = random.Random(seed)
    choice = rng.choice
    game = CompiledGame(rules, seed=seed)
    step = game.step
    _, legal = game.reset()
    steps = 0
    start = time.perf_counter()
    while game.hands_played < n_hands:  # a step at a hand's end deals the next one
        _, legal = step(choice(legal))
        steps += 1
    return game.hands_played / (time.perf_counter() - start), steps / game.hands_played


def rollout_tables(rules: Rules, seed: int, phase: str) -> tuple[BatchedGames, list[object]]:
    """``ROLLOUT_DEALS`` deals (the batch's own, dealer seat 0) as a ``BatchedGames`` and as
    colver ``Env`` objects with the same hands.  ``phase`` "bid": both at the start of the
    auction; "play": the first speaker has bid 80 in a suit that varies by deal, the three
    others passed (colver: ``set_contract`` + ``set_phase_playing``), the same seat to lead.
    Each side's first player and legal actions are checked to agree."""
    from colver import Env

    from belote.oracles.colver.bridge import from_colver_cards, to_colver_cards, to_colver_suit

    batch = BatchedGames(ROLLOUT_DEALS, rules, seed=seed)
    games = []
    for g in range(ROLLOUT_DEALS):
        game = Game(rules)
        game.deal([int(c) for c in batch.decks[g]])
        games.append(game)
    suits = np.arange(ROLLOUT_DEALS, dtype=np.int64) % 4
    if phase == "play":
        for action in (100 + suits, np.full(ROLLOUT_DEALS, A.PASS), np.full(ROLLOUT_DEALS, A.PASS),
                       np.full(ROLLOUT_DEALS, A.PASS)):
            batch.step(action)
            for g, game in enumerate(games):
                game.apply(int(action[g]))
    envs: list[object] = []
    for g, game in enumerate(games):
        env = Env.deal_with_hands(game.dealer, [to_colver_cards(h) for h in game.hands])
        if phase == "play":
            taker = (game.dealer + 1) % 4
            env.set_contract(to_colver_suit(int(suits[g])), 80, taker % 2, 0)
            env.set_phase_playing()
            assert from_colver_cards(env.legal_actions()) == game.hands[taker]
        assert env.current_player() == game.current_player() == int(batch.to_play[g])
        envs.append(env)
    return batch, envs


def rollout_loop(n_hands: int, seed: int, rules: Rules, phase: str, side: str) -> Result:
    """``n_hands`` random rollouts spread over ``ROLLOUT_DEALS`` deals from ``phase``: colver's
    ``Env.rollout(n)`` on each deal (``side`` "colver") or one ``BatchedGames.rollouts(n)``
    over all of them ("batch").  The clock covers the rollouts only; the CPU time over the
    wall time is kept in ``ROLLOUT_CPU_SHARE`` (about 1: one thread)."""
    batch, envs = rollout_tables(rules, seed, phase)
    per_deal = max(n_hands // ROLLOUT_DEALS, 1)
    wall, cpu = time.perf_counter(), time.process_time()
    if side == "colver":
        for env in envs:
            env.rollout(per_deal)  # type: ignore[attr-defined]
    else:
        batch.rollouts(per_deal)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    name = f"{side} rollout {phase}"
    ROLLOUT_CPU_SHARE.setdefault(name, []).append(cpu / wall)
    ROLLOUT_CPU_RATE.setdefault(name, []).append(per_deal * ROLLOUT_DEALS / cpu)
    # colver's actions per rollout are not observable: "-" in the table
    return per_deal * ROLLOUT_DEALS / wall, ROLLOUT_STEPS[phase] if side == "batch" else 0.0


ROLLOUT_CPU_SHARE: dict[str, list[float]] = {}  # CPU time / wall time, per row and repeat
ROLLOUT_CPU_RATE: dict[str, list[float]] = {}  # rollouts per CPU second, per row and repeat
ROLLOUT_STEPS: dict[str, float] = {}


def rollout_steps(rules: Rules, phase: str) -> float:
    """Our rollouts' mean actions per hand from ``phase`` (traced, outside the clock)."""
    batch, _ = rollout_tables(rules, 0, phase)
    n = 200
    trace = np.full(n * ROLLOUT_DEALS * 50, -9, dtype=np.int64)
    batch.rollouts(n, trace)
    actions = int(np.count_nonzero(trace >= 0))
    return actions / (n * ROLLOUT_DEALS)


def compiled_observation_us(rules: Rules, calls: int = 20000) -> float:
    """Microseconds of CPU time per ``CompiledGame.observation_tensor()`` (the same kernel
    that ``step`` runs, plus its own call from Python: an upper bound of the tensor's cost
    inside ``step``), at the positions of a few random hands."""
    rng = random.Random(3)
    game = CompiledGame(rules, seed=3)
    _, legal = game.reset()
    game.observation_tensor()  # compiled or loaded outside the clock
    spent = 0.0
    per_position = 20
    for _ in range(calls // per_position):
        start = time.process_time()
        for _ in range(per_position):
            game.observation_tensor()
        spent += time.process_time() - start
        _, legal = game.step(rng.choice(legal))
    return spent * 1e6 / (calls // per_position * per_position)


def record_hands(n_hands: int, seed: int, rules: Rules) -> list[tuple[list[int], list[int]]]:
    """``n_hands`` random hands (deck, actions) played from fresh matches, for replays."""
    rng = random.Random(seed)
    deck_source = seeded_deck_source(seed)
    hands: list[tuple[list[int], list[int]]] = []
    while len(hands) < n_hands:
        game = Game(rules)
        deck = deck_source()
        game.deal(deck)
        actions = []
        while game.phase == BIDDING or game.phase == PLAYING:
            actions.append(rng.choice(game.legal_actions()))
            game.apply(actions[-1])
        hands.append((deck, actions))
    return hands


def replay_hand(deck: list[int], actions: list[int], rules: Rules, tensor: str) -> None:
    """Replay one recorded hand through ``Game.apply``; ``tensor`` "scratch" or "tracked"
    adds the observation tensor of the player to move after each action."""
    game = Game(rules)
    tracker = TensorTracker(game)
    if tensor == "tracked":
        tracker.deal(deck)
        for action in actions:
            tracker.apply(action)
            mover = game.current_player()
            if mover >= 0:
                tracker.observation(mover)
    else:
        game.deal(deck)
        for action in actions:
            game.apply(action)
            if tensor == "scratch":
                mover = game.current_player()
                if mover >= 0:
                    observation_tensor(game, mover)


def tensor_cost(n_hands: int, repeat: int, rules: Rules) -> dict[str, float]:
    """Microseconds per step that the observation tensor adds to replaying the same recorded
    hands, rebuilt from scratch and tracked, in CPU time (``time.process_time``: the other
    processes of a shared machine count less).  Each hand is replayed with and without the
    tensor back to back (the order alternating), so that a burst of load on the machine
    weighs on both sides alike; median over the repeats."""
    hands = record_hands(n_hands, 99, rules)
    steps = sum(len(actions) for _, actions in hands)
    clock = time.process_time
    costs: dict[str, list[float]] = {"scratch": [], "tracked": []}
    for r in range(repeat):
        for name, values in costs.items():
            spent = {"": 0.0, name: 0.0}
            for i, (deck, actions) in enumerate(hands):
                for which in (("", name) if (i + r) % 2 == 0 else (name, "")):
                    start = clock()
                    replay_hand(deck, actions, rules, which)
                    spent[which] += clock() - start
            values.append((spent[name] - spent[""]) * 1e6 / steps)
    return {name: statistics.median(values) for name, values in costs.items()}


def colver_version() -> str | None:
    try:
        import colver
    except ImportError:
        return None
    return getattr(colver, "__version__", "?")


def cpu_model() -> str | None:
    """The CPU model name from /proc/cpuinfo (Linux), if there is one."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine() -> dict[str, object]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "colver": colver_version(),
    }


def rollout_loops(rules: Rules) -> dict[str, Loop]:
    """The like-for-like rows of issue 23 item 6 (colver installed, rules the batch models)."""
    out: dict[str, Loop] = {}
    for phase in PHASES:
        for side in ("colver", "batch"):
            out[f"{side} rollout {phase}"] = (
                lambda n, s, phase=phase, side=side:
                rollout_loop(n * ROLLOUT_SCALE, s, rules, phase, side))
    return out


def loops(rules: Rules, with_colver: bool, rollouts_only: bool = False) -> dict[str, Loop]:
    if rollouts_only:
        return rollout_loops(rules) if with_colver and not batch_rule_problems(rules) else {}
    out: dict[str, Loop] = {
        "ours": lambda n, s: ours_loop(n, s, rules),
        "ours +scratch": lambda n, s: ours_loop(n, s, rules, "scratch"),
        "ours +tracked": lambda n, s: ours_loop(n, s, rules, "tracked"),
        "ours step": lambda n, s: ours_loop(n, s, rules, "step"),
    }
    if with_colver:
        out["colver"] = colver_loop
        out["colver +obs"] = lambda n, s: colver_loop(n, s, extra_observation=True)
    if not batch_rule_problems(rules):
        out["compiled step"] = lambda n, s: compiled_loop(n, s, rules)
        out["batch"] = lambda n, s: batch_loop(n * 20, s, rules)
        out["batch +obs"] = lambda n, s: batch_loop(n * 20, s, rules, tensors=True)
        if with_colver:
            out |= rollout_loops(rules)
    return out


def run(n_hands: int, repeat: int, rules: Rules, rollouts_only: bool = False
        ) -> dict[str, object]:
    table = loops(rules, colver_version() is not None, rollouts_only)
    if not table:
        raise SystemExit("--rollouts-only needs colver and rules the batch models")
    names = list(table)
    rates: dict[str, list[float]] = {name: [] for name in names}
    steps: dict[str, list[float]] = {name: [] for name in names}
    if not batch_rule_problems(rules):
        warm_batch = BatchedGames(1, rules)  # compile or load the kernels outside the clock
        warm_batch.observations()
        warm_batch.masks()
        warm_batch.step(warm_batch.random_actions())
        warm_batch.rollouts(1)
        warm = CompiledGame(rules)
        warm.step(warm.legal_actions()[0])
        warm.observation_tensor()
    if any(" rollout " in name for name in table):
        ROLLOUT_CPU_SHARE.clear()
        ROLLOUT_CPU_RATE.clear()
        for phase in PHASES:
            ROLLOUT_STEPS[phase] = rollout_steps(rules, phase)
    for r in range(repeat):
        order = names[r % len(names):] + names[:r % len(names)]  # rotate for fairness
        for name in order:
            rate, hand_steps = table[name](n_hands, r)
            rates[name].append(rate)
            steps[name].append(hand_steps)
    med = {name: statistics.median(values) for name, values in rates.items()}
    per_hand = {name: statistics.mean(values) for name, values in steps.items()}
    ratios: dict[str, float] = {}
    tensor_us: dict[str, float] = {}
    like = like_for_like(med)
    cpu_rates = {name: statistics.median(v) for name, v in ROLLOUT_CPU_RATE.items()}
    for phase in PHASES:
        ours, theirs = f"batch rollout {phase}", f"colver rollout {phase}"
        if ours in cpu_rates and theirs in cpu_rates:
            like[f"{ours} / {theirs}, in CPU time"] = cpu_rates[ours] / cpu_rates[theirs]
    result: dict[str, object] = {
        "like_for_like": like,
        "goal_rollouts": rollout_goal(like, rules),
        "machine": machine(),
        "load_average": os.getloadavg(),
        "rules": rules.name,
        "hands": n_hands,
        "repeat": repeat,
        "rates": rates,
        "medians": med,
        "steps_per_hand": per_hand,
        "cpu_over_wall": {name: statistics.median(v) for name, v in ROLLOUT_CPU_SHARE.items()},
    }
    if rollouts_only:
        return result
    spent = {name: 1e6 / med[name] for name in ("ours", "ours +scratch", "ours +tracked")}
    for name in ("ours +scratch", "ours +tracked"):
        tensor_us[f"{name} (wall, loops above)"] = (spent[name] - spent["ours"]) / per_hand[
            "ours"]
    for name, us in tensor_cost(max(n_hands // 5, 1), repeat, rules).items():
        tensor_us[f"ours +{name} (CPU, same replays)"] = us
    if "compiled step" in table:
        tensor_us[COMPILED_TENSOR] = statistics.median(
            compiled_observation_us(rules) for _ in range(repeat))
    if "colver" in med:
        t1, t2 = 1 / med["colver"], 1 / med["colver +obs"]
        tensor_us["colver get_observation"] = (t2 - t1) * 1e6 / per_hand["colver"]
        if 2 * t1 - t2 > 0:  # the estimate assumes the observation costs the same in step
            med["colver -obs*"] = 1 / (2 * t1 - t2)
            per_hand["colver -obs*"] = per_hand["colver"]
            ratios["ours / colver -obs* (no tensor on either side)"] = med["ours"] / med[
                "colver -obs*"]
        else:
            print("colver -obs* not estimable in this run: one more get_observation cost "
                  "more than the whole step", file=sys.stderr)
        for name in ("ours", "ours +scratch", "ours +tracked", "ours step"):
            ratios[f"{name} / colver (colver with its observation)"] = med[name] / med["colver"]
        ratios["steps per hand ours / colver"] = per_hand["ours"] / per_hand["colver"]
        for name in ("compiled step", "batch", "batch +obs"):
            if name in med:
                ratios[f"{name} / colver"] = med[name] / med["colver"]
    result |= {"goal": goal(ratios, tensor_us), "tensor_us_per_step": tensor_us,
               "ratios": ratios}
    return result


def like_for_like(med: dict[str, float]) -> dict[str, float]:
    """Issue 23 item 6: our batch's rollouts over colver's ``Env.rollout``, phase by phase
    (same rules, deals, phase and policy, one thread each, no observation on either side);
    then, for information, the batch's step loop (from the deal, new decks, legal lists)
    over the same colver rollouts from the auction: the unlike comparison of before."""
    out: dict[str, float] = {}
    for phase in PHASES:
        ours, theirs = f"batch rollout {phase}", f"colver rollout {phase}"
        if ours in med and theirs in med:
            out[f"{ours} / {theirs}"] = med[ours] / med[theirs]
    if "batch" in med and "colver rollout bid" in med:
        out["batch (step loop) / colver rollout bid"] = med["batch"] / med["colver rollout bid"]
    return out


ONE_THREAD = 1.2  # CPU time over wall time above this: more than one thread was busy


def rollout_goal(like: dict[str, float], rules: Rules) -> dict[str, object]:
    """Issue 23, item 6, every condition on this run's figures: the batch's rollouts at
    least as many hands per second as colver's ``Env.rollout`` from each phase, under
    colver's rules, each side on one thread (CPU time over wall time <= ONE_THREAD)."""
    shares = {name: statistics.median(v) for name, v in ROLLOUT_CPU_SHARE.items()}
    rows: list[dict[str, object]] = []
    for phase in PHASES:
        key = f"batch rollout {phase} / colver rollout {phase}"
        value = like.get(key)
        rows.append({"check": key, "value": value, "goal": ">= 1",
                     "met": value is not None and value >= 1.0})
    colver_rules = arena_rules("colver")
    rows.append({"check": "rules are colver's preset", "value": rules.name,
                 "goal": colver_rules.name, "met": rules == colver_rules})
    for side in ("colver", "batch"):
        worst = max((v for k, v in shares.items() if k.startswith(side)), default=None)
        rows.append({"check": f"{side} on one thread (CPU / wall, worst row)", "value": worst,
                     "goal": f"<= {ONE_THREAD:g}",
                     "met": worst is not None and worst <= ONE_THREAD})
    return {"met": all(bool(r["met"]) for r in rows), "checks": rows}




COMPILED_TENSOR = "compiled (CPU, kernel call from Python)"
TRACKED_TENSOR = "ours +tracked (CPU, same replays)"
PER_STEP = "compiled step / colver"
BATCHED = "batch +obs / colver"


def goal(ratios: dict[str, float], tensor_us: dict[str, float]) -> dict[str, object]:
    """Issue 15, item 5, every condition checked on this run's figures.  The per-step public
    API with our tensor is ``CompiledGame.step``: its ratio to colver's ``Env.step`` must be
    >= 1.0 and its tensor must take under 5 us per step; the batched path with observations
    and masks must reach 10x colver's hands per second.  The ``Game`` API's tracked tensor
    is checked against the same 5 us on a line of its own ("info"), not counted in the
    verdict: that API is not the one whose per-step ratio meets the goal, and its figure
    (a difference of two timings of pure Python) swings with the machine's load."""
    checks: list[tuple[str, float | None, str, float, bool]] = [
        (f"per-step ratio {PER_STEP}", ratios.get(PER_STEP), ">=", 1.0, True),
        (f"tensor us/step {COMPILED_TENSOR}", tensor_us.get(COMPILED_TENSOR), "<", 5.0, True),
        (f"batched ratio {BATCHED}", ratios.get(BATCHED), ">=", 10.0, True),
        (f"tensor us/step {TRACKED_TENSOR}", tensor_us.get(TRACKED_TENSOR), "<", 5.0, False),
    ]
    rows = []
    for label, value, op, bound, counted in checks:
        ok = value is not None and (value >= bound if op == ">=" else value < bound)
        rows.append({"check": label, "value": value, "goal": f"{op} {bound:g}", "met": ok,
                     "counted": counted})
    return {"met": all(bool(r["met"]) for r in rows if r["counted"]), "checks": rows}


def print_lead(result: dict[str, object]) -> None:
    """The like-for-like ratios first (issue 23 item 6), with their verdict."""
    like = result["like_for_like"]
    verdict = result["goal_rollouts"]
    assert isinstance(like, dict) and isinstance(verdict, dict)
    if not like:
        return
    print("like for like: random rollouts, colver's rules, same deals and phase, one thread, "
          "no observation")
    for label, value in like.items():
        note = ("  (info: unlike work, the old comparison)" if "step loop" in label
                else "  (info: per CPU second, for a loaded machine)" if "CPU" in label else "")
        print(f"  ratio {label}: {value:.2f}{note}")
    for row in verdict["checks"]:
        value = row["value"]
        shown = "absent" if value is None else (f"{value:.2f}" if isinstance(value, float)
                                                else str(value))
        print(f"  goal check: {row['check']} = {shown} (goal {row['goal']}): "
              f"{'met' if row['met'] else 'NOT met'}")
    print("issue 23 item 6: goal met" if verdict["met"] else "issue 23 item 6: goal not met")


def print_table(result: dict[str, object]) -> None:
    m = result["machine"]
    assert isinstance(m, dict)
    print(
        f"machine: Python {m['python']} ({m['implementation']}), {m['platform']}, "
        f"processor {m['processor']!r}, {m['cpu_count']} CPUs; colver {m['colver'] or 'absent'}"
    )
    if m["cpu_model"]:
        print(f"cpu: {m['cpu_model']}")
    load = result["load_average"]
    assert isinstance(load, tuple)
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print_lead(result)
    print(f"random hands per second, {result['hands']} hands x {result['repeat']} repeats "
          f"(batch: x20, rollouts: x{ROLLOUT_SCALE}), rules {result['rules']} on our side, "
          "interleaved")
    rates, med, per_hand = result["rates"], result["medians"], result["steps_per_hand"]
    assert isinstance(rates, dict) and isinstance(med, dict) and isinstance(per_hand, dict)
    for name in med:
        runs = " ".join(f"{v:>9,.0f}" for v in rates.get(name, []))
        hand = f"{per_hand[name]:5.1f}" if per_hand[name] else "    -"
        print(f"{name:<19} median {med[name]:>11,.0f}  steps/hand {hand}  {runs}")
    shares = result["cpu_over_wall"]
    assert isinstance(shares, dict)
    if shares:
        print("CPU / wall time of the rollout rows: " + ", ".join(
            f"{name} {v:.2f}" for name, v in shares.items()))
    if "goal" not in result:
        return
    tensor_us = result["tensor_us_per_step"]
    assert isinstance(tensor_us, dict)
    for name, us in tensor_us.items():
        print(f"tensor cost per step, {name:<38} {us:6.1f} us")
    ratios = result["ratios"]
    assert isinstance(ratios, dict)
    for label, value in ratios.items():
        print(f"ratio {label}: {value:.2f}")
    if "colver" not in med:
        print("colver is not installed: our loops only (pip install colver==0.11.1)")
    verdict = result["goal"]
    assert isinstance(verdict, dict)
    for row in verdict["checks"]:
        value = "absent" if row["value"] is None else f"{row['value']:.2f}"
        kind = "goal check" if row["counted"] else "info (Game API, not in the verdict)"
        print(f"{kind}: {row['check']} = {value} (goal {row['goal']}): "
              f"{'met' if row['met'] else 'NOT met'}")
    print("issue 15 item 5: goal met" if verdict["met"] else "issue 15 item 5: goal not met")
    print("* colver -obs: estimated (colver cannot step without its observation): "
          "2 x colver - colver +obs, in time per hand")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per timed loop")
    parser.add_argument("--repeat", type=int, default=5, help="repeats of each loop")
    parser.add_argument("--rules", default="colver", help="rules for our engine "
                        "(colver: coinche aligned with colver; any preset name)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--rollouts-only", action="store_true",
                        help="only the like-for-like rollout rows (issue 23 item 6)")
    args = parser.parse_args(argv)
    if args.hands <= 0 or args.repeat <= 0:
        parser.error("--hands and --repeat must be positive")
    result = run(args.hands, args.repeat, arena_rules(args.rules), args.rollouts_only)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
