"""The card-play obligations (``belote.engine.obligations``) and everyone who reads them.

Each obligation flag is set both ways, and the engine's legal plays, the kernels' legal masks
and exact values, and the expert (its worlds and its decisions) must agree: a flag cannot mean
one thing to the engine and another to a bot.  Also: what a card proves is sound and tight
against the legal plays, refusal reasons match the legal plays, one function words every
reason in every language, and ``legal_actions()`` is sorted on every preset.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from helpers import CLASSIC, game_in_play, play, play_cards
from hypothesis import given, settings
from hypothesis import strategies as st

from belote.ai.expert import ExpertBot
from belote.ai.worlds import knowledge, sample_world
from belote.cards import ACES
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.obligations import (
    OBLIGATION_FIELDS,
    LevelTable,
    Refusal,
    RefusalReason,
    belote_refusal,
    could_have_played,
    legal_plays,
    proven_absent,
    refusal,
)
from belote.engine.refusals import ENGLISH, refusal_message
from belote.engine.search import Position, Solver, kernels, rule_flags
from belote.engine.state import Phase
from belote.engine.tricks import CARD_POINTS, trick_winner
from belote.i18n import LANGUAGES
from belote.i18n.refusals import explain, refusal_sentence, refusal_text
from belote.i18n.table_info import why_no_belote
from belote.rules import PRESETS, Rules

K = kernels()
SETTINGS = [(flag, value) for flag in OBLIGATION_FIELDS for value in (True, False)]


def rules_with(preset: str, flag: str, value: bool) -> Rules:
    return PRESETS[preset].with_flags(**{flag: value})


def random_rules(rng: random.Random) -> Rules:
    return CLASSIC.with_flags(**{flag: rng.random() < 0.5 for flag in OBLIGATION_FIELDS})


def random_trick_and_hand(rng: random.Random) -> tuple[list[int], int, int]:
    """A trick of 1..3 cards, a hand of 1..8 other cards and a trump code 0..5."""
    cards = rng.sample(range(32), 11)
    n = rng.randint(1, 3)
    return cards[:n], sum(1 << c for c in cards[n:n + rng.randint(1, 8)]), rng.randrange(6)


# ----------------------------------------------------------------------------- one module
def test_follow_suit_off_frees_a_player_holding_the_led_suit() -> None:
    # RULES.md: must trump binds a player "void in led suit"; follow suit off, holding the
    # led suit, any card may be played.
    rules = CLASSIC.with_flags(must_follow_suit=False)
    spades_led = [31]  # the ace of spades, trump hearts (0)
    hand = (1 << 30) | (1 << 0) | (1 << 8)  # KS, 7H (trump), 7D
    assert legal_plays(hand, spades_led, 0, rules) == hand
    void = (1 << 0) | (1 << 8)
    assert legal_plays(void, spades_led, 0, rules) == 1 << 0  # void: must still trump
    senza = (1 << 30) | (1 << 8)
    assert legal_plays(senza, spades_led, 4, rules) == senza  # no trump: any card


def test_refusal_is_none_exactly_for_legal_cards_and_names_the_obligation() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        rules = random_rules(rng)
        trick, hand, trump = random_trick_and_hand(rng)
        legal = legal_plays(hand, trick, trump, rules)
        for card in range(32):
            reason = refusal(card, hand, trick, trump, rules)
            if card in trick:
                continue
            if not hand >> card & 1:
                assert reason is RefusalReason.NOT_IN_HAND
            elif legal >> card & 1:
                assert reason is None
            else:
                assert reason is not None
                flag = {
                    RefusalReason.MUST_FOLLOW_SUIT: "must_follow_suit",
                    RefusalReason.MUST_TRUMP: "must_trump",
                    RefusalReason.MUST_OVERTRUMP: "must_overtrump",
                    RefusalReason.MUST_UNDERTRUMP: "must_undertrump",
                }[reason]
                # the obligation named is one the rules impose (trump led: overtrumping
                # is part of following)
                assert getattr(rules, flag), (reason, rules, trick, hand, card)


def _witness(card: int, x: int, trick: list[int], trump: int, rules: Rules) -> bool:
    """Some hand holding ``card`` and ``x`` (and at most one more card) plays ``card``."""
    base = (1 << card) | (1 << x)
    if legal_plays(base, trick, trump, rules) >> card & 1:
        return True
    on_table = sum(1 << c for c in trick) | base
    return any(legal_plays(base | 1 << y, trick, trump, rules) >> card & 1
               for y in range(32) if not on_table >> y & 1)


def test_what_a_card_proves_is_sound_and_tight() -> None:
    """Sound: no hand that may play the card holds a card proven absent.  Tight: every other
    card is in some hand that may play it (nothing provable is left out)."""
    rng = random.Random(12)
    for _ in range(600):
        rules = random_rules(rng)
        trick, hand, trump = random_trick_and_hand(rng)
        for card in range(32):
            if not legal_plays(hand, trick, trump, rules) >> card & 1:
                continue
            absent = proven_absent(trick, card, trump, rules)
            assert not hand & absent, (rules, trick, hand, card, trump)
            if rng.random() < 0.3:  # tightness costs more: a sample
                for x in range(32):
                    if x == card or x in trick or absent >> x & 1:
                        continue
                    assert _witness(card, x, trick, trump, rules), (rules, trick, card, x)


@pytest.mark.parametrize(("flag", "value"), SETTINGS)
def test_a_card_proves_nothing_through_an_obligation_that_is_off(flag: str,
                                                                 value: bool) -> None:
    # each fact only while its flag is on: turning a flag off never proves more
    rng = random.Random(f"{flag}{value}")
    for _ in range(300):
        on = random_rules(rng).with_flags(**{flag: True})
        off = on.with_flags(**{flag: False})
        trick, hand, trump = random_trick_and_hand(rng)
        legal = legal_plays(hand, trick, trump, off) & legal_plays(hand, trick, trump, on)
        for card in range(32):
            if legal >> card & 1 and flag != "partner_master_frees":
                assert proven_absent(trick, card, trump, off) & ~proven_absent(
                    trick, card, trump, on) == 0


# ----------------------------------------------------------------------------- agreement
def _positions(rules: Rules, seed: int, count: int) -> Iterator[Game]:
    """Random card-play positions of random hands (random legal actions, passo and aspetto
    said truthfully)."""
    rng = random.Random(seed)
    source = seeded_deck_source(seed)
    produced = 0
    game = Game(rules, rng.randrange(rules.players))
    while produced < count:
        if game.is_terminal():
            game = Game(rules, rng.randrange(rules.players))
        if game.current_player() == CHANCE:
            game.deal(source())
            continue
        seat = game.current_player()
        if game.phase == Phase.PLAYING and rng.random() < 0.15:
            yield game
            produced += 1
        legal = game.legal_actions()
        action = rng.choice(legal)
        if action in (A.PASS, A.ASPETTO) and A.ASPETTO in legal:
            action = A.ASPETTO if game.hands[seat] & ACES else A.PASS
        game.apply(action)
        for s in game.seats_with_open_window():
            game.apply(A.ANNOUNCE_BELOTE, s)


def _minimax(hands: list[int], trick: list[int], leader: int, trump: int, rules: Rules,
             won: int) -> int:
    """Team 0's points from here with perfect play: plain minimax over ``legal_plays``."""
    seat = (leader + len(trick)) % 4
    values = []
    for card in range(32):
        if not legal_plays(hands[seat], trick, trump, rules) >> card & 1:
            continue
        values.append(_after(card, hands, trick, leader, trump, rules, won))
    return max(values) if seat % 2 == 0 else min(values)


