"""The quick bot's bidding network (issue 27, item 1): the shipped weights, numpy against
torch, legal bids on every take-or-pass preset, the contract auctions left to the normal
bot, and features that see only the bidder's own view."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from belote.ai.decision import DecisionMethod
from belote.ai.expert import BID_MARGIN
from belote.ai.heuristic import HeuristicBot
from belote.ai.network.bidding import (
    BID_SIZE,
    TRUMPS,
    BidPolicy,
    bid_features,
    candidate_trump,
    default_bid_policy,
    labelled,
    reads,
)
from belote.ai.quick import QuickBot
from belote.cards import ACES
from belote.engine import Game
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.engine.state import CHANCE, Phase
from belote.errors import BeloteError
from belote.rules import PRESETS
from tests.test_quick_bot import deal_the_others_again

DATA = resources.files("belote.ai.network") / "data"
TAKE_OR_PASS = [name for name, rules in PRESETS.items() if reads(rules)]
LABELLED = [name for name, rules in PRESETS.items() if labelled(rules)]


def _bidding_views(preset: str, deals: int, seed: int = 5) -> list[Observation]:
    """Every bidder's view of ``deals`` auctions of normal bots."""
    rng = random.Random(seed)
    rules = PRESETS[preset]
    views: list[Observation] = []
    for deal in range(deals):
        game = Game(rules, deal % 4)
        bots = [HeuristicBot(rng.randrange(1 << 30)) for _ in range(4)]
        while game.phase != Phase.PLAYING and not game.is_terminal() and len(views) < 10_000:
            mover = game.current_player()
            if mover == CHANCE:
                deck = list(range(32))
                rng.shuffle(deck)
                game.deal(deck)
                continue
            view = game.observation(mover)
            if game.phase == Phase.BIDDING:
                views.append(view)
            game.apply(bots[mover].choose(view), mover)
    return views


def test_take_or_pass_presets_are_read_and_contract_auctions_are_not() -> None:
    assert set(TAKE_OR_PASS) == {"classic", "pinasca"}
    assert set(LABELLED) == {"classic", "pinasca", "italian"}  # italian: senza and tutte
    assert not reads(PRESETS["coinche"]) and not reads(PRESETS["valdostana"])
    assert not reads(PRESETS["valdostana3"]) and not reads(None)


def test_the_shipped_bidding_weights_have_the_documented_shapes() -> None:
    policy = default_bid_policy()
    shapes = [(w.shape, b.shape) for w, b in policy.layers]
    hidden = shapes[0][0][1]
    assert shapes == [((BID_SIZE, hidden), (hidden,)), ((hidden, hidden), (hidden,)),
                      ((hidden, TRUMPS), (TRUMPS,))]
    with (DATA / "bidding.npz").open("rb") as f:
        assert len(f.read()) < 1 << 20
    assert default_bid_policy() is policy


def test_numpy_bidding_inference_equals_the_stored_torch_outputs() -> None:
    with (DATA / "bidding_check.npz").open("rb") as f, np.load(f) as check:
        inputs, outputs = check["inputs"], check["outputs"]
    assert inputs.shape == (len(inputs), BID_SIZE) and outputs.shape == (len(inputs), TRUMPS)
    assert len(inputs) >= 8
    got = np.stack([default_bid_policy().outputs(x.copy()) for x in inputs])
    np.testing.assert_allclose(got, outputs, atol=1e-3, rtol=1e-4)


@pytest.mark.parametrize("preset", TAKE_OR_PASS)
def test_the_quick_bots_bids_are_legal_and_the_networks_where_it_may_take(preset: str) -> None:
    bot = QuickBot(3)
    networked = 0
    for view in _bidding_views(preset, 40):
        decision = bot.decide(view, None)
        assert decision.action in view.legal_actions
        takes = any(candidate_trump(a, view.turned >> 3) is not None
                    for a in view.legal_actions) if view.turned is not None else False
        if takes:
            assert decision.method is DecisionMethod.NETWORK
            networked += 1
            gains = default_bid_policy().gains(view)
            best = max(gains, key=gains.__getitem__)
            if gains[best] > BID_MARGIN:
                assert decision.action == best  # worth the margin: taken
            else:
                assert decision.action in (A.PASS, A.ASPETTO)
                assert (decision.action == A.ASPETTO) == (A.ASPETTO in view.legal_actions
                                                          and bool(view.hand & ACES))
    assert networked > 40


@pytest.mark.parametrize("preset", ["coinche", "valdostana", "italian"])
def test_contract_auctions_and_senza_or_tutte_keep_the_normal_bots_bids(preset: str) -> None:
    bot, normal = QuickBot(3), HeuristicBot(3)
    for view in _bidding_views(preset, 10):
        decision = bot.decide(view, None)
        assert decision.method is not DecisionMethod.NETWORK
        assert decision.action == normal.choose(view)


@pytest.mark.parametrize("preset", LABELLED)
def test_bid_features_never_see_the_other_hands(preset: str) -> None:
    rng = random.Random(7)
    rules = PRESETS[preset]
    for deal in range(6):
        game = Game(rules, deal % 4)
        deck = list(range(32))
        rng.shuffle(deck)
        game.deal(deck)
        for _ in range(deal % 4):  # a few passes first: later bidders too
            game.apply(A.PASS, game.current_player())
        viewer = game.current_player()
        before = bid_features(game.observation(viewer))
        assert before.shape == (BID_SIZE,) and before.dtype == np.float32
        assert before[:32].sum() == game.hands[viewer].bit_count()
        for _ in range(4):
            deal_the_others_again(game, viewer, rng)
            np.testing.assert_array_equal(bid_features(game.observation(viewer)), before)


def test_a_bidding_policy_of_the_wrong_shape_is_refused() -> None:
    wrong = ((np.zeros((BID_SIZE + 1, 4), np.float32), np.zeros(4, np.float32)),
             (np.zeros((4, TRUMPS), np.float32), np.zeros(TRUMPS, np.float32)))
    with pytest.raises(BeloteError, match="bidding network reads"):
        BidPolicy(wrong)


def test_a_network_saved_is_the_network_loaded_and_the_shipped_one_is_read_whole(
        tmp_path: Path) -> None:
    """The weights' format has one home (belote.ai.network.mlp): the training scripts write
    with ``save`` what the bots read with ``load``."""
    shipped = default_bid_policy()
    assert BidPolicy.shipped("bidding.npz").layers[0][0].shape == (BID_SIZE, 64)
    shipped.save(tmp_path / "again.npz")
    again = BidPolicy.load(tmp_path / "again.npz")
    assert len(again.layers) == len(shipped.layers)
    for (w, b), (w2, b2) in zip(shipped.layers, again.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2) and w2.dtype == np.float32
    x = np.random.default_rng(3).random(BID_SIZE, dtype=np.float32)
    assert np.array_equal(shipped.outputs(x.copy()), again.outputs(x.copy()))
