"""Weighting the expert's worlds by the likelihood of the cards seen (belote.ai.likelihood)."""

from __future__ import annotations

import math
import random

import pytest
from helpers import normal_bots_midway, play_every_seat_legally

from belote.ai import make_bot
from belote.ai.expert import ExpertBot
from belote.ai.heuristic import HeuristicBot
from belote.ai.likelihood import auction_moves, normalised, play_log_likelihood
from belote.ai.worlds import knowledge, sample_world
from belote.rules import PRESETS

EPS = 0.4


def test_in_the_true_world_every_move_is_the_models_own_when_the_model_is_the_players() -> None:
    for preset, seed in (("classic", 3), ("pinasca", 5), ("coinche", 7)):
        game = normal_bots_midway(preset, seed, 14)
        obs = game.observation(game.current_player())
        truth = (game.hands[0], game.hands[1], game.hands[2], game.hands[3])
        best = play_log_likelihood(obs, truth, HeuristicBot(0), EPS, auction_moves(obs))
        # only "the model's own card" terms, log(1 - eps) each: no move was another card
        moves = best / math.log(1.0 - EPS)
        assert moves >= 1 and math.isclose(moves, round(moves))


def test_bids_are_modelled_in_an_auction_without_a_turned_card_only() -> None:
    coinche = normal_bots_midway("coinche", 7, 3)
    moves = auction_moves(coinche.observation(coinche.current_player()))
    assert moves and all(len(legal) > 1 and bid in legal for _, bid, legal, _ in moves)
    classic = normal_bots_midway("classic", 3, 3)
    assert auction_moves(classic.observation(classic.current_player())) == ()


def test_a_world_the_model_finds_odd_weighs_less() -> None:
    game = normal_bots_midway("italian", 5, 12)
    obs = game.observation(game.current_player())
    info = knowledge(obs)
    rng = random.Random(2)
    values = {play_log_likelihood(obs, sample_world(info, rng), HeuristicBot(0), EPS)
              for _ in range(30)}
    assert len(values) > 1  # the weights tell worlds apart


def test_likelihood_refuses_an_eps_outside_zero_one_and_the_expert_too() -> None:
    game = normal_bots_midway("classic", 3, 5)
    obs = game.observation(game.current_player())
    world = (game.hands[0], game.hands[1], game.hands[2], game.hands[3])
    for eps in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError):
            play_log_likelihood(obs, world, HeuristicBot(0), eps)
        with pytest.raises(ValueError):
            ExpertBot(0, likelihood_eps=eps)


def test_normalised_weights_sum_to_one_and_all_impossible_gives_equal_weights() -> None:
    weights = normalised([-1000.0, -1001.0, -math.inf])
    assert math.isclose(sum(weights), 1.0) and weights[2] == 0.0 and weights[0] > weights[1]
    assert normalised([-math.inf, -math.inf]) == [0.5, 0.5]
    assert normalised([]) == []


@pytest.mark.slow
def test_a_weighted_expert_plays_legal_cards_in_every_preset() -> None:
    # Four-seat presets: with fewer seats the expert plays by the seat solver, unweighted
    # (and a 2-player first trick takes seconds to solve exactly).
    for rules in (r for r in PRESETS.values() if r.players == 4):
        bot = ExpertBot(1, budget_ms=0, hard_ms=600_000, max_worlds=3, min_worlds=3,
                        bid_budget_ms=50, bid_worlds=4, min_bid_worlds=2, bid_hard_ms=100,
                        likelihood_eps=EPS,
                        likelihood_bids=True)
        play_every_seat_legally(rules, bot, 60)


def test_weighted_expert_levels_exist() -> None:
    assert isinstance(make_bot("expert-w20-lw", 0), ExpertBot)
    assert make_bot("expert-lw", 0).name == "expert-lw"
