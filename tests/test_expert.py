"""The expert and the levels: legal, truthful, deterministic per seed (no timed asserts)."""

from __future__ import annotations

import math

import pytest
from helpers import play_every_seat_legally

from belote.ai import make_bot
from belote.ai.easy import EasyBot
from belote.ai.expert import (
    BID_PRIOR_SHARE,
    SEAT_EXACT_TRICKS_TWO,
    WORLD_FLOOR,
    ExpertBot,
    _lower_bound,
    world_time,
)
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.engine.search import Position, Solver
from belote.rules import PRESETS
from belote.rules.base import Rules
from belote.server.levels import LEVELS
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
    assert LEVELS == ("easy", "normal", "quick", "expert")


# Untraced (docs/dev/quality.md, "Coverage"): its lines are run by the other tests too (per-test
# coverage contexts; the seat solver's by tests/test_kernel_seats.py); traced, 13 s of CPU.
@pytest.mark.slow
@pytest.mark.no_cover
def test_expert_card_choices_are_legal_in_every_preset() -> None:
    for rules in PRESETS.values():
        bot = ExpertBot(1, budget_ms=20, max_worlds=4, bid_budget_ms=50, bid_worlds=4,
                        min_bid_worlds=2, hard_ms=100, bid_hard_ms=100)
        play_every_seat_legally(rules, bot, 120)


@pytest.mark.slow
def test_expert_says_passo_and_aspetto_truthfully() -> None:
    # RULES.md: "Bots say them truthfully" (passo: no ace; aspetto: at least one ace).
    rules = PRESETS["valdostana"]
    aces = sum(1 << (s * 8 + 7) for s in range(4))
    bot = ExpertBot(3, bid_budget_ms=50, bid_worlds=4, min_bid_worlds=2, bid_hard_ms=100)
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


def _card_choice(preset: str) -> Observation:
    """A card decision of ``preset`` with a choice of cards and nothing to announce."""
    game = Game(PRESETS[preset], 0)
    decks = seeded_deck_source(5)
    normal = make_bot("normal", 0)
    while True:
        seat = game.current_player()
        if seat == CHANCE:  # the first deal, or a new one after all passed
            game.deal(decks())
            continue
        legal = game.legal_actions()
        plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
        if len(plays) > 1 and len(plays) == len(legal):
            return game.observation(seat)
        game.apply(normal.choose(game.observation(seat)), seat)


def _bid_choice(preset: str) -> Observation:
    game = Game(PRESETS[preset], 0)
    game.deal(seeded_deck_source(5)())
    return game.observation(game.current_player())


def test_an_expert_past_the_rooms_deadline_still_solves_one_world() -> None:
    # The room's deadline is soft: once it has passed no second world is started, but the
    # first one has the bot's own hard limit, so the answer is the search's, not a fallback.
    import time

    for preset in ("classic", "coinche"):
        for obs in (_bid_choice(preset), _card_choice(preset)):
            bot = ExpertBot(3, hard_ms=60_000, bid_hard_ms=60_000)
            action = bot.choose_by(obs, time.monotonic() - 1.0)
            assert action in obs.legal_actions
            assert bot.last_worlds == 1 and bot.hurried == 0 and bot.estimated == 0
            assert bot.deadline is None  # the deadline was for that decision only


def test_an_expert_without_time_estimates_its_cards_and_counts_a_hurried_bid() -> None:
    for preset in ("classic", "coinche"):
        bot = ExpertBot(3, budget_ms=0, hard_ms=0, bid_budget_ms=0, bid_hard_ms=0)
        card = _card_choice(preset)
        assert bot.choose(card) in card.legal_actions
        assert bot.last_method == "estimated" and bot.estimated == 1 and bot.hurried == 0
        bid = _bid_choice(preset)
        assert bot.choose(bid) in bid.legal_actions
        assert bot.last_method == "heuristic" and bot.hurried == 1


class _AbortingSolver(Solver):
    """Stops the first ``aborts`` searches at once, as a world too hard for its time."""

    def __init__(self, rules: Rules, aborts: int) -> None:
        super().__init__(rules)
        self.aborts = aborts

    def solve(self, position: Position, check: bool = True,
              node_limit: int | None = None) -> dict[int, int]:
        if self.aborts:
            self.aborts -= 1
            self.aborted = True
            return {}
        return super().solve(position, check, node_limit)


def test_a_world_out_of_its_time_is_given_up_for_the_next() -> None:
    card = _card_choice("classic")
    assert card.ruleset is not None
    bot = ExpertBot(4, budget_ms=60_000, hard_ms=60_000, max_worlds=3, min_worlds=3)
    bot._solvers[card.ruleset] = _AbortingSolver(card.ruleset, 2)
    assert bot.choose(card) in card.legal_actions
    assert bot.given_up == 2 and bot.last_worlds == 3 and bot.last_method == "exact"