def _after(card: int, hands: list[int], trick: list[int], leader: int, trump: int,
           rules: Rules, won: int) -> int:
    seat = (leader + len(trick)) % 4
    hands = list(hands)
    hands[seat] &= ~(1 << card)
    trick = [*trick, card]
    if len(trick) < 4:
        return _minimax(hands, trick, leader, trump, rules, won)
    winner = (leader + trick_winner(trick, trump)) % 4
    won |= 1 << (winner & 1)
    last = not any(hands)
    value = sum(CARD_POINTS[trump][c] for c in trick) + (rules.last_trick_bonus if last else 0)
    mine = value if winner % 2 == 0 else 0
    if last:
        return mine + (rules.capot_bonus if won == 1 else 0)
    return mine + _minimax(hands, [], winner, trump, rules, won)


@pytest.mark.parametrize(("flag", "value"), SETTINGS)
def test_engine_kernels_and_expert_agree_on_each_obligation(flag: str, value: bool) -> None:
    for preset, seed in (("classic", 1), ("italian", 2)):
        rules = rules_with(preset, flag, value)
        flags = rule_flags(rules)
        solver = Solver(rules)
        bot = ExpertBot(7, budget_ms=5, hard_ms=600_000, max_worlds=2, min_worlds=2)
        for i, game in enumerate(_positions(rules, seed, 4)):
            seat = game.current_player()
            obs = game.observation(seat)
            trick = list(game.trick)
            arr = np.zeros(4, dtype=np.int64)
            arr[: len(trick)] = trick
            # kernels: every seat's hand against this trick
            for s in range(4):
                assert K.legal_mask(game.hands[s], arr, len(trick), game.trump, flags) == (
                    legal_plays(game.hands[s], trick, game.trump, rules))
            # expert's knowledge: the real deal is possible, sampled worlds replay legally
            info = knowledge(obs)
            for other in range(4):
                if other != seat:
                    assert not game.hands[other] & info.forbidden[other], (flag, value)
            rng = random.Random(i)
            for _ in range(3):
                world = list(sample_world(info, rng))
                world[seat] = obs.hand
                assert could_have_played(world, info.tricks, game.trump, rules), world
            # expert: decides from solved worlds, raises nothing, plays a legal action
            action = bot.choose(obs)
            assert action in obs.legal_actions
            if len([a for a in obs.legal_actions if a < A.PASS]) > 1:
                assert bot.last_worlds >= 2
                exact = rules.must_follow_suit or obs.hand.bit_count() <= 4
                assert bot.last_method == ("exact" if exact else "playouts")
            # exact values on the last two tricks: kernel solver against plain minimax
            tricks_left = (sum(h.bit_count() for h in game.hands) + len(trick)) // 4
            if tricks_left <= 2:
                leader = obs.trick[0][0] if obs.trick else obs.leader
                won = (1 if obs.tricks_won[0] else 0) | (2 if obs.tricks_won[1] else 0)
                hands = list(game.hands)
                got = solver.solve(Position((hands[0], hands[1], hands[2], hands[3]),
                                            tuple(trick), leader, game.trump, won))
                for card, v in got.items():
                    assert v == _after(card, hands, trick, leader, game.trump, rules, won)


