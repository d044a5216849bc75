"""The post-mortem analysis of a card (belote.ai.analysis): from the player's information set
only, with the expert's values; deterministic for a seed."""

from __future__ import annotations

import random

import pytest

from belote.ai import make_bot
from belote.ai.analysis import AnalysisError, analyse_play
from belote.engine import actions as A
from belote.engine.state import Game, Phase
from belote.rules import find_preset


def late_position(seed: int = 11) -> tuple[Game, int]:
    """A game of classic at the sixth trick, and the card the heuristic plays there."""
    rules = find_preset("classic")
    rng = random.Random(seed)
    game = Game(rules, 0)
    bots = [make_bot("heuristic", s) for s in range(4)]
    while True:
        mover = game.current_player()
        if game.phase == Phase.DEAL:
            deck = list(range(32))
            rng.shuffle(deck)
            game.deal(deck)
            continue
        action = bots[mover].choose(game.observation(mover))
        if game.phase == Phase.PLAYING and game.trick_no == 5 and A.is_play(action):
            return game, action
        game.apply(action, mover)


@pytest.mark.slow
def test_each_legal_card_gets_a_value_and_the_best_costs_nothing() -> None:
    game, action = late_position()
    legal = {c for c in range(32) if game.legal_plays() >> c & 1}
    result = analyse_play(game, action, worlds=6, seed=3)
    assert set(result.values) == legal
    assert result.played == A.played_card(action) and result.seat == game.to_play
    assert result.worlds == 6 and result.method == "exact"
    assert result.values[result.best] == max(result.values.values())
    assert result.cost == result.values[result.best] - result.values[result.played] >= 0
    best = analyse_play(game, result.best, worlds=6, seed=3)
    assert best.cost == 0 and best.values == result.values


def test_the_same_seed_gives_the_same_analysis_and_the_game_is_untouched() -> None:
    game, action = late_position()
    log = list(game.log)
    hands = list(game.hands)
    assert analyse_play(game, action, worlds=4, seed=9) == analyse_play(game, action,
                                                                         worlds=4, seed=9)
    assert game.log == log and game.hands == hands


def test_the_other_hands_are_never_read() -> None:
    """Two games that the player cannot tell apart get the same analysis: the true hands
    of the others play no part."""
    game, action = late_position()
    seat = game.to_play
    twin = game.resample(seat, random.Random(1))
    assert twin.hands[seat] == game.hands[seat]
    if twin.hands == game.hands:
        pytest.skip("the resample drew the true hands")
    mine = analyse_play(game, action, worlds=5, seed=4)
    theirs = analyse_play(twin, action, worlds=5, seed=4)
    assert mine.values == pytest.approx(theirs.values)


def test_anything_but_a_card_play_is_refused() -> None:
    game, action = late_position()
    with pytest.raises(AnalysisError, match="not a card play"):
        analyse_play(game, A.PASS)
    illegal = next(c for c in range(32) if not game.legal_plays() >> c & 1)
    with pytest.raises(AnalysisError, match="not legal"):
        analyse_play(game, illegal)
    with pytest.raises(AnalysisError, match="at least one world"):
        analyse_play(game, action, worlds=0)
