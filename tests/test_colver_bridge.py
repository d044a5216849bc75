"""Tests of the bridge to the optional ``colver`` engine (skipped without it)."""

from __future__ import annotations

import random

import pytest

from belote.cards import (
    ALL_CARDS,
    card_list,
    make_card,
    rank_of,
    suit_of,
    to_mask,
)
from belote.oracles.colver.bridge import (
    colver_current_trick,
    colver_env_at,
    colver_hands,
    colver_legal_cards,
    colver_play,
    colver_plays,
    colver_random_hand_loop,
    from_colver_card,
    from_colver_cards,
    from_colver_mask,
    from_colver_suit,
    to_colver_card,
    to_colver_cards,
    to_colver_mask,
    to_colver_suit,
)

colver = pytest.importorskip("colver")

RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = ("♥", "♦", "♣", "♠")
# Strength of our ranks (7 8 9 10 J Q K A): trump order 7 8 Q K 10 A 9 J,
# plain order 7 8 9 J Q K 10 A.
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)


def random_deal(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return [to_mask(deck[8 * i : 8 * i + 8]) for i in range(4)]


def strength(card: int, trump: int, led: int) -> int:
    if suit_of(card) == trump:
        return 100 + TRUMP_STRENGTH[rank_of(card)]
    if suit_of(card) == led:
        return PLAIN_STRENGTH[rank_of(card)]
    return -1


def trick_winner_offset(cards: list[int], trump: int) -> int:
    led = suit_of(cards[0])
    return max(range(len(cards)), key=lambda i: strength(cards[i], trump, led))


def expected_player(dealer: int, plays: list[int], trump: int) -> int:
    """Seat to move after ``plays``, from our own (independent) trick-winner logic."""
    leader = (dealer + 1) % 4
    done = len(plays) - len(plays) % 4
    for start in range(0, done, 4):
        leader = (leader + trick_winner_offset(plays[start : start + 4], trump)) % 4
    return (leader + len(plays) % 4) % 4


def documented_rule(hand: int, trick: list[int], leader: int, trump: int) -> int:
    """colver's legal-card rule, as documented in ``belote.oracles.colver.bridge``."""
    if not trick:
        return hand
    led = suit_of(trick[0])
    me = (leader + len(trick)) % 4
    win = trick_winner_offset(trick, trump)
    partner_master = (leader + win) % 2 == me % 2
    best = strength(trick[win], trump, led)
    follow = [c for c in card_list(hand) if suit_of(c) == led]
    trumps = [c for c in card_list(hand) if suit_of(c) == trump]
    if led == trump:
        if not follow:
            return hand
        higher = [c for c in follow if strength(c, trump, led) > best]
        return to_mask(higher or follow)
    if follow:
        return to_mask(follow)
    if partner_master or not trumps:
        return hand
    if best < 100:  # nobody has trumped yet
        return to_mask(trumps)
    higher = [c for c in trumps if strength(c, trump, led) > best]
    return to_mask(higher) if higher else hand


# --------------------------------------------------------------------------- encoding


def test_card_encoding_matches_colver_names() -> None:
    for suit in range(4):
        for rank in range(8):
            card = make_card(suit, rank)
            name = colver.Env.card_name(to_colver_card(card))
            assert name == RANK_LABELS[rank] + SUIT_SYMBOLS[suit]
            assert to_colver_card(card) // 8 == to_colver_suit(suit)


def test_card_encoding_round_trip() -> None:
    assert sorted(to_colver_card(c) for c in range(32)) == list(range(32))
    for card in range(32):
        assert from_colver_card(to_colver_card(card)) == card
        assert to_colver_card(from_colver_card(card)) == card
    for suit in range(4):
        assert from_colver_suit(to_colver_suit(suit)) == suit


def test_mask_helpers_round_trip() -> None:
    rng = random.Random(7)
    for _ in range(200):
        mask = rng.getrandbits(32)
        cards = to_colver_cards(mask)
        assert cards == sorted(cards)
        assert to_colver_mask(mask) == sum(1 << i for i in cards)
        assert from_colver_cards(cards) == mask
        assert from_colver_mask(to_colver_mask(mask)) == mask
    assert from_colver_cards([-1, -1]) == 0
    assert to_colver_mask(ALL_CARDS) == ALL_CARDS


# --------------------------------------------------------------------------- positions


@pytest.mark.parametrize("seed", range(6))
def test_env_at_reproduces_position(seed: int) -> None:
    rng = random.Random(seed)
    hands = random_deal(rng)
    dealer, trump, taker = rng.randrange(4), rng.randrange(4), rng.randrange(2)
    walker = colver_env_at(dealer, hands, trump, taker, [])
    plays: list[int] = []
    for _ in range(33):
        env = colver_env_at(dealer, hands, trump, taker, plays, value=90)
        contract = env.get_contract()
        assert contract["trump"] == to_colver_suit(trump)
        assert contract["team"] == taker
        assert contract["value"] == 90
        assert colver_plays(env) == plays == colver_plays(walker)
        played = to_mask(plays)
        assert colver_hands(env) == [h & ~played for h in hands]
        assert colver_hands(walker) == colver_hands(env)
        if len(plays) == 32:
            assert env.is_terminal()
            assert colver_legal_cards(env) == 0
            break
        player = expected_player(dealer, plays, trump)
        assert env.current_player() == player == walker.current_player()
        leader, trick = colver_current_trick(env)
        in_trick = len(plays) % 4
        assert trick == plays[len(plays) - in_trick :]
        assert leader == (player - in_trick) % 4
        assert colver_current_trick(walker) == (leader, trick)
        legal = colver_legal_cards(env)
        assert legal == colver_legal_cards(walker)
        assert legal and legal & ~hands[player] & ~played == 0
        card = rng.choice(card_list(legal))
        colver_play(walker, card)
        plays.append(card)


def test_first_leader_is_after_dealer() -> None:
    hands = random_deal(random.Random(1))
    for dealer in range(4):
        env = colver_env_at(dealer, hands, 0, 0, [])
        assert env.current_player() == (dealer + 1) % 4
        assert env.get_dealer() == dealer


def test_env_at_rejects_bad_input() -> None:
    rng = random.Random(3)
    hands = random_deal(rng)
    with pytest.raises(ValueError, match="overlaps"):
        colver_env_at(0, [hands[0], hands[0], hands[2], hands[3]], 0, 0, [])
    with pytest.raises(ValueError, match="8 cards"):
        colver_env_at(0, [hands[0] | hands[1], 0, hands[2], hands[3]], 0, 0, [])
    # A card of another seat: colver's own step would accept it silently.
    with pytest.raises(ValueError, match="not legal"):
        colver_env_at(0, hands, 0, 0, [card_list(hands[2])[0]])


# --------------------------------------------------------------------------- rules


def test_colver_follows_documented_rule() -> None:
    """Pins the legal-move rule written in the bridge's docstring to colver."""
    rng = random.Random(11)
    branches: set[str] = set()
    for _ in range(300):
        hands = random_deal(rng)
        dealer, trump = rng.randrange(4), rng.randrange(4)
        env = colver_env_at(dealer, hands, trump, rng.randrange(2), [])
        while not env.is_terminal():
            leader, trick = colver_current_trick(env)
            hand = colver_hands(env)[env.current_player()]
            legal = colver_legal_cards(env)
            assert legal == documented_rule(hand, trick, leader, trump)
            if trick and suit_of(trick[0]) != trump and legal == hand:
                led_void = not any(
                    suit_of(c) == suit_of(trick[0]) for c in card_list(hand)
                )
                has_trump = any(suit_of(c) == trump for c in card_list(hand))
                if led_void and has_trump:
                    branches.add("void with trumps, free")
            colver_play(env, rng.choice(card_list(legal)))
    assert branches  # the free-discard cases were exercised


def test_random_hand_loop_runs() -> None:
    rate = colver_random_hand_loop(20, seed=0)
    assert rate > 0