def test_expert_plays_and_bids_follow_suit_off_hands_without_error() -> None:
    # the reported failure: follow suit off, "no world is consistent" on most decisions
    rules = CLASSIC.with_flags(must_follow_suit=False)
    bot = ExpertBot(3, budget_ms=5, max_worlds=2, min_worlds=2, bid_budget_ms=5,
                    bid_worlds=2, min_bid_worlds=2)
    game = Game(rules, 0)
    source = seeded_deck_source(9)
    while game.deal_no < 2 and not game.is_terminal():
        if game.current_player() == CHANCE:
            game.deal(source())
            continue
        seat = game.current_player()
        action = bot.choose(game.observation(seat))
        assert action in game.legal_actions()
        game.apply(action)
        for s in game.seats_with_open_window():
            game.apply(A.ANNOUNCE_BELOTE, s)


# ----------------------------------------------------------------------------- sentences
# A refused bid's facts, for the sentences that name them (the levels of coinche's table);
# the action: one each sentence may name (a raise past the top, else an unknown id).
BID_FACTS = {"level": 900, "lowest": 122, "suit": 1,
             "table": LevelTable.of((*range(80, 161, 10), 250), 250)}


def sample_refusal(reason: RefusalReason, card: int = 4, led: int = 3) -> tuple[Refusal, int]:
    action = A.ALZO_10 if reason.value in ("support_only_partner", "no_partner",
                                           "raise_past_top") else 999
    return Refusal(reason, card, led, **BID_FACTS), action  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_reason_has_a_sentence_in_every_language(lang: str) -> None:
    for reason in RefusalReason:
        refused, action = sample_refusal(reason)
        text = refusal_sentence(refused, lang, action=action)
        assert text and "{" not in text
    named = refusal_text(RefusalReason.NOT_YOUR_TURN, lang, seat=2)
    assert "2" in named and named != refusal_text(RefusalReason.NOT_YOUR_TURN, lang)


