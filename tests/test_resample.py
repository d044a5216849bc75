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
from tests.random_play import decisions


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


def _replayed(log: list[tuple[int, object]], game: Game) -> Game:
    """A new game through ``log``, every deal and action validated."""
    replayed = Game(game.rules, game.first_dealer)
    for who, what in log:
        if who == CHANCE:
            replayed.deal(what)  # type: ignore[arg-type]
        else:
            replayed.apply(what, who)  # type: ignore[arg-type]
    return replayed


def _state(game: Game) -> dict[str, object]:
    return {k: v for k, v in vars(game).items()
            if k not in ("_undo", "_resample_cache", "_mask_cache")}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_resampled_log_replays_to_the_resampled_game(preset: str) -> None:
    # Finished hands are not replayed and the hand in progress starts from the match as it
    # stood: the log must still be complete, and replaying it must give that very game (the
    # OpenSpiel state replays it), down to every attribute; undo goes back through it.
    rng = random.Random(8)
    for game, seat in positions(preset, seed=13, count=12):
        sample = game.resample(seat, rng)
        replayed = _replayed(sample.log, game)
        assert _state(sample) == _state(replayed)
        assert sample.observation(seat) == game.observation(seat)
        for _ in range(min(6, len(sample.log))):  # past the hand in progress's deal too
            sample.undo()
            replayed.undo()
            assert _state(sample) == _state(replayed)


def test_a_late_resample_replays_no_finished_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 23: "finished hands are not replayed", the first call of a game included.
    pushed_at: list[int] = []
    original = Game._push

    def recording(self: Game, seat: int, action: int) -> object:
        pushed_at.append(self.deal_no)
        return original(self, seat, action)

    checked = 0
    for game, seat in positions("classic", seed=32, count=400):
        if game.hands_scored < 3 or game.phase != Phase.PLAYING:
            continue
        game._resample_cache = {}  # nothing drawn yet: the first call
        monkeypatch.setattr(Game, "_push", recording)
        sample = game.resample(seat, random.Random(checked))
        monkeypatch.undo()
        assert set(pushed_at) == {game.deal_no}  # the hand in progress only
        assert sample.observation(seat) == game.observation(seat)
        pushed_at.clear()
        checked += 1
        if checked == 5:
            return
    pytest.fail("too few late positions")


def _first_packets(deck: tuple[int, ...], game: Game, dealer: int, depth: int) -> list[int]:
    """The cards of each seat's first packets in ``deck`` (as logged, before the cut)."""
    from belote.engine.resample import _positions

    first, _, _ = _positions(game.rules, dealer, None, depth)
    return [sum(1 << deck[i] for i in slots) for slots in first]


def test_finished_hands_keep_only_what_the_seat_saw() -> None:
    # A finished hand's deck: the seat's own packets and the turned card where they were;
    # every other seat dealt the cards it played (public), but which of them came in its
    # first packets (hidden) and an all-passed hand's other hands (hidden) are drawn.
    rng = random.Random(14)
    for game, seat in positions("classic", seed=33, count=400):
        records = game._hand_records
        if len(records) < 4 or game.phase != Phase.PLAYING:
            continue
        decks = [game.log[r.log_index][1] for r in records[:-1]]
        same_first = 0
        for _ in range(10):
            game._resample_cache = {}
            sample = game.resample(seat, rng)
            for record, true_deck, drawn in zip(
                    records, decks, [sample.log[r.log_index][1] for r in records[:-1]],
                    strict=False):
                truth = _first_packets(true_deck, game, record.dealer, 0)  # type: ignore[arg-type]
                mine = _first_packets(drawn, game, record.dealer, 0)  # type: ignore[arg-type]
                assert mine[seat] == truth[seat]
                assert drawn[20] == true_deck[20]  # type: ignore[index]  # the turned card
                same_first += sum(mine[s] == truth[s] for s in range(4) if s != seat)
        assert same_first < 10 * 3 * len(decks) // 2  # the hidden split is drawn, not copied
        return
    pytest.fail("no position after three hands")


# Found by scripts/resample_sweep.py (italian, normal bots, seed 23): seat 2 announced a
# tierce, seat 3 an equal one, seat 0 a cinquante, seat 1 an equal one. Seed 000, "Mossa
# Leccese": "se uno dei giocatori dichiara una scala, è possibile dichiararne una fasulla
# uguale"; both equal ones were real (the DECLARE action, hidden from the others).
_EQUAL_SEQUENCES_DECK = (27, 25, 31, 23, 17, 28, 21, 8, 10, 24, 15, 3, 14, 16, 6, 29, 22, 9,
                         7, 2, 13, 26, 20, 19, 18, 12, 30, 11, 0, 5, 4, 1)
