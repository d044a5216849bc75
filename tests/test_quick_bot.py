"""The quick bot and its card-play network (issue 27): the shipped weights, numpy against
torch, whole hands on every four-seat preset, the refusal of fewer seats, and features that
see only what the seat may see."""

from __future__ import annotations

import random
from importlib import resources

import numpy as np
import pytest

from belote.ai.decision import DecisionMethod
from belote.ai.heuristic import HeuristicBot
from belote.ai.network.features import CARD_ORDER, OFFSETS, SIZE, features
from belote.ai.network.policy import FOUR_SEAT_PRESETS, Policy, card_values, default_policy
from belote.ai.quick import QuickBot
from belote.cards import card_list
from belote.engine import Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.errors import BeloteError
from belote.rules import PRESETS
from belote.sim.arena import pair_deck, play_hand
from belote.sim.match import play_step

DATA = resources.files("belote.ai.network") / "data"


def _check_file() -> tuple[np.ndarray, np.ndarray]:
    with (DATA / "policy_check.npz").open("rb") as f, np.load(f) as check:
        return check["inputs"], check["outputs"]


def test_the_shipped_weights_have_the_documented_shapes() -> None:
    policy = default_policy()
    shapes = [(w.shape, b.shape) for w, b in policy.layers]
    hidden = shapes[0][0][1]
    assert shapes == [((SIZE, hidden), (hidden,)), ((hidden, hidden), (hidden,)),
                      ((hidden, 32), (32,))]
    assert all(w.dtype == np.float32 and b.dtype == np.float32 for w, b in policy.layers)
    with (DATA / "policy.npz").open("rb") as f:
        assert len(f.read()) < 4 << 20  # a few MB at most
    assert default_policy() is policy  # read once per process


def test_numpy_inference_equals_the_stored_torch_outputs() -> None:
    inputs, outputs = _check_file()
    assert inputs.shape == (len(inputs), SIZE) and outputs.shape == (len(inputs), 32)
    for x, expected in zip(inputs, outputs, strict=True):
        np.testing.assert_allclose(default_policy().outputs(x.copy()), expected, atol=1e-5,
                                   rtol=1e-5)


def test_numpy_inference_equals_a_torch_model_with_the_same_weights() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is not installed: the stored outputs test stands in for it")
    layers = default_policy().layers
    modules: list[object] = []
    for i, (w, b) in enumerate(layers):
        linear = torch.nn.Linear(*w.shape)
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(w.T.copy()))
            linear.bias.copy_(torch.from_numpy(b))
        modules.append(linear)
        if i < len(layers) - 1:
            modules.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*modules)
    inputs, _ = _check_file()
    with torch.no_grad():
        expected = model(torch.from_numpy(inputs)).numpy()
    got = np.stack([default_policy().outputs(x.copy()) for x in inputs])
    np.testing.assert_allclose(got, expected, atol=1e-5, rtol=1e-5)


class _Checked:
    """A bot whose every answer must be one of the seat's legal actions."""

    def __init__(self, bot: QuickBot) -> None:
        self.bot, self.name = bot, bot.name
        self.methods: set[DecisionMethod] = set()

    def notify(self, event: object) -> None:
        pass

    def choose(self, observation: Observation) -> int:
        decision = self.bot.decide(observation, None)
        assert decision.action in observation.legal_actions
        self.methods.add(decision.method)
        return decision.action


@pytest.mark.parametrize("preset", FOUR_SEAT_PRESETS)
def test_the_quick_bot_plays_whole_hands_legally(preset: str) -> None:
    quick = [_Checked(QuickBot(seat)) for seat in range(4)]
    for index in range(3):
        play_hand(PRESETS[preset], quick, pair_deck(27, index), index % 4)  # type: ignore[arg-type]
    assert DecisionMethod.NETWORK in set().union(*(q.methods for q in quick))


@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_fewer_than_four_seats_are_refused_clearly(preset: str) -> None:
    rules = PRESETS[preset]
    game = Game(rules)
    game.deal(pair_deck(1, 0)[: 32])
    observation = game.observation(game.current_player())
    with pytest.raises(BeloteError) as refused:
        QuickBot(1).decide(observation, None)
    message = str(refused.value)
    assert "four-seat presets only" in message
    assert all(name in message for name in FOUR_SEAT_PRESETS)
    with pytest.raises(BeloteError, match="four-seat presets only"):
        card_values(observation)


