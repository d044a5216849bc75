"""A match of a fixed number of hands (``match_hands``): a concours round played online."""

from __future__ import annotations

import random

import pytest

from belote.engine.state import CHANCE, Game
from belote.rules import FlagError, find_preset, match_winner
from belote.scorekeeper import ScoreSheet


def test_after_the_set_hands_the_team_ahead_wins_whatever_the_target() -> None:
    rules = find_preset("classic").with_flags(match_hands=3, target_score=100)
    assert match_winner(rules, (150, 20), 2) is None  # past the target: not over yet
    assert match_winner(rules, (150, 20), 3) == 0
    assert match_winner(rules, (80, 81), 3) == 1
    assert match_winner(rules, (90, 90), 3) is None  # a tie plays one more hand
    assert match_winner(rules, (90, 100), 4) == 1


def test_the_default_plays_to_the_target() -> None:
    rules = find_preset("classic")
    assert rules.match_hands == 0
    assert match_winner(rules, (1000, 10), 1) == 0


@pytest.mark.parametrize("preset", ["classic", "coinche", "valdostana"])
def test_a_game_of_two_hands_ends_after_two_scored_hands(preset: str) -> None:
    rules = find_preset(preset).with_flags(match_hands=2)
    rng = random.Random(7)
    game = Game(rules)
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            deck = list(range(32))
            rng.shuffle(deck)
            game.deal(deck)
        else:
            game.apply(rng.choice(game.legal_actions()))
    assert game.hands_scored >= 2
    assert game.totals[0] != game.totals[1]
    assert game.winner == (0 if game.totals[0] > game.totals[1] else 1)


def test_the_scorekeeper_ends_a_fixed_length_match_too() -> None:
    sheet = ScoreSheet(find_preset("classic").with_flags(match_hands=1))
    assert sheet.rules.match_hands == 1


@pytest.mark.parametrize("value", [-1, 201, "three"])
def test_a_match_length_out_of_range_is_refused(value: object) -> None:
    with pytest.raises(FlagError):
        find_preset("classic").with_flags(match_hands=value)