_EQUAL_SEQUENCES_ACTIONS = ((2, 64), (3, 64), (0, 64), (1, 64), (2, 64), (3, 64), (0, 64),
                            (1, 66), (3, 64), (2, 78), (2, 31), (3, 78), (3, 28), (0, 78),
                            (0, 5), (1, 78), (1, 24))


def _equal_sequences_game(steps: int) -> Game:
    game = Game(PRESETS["italian"], 1)
    game.deal(list(_EQUAL_SEQUENCES_DECK))
    for who, action in _EQUAL_SEQUENCES_ACTIONS[:steps]:
        game.apply(action, who)
    return game


def _holds_sequence(game: Game, seat: int, length: int) -> bool:
    return any(d.kind == "sequence" and d.length == length for d in game._held[seat])


def test_the_points_prove_equal_sequences_real() -> None:
    """Side 1 scored 70 = its cinquante and its tierce: neither was a bluff, so every world
    has both (drawing them as possible bluffs failed 1 position in 10,000 of the sweep)."""
    game = _equal_sequences_game(len(_EQUAL_SEQUENCES_ACTIONS))
    assert game.declaration_points == (0, 70)
    for seed in range(30):
        sample = resample(game, 2, random.Random(seed))
        assert sample.observation(2) == game.observation(2)
        assert _holds_sequence(sample, 1, 4) and _holds_sequence(sample, 3, 3)


def test_a_real_equal_sequence_may_be_drawn_as_a_bluff() -> None:
    """Before the points are known, seat 3's tierce equal to seat 2's may be real or a bluff
    for seat 2: worlds of both kinds are drawn, although seat 3 really announced it with
    DECLARE (replayed as BLUFF where he does not hold it; rejecting those worlds would tell
    seat 2 it was real)."""
    game = _equal_sequences_game(12)  # seat 3 has just announced
    assert game.declarations_said[-1] == (3, ("sequence_3",)) and not game._bluffs[3]
    kinds = set()
    for seed in range(200):
        sample = resample(game, 2, random.Random(seed))
        assert sample.observation(2) == game.observation(2)
        kinds.add(_holds_sequence(sample, 3, 3))
    assert kinds == {True, False}


_REFUTED_DECK = (23, 19, 27, 15, 2, 28, 9, 7, 20, 16, 4, 29, 22, 11, 25, 0, 6, 1, 3, 30, 17, 5,
                 12, 13, 26, 24, 18, 8, 31, 21, 14, 10)
_REFUTED_ACTIONS = ((0, 64), (1, 65), (0, 27), (1, 78), (1, 24), (2, 87), (2, 31), (3, 86),
                    (3, 87), (3, 29))


def test_a_refuted_bluffs_penalty_proves_nothing_about_a_later_bluff() -> None:
    """Found by the sweep (italian, random bots, seed 23): seat 2 bluffed a tierce, seat 3
    refuted it (20 points of penalty for his side, no card shown: a fake has none) and
    bluffed an equal tierce himself.  His side's 40 (his partner's real tierce and the
    penalty) must not make his bluff a fact: seat 1 sees worlds where seat 3 holds none."""
    game = Game(PRESETS["italian"], 3)
    game.deal(list(_REFUTED_DECK))
    for who, action in _REFUTED_ACTIONS:
        game.apply(action, who)
    assert game.declaration_points == (0, 40) and game._bluffs[3]
    kinds = set()
    for seed in range(40):
        sample = resample(game, 1, random.Random(seed))
        assert sample.observation(1) == game.observation(1)
        kinds.add(_holds_sequence(sample, 3, 3))
    assert False in kinds


@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_bluffs_without_partnerships_are_evidence_too(preset: str) -> None:
    """With bluffs allowed at a table without partners, every other seat is an opponent: a
    sequence equal to any other seat's may be a bluff, never a hard fact of the draw."""
    rules = PRESETS[preset].with_flags(**{"declarations.bluffs_allowed": True,
                                          "declarations.name_only": False})
    bluffs = checked = 0
    for game, rng in decisions(rules, 1, 20):
        if game.declarations_said and rng.random() < 0.3:
            seat = rng.randrange(rules.players)
            assert resample(game, seat, rng).observation(seat) == game.observation(seat)
            checked += 1
        legal = game.legal_actions()
        action = A.BLUFF if A.BLUFF in legal and rng.random() < 0.5 else rng.choice(legal)
        bluffs += action == A.BLUFF
        game.apply(action)
    assert bluffs and checked
