"""``Game.undo`` in constant time from a stack of snapshots (issue 23: "``undo`` O(1) with a
snapshot stack"; python-chess's ``push``/``pop``): after any deal or action, undo gives back
exactly the game before it, whatever came before, in clones and after pickling too."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from belote.engine import CHANCE, Game, seeded_deck_source
from belote.rules import PRESETS

_NOT_STATE = ("_undo", "_resample_cache", "_mask_cache")  # caches, not state


def state_of(game: Game) -> dict[str, Any]:
    """Everything the game holds, but the undo stack and the caches."""
    return {k: v for k, v in vars(game).items() if k not in _NOT_STATE}


def assert_same(game: Game, before: Game) -> None:
    assert state_of(game) == state_of(before)
    assert game.log == before.log
    for seat in range(game.players):
        assert game.observation(seat) == before.observation(seat)
        assert game.legal_actions(seat) == before.legal_actions(seat)
    assert game.spectator_view() == before.spectator_view()


def step(game: Game, rng: random.Random, source: Callable[[], list[int]]) -> None:
    if game.current_player() == CHANCE:
        game.deal(source())
        return
    talkers = game.seats_with_open_window()
    if talkers and rng.random() < 0.5:
        seat = rng.choice(talkers)
        game.apply(rng.choice(game.legal_actions(seat)), seat)
        return
    game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_undo_after_each_action_gives_back_the_game_before_it(preset: str) -> None:
    rng = random.Random(preset)
    source = seeded_deck_source(len(preset))
    game = Game(PRESETS[preset], rng.randrange(PRESETS[preset].players))
    actions = 0
    while not game.is_terminal() and actions < 1500:
        before = game.clone()
        step(game, rng, source)
        after = game.clone()
        last = game.log[-1]
        game.undo()
        assert_same(game, before)
        if last[0] == CHANCE:
            game.deal(last[1])  # type: ignore[arg-type]
        else:
            game.apply(last[1], last[0])  # type: ignore[arg-type]
        assert_same(game, after)  # and done again, it gives the same game
        actions += 1


@pytest.mark.parametrize("preset", ["classic", "valdostana", "italian"])
def test_undo_all_the_way_back_through_clones_and_pickles(preset: str) -> None:
    rng = random.Random(7)
    source = seeded_deck_source(7)
    game = Game(PRESETS[preset], 0)
    history: list[Game] = []
    while not game.is_terminal() and game.hands_scored < 3:
        history.append(game.clone())
        step(game, rng, source)
    branch = game.clone()  # shares the stack; its own moves leave ours alone
    for _ in range(5):
        if not branch.is_terminal():
            step(branch, rng, source)
    unpickled = pickle.loads(pickle.dumps(game))
    assert "_undo" in vars(unpickled) and unpickled._undo is None
    for seat in range(game.players):  # it resamples as the game does
        sample = unpickled.resample(seat, random.Random(seat))
        assert sample.observation(seat) == game.observation(seat)
    for before in reversed(history):
        game.undo()
        unpickled.undo()  # the first undo rebuilds the stack from the log
        assert_same(game, before)
        assert_same(unpickled, before)
    assert not game.log and game._undo is None


def test_undo_cost_does_not_grow_with_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    source = seeded_deck_source(3)
    game = Game(PRESETS["classic"], 0)
    while not game.is_terminal() and game.hands_scored < 4:
        step(game, rng, source)
    pushed: list[int] = []
    original = Game._push

    def counting(self: Game, seat: int, action: int) -> object:
        pushed.append(action)
        return original(self, seat, action)

    monkeypatch.setattr(Game, "_push", counting)
    for _ in range(60):
        game.undo()
    assert pushed == []  # nothing replayed
