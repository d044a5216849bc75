"""Random rollouts on the compiled kernels (``BatchedGames.rollouts``, the kernel
``batch_rollouts``) against their twin, the pure-Python engine: every rollout's actions are
replayed in ``Game`` from the same state, each must be legal there, and the hand's scores
must be the engine's.  Also run under ``NUMBA_DISABLE_JIT=1`` (the kernel twin run)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.engine import Game, Phase
from belote.engine import actions as A
from belote.engine.events import AllPassed, HandScored
from belote.oracles.colver.agents import COLVER_RULES
from belote.rl.batch import BatchedGames
from belote.rl.compiled import CompiledGame
from belote.rules import PRESETS, Rules

COINCHE = PRESETS["coinche"]

VARIANTS: dict[str, Rules] = {
    "colver": COLVER_RULES,
    "coinche": COINCHE,
    "king_first_trick_window": COINCHE.with_flags(belote_king_first=True,
                                                  belote_window="trick"),
    "beat_defenders_all_points": COINCHE.with_flags(
        taker_must_beat_defenders=True, failed_defenders_points=None, made_adds_contract=False,
        failed_takers_keep_belote=False, belote_counts_for_contract=False),
}


def split(trace: np.ndarray) -> list[tuple[list[int], bool]]:
    """The rollouts of a trace: (actions, all passed)."""
    out: list[tuple[list[int], bool]] = []
    current: list[int] = []
    for a in trace.tolist():
        if a == -9:
            break
        if a < 0:
            out.append((current, a == -2))
            current = []
        else:
            current.append(a)
    return out


def replay(start: Game, actions: list[int], all_passed: bool) -> tuple[int, int]:
    """The rollout's actions applied to a clone of ``start``, each checked legal there; the
    hand's scores (0, 0 if all passed)."""
    game = start.clone()
    events = []
    for i, action in enumerate(actions):
        legal = game.legal_actions()
        assert action in legal, f"action {i} ({action}) not legal: {legal}"
        events = game.apply(action)
    if all_passed:
        assert any(isinstance(e, AllPassed) for e in events)
        return (0, 0)
    scored = [e for e in events if isinstance(e, HandScored)]
    assert scored, "the rollout ended before the hand was scored"
    assert game.trick_no == 8
    return (scored[0].scores[0], scored[0].scores[1])


def pick(legal: list[int], rng: random.Random) -> int:
    """Mostly passes in the auction (so that contracts stay low), any card in the play."""
    if A.PASS in legal and rng.random() < 0.7:
        return A.PASS
    return rng.choice(legal)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_rollouts_replay_legally_with_the_engines_scores(name: str) -> None:
    rules = VARIANTS[name]
    n = 4
    batch = BatchedGames(n, rules, seed=7)
    games = [Game(rules) for _ in range(n)]
    for g, game in enumerate(games):
        game.deal([int(c) for c in batch.decks[g]])
    rng = random.Random(3)
    seen = {"rollouts": 0, "bidding": 0, "playing": 0, "belote": 0, "all_passed": 0}
    for step in range(40):  # rollouts from the auction, from the card play, mid-trick
        if step % 4 == 0:
            before = (batch.observations().copy(), batch.decks, batch.totals)
            trace = np.full(4000, -9, dtype=np.int64)
            means = batch.rollouts(3, trace)
            after = (batch.observations(), batch.decks, batch.totals)
            for x, y in zip(before, after, strict=True):
                assert np.array_equal(x, y), "a rollout moved the match"
            rollouts = split(trace)
            assert len(rollouts) == 3 * n
            for g, game in enumerate(games):
                scores = [replay(game, *r) for r in rollouts[3 * g:3 * g + 3]]
                assert list(means[g]) == [sum(s[0] for s in scores) / 3,
                                          sum(s[1] for s in scores) / 3]
                seen["rollouts"] += 3
                seen["bidding" if game.phase == Phase.BIDDING else "playing"] += 1
                seen["belote"] += sum(32 <= a < 64 for r, _ in rollouts[3 * g:3 * g + 3]
                                      for a in r)
                seen["all_passed"] += sum(p for _, p in rollouts[3 * g:3 * g + 3])
        actions = np.zeros(n, dtype=np.int64)
        for g, game in enumerate(games):
            actions[g] = pick(game.legal_actions(), rng)
        batch.step(actions)
        for g, game in enumerate(games):
            game.apply(int(actions[g]))
            if game.phase in (Phase.DEAL, Phase.MATCH_OVER):
                games[g] = Game(rules) if game.phase == Phase.MATCH_OVER else game
                games[g].deal([int(c) for c in batch.decks[g]])
    assert seen["bidding"] > 0 and seen["playing"] > 0 and seen["belote"] > 0
    assert seen["rollouts"] == 10 * 3 * n


