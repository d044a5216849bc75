"""The expert and the levels: legal, truthful, deterministic per seed (no timed asserts)."""

from __future__ import annotations

from belote.ai import LEVELS, make_bot
from belote.ai.expert import ExpertBot
from belote.ai.levels import EasyBot
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.rules import PRESETS
from belote.sim.match import play_match


def test_every_level_plays_whole_hands_of_every_preset() -> None:
    for rules in PRESETS.values():
        players = [
            make_bot("easy", 0),
            make_bot("normal", 1),
            ExpertBot(2, budget_ms=10, max_worlds=3, bid_budget_ms=30, bid_worlds=3,
                      min_bid_worlds=2),
            make_bot("normal", 3),
        ]
        game = Game(rules, 0)
        source = seeded_deck_source(4)
        while game.deal_no < 3 and not game.is_terminal():
            if game.current_player() == CHANCE:
                game.deal(source())
                continue
            seat = game.current_player()
            game.apply(players[seat].choose(game.observation(seat)), seat)
        assert game.deal_no >= 3 or game.is_terminal()
    assert LEVELS == ("easy", "normal", "expert")


def test_expert_card_choices_are_legal_in_every_preset() -> None:
    for rules in PRESETS.values():
        bot = ExpertBot(1, budget_ms=20, max_worlds=4, bid_budget_ms=50, bid_worlds=4,
                        min_bid_worlds=2)
        game = Game(rules, 0)
        source = seeded_deck_source(2)
        for _ in range(120):
            if game.is_terminal():
                break
            if game.current_player() == CHANCE:
                game.deal(source())
                continue
            seat = game.current_player()
            obs = game.observation(seat)
            action = bot.choose(obs)
            assert action in obs.legal_actions
            game.apply(action, seat)


def test_expert_says_passo_and_aspetto_truthfully() -> None:
    # RULES.md: "Bots say them truthfully" (passo: no ace; aspetto: at least one ace).
    rules = PRESETS["valdostana"]
    aces = sum(1 << (s * 8 + 7) for s in range(4))
    bot = ExpertBot(3, bid_budget_ms=50, bid_worlds=4, min_bid_worlds=2)
    source = seeded_deck_source(8)
    checked = 0
    for dealer in range(8):
        game = Game(rules, dealer % 4)
        game.deal(source())
        game.apply(A.KNOCK)  # seed 000: the cutter trusts the dealer
        while game.phase == 1:
            seat = game.current_player()
            action = bot.choose(game.observation(seat))
            if action in (A.PASS, A.ASPETTO):
                assert (action == A.ASPETTO) == bool(game.hands[seat] & aces)
                checked += 1
            game.apply(action, seat)
    assert checked >= 3


def test_expert_is_deterministic_for_a_seed_and_a_fixed_number_of_worlds() -> None:
    rules = PRESETS["classic"]
    game = Game(rules, 0)
    game.deal(seeded_deck_source(5)())
    while game.phase == 1:
        legal = game.legal_actions()
        game.apply(A.TAKE if A.TAKE in legal else legal[-1])
    obs = game.observation(game.current_player())
    choices = {ExpertBot(7, budget_ms=0, hard_ms=600_000,
                                  max_worlds=6, min_worlds=6).choose(obs)
               for _ in range(3)}
    assert len(choices) == 1 and choices <= set(obs.legal_actions)


def test_easy_bot_never_breaks_a_rule() -> None:
    game = play_match(PRESETS["classic"], [EasyBot(s) for s in range(4)],
                      seeded_deck_source(6), 0)
    assert game.is_terminal()


def test_an_expert_past_its_deadline_answers_at_once_and_counts_it() -> None:
    # A deadline already gone: no world is searched, the heuristic's legal choice is played,
    # and the decision is counted (nothing degrades silently).
    import time

    for rules in (PRESETS["classic"], PRESETS["coinche"]):
        game = Game(rules, 0)
        game.deal(seeded_deck_source(5)())
        bot = ExpertBot(3)
        seat = game.current_player()
        obs = game.observation(seat)
        action = bot.choose_by(obs, time.monotonic() - 1.0)
        assert action in obs.legal_actions
        if len(obs.legal_actions) > 1:
            assert bot.hurried == 1 and bot.last_method == "heuristic"
        assert bot.deadline is None  # the deadline was for that decision only
