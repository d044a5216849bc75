"""The expert's models of the other seats (belote.ai.models): soft evidence, never fact."""

from __future__ import annotations

import math
import random

from belote.ai.expert import ExpertBot
from belote.ai.fitting import EvidenceWorlds
from belote.ai.heuristic import HeuristicBot
from belote.ai.models import TableSeat, meet_all, models_for
from belote.ai.models.auction import auction_moves, bid_view
from belote.ai.models.seats import BASE_RATE, PRIOR_ODDS, KnownBidder
from belote.ai.models.words import ASPETTO, PASSO, claims
from belote.ai.worlds import WORD_ODDS, knowledge, world_of
from belote.cards import ACES
from belote.engine.evidence import World
from belote.engine.state import CHANCE, Game, Phase
from belote.rules import find_preset
from belote.sim.match import play_step

VALDOSTANA = find_preset("valdostana")


def _table(rules_name: str, seed: int, bids: int) -> Game:
    """A game of normal bots after ``bids`` bids (or at its first card-play decision)."""
    game = Game(find_preset(rules_name), 0)
    rng = random.Random(seed)
    players = [HeuristicBot(seed + s) for s in range(4)]

    def deck() -> list[int]:  # a fresh shuffle for a redeal (all passed)
        cards = list(range(32))
        rng.shuffle(cards)
        return cards

    while True:
        if game.current_player() != CHANCE:
            obs = game.observation(game.current_player())
            if len(obs.bids) >= bids or game.phase == Phase.PLAYING or game.is_terminal():
                return game
        play_step(game, players, deck)


def _playing(rules_name: str, seed: int) -> Game | None:
    """A game of normal bots at its first card-play decision (None: all passed)."""
    game = _table(rules_name, seed, 99)
    return game if game.phase == Phase.PLAYING else None


def _world(game: Game, seat: int) -> World:
    hands = tuple(game.hands)
    return World(hands, hands, hands)


def test_a_truthful_bots_passo_weighs_a_world_with_an_ace_down_not_out() -> None:
    # RULES.md: passo says no ace, truthfully for bots; evidence, not a constraint
    for seed in range(40):
        game = _table("valdostana", seed, 3)
        obs = game.observation(game.current_player())
        passo = [c for c in claims(obs) if c.kind == PASSO]
        if passo:
            break
    else:
        raise AssertionError("no passo in 40 deals")
    claim = passo[0]
    seats = [TableSeat.bot("normal")] * 4
    models = models_for(seats, obs.seat or 0)
    real = _world(game, claim.seat)
    assert models.log_likelihood(obs, real) > -1e-9 or not claim.holds(real)
    hands = list(game.hands)
    other = next(s for s in range(4) if s not in (claim.seat, obs.seat) and hands[s] & ACES)
    ace = (hands[other] & ACES) & -(hands[other] & ACES)
    spare = next(c for c in range(32) if hands[claim.seat] >> c & 1 and not (1 << c) & ACES)
    hands[other] = hands[other] & ~ace | (1 << spare)
    hands[claim.seat] = hands[claim.seat] & ~(1 << spare) | ace
    lied = World(tuple(hands), tuple(hands), tuple(hands))
    weight = models.log_likelihood(obs, lied)
    assert math.isfinite(weight) and weight <= -math.log(WORD_ODDS) + 1e-9


def test_an_unknown_seats_words_are_trusted_by_a_weak_prior_and_learned() -> None:
    seats = [TableSeat.person()] * 4
    models = models_for(seats, 0)
    model = models.models[1]
    assert math.isclose(model.log_odds(PASSO), math.log(PRIOR_ODDS))
    # a liar: its passo is true as often as chance: the word comes to say nothing
    for _ in range(200):
        model.words[PASSO].add(random.Random(len(str(_))).random() < 0)  # always false
    assert model.log_odds(PASSO) < 0
    fresh = models_for(seats, 0).models[1]
    for held in [True] * 30 + [False] * 70:
        fresh.words[PASSO].add(held)
    assert abs(fresh.log_odds(PASSO) - (math.log(0.3 / 0.7) - math.log(
        BASE_RATE[PASSO] / (1 - BASE_RATE[PASSO])))) < 0.2
    assert ASPETTO in fresh.words


def test_a_known_bidder_fits_the_real_deal_and_its_misfits_weigh_little() -> None:
    for seed in range(30):
        game = _table("valdostana", seed, 4)
        obs = game.observation(game.current_player())
        if auction_moves(obs):
            break
    models = models_for([TableSeat.bot("normal")] * 4, obs.seat or 0)
    moves = auction_moves(obs)
    assert moves
    bidder = models.models[moves[0][0]].bids
    assert isinstance(bidder, KnownBidder)
    who = moves[0][0]
    view = bid_view(obs, moves[0], game.hands[who])
    assert bidder.log_prob(view, moves[0][1]) == 0.0  # the real hand makes the real bid


def test_worlds_drawn_by_rejection_are_accepted_by_the_evidence() -> None:
    game = _playing("valdostana", 3)
    if game is None:
        return  # all passed on this deck: nothing to weigh
    seat = game.current_player()
    obs = game.observation(seat)
    models = models_for([TableSeat.bot("normal")] * 4, seat)
    source = EvidenceWorlds(models, random.Random(1), draws=300)
    assert source.applies(obs)
    info = knowledge(obs)
    for _ in range(5):
        world, fitted = source.draw(info, obs, stop=float("inf"))
        if fitted:
            assert models.log_likelihood(obs, world_of(info, world, random.Random(0))) > -7.0
    assert source.draws >= 5


def test_take_or_pass_worlds_draw_which_five_cards_each_seat_bid_with() -> None:
    game = _playing("classic", 4)
    if game is None:
        return
    seat = game.current_player()
    obs = game.observation(seat)
    world = world_of(knowledge(obs), tuple(game.hands), random.Random(2))
    for s in range(4):
        if s != seat:
            assert world.first[s].bit_count() == 5 and world.first[s] & ~world.dealt[s] == 0
            assert obs.turned is None or s != obs.taker or not world.first[s] >> obs.turned & 1


def test_the_expert_builds_its_models_when_told_who_sits_where() -> None:
    bot = ExpertBot(1, max_worlds=2, min_worlds=1)
    assert meet_all([bot, HeuristicBot(0)], [TableSeat.bot("normal")] * 4) == 1
    game = _playing("valdostana", 7)
    if game is None:
        return
    seat = game.current_player()
    bot._seat_evidence(game.observation(seat))
    assert bot.models is not None and seat not in bot.models.models
    assert ExpertBot(1, seat_models=False)._seat_evidence(game.observation(seat)) is None


def test_the_expert_learns_each_seats_words_from_a_hand_played_out() -> None:
    from belote.ai.models.words import PASSO
    from belote.sim.arena import play_hand

    bot = ExpertBot(3, max_worlds=1, min_worlds=1, bid_worlds=1, min_bid_worlds=1)
    players = [bot, HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
    meet_all(players, [TableSeat.bot("expert")] + [TableSeat.person()] * 3)
    deck = list(range(32))
    for seed in range(6):
        random.Random(seed).shuffle(deck)
        play_hand(VALDOSTANA, players, deck, 1)
        if bot.models is not None and bot.models.learned_hands:
            break
    assert bot.models is not None and bot.models.learned_hands >= 1
    prior = models_for([TableSeat.person()] * 4, 0).models[1].words[PASSO]
    tallies = [bot.models.models[s].words[PASSO] for s in (1, 2, 3)]
    # the normal bots' passo is true: every count learned went to "true"
    assert all(t.false == prior.false for t in tallies)
