"""Worlds drawn among those a model of the bids fits (ExpertBot(bid_model=...)), and
colver's bidder as that model."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import normal_bots_midway, play_every_seat_legally

from belote.ai import make_bot
from belote.ai.expert import ExpertBot
from belote.ai.fitting import FittingWorlds
from belote.ai.likelihood import hands_at_deal
from belote.ai.worlds import fits, knowledge, sample_world
from belote.cards import ALL_CARDS, CardSet
from belote.cli.arena import result_table
from belote.engine import actions as A
from belote.engine.evidence import World
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.oracles.presets import arena_rules
from belote.rules import PRESETS
from belote.sim.arena import (
    ArenaResult,
    SameBidder,
    pair_deck,
    play_hand,
    play_pair,
)


class HoldsCard:
    """A model that fits only the worlds in which ``seat`` was dealt ``card``."""

    def __init__(self, seat: int, card: int) -> None:
        self.seat, self.card = seat, card
        self.calls = 0

    def misfits(self, obs: Observation, hands: tuple[CardSet, CardSet, CardSet, CardSet],
                ) -> int:
        self.calls += 1
        return 0 if hands[self.seat] >> self.card & 1 else 1


class AlwaysFits:
    def misfits(self, obs: Observation, hands: tuple[CardSet, CardSet, CardSet, CardSet],
                ) -> int:
        return 0


class NeverFits:
    def misfits(self, obs: Observation, hands: tuple[CardSet, CardSet, CardSet, CardSet],
                ) -> int:
        return 2


def _bot(model: object, worlds: int = 6) -> ExpertBot:
    return ExpertBot(3, max_worlds=worlds, min_worlds=worlds, budget_ms=600_000,
                     hard_ms=600_000, bid_model=model)  # type: ignore[arg-type]


def _fitting(bot: ExpertBot) -> FittingWorlds:
    assert bot.fitting is not None
    return bot.fitting


def _coinche_card_decision(cards: int = 5, seed: int = 11,
                           ) -> tuple[Observation, tuple[CardSet, ...]]:
    game = normal_bots_midway("coinche", seed, cards)
    seat = game.current_player()
    return game.observation(seat), tuple(game.hands)


def _position_with_a_void_shown() -> tuple[Observation, tuple[CardSet, ...]]:
    """A coinche card decision where another seat has shown a void in a suit a third seat
    holds."""
    for seed in range(11, 60):
        obs, truth = _coinche_card_decision(14, seed)
        info = knowledge(obs)
        if any(info.forbidden[s] & truth[t] for s in range(4) for t in range(4)
               if obs.seat not in (s, t) and s != t):
            return obs, truth
    raise AssertionError("no void shown in these hands")


def test_the_real_deal_and_any_drawn_world_fit_what_was_seen_and_a_changed_one_does_not(
) -> None:
    rng = random.Random(1)
    obs, truth = _position_with_a_void_shown()
    info = knowledge(obs)
    assert fits(info, truth, rng)
    for _ in range(20):
        assert fits(info, sample_world(info, rng), rng)
    seat = obs.seat
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    a, b = others[0], others[1]
    # one card too many for one seat, one too few for another
    moved = list(truth)
    card = moved[a] & -moved[a]
    moved[a] ^= card
    moved[b] |= card
    assert not fits(info, tuple(moved), rng)
    # a card a seat cannot hold (it did not follow that suit) swapped into its hand
    for s in others:
        for t in others:
            held = info.forbidden[s] & truth[t]
            if s != t and held:
                bad = list(truth)
                give, take = held & -held, truth[s] & -truth[s]
                bad[s], bad[t] = bad[s] ^ take | give, bad[t] ^ give | take
                assert not fits(info, tuple(bad), rng)
                return
    pytest.fail("no void was shown in this hand: pick another position")


def test_hands_at_deal_give_each_seat_its_cards_in_hand_and_those_it_played() -> None:
    obs, truth = _coinche_card_decision(6)
    dealt = hands_at_deal(obs, truth)
    assert sum(h.bit_count() for h in dealt) == 32
    assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == ALL_CARDS
    played_by = [0, 0, 0, 0]
    for leader, cards in obs.tricks:
        for i, card in enumerate(cards):
            played_by[(leader + i) % 4] |= 1 << card
    for who, card in obs.trick:
        played_by[who] |= 1 << card
    assert all(dealt[s] == truth[s] | played_by[s] for s in range(4))


def test_every_world_the_expert_keeps_fits_the_bid_model_and_none_misfit() -> None:
    obs, truth = _coinche_card_decision(5)
    seat = obs.seat
    assert seat is not None
    unseen = knowledge(obs).unseen
    # a card the seat cannot see, in the hand of the next seat: the model insists on it
    holder = (seat + 1) % 4
    card = next(c for c in range(32) if unseen >> c & 1 and truth[holder] >> c & 1)
    model = HoldsCard(holder, card)
    bot = _bot(model)
    fitting = _fitting(bot)
    action = bot.choose(obs)
    assert action in obs.legal_actions
    assert bot.last_worlds == 6 and fitting.misfits == 0
    assert fitting.deals and all(deal.dealt[holder] >> card & 1 for deal, _ in fitting.deals)
    assert fitting.draws == model.calls >= 6


def test_with_no_world_fitting_the_best_drawn_is_used_and_counted(
        caplog: pytest.LogCaptureFixture) -> None:
    obs, _ = _coinche_card_decision(5)
    bot = _bot(NeverFits())
    fitting = _fitting(bot)
    fitting.max_draws = 4
    with caplog.at_level("INFO", logger="belote.ai.fitting"):
        assert bot.choose(obs) in obs.legal_actions
    assert fitting.misfits == bot.last_worlds == 6
    assert fitting.draws == 6 * 4
    assert not fitting.deals  # nothing kept that did not fit
    assert "no world fitting the bids" in caplog.text


def test_fitting_worlds_refuse_no_draws() -> None:
    with pytest.raises(ValueError, match="at least one draw"):
        FittingWorlds(NeverFits(), random.Random(0), draws=0)


def test_worlds_that_fitted_are_reused_later_in_the_hand_and_forgotten_at_the_next() -> None:
    game = normal_bots_midway("coinche", 11, 1)
    seat = game.current_player()
    unseen = knowledge(game.observation(seat)).unseen
    model = HoldsCard((seat + 2) % 4, (unseen & -unseen).bit_length() - 1)  # a third fit
    bot = _bot(model)
    fitting = _fitting(bot)
    normal = make_bot("normal", 0)
    draws: list[int] = []
    reusable: list[int] = []
    while game.phase == Phase.PLAYING and len(draws) < 3:
        who = game.current_player()
        obs = game.observation(who)
        if who == seat:
            bot.last_worlds = 0
            if draws:  # what the bot will find kept (the same filter, no signals here)
                kept = FittingWorlds.kept(fitting, obs, knowledge(obs))
                now = tuple(game.hands)
                reusable.append(sum(world == now for world in kept))
            held = tuple(game.hands)
            game.apply(bot.choose(obs), who)
            if not draws and bot.last_worlds:  # the real deal, as if drawn and fitted
                fitting.deals.append((_as_read(hands_at_deal(obs, held)), 0.0))
            if bot.last_worlds:  # a search (not a single legal card)
                draws.append(fitting.draws)
        else:
            game.apply(normal.choose(obs), who)
    assert draws[0] >= 6  # nothing kept at the first decision: every world drawn
    assert reusable[0] == 1  # the deal kept at the first decision is offered at the second
    assert all(deal.dealt[seat] >> c & 1 for deal, _ in fitting.deals
               for c in range(32) if game.observation(seat).hand >> c & 1)
    for seed in range(12, 40):  # another hand, a decision with a choice: a fresh start
        other = normal_bots_midway("coinche", seed, 1)
        new_seat = other.current_player()
        obs = other.observation(new_seat)
        if len(obs.legal_actions) > 1:
            break
    unseen = knowledge(obs).unseen
    fitting.model = HoldsCard((new_seat + 1) % 4, (unseen & -unseen).bit_length() - 1)
    before = fitting.draws
    bot.choose(obs)
    assert fitting.draws - before >= 6  # nothing reused from the last hand
    dealt = hands_at_deal(obs, [obs.hand] * 4)[new_seat]
    assert 0 < len(fitting.deals) <= 6 and all(d.dealt[new_seat] == dealt
                                               for d, _ in fitting.deals)


def test_colvers_bidder_fits_the_real_deal_and_not_a_swapped_one() -> None:
    pytest.importorskip("colver")
    from belote.oracles.colver.bid_model import ColverBidModel

    model = ColverBidModel()
    seen: list[tuple[Observation, tuple[CardSet, ...]]] = []

    class Spy:
        name = "spy"

        def __init__(self) -> None:
            self.hands: tuple[CardSet, ...] = ()

        def see_deal(self, dealer: int, hands: tuple[CardSet, ...]) -> None:
            self.hands = tuple(hands)

        def notify(self, event: object) -> None:
            pass

        def choose(self, obs: Observation) -> int:
            if obs.phase == Phase.PLAYING and not seen:
                seen.append((obs, self.hands))
            return make_bot("normal", 0).choose(obs)

    rules = arena_rules("colver")
    swapped = 0
    for index in range(12):
        seen.clear()
        players = [SameBidder(make_bot("colver-bid", index * 4 + s), Spy()) for s in range(4)]
        play_hand(rules, players, pair_deck(3, index), index % 4)
        if not seen:
            continue  # passed out
        obs, dealt = seen[0]
        hands = (dealt[0], dealt[1], dealt[2], dealt[3])
        assert model.misfits(obs, hands) == 0
        contracts = [who for who, bid in obs.bids
                     if A.CONTRACT_BASE <= bid < A.CONTRACT_END and who != obs.seat]
        if contracts:  # the bidder's hand given to its partner and back: not its bid
            who = contracts[-1]
            mate = (who + 2) % 4
            if mate != obs.seat:
                mixed = list(hands)
                mixed[who], mixed[mate] = hands[mate], hands[who]
                swapped += model.misfits(obs, (mixed[0], mixed[1], mixed[2], mixed[3])) > 0
    assert swapped >= 2


def test_the_expert_with_colvers_bid_model_plays_colvers_table_and_reports_its_misfits(
) -> None:
    pytest.importorskip("colver")
    bot = make_bot("expert-w20-cbid", 5)
    assert isinstance(bot, ExpertBot) and bot.bid_model is not None
    assert bot.last_misfits == 0 and make_bot("expert-w20", 5).last_misfits is None
    pair = play_pair(arena_rules("colver"), "expert-w20-cbid", "colver-heuristic", 4, 1,
                     "colver-bid")  # the engine refuses any illegal card
    share = pair.compute_a.misfit_share
    assert share is not None and 0.0 <= share <= 1.0 and pair.compute_a.fitting_worlds > 0
    assert pair.compute_b.misfit_share is None  # colver's agent draws no fitting worlds
    result = ArenaResult(rules="colver", bot_a="expert-w20-cbid", bot_b="colver-heuristic",
                         bidder="colver-bid", seed=4, deals=1, pairs=[pair])
    data = result.to_dict()
    assert data["misfit_share_a"] == share and data["misfit_share_b"] is None
    restored = ArenaResult.from_dict(data).compute()[0]
    assert restored.misfits == pair.compute_a.misfits
    table = result_table(result, "colver")
    assert table.caption is not None and "not fitting the bids" in str(table.caption)


def test_fits_checks_each_fact_on_its_own() -> None:
    rng = random.Random(2)
    obs, truth = _position_with_a_void_shown()
    info = knowledge(obs)
    seat = obs.seat
    assert seat is not None and fits(info, truth, rng)
    a, b, _ = (s for s in range(4) if s != seat)
    card_a, card_b = truth[a] & -truth[a], truth[b] & -truth[b]
    untricked = dataclasses.replace(info, tricks=())  # each fact below on its own
    assert fits(untricked, truth, rng)
    # a card known to be in a's hand (as after a belote) in no hand at all
    known = list(info.known)
    known[a] |= card_a
    facts = dataclasses.replace(untricked, known=tuple(known), unseen=info.unseen & ~card_a,
                                sizes=_less(info.sizes, a))
    lost = list(truth)
    lost[a] = truth[a] ^ card_a
    assert fits(facts, truth, rng) and not fits(facts, tuple(lost), rng)
    # a card a seat cannot hold, by the forbidden set alone
    forbidden = list(info.forbidden)
    forbidden[b] |= card_b
    assert not fits(dataclasses.replace(untricked, forbidden=tuple(forbidden)), truth, rng)
    # a card already played, back in a hand
    gone = obs.played & -obs.played
    replayed = list(truth)
    replayed[a] = truth[a] ^ card_a | gone
    assert not fits(untricked, tuple(replayed), rng)
    # one card in two hands (and one in none)
    twice = truth[a] & ~info.forbidden[b]
    twice &= -twice
    doubled = list(truth)
    doubled[b] = truth[b] ^ card_b | twice
    assert not fits(untricked, tuple(doubled), rng)
    # a hand one card short
    short = list(truth)
    short[b] = truth[b] ^ card_b
    assert not fits(untricked, tuple(short), rng)
    # the tricks alone: a seat that did not follow suit holding that suit
    void_breakers = [(s, t) for s in range(4) for t in range(4)
                     if seat not in (s, t) and s != t and info.forbidden[s] & truth[t]]
    s, t = void_breakers[0]
    give, take = info.forbidden[s] & truth[t], truth[s]
    give, take = give & -give, take & -take
    broken = list(truth)
    broken[s], broken[t] = truth[s] ^ take | give, truth[t] ^ give | take
    no_forbidden = dataclasses.replace(info, forbidden=(0, 0, 0, 0))
    assert fits(no_forbidden, truth, rng) and not fits(no_forbidden, tuple(broken), rng)
    # (issue 23: the bots' conventions, e.g. promised aces, are evidence, no longer facts
    # that fits checks: ConventionEvidence weighs them)


def _less(sizes: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(n - (s == seat) for s, n in enumerate(sizes))


def test_a_kept_deal_is_weighed_once_per_signal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 23: signals and the other conventions are evidence (fitting.CONVENTIONS); a kept
    # deal carries the log-likelihood it was accepted under and is weighed again only by
    # what was said since.
    import belote.ai.fitting as fitting_module

    class Unlikely:
        def log_likelihood(self, obs: Observation, world: object) -> float:
            return -60.0  # as if a signal said the opposite of the deal

    monkeypatch.setattr(fitting_module, "CONVENTIONS", Unlikely())
    obs, truth = _coinche_card_decision(5)
    info = knowledge(obs)
    deal = hands_at_deal(obs, truth)
    fitting = FittingWorlds(NeverFits(), random.Random(0))
    fitting.kept(obs, info)  # sets the hand
    fitting.deals = [(_as_read(deal), -60.0)]  # drawn when it was said
    assert len(fitting.kept(obs, info)) == 1  # not weighed a second time
    fitting.deals = [(_as_read(deal), 0.0)]  # drawn before it
    assert fitting.kept(obs, info) == [] and fitting.deals == []  # weighed, dropped


@pytest.mark.slow
def test_no_bid_model_is_used_with_fewer_seats_or_a_turned_card() -> None:
    for preset in ("valdostana3", "classic"):
        bot = ExpertBot(3, max_worlds=2, min_worlds=2, budget_ms=600_000, hard_ms=600_000,
                        bid_budget_ms=20, bid_hard_ms=50, bid_model=HoldsCard(1, 0))
        game = play_every_seat_legally(PRESETS[preset], bot, 60, seed=5)
        assert game.played or game.deal_no > 1  # cards were played
        assert _fitting(bot).draws == 0 and bot.last_misfits == 0


def test_a_kept_deal_whose_seats_played_each_others_cards_is_dropped() -> None:
    for seed in range(11, 40):  # a position where two other seats have played
        obs, truth = _coinche_card_decision(9, seed)
        seat = obs.seat
        assert seat is not None
        played_by = hands_at_deal(obs, [0, 0, 0, 0])
        pair = [s for s in range(4) if s != seat and played_by[s]]
        if len(pair) >= 2:
            break
    a, b = pair[:2]
    deal = hands_at_deal(obs, truth)
    x, z = played_by[a] & -played_by[a], played_by[b] & -played_by[b]
    crossed = list(deal)
    crossed[a], crossed[b] = deal[a] ^ x | z, deal[b] ^ z | x  # each "dealt" the other's card
    info = knowledge(obs)
    fitting = FittingWorlds(NeverFits(), random.Random(0))
    fitting.kept(obs, info)  # sets the hand
    fitting.deals = [(_as_read(crossed), 0.0), (_as_read(deal), 0.0)]
    # the crossed deal leaves the same cards in hand as the real one: only the deal tells
    assert fits(info, tuple(truth), random.Random(0))
    assert fitting.kept(obs, info) == [tuple(truth)]
    assert [d.dealt for d, _ in fitting.deals] == [deal]


def test_the_world_accuracy_benchmark_runs_with_fitting_worlds() -> None:
    pytest.importorskip("colver")
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "world_likelihood.py"
    env = {**os.environ, "PYTHONPATH": str(script.parents[1])}
    out = subprocess.run([sys.executable, str(script), "--hands", "2", "--worlds", "3",
                          "--eps", "0.4", "--fitting"], capture_output=True, text=True,
                         env=env, timeout=300, check=True).stdout
    assert "colver bids" in out and "decisions of seat 0" in out


def _as_read(deal: Sequence[CardSet]) -> World:
    """A kept deal as FittingWorlds stores it: the World the conventions read (no turned
    card here: the first packets are the whole deal)."""
    dealt = tuple(deal)
    return World(dealt, dealt, dealt)


def test_a_kept_deal_is_weighed_on_the_world_it_was_accepted_under(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Reviewer, issue 23: kept() re-read a fresh world_of (another first-packet split)
    # against the weight stored under the draw's split.  The World drawn is stored and
    # read again as it was.
    import belote.ai.fitting as fitting_module

    obs, _ = _coinche_card_decision(5)
    info = knowledge(obs)
    fitting = FittingWorlds(AlwaysFits(), random.Random(0), draws=1)
    fitting.kept(obs, info)  # sets the hand
    world, fitted = fitting.draw(info, obs, float("inf"))
    assert fitted and len(fitting.deals) == 1
    stored, _ = fitting.deals[0]
    assert isinstance(stored, World) and stored.dealt == hands_at_deal(obs, world)

    def no_fresh_split(*_args: object) -> World:
        raise AssertionError("a kept deal is read on the World it was accepted under")

    monkeypatch.setattr(fitting_module, "world_of", no_fresh_split)
    assert fitting.kept(obs, info) == [world]