def test_refusal_text_needs_the_details_its_sentence_names() -> None:
    with pytest.raises(ValueError, match="card"):
        refusal_text(RefusalReason.MUST_TRUMP, "en")
    with pytest.raises(ValueError, match="suit led"):
        refusal_text(RefusalReason.MUST_FOLLOW_SUIT, "en", card=4)
    with pytest.raises(ValueError, match="action"):
        refusal_text(RefusalReason.UNKNOWN_ACTION, "en")
    with pytest.raises(ValueError, match="unknown language"):
        refusal_text(RefusalReason.MUST_TRUMP, "xx", card=4)


def test_engine_room_and_terminal_word_a_refusal_alike() -> None:
    game, _ = game_in_play({0: "7H AS KS QS AD KD AC 7C", 1: "JH 9H 10S 8S 9D 8D KC QC"},
                           "7H", taker=0, dealer=3)
    play_cards(game, "AS")
    action = play("9D")
    assert game.explain_illegal(action, 1) is RefusalReason.MUST_FOLLOW_SUIT
    assert game.explain_illegal(play("8S"), 1) is None
    english = explain(game, action, 1, "en")
    assert english == "You cannot play the nine of diamonds: you must follow suit (spades)."
    assert explain(game, action, 1, "it") != english
    from belote.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as refused:
        game.apply(action)
    assert english in str(refused.value) and "must follow suit" in str(refused.value)
    with pytest.raises(ValueError, match="legal"):
        explain(game, play("8S"), 1, "en")


def test_the_engine_says_a_refusal_in_the_catalogs_english() -> None:
    # Issue 22: the engine imports no catalog, so its English is its own; where the catalogs
    # word the same reason in English the two sentences are equal, word for word.  Only the
    # room's belote hints differ: they name its keys ("press Space").
    room_keys = {RefusalReason.NO_BELOTE_KING_FIRST, RefusalReason.NO_BELOTE_WITHOUT_CARD}
    assert set(ENGLISH) == set(RefusalReason)
    for reason in RefusalReason:
        for card, led in ((4, 3), (29, 0)):
            refused, action = sample_refusal(reason, card, led)
            engine = refusal_message(refused, action, 2)
            assert engine.endswith(f" ({reason.value.replace('_', ' ')})")
            if reason not in room_keys:
                catalog = refusal_sentence(refused, "en", seat=2, action=action)
                assert engine == f"{catalog} ({reason.value.replace('_', ' ')})"


def test_the_room_words_the_engines_belote_reason() -> None:
    # Spades named trump: seat 0 holds the king (30) and the queen (29) of spades.
    game, _ = game_in_play({0: "7H AS KS QS AD KD AC 7C"}, "7H", taker=0, dealer=3, trump=3)
    obs = game.observation(0)
    assert belote_refusal(obs) == Refusal(RefusalReason.NO_BELOTE_WITHOUT_CARD, 30)
    assert belote_refusal(obs, 29) == Refusal(RefusalReason.NO_BELOTE_KING_FIRST, 29)
    assert explain(game, A.ANNOUNCE_BELOTE, 0, "en") == why_no_belote(obs, "en")
    assert why_no_belote(obs, "en").startswith("Belote is announced with the card")
    for lang in LANGUAGES:
        assert why_no_belote(obs, lang, 29) == refusal_text(
            RefusalReason.NO_BELOTE_KING_FIRST, lang, card=29)


# ----------------------------------------------------------------------------- sorted actions
@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_sorted_on_every_preset(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(PRESETS[preset], rng.randrange(PRESETS[preset].players))
    source = seeded_deck_source(seed)
    for _ in range(120):
        if game.is_terminal():
            break
        if game.current_player() == CHANCE:
            game.deal(source())
            continue
        for seat in range(game.players):
            actions = game.legal_actions(seat)
            assert actions == sorted(actions), (preset, seat, actions)
        game.apply(rng.choice(game.legal_actions()))
        for s in game.seats_with_open_window():
            if rng.random() < 0.5:
                game.apply(A.ANNOUNCE_BELOTE, s)

