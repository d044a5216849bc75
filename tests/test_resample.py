"""Resampling from an information state (OpenSpiel's ``ResampleFromInfostate``, as
``euchre_test.cc`` checks it): the resampled game looks the same to the seat, nothing derived
from the true hands survives, and the hidden hands really vary."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from belote.cards import ACES, Rank
from belote.engine import CHANCE, Game, Phase, seeded_deck_source
from belote.engine import actions as A
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.engine.resample import resample
from belote.rules import PRESETS
from belote.rules.declarations import find_declarations


def positions(preset: str, seed: int, count: int) -> Iterator[tuple[Game, int]]:
    """(game, seat) at random points of random matches, the auction and the deal included."""
    rng = random.Random(seed)
    source = seeded_deck_source(seed)
    produced = 0
    while produced < count:
        game = Game(PRESETS[preset], rng.randrange(PRESETS[preset].players))
        while not game.is_terminal() and produced < count:
            if game.current_player() == CHANCE:
                game.deal(source())
                continue
            if rng.random() < 0.08:
                yield game.clone(), rng.randrange(game.players)
                produced += 1
            legal = game.legal_actions()
            action = rng.choice(legal)
            if action in (A.PASS, A.ASPETTO) and A.ASPETTO in legal:
                # RULES.md: passo / aspetto are said truthfully
                seat = game.current_player()
                action = A.ASPETTO if game.hands[seat] & ACES else A.PASS
            game.apply(action)
        if game.is_terminal() and produced < count:
            yield game.clone(), rng.randrange(game.players)
            produced += 1


def dealt(game: Game, seat: int) -> int:
    """The cards ``seat`` was dealt this hand: held now plus played."""
    cards = game.hands[seat]
    for leader, trick in [*game.trick_history, (game.leader, tuple(game.trick))]:
        for i, card in enumerate(trick):
            if (leader + i) % game.players == seat:
                cards |= 1 << card
    return cards


@pytest.mark.parametrize("preset", list(PRESETS))
def test_resampled_game_looks_the_same_to_the_seat(preset: str) -> None:
    rng = random.Random(3)
    for game, seat in positions(preset, seed=11, count=25):
        before = game.log
        sample = game.resample(seat, rng)
        assert sample.observation(seat) == game.observation(seat)
        assert game.log == before  # the original is untouched
        assert [a for a in sample.log if a[0] != CHANCE] == [a for a in before if a[0] != CHANCE]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_holding_derived_from_the_true_hands_survives(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(5)
    for game, seat in positions(preset, seed=12, count=25):
        if game.phase != Phase.PLAYING:
            continue
        sample = game.resample(seat, rng)
        trump = sample.trump
        suits = [] if trump == NO_TRUMP or not rules.belote_enabled else (
            range(4) if trump == ALL_TRUMP else [trump])
        expected = set()
        for suit in suits:
            pair = (1 << (suit * 8 + Rank.KING)) | (1 << (suit * 8 + Rank.QUEEN))
            expected |= {(suit, s) for s in range(sample.players)
                         if dealt(sample, s) & pair == pair}
        # a belote claim exactly where the sampled hands hold K+Q of trump
        assert {(suit, holder) for suit, holder, _ in sample._claims} == expected
        if rules.declarations is not None and trump is not None:
            for s in range(sample.players):
                assert sample._held[s] == find_declarations(dealt(sample, s),
                                                            rules.declarations, trump)


def test_a_belote_claim_follows_the_sampled_king_and_queen() -> None:
    """A hidden K+Q of trump in another seat's hand is not kept there by the resampler."""
    rng = random.Random(7)
    for game, seat in positions("classic", seed=13, count=200):
        if game.phase != Phase.PLAYING or game.trick_no > 0 or game.belote_said:
            continue
        holders = [h for _, h, _ in game._claims if h != seat]
        if not holders:
            continue
        moved = 0
        for _ in range(20):
            sample = game.resample(seat, rng)
            if all(h != holders[0] for _, h, _ in sample._claims):
                moved += 1
        assert moved > 0
        return
    pytest.fail("no position with a hidden belote was produced")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_other_hands_differ_across_samples(preset: str) -> None:
    rng = random.Random(9)
    for game, seat in positions(preset, seed=14, count=40):
        if game.phase == Phase.DEAL or game.is_terminal() or game.trick_no > 5:
            continue
        hands = {tuple(game.resample(seat, rng).hands) for _ in range(8)}
        rules = game.rules
        if rules.players == 2 and rules.widow_size == 0:
            # Two players holding all 32 cards: the other hand is the rest of the deck.
            assert hands == {tuple(game.hands)}
            return
        assert len(hands) > 1
        assert all(h[seat] == game.hands[seat] for h in hands)
        return
    pytest.fail("no position with hidden cards was produced")


