"""The OpenSpiel-style state: chance dealing card by card, sorted legal actions, zero-sum
returns and per-step rewards (OpenSpiel's REWARDS model), clones independent, an
information-state string per information set, resampling keeps the information state, the
decision bound, four seats only.  No OpenSpiel needed here: the tests that run OpenSpiel
itself are in ``test_rl_openspiel_pyspiel.py``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.engine import CHANCE, TERMINAL
from belote.rl.openspiel_state import BeloteState, max_decisions_per_deal
from belote.rules import PRESETS

FOUR_SEATS = [name for name, rules in PRESETS.items() if rules.players == 4]
FEWER_SEATS = [name for name, rules in PRESETS.items() if rules.players < 4]


def _random_play(state: BeloteState, rng: random.Random, stop: int | None = None) -> None:
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_action(rng.choice(outcomes)[0])
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal)
            state.apply_action(rng.choice(legal))
        steps += 1


def _deal(state: BeloteState, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_one_deal_episode_ends_with_zero_sum_returns(preset: str) -> None:
    state = BeloteState(PRESETS[preset], max_deals=1)
    _random_play(state, random.Random(1))
    assert state.current_player() == TERMINAL
    assert sum(state.returns()) == 0
    assert state.returns()[0] == state.returns()[2]


@pytest.mark.parametrize("preset", FEWER_SEATS)
def test_fewer_seat_preset_is_refused_naming_it(preset: str) -> None:
    # Issue 23: a 3-player preset loaded as a 4-player game; its returns are one
    # partnership's score minus the other's, which fewer seats do not have.
    with pytest.raises(ValueError, match=f"preset '{preset}' seats {PRESETS[preset].players}"):
        BeloteState(PRESETS[preset])


def test_clone_is_independent_and_resample_keeps_the_information_state() -> None:
    state = BeloteState(PRESETS["classic"], max_deals=2)
    _random_play(state, random.Random(2), stop=50)
    twin = state.clone()
    _random_play(twin, random.Random(3))
    assert not state.is_terminal()
    player = state.current_player()
    if player == CHANCE:
        player = 0
    other = state.resample_from_infostate(player, random.Random(4))
    assert np.array_equal(other.information_state_tensor(player),
                          state.information_state_tensor(player))


def test_bad_chance_action_is_refused() -> None:
    state = BeloteState(PRESETS["classic"])
    state.apply_action(5)
    with pytest.raises(ValueError):
        state.apply_action(5)


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_rewards_read_at_each_decision_sum_to_the_returns(preset: str) -> None:
    # OpenSpiel's REWARDS model, as random_sim_test reads it: at every decision node the
    # rewards read so far equal returns(); at the end, with the last rewards, too.
    rng = random.Random(5)
    state = BeloteState(PRESETS[preset], max_deals=3)
    total = [0.0] * 4
    scored = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        rewards = state.rewards()
        assert sum(rewards) == 0
        scored += any(rewards)
        total = [t + r for t, r in zip(total, rewards, strict=True)]
        assert total == state.returns()
        state.apply_action(rng.choice(state.legal_actions()))
    total = [t + r for t, r in zip(total, state.rewards(), strict=True)]
    assert total == state.returns()
    assert scored >= 1  # hands scored mid-episode gave nonzero rewards


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_random_play_stays_within_the_decision_bound(preset: str) -> None:
    bound = max_decisions_per_deal(PRESETS[preset])
    for seed in range(3):
        state = BeloteState(PRESETS[preset], max_deals=3)
        rng = random.Random(seed)
        decisions = 0
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
        assert decisions <= 3 * bound


def test_only_the_player_to_move_has_legal_actions() -> None:
    # Turn-based, as OpenSpiel requires (its random_sim_test checks it).
    state = BeloteState(PRESETS["classic"])
    _random_play(state, random.Random(6), stop=45)
    mover = state.current_player()
    assert state.legal_actions(mover)
    assert all(state.legal_actions(seat) == [] for seat in range(4) if seat != mover)


@pytest.mark.parametrize(("preset", "resample_share"), [
    ("classic", 0.2), ("pinasca", 0.2), ("valdostana", 0.0), ("valdostana", 0.2)])
def test_information_state_string_names_exactly_one_information_set(
        preset: str, resample_share: float) -> None:
    # Independent reference: a seat's information set is what it observed after each step
    # (Game.observation, the engine's one view) and its own actions, in order.  Over states
    # from several episodes and their resamples, the string and that record agree both ways.
    by_string: dict[str, tuple[object, ...]] = {}
    by_record: dict[tuple[object, ...], str] = {}

    def check(state: BeloteState, records: list[list[object]]) -> None:
        for seat in range(4):
            text = state.information_state_string(seat)
            assert text
            record = (seat, *records[seat])
            assert by_string.setdefault(text, record) == record
            assert by_record.setdefault(record, text) == text

    for seed in range(4):
        rng = random.Random(seed)
        state = BeloteState(PRESETS[preset], max_deals=2)
        records: list[list[object]] = [[] for _ in range(4)]
        while not state.is_terminal():
            check(state, records)
            mover = state.current_player()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            for seat in range(4):
                own = action if seat == mover else None
                seen = state.game.observation(seat).to_dict()
                seen["legal_actions"] = ()  # what a seat may do follows from the rest
                records[seat].append((mover >= 0, own, repr(seen)))
            if mover >= 0 and rng.random() < resample_share:
                # A resample is the same information set for the seat that drew it.
                other = state.resample_from_infostate(mover, rng)
                assert (other.information_state_string(mover)
                        == state.information_state_string(mover))
    assert len(by_string) > 400


def test_information_states_differ_between_seats_and_hands() -> None:
    rng = random.Random(7)
    state = BeloteState(PRESETS["classic"])
    _deal(state, rng)
    texts = {state.information_state_string(seat) for seat in range(4)}
    assert len(texts) == 4
    # Same public actions, another deal: the seat's own cards differ, so does its string.
    other = BeloteState(PRESETS["classic"])
    _deal(other, rng)
    assert other.information_state_string(0) != state.information_state_string(0)
    # One public action later: every seat's string changes.
    before = [state.information_state_string(seat) for seat in range(4)]
    state.apply_action(state.legal_actions()[0])
    assert all(state.information_state_string(seat) != before[seat] for seat in range(4))


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_resample_keeps_own_hand_public_actions_and_the_string(preset: str) -> None:
    rng = random.Random(8)
    for stop in (10, 45, 60, 90):
        state = BeloteState(PRESETS[preset], max_deals=2)
        _random_play(state, rng, stop=stop)
        if state.is_terminal():
            continue
        seat = stop % 4
        other = state.resample_from_infostate(seat, rng)
        game, world = state.game, other.game
        assert world.hands[seat] == game.hands[seat]
        assert world.bid_history == game.bid_history
        assert world.trick_history == game.trick_history and world.trick == game.trick
        assert ([a for who, a in world.log if who != CHANCE]
                == [a for who, a in game.log if who != CHANCE])
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.returns() == state.returns() and other.rewards() == state.rewards()
        assert len(other.history()) == len(state.history())