def _mid_hand(preset: str, seed: int, cards_played: int) -> Game:
    """A game of the normal bot at four seats, ``cards_played`` cards into the card play."""
    deals = seeded_deck_source(seed)
    bots = [HeuristicBot(seat) for seat in range(4)]
    game = Game(PRESETS[preset])
    while not (game.phase == Phase.PLAYING and game.played.bit_count() >= cards_played):
        play_step(game, bots, deals)
    return game


@pytest.mark.parametrize(("preset", "played"), [("classic", 5), ("coinche", 13),
                                                 ("italian", 2), ("valdostana", 9)])
def test_features_never_see_the_other_hands(preset: str, played: int) -> None:
    game = _mid_hand(preset, played, played)
    viewer = game.current_player()
    before = features(game.observation(viewer))
    rng = random.Random(played)
    for _ in range(5):
        deal_the_others_again(game, viewer, rng)
        np.testing.assert_array_equal(features(game.observation(viewer)), before)


def deal_the_others_again(game: Game, viewer: int, rng: random.Random) -> None:
    """The cards of the seats other than ``viewer`` dealt among them again: the same
    counts, other cards (what ``viewer`` sees must not move)."""
    others = [seat for seat in range(game.players) if seat != viewer]
    hidden = [c for seat in others for c in card_list(game.hands[seat])]
    rng.shuffle(hidden)
    for seat in others:
        size = game.hands[seat].bit_count()
        game.hands[seat] = sum(1 << c for c in hidden[:size])
        hidden = hidden[size:]


def test_canonical_suits_put_the_trump_first() -> None:
    game = _mid_hand("classic", 3, 0)
    obs = game.observation(game.current_player())
    assert obs.trump is not None and obs.trump < 4
    x = features(obs)
    hand = [CARD_ORDER[obs.trump][i] for i in np.flatnonzero(x[OFFSETS["hand"]:][:32])]
    assert sum(1 << c for c in hand) == obs.hand
    assert x[OFFSETS["trump"]] == 1.0  # the trump suit's slot, whichever suit it is


@pytest.mark.parametrize("preset", FOUR_SEAT_PRESETS)
def test_the_advice_part_is_the_normal_bots_card(preset: str) -> None:
    game = _mid_hand(preset, 7, 6)
    obs = game.observation(game.current_player())
    assert obs.trump is not None
    advice = features(obs)[OFFSETS["normal"]:]
    assert advice.sum() == 1.0
    card = CARD_ORDER[obs.trump][int(np.argmax(advice))]
    assert card == HeuristicBot(99).choose(obs) & 31


def test_card_values_cover_the_legal_cards_and_the_best_is_played() -> None:
    game = _mid_hand("coinche", 11, 4)
    obs = game.observation(game.current_player())
    values = card_values(obs)
    assert set(values) == {a for a in obs.legal_actions if A.is_play(a)}
    decision = QuickBot(1).decide(obs, None)
    if len(values) > 1:
        assert decision.method is DecisionMethod.NETWORK
        assert values[decision.action] == max(values.values())


def test_a_policy_of_the_wrong_shape_is_refused() -> None:
    w = np.zeros((SIZE + 1, 8), np.float32)
    with pytest.raises(BeloteError, match="features"):
        Policy(((w, np.zeros(8, np.float32)), (np.zeros((8, 32), np.float32),
                                                np.zeros(32, np.float32))))


def test_the_terminal_table_refuses_the_quick_bot_at_three_seats_before_any_play() -> None:
    import io

    from belote.cli.play import run_terminal_game

    out = io.StringIO()
    code = run_terminal_game(preset="valdostana3", bots="quick", stdin=io.StringIO("q\n"),
                             stdout=out)
    assert code == 2
    assert "four-seat presets only (classic, pinasca, italian, valdostana, coinche)" in \
        out.getvalue()
    assert "New match" not in out.getvalue()
