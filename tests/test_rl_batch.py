"""Batched self-play on the compiled kernels (``belote.rl.batch``) against its twin, the
pure-Python engine: random matches of the batch are replayed move by move in ``Game`` with
the batch's own decks, and the legal actions, the observation tensor of the player to move,
the card points, every hand's scores, the totals and the match's end must be equal."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.engine import Game, Phase
from belote.engine import actions as A
from belote.engine.events import AllPassed, HandScored, MatchOver
from belote.errors import BeloteError, IllegalActionError
from belote.oracles.colver.agents import COLVER_RULES
from belote.rl import NUM_ACTIONS, OBSERVATION_SIZE, observation_tensor
from belote.rl.batch import (
    ALL_PASSED,
    GOING_ON,
    HAND_SCORED,
    MATCH_WON_BY_TEAM_0,
    BatchedGames,
)
from belote.rules import PRESETS, Rules

COINCHE = PRESETS["coinche"]

VARIANTS: dict[str, Rules] = {
    "colver": COLVER_RULES.with_flags(target_score=700),
    "coinche": COINCHE.with_flags(target_score=500),
    "king_first_trick_window": COINCHE.with_flags(
        belote_king_first=True, belote_window="trick", target_score=400, target_strict=True),
    "beat_defenders_all_points": COINCHE.with_flags(
        taker_must_beat_defenders=True, failed_defenders_points=None, made_adds_contract=False,
        failed_takers_keep_belote=False, belote_counts_for_contract=False, target_score=600),
}


def pick(legal: list[int], rng: random.Random) -> int:
    """Mostly passes in the auction (uniform bids would reach the capot at once), any card
    or announcement in the play."""
    if A.PASS in legal and rng.random() < 0.65:
        return A.PASS
    return rng.choice(legal)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_batched_matches_replay_identically_in_the_engine(name: str) -> None:
    rules = VARIANTS[name]
    n, steps = 6, 700
    batch = BatchedGames(n, rules, seed=11)
    rng = random.Random(5)
    games = [Game(rules) for _ in range(n)]
    decks = batch.decks
    for g, game in enumerate(games):
        game.deal([int(c) for c in decks[g]])
    seen = {"scored": 0, "all_passed": 0, "matches": 0, "belote": 0}
    for _ in range(steps):
        obs = batch.observations()
        masks = batch.masks()
        points = batch.card_points
        actions = np.zeros(n, dtype=np.int64)
        for g, game in enumerate(games):
            legal = game.legal_actions()
            assert batch.legal_actions(g) == legal
            assert list(np.flatnonzero(masks[g])) == legal
            mover = game.current_player()
            assert int(batch.to_play[g]) == mover
            assert np.array_equal(obs[g], observation_tensor(game, mover))
            assert list(points[g]) == game.card_points
            actions[g] = pick(legal, rng)
        ended = batch.step(actions).copy()
        decks = batch.decks
        totals = batch.totals
        for g in range(n):
            events = games[g].apply(int(actions[g]))
            scored = [e for e in events if isinstance(e, HandScored)]
            over = [e for e in events if isinstance(e, MatchOver)]
            seen["belote"] += 32 <= actions[g] < 64 or actions[g] == A.ANNOUNCE_BELOTE
            if any(isinstance(e, AllPassed) for e in events):
                assert ended[g] == ALL_PASSED
                seen["all_passed"] += 1
            elif scored:
                assert list(batch.hand_scores[g]) == list(scored[0].scores)
                seen["scored"] += 1
                if over:
                    assert ended[g] == MATCH_WON_BY_TEAM_0 + over[0].winner
                    seen["matches"] += 1
                    assert games[g].phase == Phase.MATCH_OVER
                    games[g] = Game(rules)
                else:
                    assert ended[g] == HAND_SCORED
                    assert list(totals[g]) == games[g].totals
            else:
                assert ended[g] == GOING_ON
            if games[g].phase == Phase.DEAL:
                games[g].deal([int(c) for c in decks[g]])
            assert list(totals[g]) == games[g].totals
    assert seen["scored"] > 20 and seen["all_passed"] > 3 and seen["matches"] > 0
    assert seen["belote"] > 0


def test_random_actions_are_legal_and_the_seed_repeats_the_games() -> None:
    first, second = BatchedGames(16, COLVER_RULES, seed=3), BatchedGames(16, COLVER_RULES, seed=3)
    for _ in range(300):
        actions = first.random_actions()
        masks = first.masks()
        assert all(masks[g, a] == 1 for g, a in enumerate(actions))
        first.step(actions)
        second.step(second.random_actions())
    assert np.array_equal(first.observations(), second.observations())
    assert first.hands_played == second.hands_played > 0
    assert first.observations().shape == (16, OBSERVATION_SIZE)
    assert first.masks().shape == (16, NUM_ACTIONS)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    batch = BatchedGames(3, COLVER_RULES, seed=1)
    before = (batch.observations().copy(), batch.masks().copy(), batch.decks)
    actions = batch.random_actions().copy()
    actions[1] = 3  # a card, during the auction
    with pytest.raises(IllegalActionError, match="match 1: action 3 is not legal"):
        batch.step(actions)
    with pytest.raises(IllegalActionError, match="shape"):
        batch.step(actions[:2])
    with pytest.raises(IllegalActionError, match="integer"):
        batch.step(actions.astype(np.float64))
    assert np.array_equal(batch.observations(), before[0])
    assert np.array_equal(batch.masks(), before[1])
    assert np.array_equal(batch.decks, before[2])


@pytest.mark.parametrize("preset", ["classic", "pinasca", "italian", "valdostana"])
def test_rules_the_kernels_do_not_model_are_refused(preset: str) -> None:
    with pytest.raises(BeloteError, match="do not model"):
        BatchedGames(2, PRESETS[preset])


def test_bad_sizes_and_seeds_are_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        BatchedGames(0, COLVER_RULES)
    with pytest.raises(ValueError, match="seed"):
        BatchedGames(2, COLVER_RULES, seed=-1)
