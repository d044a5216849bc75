"""The PettingZoo environment passes PettingZoo's own conformance tests (``api_test``,
``seed_test``, ``render_test``) on every preset; it renders the events in the four languages
without telling any hand but the chosen seat's, and its global state (``state()``) holds
every hand; skipped where the ``rl`` extra (pettingzoo) is not installed."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state_space as check_state_space

from belote.engine.events import CardsDealt
from belote.i18n import LANGUAGES, describe_event
from belote.rl import pettingzoo_env
from belote.rl.tensors import LAYOUT, STATE_LAYOUT
from belote.rules import PRESETS

FOUR_SEATS = [p for p, r in PRESETS.items() if r.players == 4]

# api_test advises a bare array to every environment not on its own list (chess, go, ...),
# even though those use the same {"observation", "action_mask"} dict as this one.
DICT_SPACE_ADVICE = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning")


@DICT_SPACE_ADVICE
@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_environment_passes_pettingzoo_api_test(preset: str) -> None:
    api_test(pettingzoo_env.env(preset=preset), num_cycles=300)


@DICT_SPACE_ADVICE
def test_raw_environment_passes_api_test_with_match_rewards_and_observation_tensor() -> None:
    api_test(pettingzoo_env.raw_env(reward="match", observation="observation"), num_cycles=300)


def _play(env: object, seed: int) -> dict[str, float]:
    env.reset(seed=seed)  # type: ignore[attr-defined]
    totals = dict.fromkeys(env.possible_agents, 0.0)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)  # type: ignore[attr-defined]
    return totals


def test_one_hand_episode_pays_partners_alike_and_opponents_the_opposite() -> None:
    totals = _play(pettingzoo_env.env(preset="coinche", max_hands=1), seed=4)
    assert totals["player_0"] == totals["player_2"] == -totals["player_1"]


def test_the_seed_fixes_the_episode() -> None:
    a = _play(pettingzoo_env.env(max_hands=2), seed=9)
    b = _play(pettingzoo_env.env(max_hands=2), seed=9)
    assert a == b


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        pettingzoo_env.raw_env(reward="trick")
    with pytest.raises(ValueError):
        pettingzoo_env.raw_env(preset="nope")
    with pytest.raises(ValueError):
        pettingzoo_env.raw_env(flags={"no_such_flag": 1})
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="language"):
        pettingzoo_env.raw_env(render_mode="ansi", language="de")
    with pytest.raises(ValueError, match="render_seat"):
        pettingzoo_env.raw_env(render_mode="ansi", render_seat=4)


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_environment_passes_pettingzoo_seed_test(preset: str) -> None:
    seed_test(partial(pettingzoo_env.env, preset=preset))  # 500 cycles, its default


@pytest.mark.parametrize("language", LANGUAGES)
def test_environment_passes_pettingzoo_render_test(language: str) -> None:
    assert pettingzoo_env.raw_env.metadata["render_modes"] == ["ansi", "human"]
    # beyond render_test's own check (a str): no value left unsaid ("None") in a sentence
    render_test(partial(pettingzoo_env.env, language=language),
                custom_tests={"ansi": lambda text: isinstance(text, str) and "None" not in text})


def _rendered(seed: int, **kwargs: object) -> tuple[list[str], list[CardsDealt]]:
    """The text rendered after the reset and after every step of a one-hand episode, and
    the hands dealt (read from the engine's events, which the test may see)."""
    env = pettingzoo_env.raw_env(render_mode="ansi", max_hands=1, **kwargs)
    deals: list[CardsDealt] = []
    original = env._deal

    def deal() -> list[object]:
        events = original()
        deals.extend(e for e in events if isinstance(e, CardsDealt))
        return events

    env._deal = deal
    env.reset(seed=seed)
    texts = [env.render()]
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        texts.append(env.render())
    return texts, deals


def test_render_speaks_the_events_in_each_language() -> None:
    by_language = {lang: _rendered(5, language=lang)[0] for lang in LANGUAGES}
    english = by_language["en"]
    assert english[0].startswith("New match (classic) to 1000 points.")
    assert sum(text.count("wins the trick") for text in english) == 8
    assert "Totals: North-South" in [text for text in english if text][-1]  # the score
    for step, texts in enumerate(zip(*by_language.values(), strict=True)):
        if texts[0]:  # every step that did something is told, differently in each language
            assert all(texts) and len(set(texts)) == len(LANGUAGES), step


@pytest.mark.parametrize("language", LANGUAGES)
def test_render_tells_no_hand_but_the_chosen_seats(language: str) -> None:
    for seat in (None, 0, 3):
        texts, deals = _rendered(6, language=language, render_seat=seat)
        spoken = "\n".join(texts)
        assert deals
        for deal in deals:
            sentence = describe_event(deal, language, deal.seat)
            assert sentence is not None
            assert (sentence in spoken) == (deal.seat == seat), (seat, deal)


def test_render_without_a_render_mode_warns_and_human_prints(
        capsys: pytest.CaptureFixture[str]) -> None:
    quiet = pettingzoo_env.raw_env()
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render mode"):
        assert quiet.render() is None
    ansi = pettingzoo_env.raw_env(render_mode="ansi", language="fr")
    human = pettingzoo_env.raw_env(render_mode="human", language="fr")
    ansi.reset(seed=1)
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"


def test_state_is_the_global_state_with_every_hand() -> None:
    env = pettingzoo_env.env(max_hands=1)
    check_state_space(env)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    hands = STATE_LAYOUT["hands"]
    for _agent in env.agent_iter():
        state = env.state()
        assert state.shape == env.state_space.shape and env.state_space.contains(state)
        game = env.unwrapped.game
        if game.phase in (1, 2):
            assert [c for c in range(32) if any(game.hands[s] >> c & 1 for s in range(4))] == \
                sorted(int(i) % 32 for i in np.flatnonzero(state[hands]))
            # the public part is seat 0's information state (absolute seats)
            seat_0 = env.observe("player_0")["observation"]
            assert np.array_equal(state[:LAYOUT["bidding_hand"].stop], seat_0)
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