def test_a_world_gets_at_most_half_the_time_left_unless_that_is_too_little() -> None:
    assert world_time(1.0) == 0.5
    assert world_time(0.1) == 0.05
    assert world_time(2 * WORLD_FLOOR) == 2 * WORLD_FLOOR  # too little to split: all of it
    assert world_time(3 * WORLD_FLOOR) == 1.5 * WORLD_FLOOR


def test_one_world_is_enough_to_bid_its_spread_starting_from_the_prior() -> None:
    assert _lower_bound([100.0], 120.0) == 100.0 - 120.0
    # worlds that agree by chance do not look certain: the prior still counts
    assert 0 < 100.0 - _lower_bound([100.0, 100.0], 120.0) < 120.0
    spread = [0.0, 200.0] * 20
    assert _lower_bound(spread, 120.0) < 100.0 - 0.9 * 100.0 / len(spread) ** 0.5


def test_the_best_of_many_candidates_must_clear_a_higher_bar() -> None:
    # the expected best of K noisy averages lies sqrt(2 ln K) standard errors above its truth
    one = _lower_bound([100.0], 120.0, choices=1)
    two = _lower_bound([100.0], 120.0, choices=2)
    many = _lower_bound([100.0], 120.0, choices=24)
    assert one == 100.0 - 120.0  # one candidate: BID_CONFIDENCE standard errors
    assert two == pytest.approx(100.0 - (2 * math.log(2)) ** 0.5 * 120.0)
    assert many == pytest.approx(100.0 - (2 * math.log(24)) ** 0.5 * 120.0)


def test_a_bids_prior_spread_follows_what_the_contract_puts_at_stake() -> None:
    bot = ExpertBot(1)
    classic, coinche = PRESETS["classic"], PRESETS["coinche"]
    take = bot._stake(classic, (0, 0, 1, 0))
    assert BID_PRIOR_SHARE * take == pytest.approx(120.0, abs=5)  # the measured spread
    low, high = bot._stake(coinche, (0, 80, 1, 0)), bot._stake(coinche, (0, 120, 1, 0))
    assert take < low < high  # coinche's contract adds to the swing, and its failure costs
    # a contro doubles the contract's part of the swing, for either team's seat
    assert bot._stake(coinche, (0, 100, 2, 1)) > bot._stake(coinche, (0, 100, 1, 1)) + 90
    assert bot._stake(coinche, (0, 100, 1, 1)) == bot._stake(coinche, (0, 100, 1, 0))


def test_with_fewer_seats_a_card_without_time_is_estimated_and_two_players_open_at_once(
) -> None:
    bot = ExpertBot(5, budget_ms=0, hard_ms=0)
    card = _card_choice("valdostana3")
    assert bot.choose(card) in card.legal_actions
    assert bot.last_method == "estimated" and bot.estimated == 1 and bot.hurried == 0
    # Two players, a whole deal to go: no search can end in time, none is tried
    opening = _card_choice("valdostana2")
    assert opening.hand.bit_count() > SEAT_EXACT_TRICKS_TWO
    bot = ExpertBot(5)
    assert bot.choose(opening) in opening.legal_actions
    assert bot.last_method == "unsearchable" and bot.hurried == 1 and bot.given_up == 0


class _Says:
    """A heuristic that always says ``action``."""

    def __init__(self, action: int) -> None:
        self.action = action

    def choose(self, observation: Observation) -> int:
        return self.action


def _bid_with(worlds: list[float], heuristic: int) -> tuple[int, ExpertBot]:
    """The expert's classic first-round bid if its worlds value taking at ``worlds`` over
    passing, and the heuristic would say ``heuristic``."""
    obs = _bid_choice("classic")
    assert set(obs.legal_actions) == {A.PASS, A.TAKE}
    bot = ExpertBot(1)
    bot.fallback = _Says(heuristic)  # type: ignore[assignment]
    bot._simulate_bids = lambda *_: {A.TAKE: list(worlds)}  # type: ignore[method-assign]
    return bot.choose(obs), bot


def test_a_few_worlds_leave_the_heuristics_bid_unless_they_are_decisive() -> None:
    # One world a little against taking: too little to overturn the heuristic's "take"
    action, bot = _bid_with([20.0], A.TAKE)
    assert action == A.TAKE and bot.bids_kept == 1
    # ... nor its "pass" for one world a little for it
    action, bot = _bid_with([100.0], A.PASS)
    assert action == A.PASS
    # one world overwhelmingly for taking overturns a "pass"
    action, bot = _bid_with([400.0], A.PASS)
    assert action == A.TAKE and bot.bids_kept == 0


def test_many_worlds_that_agree_overturn_the_heuristics_bid() -> None:
    against = [-50.0 + (i % 5) for i in range(20)]  # taking loses about 50 in every world
    action, bot = _bid_with(against, A.TAKE)
    assert action == A.PASS and bot.bids_kept == 0
    action, _ = _bid_with([-v for v in against], A.PASS)
    assert action == A.TAKE