def test_a_rollout_where_all_four_pass_scores_zero_and_counts() -> None:
    batch = BatchedGames(1, COLVER_RULES, seed=4)
    game = Game(COLVER_RULES)
    game.deal([int(c) for c in batch.decks[0]])
    for _ in range(3):
        batch.step(np.array([A.PASS], dtype=np.int64))
        game.apply(A.PASS)
    n = 400
    trace = np.full(n * 40, -9, dtype=np.int64)
    means = batch.rollouts(n, trace)
    rollouts = split(trace)
    assert len(rollouts) == n
    passed = [r for r in rollouts if r[1]]
    assert 0 < len(passed) < n / 10  # one bid in 41 is the last pass
    scores = [replay(game, *r) for r in rollouts]
    assert list(means[0]) == [sum(s[0] for s in scores) / n, sum(s[1] for s in scores) / n]


def test_rollouts_draw_bids_and_cards_uniformly() -> None:
    """The first action of a rollout from a fresh deal is uniform among the legal bids, and
    the first card of the play uniform among the leader's cards."""
    batch = BatchedGames(1, COLVER_RULES, seed=2)
    game = Game(COLVER_RULES)
    game.deal([int(c) for c in batch.decks[0]])
    legal = game.legal_actions()
    n = 4100
    trace = np.full(n * 60, -9, dtype=np.int64)
    batch.rollouts(n, trace)
    firsts = [r[0] for r, _ in split(trace)]
    assert len(firsts) == n
    counts = {a: firsts.count(a) for a in legal}
    assert sum(counts.values()) == n
    expected = n / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 100, counts  # 40 degrees of freedom: p < 1e-6 beyond 100
    for a in (100, 64, 64, 64):  # 80 in the first suit, then three passes: the card play
        batch.step(np.array([a], dtype=np.int64))
        game.apply(a)
    leads = game.legal_actions()
    trace = np.full(n * 40, -9, dtype=np.int64)
    batch.rollouts(n, trace)
    cards = [r[0] & 31 for r, _ in split(trace)]
    assert set(cards) == {a & 31 for a in leads}
    expected = n / 8
    assert all(abs(cards.count(c) - expected) < 5 * expected ** 0.5 for c in set(cards))


def test_the_seed_repeats_the_rollouts_and_bad_counts_are_refused() -> None:
    first, second = BatchedGames(3, COLVER_RULES, seed=5), BatchedGames(3, COLVER_RULES, seed=5)
    assert np.array_equal(first.rollouts(50), second.rollouts(50))
    with pytest.raises(ValueError, match="positive"):
        first.rollouts(0)
    with pytest.raises(ValueError, match="int64"):
        first.rollouts(1, np.zeros(4, dtype=np.int32))


def test_the_compiled_game_rolls_out_its_hand_as_the_engine_plays_it() -> None:
    compiled = CompiledGame(COLVER_RULES, seed=9)
    game = Game(COLVER_RULES)
    game.deal(compiled.deck)
    rng = random.Random(1)
    for step in range(12):
        if step % 3 == 0:
            trace = np.full(2000, -9, dtype=np.int64)
            means = compiled.rollout(5, trace)
            rollouts = split(trace)
            assert len(rollouts) == 5
            scores = [replay(game, *r) for r in rollouts]
            assert means == (sum(s[0] for s in scores) / 5, sum(s[1] for s in scores) / 5)
        action = pick(game.legal_actions(), rng)
        compiled.step(action)
        game.apply(action)
        if game.phase == Phase.DEAL:
            game.deal(compiled.deck)
    assert CompiledGame(COLVER_RULES, seed=4).rollout(30) == CompiledGame(
        COLVER_RULES, seed=4).rollout(30)
