"""The bot contract (issue 22, item 3): ``decide(observation, deadline) -> Decision(action,
method, worlds, ms)``, implemented by every built-in bot, and given by one adapter to a bot of
the player protocol alone (third-party plug-ins, colver's agents)."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from belote.ai import Decision, DecisionMethod, as_bot, make_bot, make_decider
from belote.ai.decision import PlayerBot, only_move
from belote.ai.easy import EasyBot
from belote.ai.heuristic import HeuristicBot
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.observation import Observation
from belote.engine.state import CHANCE, Game
from belote.rules import find_preset

PLUGIN = "examples.first_legal_bot:FirstLegalBot"


def _observations(count: int, seed: int = 5, preset: str = "classic") -> list[Observation]:
    """The observations of the movers of random games: bids, cards, announcements."""
    rng = random.Random(seed)
    decks = seeded_deck_source(seed)
    seen: list[Observation] = []
    while len(seen) < count:
        game = Game(find_preset(preset), first_dealer=rng.randrange(4))
        while not game.is_terminal() and len(seen) < count:
            mover = game.current_player()
            if mover == CHANCE:
                game.deal(decks())
                continue
            seen.append(game.observation(mover))
            game.apply(rng.choice(game.legal_actions()), mover)
    return seen


@pytest.mark.parametrize("name", ["random", "easy", "normal", "heuristic"])
def test_every_bot_that_does_not_search_decides_as_it_chooses_and_says_how(name: str) -> None:
    chooser, decider = make_bot(name, 3), make_decider(name, 3)
    for observation in _observations(300):
        decision = decider.decide(observation, None)
        assert isinstance(decision, Decision)
        assert decision.action == chooser.choose(observation)  # same seed, same moves
        assert decision.worlds is None and decision.ms >= 0 and decision.fallback is None
        assert decision.method in (DecisionMethod.ONLY_MOVE, DecisionMethod.RULE,
                                   DecisionMethod.RANDOM, DecisionMethod.HEURISTIC)
        if len(observation.legal_actions) == 1 and \
                observation.legal_actions[0] != A.ANNOUNCE_BELOTE:
            assert decision.method is DecisionMethod.ONLY_MOVE


def test_the_heuristic_says_which_decisions_are_rules_and_which_judgement() -> None:
    bot = HeuristicBot(1)
    methods = {bot.decide(o, None).method for o in _observations(400)}
    assert {DecisionMethod.HEURISTIC, DecisionMethod.ONLY_MOVE} <= methods
    # a belote window (its seat's observation, out of turn): always announced, by rule
    card = next(o for o in _observations(400) if o.trick)
    window = dataclasses.replace(card, legal_actions=(A.ANNOUNCE_BELOTE,))
    said = bot.decide(window, None)
    assert (said.action, said.method) == (A.ANNOUNCE_BELOTE, DecisionMethod.RULE)
    choice = next(o for o in _observations(50) if len(o.legal_actions) > 1)
    assert make_decider("random", 1).decide(choice, None).method is DecisionMethod.RANDOM


def test_an_easy_bots_slip_is_said_random() -> None:
    bot = EasyBot(2)
    cards = [o for o in _observations(600) if sum(a < 32 for a in o.legal_actions) > 1]
    methods = [bot.decide(o, None).method for o in cards]
    assert DecisionMethod.RANDOM in methods and DecisionMethod.HEURISTIC in methods


def test_a_player_protocol_plugin_is_adapted_once_and_says_nothing_of_how() -> None:
    bot = make_decider(PLUGIN, 7)
    assert isinstance(bot, PlayerBot) and bot.name == "first-legal"
    observation = _observations(1)[0]
    decision = bot.decide(observation, time.monotonic() + 1.0)
    assert decision.action == min(observation.legal_actions)
    assert decision.method is DecisionMethod.UNSAID and decision.worlds is None
    # a bot that has the contract already is not wrapped again
    normal = make_bot("normal")
    assert as_bot(normal) is normal and as_bot(bot) is bot


def test_the_expert_says_how_it_decided_and_the_worlds_it_solved() -> None:
    from belote.ai.expert import ExpertBot

    bot = ExpertBot(3, bid_hard_ms=600_000)
    bid = _observations(1)[0]
    decision = bot.decide(bid, time.monotonic() - 1.0)  # soft deadline past: one world
    assert decision.method is DecisionMethod.SIMULATED and decision.worlds == 1
    assert bot.deadline is None  # the deadline was the decision's only
    forced = next(o for o in _observations(400)
                  if len([a for a in o.legal_actions if a < A.PLAY_ANNOUNCE_BASE]) == 1
                  and all(a < A.PASS for a in o.legal_actions))
    assert bot.decide(forced, None).method is DecisionMethod.ONLY_MOVE
    assert bot.decide(forced, None).worlds is None


def test_only_move_is_no_belote_window() -> None:
    window = _observations(1)[0]
    lone = dataclasses.replace(window, legal_actions=(A.ANNOUNCE_BELOTE,))
    assert only_move(lone, DecisionMethod.RULE) is DecisionMethod.RULE
    forced = dataclasses.replace(window, legal_actions=(A.PASS,))
    assert only_move(forced, DecisionMethod.HEURISTIC) is DecisionMethod.ONLY_MOVE
