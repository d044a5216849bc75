"""The compiled kernels (``belote.engine._kernels``) agree with their pure-Python twin.

The twin is the engine itself (``belote.engine.obligations``, ``belote.engine.tricks``):
``legal_mask`` must equal ``legal_plays`` and the kernel's ``trick_winner`` the engine's, on
positions reached by random legal play from random deals, for every trump code 0..5 (suits,
senza, tutte) and for the flag combinations of every preset (each preset as it is, then with
each of its card-play obligations, every field of ``OBLIGATION_FIELDS``, flipped).
``playout`` and ``random_hands`` are replayed move by move in pure Python with the same 48-bit
generator, so their results must be equal exactly, not just plausible.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from belote.engine.obligations import OBLIGATION_FIELDS, legal_plays
from belote.engine.search import kernels, rule_flags
from belote.engine.tricks import CARD_POINTS, trick_winner
from belote.rules import PRESETS, Rules

# The kernels play four seats; 3- and 2-player presets are refused (tests/test_fewer_seats.py).
FOUR_SEAT_PRESETS = sorted(name for name, rules in PRESETS.items() if rules.players == 4)

K = kernels()
TRUMPS = range(6)
FLAGS = OBLIGATION_FIELDS
LCG_MASK = (1 << 48) - 1
DEALS_PER_CASE = 6  # x 32 positions x 4 hands x 6 rule variants, per preset and trump


def variants(rules: Rules) -> list[Rules]:
    """The preset, then the preset with each card-play flag flipped."""
    out = [rules]
    for flag in FLAGS:
        out.append(rules.with_flags(**{flag: not getattr(rules, flag)}))
    return out


def deal(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[s * 8:s * 8 + 8]) for s in range(4)]


def bits(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def as_trick(cards: list[int]) -> np.ndarray:
    trick = np.zeros(4, dtype=np.int64)
    trick[: len(cards)] = cards
    return trick


def positions(rules: Rules, trump: int, rng: random.Random) -> Iterator[
        tuple[list[int], list[int], int, int]]:
    """(hands, trick, leader, won) at every card of a random legal hand, from a random
    deal (the hands and trick are the caller's to read, not to keep)."""
    hands = deal(rng)
    leader = rng.randrange(4)
    trick: list[int] = []
    won = 0
    for _ in range(32):
        yield hands, trick, leader, won
        seat = (leader + len(trick)) % 4
        card = rng.choice(bits(legal_plays(hands[seat], trick, trump, rules)))
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
            won |= 1 << (leader & 1)
            trick = []


@pytest.mark.parametrize("trump", TRUMPS)
@pytest.mark.parametrize("preset", FOUR_SEAT_PRESETS)
def test_legal_mask_and_trick_winner_match_the_engine(preset: str, trump: int) -> None:
    rng = random.Random(f"{preset}-{trump}")
    checked = 0
    for rules in variants(PRESETS[preset]):
        flags = rule_flags(rules)
        for _ in range(DEALS_PER_CASE):
            for hands, trick, leader, _won in positions(rules, trump, rng):
                n = len(trick)
                arr = as_trick(trick)
                if n:
                    w = K.trick_winner(arr, n, trump)
                    assert w == trick_winner(trick, trump), (trick, trump)
                else:
                    w = 0
                # every seat's hand, not only the one to move: more shapes per position
                for seat in range(4):
                    expected = legal_plays(hands[seat], trick, trump, rules)
                    got = K.legal_mask(hands[seat], arr, n, trump, flags)
                    assert got == expected, (preset, rules, trump, hands[seat], trick)
                    assert K.legal_mask_w(hands[seat], arr, n, trump, flags, w) == expected
                    checked += 1
                # a complete trick too (the last card of this one, if any, is legal)
                if n == 3:
                    seat = (leader + 3) % 4
                    last = bits(legal_plays(hands[seat], trick, trump, rules))[0]
                    full = [*trick, last]
                    assert K.trick_winner(as_trick(full), 4, trump) == trick_winner(full, trump)
    assert checked == (1 + len(FLAGS)) * DEALS_PER_CASE * 32 * 4


@pytest.mark.parametrize("trump", TRUMPS)
def test_trick_winner_on_arbitrary_tricks(trump: int) -> None:
    rng = random.Random(trump)
    for _ in range(5000):
        n = rng.randint(1, 4)
        cards = rng.sample(range(32), n)
        assert K.trick_winner(as_trick(cards), n, trump) == trick_winner(cards, trump)


@pytest.mark.parametrize("trump", TRUMPS)
def test_legal_mask_on_arbitrary_hands(trump: int) -> None:
    """Hands of any size and tricks of any cards (not only reachable ones), all 16 flag
    combinations: the kernel's branches are the engine's."""
    rng = random.Random(100 + trump)
    base = PRESETS["classic"]
    for combo in range(1 << len(FLAGS)):
        rules = base.with_flags(**{flag: bool(combo >> i & 1) for i, flag in enumerate(FLAGS)})
        flags = rule_flags(rules)
        for _ in range(200):
            cards = rng.sample(range(32), rng.randint(2, 12))
            n = rng.randint(1, min(3, len(cards) - 1))
            trick, hand_cards = cards[:n], cards[n:]
            hand = sum(1 << c for c in hand_cards)
            assert K.legal_mask(hand, as_trick(trick), n, trump, flags) == legal_plays(
                hand, trick, trump, rules), (rules, trump, trick, hand)


def test_rule_flags_pack_every_obligation_field_at_its_bit() -> None:
    classic = PRESETS["classic"]
    every = (1 << len(FLAGS)) - 1
    assert rule_flags(classic) == every
    assert set(K.FLAG_BITS) == set(FLAGS)  # the kernels implement every packed flag
    for i, flag in enumerate(FLAGS):
        assert K.FLAG_BITS[flag] == 1 << i
        assert rule_flags(classic.with_flags(**{flag: False})) == every & ~(1 << i)
    assert rule_flags(PRESETS["pinasca"]) == every & ~K.PARTNER_FREES


def test_rule_flags_refuse_an_obligation_the_kernels_do_not_implement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from belote.engine import search
    from belote.errors import BeloteError

    monkeypatch.setattr(search, "OBLIGATION_FIELDS", (*FLAGS, "must_shout_trump"))
    with pytest.raises(BeloteError, match="must_shout_trump"):
        rule_flags(PRESETS["classic"])


class _Recorder:
    """Rules that note every field read."""

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> object:
        self.read.add(name)
        return getattr(self._rules, name)


def test_obligation_fields_are_exactly_the_fields_the_obligations_read() -> None:
    """OBLIGATION_FIELDS names every Rules field that can change which cards are legal
    (a field the obligations read and the packer left out would be silently ignored by the
    kernels), every must_* flag of Rules, and nothing else."""
    import dataclasses

    from belote.engine.obligations import proven_absent, refusal

    fields = {f.name for f in dataclasses.fields(Rules)}
    assert set(FLAGS) <= fields and len(set(FLAGS)) == len(FLAGS)
    assert {f for f in fields if f.startswith("must_")} <= set(FLAGS)
    rng = random.Random(5)
    read: set[str] = set()
    for combo in range(1 << len(FLAGS)):
        base = PRESETS["classic"].with_flags(
            **{flag: bool(combo >> i & 1) for i, flag in enumerate(FLAGS)})
        for trump in TRUMPS:
            for _ in range(40):
                recorder = _Recorder(base)
                rules: Rules = recorder  # type: ignore[assignment]
                cards = rng.sample(range(32), 9)
                n = rng.randint(1, 3)
                trick, hand = cards[:n], sum(1 << c for c in cards[n:])
                legal_plays(hand, trick, trump, rules)
                refusal(cards[-1], hand, trick, trump, rules)
                proven_absent(trick, cards[-1], trump, rules)
                read |= recorder.read
    # ``partners`` (four players) is read too: the kernels do not model fewer seats, they
    # refuse them (rule_flags raises, tests/test_fewer_seats.py).
    assert read == {*FLAGS, "partners"}


# ----------------------------------------------------------------------------- playouts
class Lcg:
    """The kernels' generator, in Python (exact: Python ints do not wrap)."""

    def __init__(self, state: int) -> None:
        self.state = state

    def next(self) -> int:
        self.state = (self.state * 25214903917 + 11) & LCG_MASK
        return self.state >> 16

    def card(self, mask: int) -> int:
        cards = bits(mask)
        return cards[self.next() % len(cards)]


def py_playout(hands: list[int], trick: list[int], leader: int, trump: int, rules: Rules,
               won: int, tricks_left: int, rng: Lcg) -> int:
    """Pure-Python twin of ``_kernels.playout`` on the engine's rules: team 0's points."""
    hands = list(hands)
    trick = list(trick)
    points = 0
    while tricks_left > 0:
        while len(trick) < 4:
            seat = (leader + len(trick)) % 4
            card = rng.card(legal_plays(hands[seat], trick, trump, rules))
            hands[seat] &= ~(1 << card)
            trick.append(card)
        winner = (leader + trick_winner(trick, trump)) % 4
        value = sum(CARD_POINTS[trump][c] for c in trick)
        tricks_left -= 1
        if tricks_left == 0:
            value += rules.last_trick_bonus
        won |= 1 << (winner & 1)
        if winner % 2 == 0:
            points += value
        leader = winner
        trick = []
    if won == 1:
        points += rules.capot_bonus
    return points


def kernel_playout(hands: list[int], trick: list[int], leader: int, trump: int, rules: Rules,
                   won: int, tricks_left: int, state: int) -> tuple[int, int]:
    h = np.array(hands, dtype=np.int64)
    t = as_trick(trick)
    s = np.array([state], dtype=np.int64)
    value = K.playout(h, t, len(trick), leader, trump, rule_flags(rules),
                      rules.last_trick_bonus, rules.capot_bonus, won, tricks_left, s)
    assert list(h) == hands and list(t[: len(trick)]) == trick  # inputs not changed
    return int(value), int(s[0])


@pytest.mark.parametrize("trump", TRUMPS)
@pytest.mark.parametrize("preset", FOUR_SEAT_PRESETS)
def test_playout_replays_in_python(preset: str, trump: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"playout-{preset}-{trump}")
    for _ in range(6):
        for i, (hands, trick, leader, won) in enumerate(positions(rules, trump, rng)):
            if i % 5:
                continue
            left = (sum(h.bit_count() for h in hands) + len(trick)) // 4
            state = rng.getrandbits(48)
            got, got_state = kernel_playout(hands, trick, leader, trump, rules, won, left,
                                            state)
            lcg = Lcg(state)
            expected = py_playout(hands, trick, leader, trump, rules, won, left, lcg)
            assert (got, got_state) == (expected, lcg.state), (hands, trick, leader, won)


@pytest.mark.parametrize("trump", TRUMPS)
def test_full_hand_playout_totals(trump: int) -> None:
    """From a fresh deal: team 0 gets 0..total (team 1 the rest), or total + capot."""
    rules = PRESETS["classic"]
    total = sum(CARD_POINTS[trump]) + rules.last_trick_bonus
    assert total == {4: 130, 5: 258}.get(trump, 162)
    rng = random.Random(trump)
    seen_capot = False
    for _ in range(300):
        hands = deal(rng)
        value, _ = kernel_playout(hands, [], rng.randrange(4), trump, rules, 0, 8,
                                  rng.getrandbits(48))
        team1 = total - value
        if value == total + rules.capot_bonus:
            seen_capot = True
        else:
            assert 0 <= value <= total and 0 <= team1 <= total
    # North holds every trump and leads: North takes every trick whatever is played
    if trump < 4:
        north = [c for c in range(32) if c >> 3 == trump]
        rest = [c for c in range(32) if c >> 3 != trump]
        east, south, west = rest[:8], rest[8:16], rest[16:]
        hands = [sum(1 << c for c in cs) for cs in (north, east, south, west)]
        value, _ = kernel_playout(hands, [], 0, trump, rules, 0, 8, 12345)
        assert value == total + rules.capot_bonus
        seen_capot = True
    assert seen_capot or trump >= 4


def py_random_hands(n_hands: int, seed: int, rules: Rules) -> int:
    """Pure-Python twin of ``_kernels.random_hands``."""
    rng = Lcg((seed * 2654435761 + 88172645) & LCG_MASK)
    deck = list(range(32))
    total = 0
    for _ in range(n_hands):
        for i in range(31, 0, -1):
            j = rng.next() % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hands = [sum(1 << c for c in deck[s * 8:s * 8 + 8]) for s in range(4)]
        trump = rng.next() % 4
        total += py_playout(hands, [], 0, trump, rules, 0, 8, rng)
    return total


@pytest.mark.parametrize("preset", ["classic", "pinasca"])
@pytest.mark.parametrize("seed", [0, 1, 2026])
def test_random_hands_replays_in_python(preset: str, seed: int) -> None:
    rules = PRESETS[preset]
    n = 40
    got = K.random_hands(n, seed, rule_flags(rules), rules.last_trick_bonus,
                         rules.capot_bonus)
    assert got == py_random_hands(n, seed, rules)
    assert 0 <= got <= n * 252


def test_random_hands_runs_many() -> None:
    rules = PRESETS["classic"]
    n = 20_000
    total = K.random_hands(n, 7, rule_flags(rules), 10, 90)
    # team 0's average is near half of 162 (random play, random seats)
    assert 60 * n < total < 100 * n
