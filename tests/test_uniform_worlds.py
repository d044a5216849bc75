"""With no model the worlds are uniform over those consistent with the facts (issue 23).

Small positions (late in a hand, few unseen cards) are enumerated by brute force: every
split of the unseen cards over the other hands (and the monte) that could have played the
tricks seen (``could_have_played``, the engine's obligations, not the sampler's facts) and
holds the cards announced (a belote's other card, the turned card with the taker).  Many
worlds are drawn in each and a chi-square test compares the counts with the uniform law:
p >= 0.01 on all but a chance share of the positions (a fixed seed: deterministic)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

import belote.engine.knowledge as knowledge_module
from belote.cards import Rank
from belote.engine import CHANCE, Game, Phase, seeded_deck_source
from belote.engine import actions as A
from belote.engine.knowledge import (
    Knowledge,
    NamedFact,
    _combinations,
    _first_open_options,
    _joint_options,
    _names_of,
    knowledge,
    sample_world,
)
from belote.engine.obligations import could_have_played
from belote.engine.observation import Observation
from belote.rules import PRESETS
from belote.rules.declarations import find_declarations, spoken_names_held


def chi_square_p(observed: list[int], expected: float) -> float:
    """P(X >= statistic) for X chi-square with len(observed) - 1 degrees of freedom (the
    regularised upper incomplete gamma function; series and continued fraction)."""
    statistic = sum((o - expected) ** 2 / expected for o in observed)
    a, x = (len(observed) - 1) / 2, statistic / 2
    if x <= 0:
        return 1.0
    if x < a + 1:  # series for the lower function
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-14:
            k += 1
            term *= x / k
            total += term
        return 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    b, c, d = x + 1 - a, 1e300, 1.0 / (x + 1 - a)  # Lentz's continued fraction
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def test_the_chi_square_tail_matches_known_values() -> None:
    # Reference values (scipy.stats.chi2.sf): both branches of the computation.
    assert abs(chi_square_p([0, 2], 1.0) - 0.157299) < 1e-5  # statistic 2, df 1
    assert abs(chi_square_p([5, 15], 10.0) - 0.025347) < 1e-5  # statistic 5, df 1
    counts = [10 + 5 * (i % 2) for i in range(20)]  # statistic 10, df 19
    assert abs(chi_square_p(counts, 12.5) - 0.952946) < 1e-5
    counts = [0] * 11  # statistic 0
    assert chi_square_p([3] * 11, 3.0) == 1.0 and counts


def _played(obs: Observation, n: int) -> list[int]:
    played = [0] * n
    tricks = [*obs.tricks]
    if obs.trick:
        tricks.append((obs.trick[0][0], tuple(c for _, c in obs.trick)))
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            played[(leader + i) % n] |= 1 << card
    return played


def consistent_worlds(obs: Observation) -> list[tuple[int, ...]]:
    """Every world (other hands now, the seat's own 0) the facts of ``obs`` allow, by brute
    force over the unseen cards."""
    rules = obs.ruleset
    assert rules is not None and obs.seat is not None and obs.trump is not None
    n = rules.players
    seat = obs.seat
    played = _played(obs, n)
    unseen = [c for c in range(32) if not (obs.played | obs.hand) >> c & 1
              and not any(c == x for _, x in obs.trick)]
    others = [s for s in range(n) if s != seat]
    sizes = [obs.hand_sizes[s] for s in others]
    spare = len(unseen) - sum(sizes)
    tricks = [*obs.tricks]
    if obs.trick:
        tricks.append((obs.trick[0][0], tuple(c for _, c in obs.trick)))
    said = Counter(who for who, _ in obs.belote_said)
    pair = ((1 << (obs.trump * 8 + Rank.KING)) | (1 << (obs.trump * 8 + Rank.QUEEN))
            if obs.trump < 4 else 0)
    worlds = []
    bins = [*others, -1]
    for labels in set(itertools.permutations(
            [b for b, size in zip(bins, [*sizes, spare], strict=True) for _ in range(size)])):
        hands = [0] * n
        for card, b in zip(unseen, labels, strict=True):
            if b >= 0:
                hands[b] |= 1 << card
        full = list(hands)
        full[seat] = obs.hand
        dealt = [h | p for h, p in zip(full, played, strict=True)]
        if not could_have_played(full, tricks, obs.trump, rules):
            continue
        if any(count == 1 and dealt[who] & pair != pair for who, count in said.items()):
            continue
        if (rules.turned_card and obs.turned is not None and obs.taker is not None
                and not dealt[obs.taker] >> obs.turned & 1):
            continue
        worlds.append(tuple(hands))
    return worlds


def small_positions(preset: str, seed: int, count: int) -> Iterator[Game]:
    """Games late in a hand of random play, with no declaration said."""
    rng = random.Random(seed)
    source = seeded_deck_source(seed)
    rules = PRESETS[preset]
    produced = 0
    while produced < count:
        game = Game(rules, rng.randrange(rules.players))
        while not game.is_terminal() and produced < count:
            if game.current_player() == CHANCE:
                game.deal(source())
                continue
            for s in game.seats_with_open_window():
                if rng.random() < 0.7:
                    game.apply(A.ANNOUNCE_BELOTE, s)
            if (game.phase == Phase.PLAYING and game.trick_no >= rules.hand_size - 3
                    and not game.declarations_said and rng.random() < 0.3):
                yield game.clone()
                produced += 1
            legal = [a for a in game.legal_actions() if not A.is_declaration(a)]
            game.apply(rng.choice(legal))


def _chi_square_of(game: Game, rng: random.Random, resample: bool) -> float | None:
    seat = game.current_player()
    obs = game.observation(seat)
    worlds = consistent_worlds(obs)
    if not 2 <= len(worlds) <= 150:
        return None
    draws = 12 * len(worlds) if resample else 40 * len(worlds)
    info = knowledge(obs)
    index = {w: i for i, w in enumerate(worlds)}
    counts = [0] * len(worlds)
    for _ in range(draws):
        if resample:
            hands = game.resample(seat, rng).hands
            world = tuple(0 if s == seat else h for s, h in enumerate(hands))
        else:
            world = sample_world(info, rng)
        assert world in index, "a drawn world the facts do not allow"
        counts[index[world]] += 1
    return chi_square_p(counts, draws / len(worlds))


# Untraced (docs/dev/quality.md, "Coverage"): no line only it runs (per-test coverage
# contexts); traced it took 9 s of CPU, untraced under 3.
@pytest.mark.no_cover
def test_worlds_drawn_are_uniform_over_the_consistent_ones() -> None:
    rng = random.Random(2023)
    results = []
    for preset, seed, quota in (("classic", 1, 14), ("coinche", 2, 12), ("valdostana3", 3, 10),
                                ("pinasca", 4, 6)):
        found = 0
        for game in small_positions(preset, seed, 120):
            p = _chi_square_of(game, rng, resample=False)
            if p is not None:
                results.append(p)
                found += 1
                if found == quota:
                    break
    assert len(results) == 42
    assert sum(p < 0.01 for p in results) <= 3, sorted(results)[:5]


def test_resampled_games_are_uniform_over_the_consistent_worlds() -> None:
    rng = random.Random(77)
    results = []
    for game in small_positions("classic", 8, 30):
        p = _chi_square_of(game, rng, resample=True)
        if p is not None and len(results) < 6:
            results.append(p)
    assert len(results) == 6
    assert sum(p < 0.01 for p in results) <= 1, results


def test_a_named_accuso_constrains_the_draw_exactly() -> None:
    # Valdostana: seat 1 said "tierce" (a sequence of three, its cards not shown).  With 9
    # unseen cards over three hands of 3, every world where seat 1's dealt hand announces a
    # tierce is drawn equally often: options enumerated, weighted by their completions,
    # accepted with 1 / (options held).
    rules = PRESETS["valdostana"]
    assert rules.declarations is not None
    trump = 0
    unseen_cards = [8 * 1 + r for r in (0, 1, 2, 3)] + [8 * 2 + r for r in (4, 5, 6)] + [
        8 * 3 + 0, 8 * 3 + 7]  # 7 8 9 10 of one suit, J Q K of another, two more
    unseen = sum(1 << c for c in unseen_cards)
    played1 = 1 << (8 * 1 + 4)  # seat 1 played the jack next to the 10: runs 8-9-10-J too
    combos = _combinations(rules.declarations, trump)
    options = tuple(sorted({c & unseen for c in combos["tierce"]
                            if c & (unseen | played1) == c and c & unseen}))
    assert len(options) >= 3
    fact = NamedFact(seat=1, names=("tierce",), name_only=True, bluff=None, options=options)
    info = Knowledge(seat=0, own=0, unseen=unseen, known=(0, 0, 0, 0), forbidden=(0, 0, 0, 0),
                     sizes=(0, 3, 3, 3), trump=trump, rules=rules,
                     played=(0, played1, 0, 0), named=(fact,))
    worlds = []
    for labels in set(itertools.permutations([1, 1, 1, 2, 2, 2, 3, 3, 3])):
        hands = [0, 0, 0, 0]
        for card, s in zip(unseen_cards, labels, strict=True):
            hands[s] |= 1 << card
        held = find_declarations(hands[1] | played1, rules.declarations, trump)
        if "tierce" in spoken_names_held(held):
            worlds.append(tuple(hands))
    index = {w: i for i, w in enumerate(worlds)}
    counts = [0] * len(worlds)
    rng = random.Random(5)
    draws = 30 * len(worlds)
    for _ in range(draws):
        counts[index[sample_world(info, rng)]] += 1
    assert chi_square_p(counts, draws / len(worlds)) >= 0.01


def test_two_names_said_are_enumerated_together_and_drawn_uniformly() -> None:
    # Pinasca: seat 1 said two tierces ("sequence_3" twice, exact names, cards not shown).
    # The options are the pairs of different runs (not the first name's runs alone, which
    # left the second to rejection: 99% of the draws in such positions), and every world
    # where seat 1 announces exactly two tierces is drawn equally often.
    rules = PRESETS["pinasca"]
    decl = rules.declarations
    assert decl is not None
    trump = 0
    unseen_cards = [8 * 1 + r for r in (0, 1, 2, 4, 5, 6)] + [8 * 2 + r for r in (0, 1, 2)] + [
        8 * 3 + r for r in (5, 6, 7)]  # 7 8 9 and J Q K of one suit (its 10 seen), 7 8 9, J Q K
    unseen = sum(1 << c for c in unseen_cards)
    combos = _combinations(decl, trump)
    options = _joint_options(["sequence_3", "sequence_3"], combos, unseen, unseen)
    assert options
    assert all(option.bit_count() == 6 for option in options)  # two different runs each
    fact = NamedFact(seat=1, names=("sequence_3", "sequence_3"), name_only=False, bluff=None,
                     options=options)
    info = Knowledge(seat=0, own=0, unseen=unseen, known=(0, 0, 0, 0), forbidden=(0, 0, 0, 0),
                     sizes=(0, 6, 3, 3), trump=trump, rules=rules, played=(0, 0, 0, 0),
                     named=(fact,))
    worlds = []
    for seat1 in itertools.combinations(unseen_cards, 6):
        hand1 = sum(1 << c for c in seat1)
        if _names_of(hand1, decl, trump) != ("sequence_3", "sequence_3"):
            continue
        rest = [c for c in unseen_cards if not hand1 >> c & 1]
        for seat2 in itertools.combinations(rest, 3):
            hand2 = sum(1 << c for c in seat2)
            worlds.append((0, hand1, hand2, unseen & ~hand1 & ~hand2))
    assert len(worlds) > 20
    index = {w: i for i, w in enumerate(worlds)}
    counts = [0] * len(worlds)
    rng = random.Random(8)
    draws = 30 * len(worlds)
    for _ in range(draws):
        counts[index[sample_world(info, rng)]] += 1
    assert chi_square_p(counts, draws / len(worlds)) >= 0.01
    assert info.counts.rejected < info.counts.draws  # most draws hold the two runs


def test_names_with_too_many_options_together_fall_back_to_the_first_open_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Past MAX_NAMED_OPTIONS the names are not enumerated together: the first name still
    # open gives the options (the others are checked on the drawn world); a name no hand
    # can hold gives none (the residual check refuses), one held for sure is skipped.
    rules = PRESETS["pinasca"]
    assert rules.declarations is not None
    combos = _combinations(rules.declarations, 0)
    every = (1 << 32) - 1
    joint = _joint_options(["sequence_3", "sequence_3"], combos, every, every)
    assert joint is not None and len(joint) > 4
    monkeypatch.setattr(knowledge_module, "MAX_NAMED_OPTIONS", 4)
    assert _joint_options(["sequence_3", "sequence_3"], combos, every, every) is None
    first = _first_open_options(["sequence_3", "sequence_3"], combos, every, every)
    assert first and all(option.bit_count() == 3 for option in first)
    assert _first_open_options(["sequence_3"], combos, 0, every) == ()  # impossible
    run = combos["sequence_3"][0]
    held = _first_open_options(["sequence_3", "sequence_4"], combos, every, every & ~run)
    assert held and held == _first_open_options(["sequence_4"], combos, every, every & ~run)
    assert _first_open_options(["sequence_3"], combos, every, every & ~run) == ()  # held
    assert _joint_options(["sequence_3"], combos, 0, every) == ()  # impossible together
    assert len(combos["sequence_5"]) == 16  # 16 combinations: more than 4 smallest sets
    assert _joint_options(["sequence_5"], combos, every, every) is None
