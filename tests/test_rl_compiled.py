"""The compiled per-step game (``belote.rl.compiled.CompiledGame``) against its twin, the
pure-Python ``Game`` driven by a ``TensorTracker``: random matches are played step by step in
both (the twin dealt the compiled game's decks), and the observation tensors, legal actions,
masks, card points, hand scores, totals and returns must be equal at every step."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.engine import Game, Phase
from belote.engine import actions as A
from belote.errors import BeloteError, IllegalActionError
from belote.oracles.colver.agents import COLVER_RULES
from belote.rl import OBSERVATION_SIZE, hand_returns, legal_action_mask, match_returns
from belote.rl.batch import ALL_PASSED, GOING_ON, HAND_SCORED, MATCH_WON_BY_TEAM_0
from belote.rl.compiled import CompiledGame
from belote.rl.tracker import TensorTracker
from belote.rules import PRESETS, Rules

COINCHE = PRESETS["coinche"]

# Every preset the kernels model, and flag changes that take other branches of them.
SUPPORTED: dict[str, Rules] = {
    "coinche": COINCHE.with_flags(target_score=500),
    "colver": COLVER_RULES.with_flags(target_score=600),
    "king_first_trick_window": COINCHE.with_flags(
        belote_king_first=True, belote_window="trick", target_score=400, target_strict=True),
    "beat_defenders_all_points": COINCHE.with_flags(
        taker_must_beat_defenders=True, failed_defenders_points=None, made_adds_contract=False,
        failed_takers_keep_belote=False, belote_counts_for_contract=False, target_score=600),
}


def pick(legal: list[int], rng: random.Random) -> int:
    """Mostly passes in the auction (uniform bids would reach the capot at once), belote
    announced half the times it may be."""
    if A.PASS in legal and rng.random() < 0.65:
        return A.PASS
    belote = [a for a in legal if 32 <= a < 64 or a == A.ANNOUNCE_BELOTE]
    if belote and rng.random() < 0.5:
        return rng.choice(belote)
    return rng.choice(legal)


def new_twin(rules: Rules, deck: list[int]) -> TensorTracker:
    tracker = TensorTracker(Game(rules))
    tracker.deal(deck)
    return tracker


@pytest.mark.parametrize("name", list(SUPPORTED))
def test_compiled_steps_equal_the_engine_with_its_tracker(name: str) -> None:
    rules = SUPPORTED[name]
    rng = random.Random(9)
    compiled = CompiledGame(rules, seed=4)
    obs, legal = compiled.reset()
    twin = new_twin(rules, compiled.deck)
    seen = {"scored": 0, "all_passed": 0, "matches": 0, "belote": 0}
    for step in range(900):
        game = twin.game
        mover = game.current_player()
        assert compiled.to_play == mover
        assert legal == game.legal_actions() == compiled.legal_actions()
        assert np.array_equal(obs, twin.observation(mover))
        assert np.array_equal(compiled.observation_tensor(), obs)
        assert np.array_equal(compiled.legal_action_mask(), legal_action_mask(game))
        assert compiled.card_points == tuple(game.card_points)
        assert compiled.totals == tuple(game.totals)
        action = pick(legal, rng)
        before = list(game.totals)
        if step % 2:  # both of the twin's calls: step (as colver's) and apply (events)
            twin_obs, twin_legal = twin.step(action)
            events = None
        else:
            events = twin.apply(action)
        obs, legal = compiled.step(action)
        seen["belote"] += 32 <= action < 64 or action == A.ANNOUNCE_BELOTE
        ended = compiled.ended
        if game.phase in (Phase.BIDDING, Phase.PLAYING):
            assert ended == GOING_ON
            if events is None:
                assert np.array_equal(obs, twin_obs) and legal == twin_legal
        else:  # the hand ended: the compiled game dealt the next one already
            scores = [game.totals[t] - before[t] for t in range(2)]
            if game.trick_no < 8:
                assert ended == ALL_PASSED
                seen["all_passed"] += 1
            elif game.phase == Phase.MATCH_OVER:
                assert ended == MATCH_WON_BY_TEAM_0 + (game.returns()[0] < 0)
                assert compiled.hand_scores == tuple(scores)
                assert np.array_equal(compiled.returns(), match_returns(game))
                seen["matches"] += 1
            else:
                assert ended == HAND_SCORED
                assert compiled.hand_scores == tuple(scores)
                assert not compiled.returns().any()
                seen["scored"] += 1
            if events is not None:
                assert np.array_equal(compiled.hand_returns(10.0), hand_returns(events, 10.0))
            if game.phase == Phase.MATCH_OVER:
                twin = new_twin(rules, compiled.deck)
            else:
                twin.deal(compiled.deck)
    assert twin.rebuilds == 0
    assert seen["scored"] > 5 and seen["all_passed"] > 3 and seen["matches"] > 0
    assert seen["belote"] > 0


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    compiled = CompiledGame(COLVER_RULES, seed=1)
    obs, legal = compiled.reset()
    deck, mover = compiled.deck, compiled.to_play
    for bad in (3, 84, -1, 10**30, 2.0, True, "64", None):
        with pytest.raises(IllegalActionError):
            compiled.step(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"action 3 is not legal for seat \d; legal: "):
        compiled.step(3)
    assert compiled.deck == deck and compiled.to_play == mover
    assert compiled.legal_actions() == legal
    assert np.array_equal(compiled.observation_tensor(), obs)
    kept = list(legal)
    legal.clear()  # the caller's list: changing it changes nothing in the game
    assert compiled.legal_actions() == kept
    assert compiled.legal_action_mask().sum() == len(kept)
    compiled.step(np.int64(kept[0]))  # numpy integers are action ids too


@pytest.mark.parametrize("preset", ["classic", "pinasca", "italian", "valdostana"])
def test_rules_the_kernels_do_not_model_are_refused_by_name(preset: str) -> None:
    with pytest.raises(BeloteError, match="compiled game does not model rules .*declarations"
                       if preset != "classic" else "compiled game does not model.*bidding"):
        CompiledGame(PRESETS[preset])


def test_a_seed_repeats_the_decks_and_a_plain_reset_deals_new_ones() -> None:
    first, second = CompiledGame(COLVER_RULES, seed=5), CompiledGame(COLVER_RULES, seed=5)
    assert first.deck == second.deck
    rng = random.Random(1)
    _, legal = first.reset()
    for _ in range(200):
        _, legal = first.step(rng.choice(legal))
    deck = CompiledGame(COLVER_RULES, seed=5).deck
    again, _ = first.reset(5)
    assert first.deck == deck and first.hands_played == 0 and first.totals == (0, 0)
    assert again.shape == (OBSERVATION_SIZE,) and again.dtype == np.float32
    first.reset()
    assert first.deck != deck
    with pytest.raises(ValueError, match="seed"):
        first.reset(-1)
    with pytest.raises(ValueError, match="seed"):
        CompiledGame(COLVER_RULES, seed=2**48)