def test_bad_seat_is_refused_and_changes_nothing() -> None:
    game, _ = next(positions("classic", seed=15, count=1))
    before = game.log
    with pytest.raises(ValueError, match="seat"):
        resample(game, 4)
    assert game.log == before


def test_resample_from_infostate_is_the_same_method() -> None:
    game, seat = next(positions("coinche", seed=16, count=1))
    a = game.resample(seat, random.Random(1))
    b = game.resample_from_infostate(seat, random.Random(1))
    assert a.log == b.log


def test_the_engine_samples_without_the_bots_and_the_expert_uses_the_same_sampler() -> None:
    import subprocess
    import sys

    import belote.ai.worlds as worlds
    import belote.engine.knowledge as engine_knowledge

    # one home for sampling: the expert's names are the engine's functions
    assert worlds.sample_world is engine_knowledge.sample_world
    assert worlds.knowledge is engine_knowledge.knowledge
    # layering: resampling a game loads no bot code
    code = ("import sys, belote.engine.resample; "
            "print(sorted(m for m in sys.modules if m.startswith('belote.ai')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- issue 23: sound worlds
def bot_positions(preset: str, bot: str, seed: int, count: int) -> Iterator[tuple[Game, int]]:
    """(game, seat) at random points of matches ``bot`` plays at every seat."""
    from belote.ai.registry import make_bot

    rules = PRESETS[preset]
    rng = random.Random(seed)
    source = seeded_deck_source(seed)
    players = [make_bot(bot, seed + s) for s in range(rules.players)]
    produced = 0
    while produced < count:
        game = Game(rules, 0)
        while not game.is_terminal() and produced < count:
            if game.current_player() == CHANCE:
                game.deal(source())
                continue
            for s in game.seats_with_open_window():
                game.apply(A.ANNOUNCE_BELOTE, s)
            if game.current_player() < 0:
                continue
            if rng.random() < 0.1:
                yield game.clone(), rng.randrange(game.players)
                produced += 1
            seat = game.current_player()
            game.apply(players[seat].choose(game.observation(seat)), seat)


@pytest.mark.parametrize("preset", ["valdostana", "valdostana3", "valdostana2"])
def test_positions_of_the_liar_never_fail(preset: str) -> None:
    # The liar says passo/aspetto, ancora/alzo and its first discard at random: the facts
    # never exclude the true world, so a resample always exists.
    rng = random.Random(4)
    for game, seat in bot_positions(preset, "liar", 17, 25):
        assert game.resample(seat, rng).observation(seat) == game.observation(seat)


def _passo_with_an_ace() -> tuple[Game, int, int]:
    """A valdostana auction where a seat said passo holding an ace, and a seat after it."""
    for seed in range(200):
        game = Game(PRESETS["valdostana"], 0)
        game.deal(seeded_deck_source(seed)())
        game.apply(A.KNOCK)
        liar = game.current_player()
        if game.hands[liar] & ACES and A.PASS in game.legal_actions():
            game.apply(A.PASS)  # "passo", holding an ace
            return game, liar, game.current_player()
    raise AssertionError("no such deal")


def test_a_passo_sayer_holding_an_ace_gets_one_in_uniform_worlds() -> None:
    # Issue 23: "a passo-sayer who really holds an unseen ace got one in 0 of 290 resamples".
    game, liar, seat = _passo_with_an_ace()
    rng = random.Random(8)
    uniform = sum(bool(game.resample(seat, rng).hands[liar] & ACES) for _ in range(120))
    assert uniform > 30
    from belote.engine.convention_evidence import ConventionEvidence

    model = ConventionEvidence()
    weighed = sum(bool(game.resample(seat, rng, model=model).hands[liar] & ACES)
                  for _ in range(120))
    assert 0 < weighed < uniform  # evidence, not a fact: less often, never never


def test_resample_error_is_the_one_error_and_importable_from_both_homes() -> None:
    import dataclasses

    from belote.engine import knowledge as K
    from belote.engine import resample as R

    assert R.ResampleError is K.ResampleError and issubclass(R.ResampleError, RuntimeError)
    game, seat = next(p for p in positions("classic", 21, 40) if p[0].phase == Phase.PLAYING)
    info = K.knowledge(game.observation(seat))
    other = (seat + 1) % 4
    sizes = list(info.sizes)
    sizes[other] += 30  # more cards than are unseen: impossible input
    with pytest.raises(R.ResampleError):
        K.sample_world(dataclasses.replace(info, sizes=tuple(sizes)), random.Random(0))


def test_finished_hands_are_drawn_once_and_never_the_true_decks() -> None:
    rng = random.Random(12)
    for game, seat in positions("classic", seed=30, count=300):
        decks = [what for who, what in game.log if who == CHANCE]
        if len(decks) < 3 or game.phase != Phase.PLAYING:
            continue
        first = game.resample(seat, rng)
        second = game.resample(seat, rng)
        mine = [what for who, what in first.log if who == CHANCE]
        assert [what for who, what in second.log if who == CHANCE][:-1] == mine[:-1]
        assert all(m != d for m, d in zip(mine, decks, strict=True))  # drawn, not copied
        assert first.observation(seat) == game.observation(seat)
        game.undo()  # the log changes: what was kept for the longer log is not used
        assert game.resample(seat, rng).observation(seat) == game.observation(seat)
        return
    pytest.fail("no position after two hands")


def _counting(push: Callable[..., object], pushed: list[int]) -> Callable[..., object]:
    def counting(self: Game, seat: int, action: int) -> object:
        pushed.append(action)
        return push(self, seat, action)
    return counting


def test_undo_restores_the_game_replaying_one_hand_at_most(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for game, _ in positions("valdostana", seed=31, count=60):
        if game.hands_scored < 2 or not game.log or game.log[-1][0] == CHANCE:
            continue
        replayed = Game(game.rules, game.first_dealer)
        for who, what in game.log[:-1]:
            if who == CHANCE:
                replayed.deal(what)  # type: ignore[arg-type]
            else:
                replayed.apply(what, who)  # type: ignore[arg-type]
        pushed: list[int] = []
        monkeypatch.setattr(Game, "_push", _counting(Game._push, pushed))
        game.undo()
        monkeypatch.undo()
        hand = len(game.log) - max(i for i, (w, _) in enumerate(game.log) if w == CHANCE)
        assert len(pushed) <= hand  # this hand's actions, not the match's
        assert game.log == replayed.log
        for s in range(game.players):
            assert game.observation(s) == replayed.observation(s)
        assert game.hands == replayed.hands
        while game.log:  # all the way back
            game.undo()
        assert game.phase == Phase.DEAL and game.deal_no == 0
        return
    pytest.fail("no position after two hands")


@pytest.mark.parametrize("preset", ["valdostana", "valdostana3", "pinasca"])
def test_named_accusi_constrain_the_draw(preset: str) -> None:
    # Issue 23: "a tierce" said without its cards is a fact the sampler draws within (not a
    # blind rejection): every resample holds a combination of that name, and none fails.
    from belote.rules.declarations import spoken_names_held

    rules = PRESETS[preset]
    assert rules.declarations is not None
    rng = random.Random(6)
    checked = 0
    for game, seat in bot_positions(preset, "normal", 41, 400):
        said = [(who, names) for who, names in game.declarations_said if who != seat]
        if game.phase != Phase.PLAYING or game.trick_no > 1 or not said:
            continue
        for _ in range(3):
            sample = game.resample(seat, rng)
            assert sample.observation(seat) == game.observation(seat)
            for who, names in said:
                held = find_declarations(dealt(sample, who), rules.declarations, sample.trump)
                if rules.declarations.name_only:
                    assert set(names) <= spoken_names_held(held)
        checked += 1
        if checked == 8:
            return
    assert checked >= 3
