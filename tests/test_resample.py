"""Resampling from an information state (OpenSpiel's ``ResampleFromInfostate``, as
``euchre_test.cc`` checks it): the resampled game looks the same to the seat, nothing derived
from the true hands survives, and the hidden hands really vary."""

from __future__ import annotations

import random
from collections.abc import Iterator

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
