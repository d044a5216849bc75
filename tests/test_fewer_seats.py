"""Three- and two-player valdostana (seed 000: "è possibile giocare anche con numero ridotto a
tre o addirittura a due (ovviamente alcune regole distribuzionali e di gioco subiranno delle
variazioni)").  The seed names no variation: the readings are ours
(docs/rules-2-3-players.md), each a flag: ``players``, ``deal_packets`` and ``widow``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from belote.ai import make_bot
from belote.ai.expert import ExpertBot
from belote.cards import SUIT_MASKS, card_list
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import HandScored, MatchOver
from belote.engine.obligations import legal_plays
from belote.engine.pysearch import SeatPosition, solve
from belote.engine.scoring import HandFacts, score_hand
from belote.engine.search import rule_flags
from belote.engine.state import Game, Phase
from belote.engine.tricks import CARD_POINTS
from belote.errors import BeloteError
from belote.i18n import describe_event
from belote.i18n.sheet import rule_sheet
from belote.records import replay, to_record
from belote.rl.batch import check_batch_rules
from belote.rules import PRESETS
from belote.rules.validation import FlagError
from belote.sim.match import play_match, play_step

V3, V2, V4 = PRESETS["valdostana3"], PRESETS["valdostana2"], PRESETS["valdostana"]
HEARTS, SPADES = 0, 3
LANGS = ("it", "es", "fr", "en")


def dealt(rules: object, seed: int) -> Game:
    game = Game(rules, 0)  # type: ignore[arg-type]
    game.deal(seeded_deck_source(seed)())
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)
    return game


# --- The deal --------------------------------------------------------------------------------


def test_three_players_get_ten_cards_each_and_two_go_to_the_monte() -> None:
    game = dealt(V3, 1)
    assert [h.bit_count() for h in game.hands] == [10, 10, 10]
    assert game.widow.bit_count() == 2 == V3.widow_size
    union = game.widow
    for hand in game.hands:
        assert not union & hand
        union |= hand
    assert union == 0xFFFFFFFF


def test_two_players_get_sixteen_cards_each_and_no_monte() -> None:
    game = dealt(V2, 1)
    assert [h.bit_count() for h in game.hands] == [16, 16]
    assert game.widow == 0 and V2.widow_size == 0


def test_the_monte_is_hidden_from_every_player() -> None:
    game = dealt(V3, 2)
    for seat in range(3):
        obs = game.observation(seat)
        assert obs.hand == game.hands[seat]
        assert len(obs.hand_sizes) == 3
        assert "widow" not in obs.to_dict()


# --- Validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "flags"), [
    ("classic", {"players": 3}),  # the turned-card deal is written for four
    ("valdostana", {"players": 5}),
    ("valdostana", {"players": 1}),
    ("valdostana3", {"deal_packets": (4, 4, 3)}),  # 11 x 3 = 33 cards
    ("valdostana3", {"deal_packets": (3, 2, 2)}),  # fewer than 8 cards each
    ("valdostana3", {"widow": "bogus"}),
])
def test_unplayable_seat_counts_are_refused_and_change_nothing(preset: str,
                                                               flags: dict[str, object]) -> None:
    before = PRESETS[preset]
    with pytest.raises((FlagError, ValueError)):
        before.with_flags(**flags)
    assert PRESETS[preset] == before


def test_three_players_may_play_eight_cards_each_with_a_dead_monte() -> None:
    rules = V3.with_flags(deal_packets=[3, 2, 3], widow="dead")
    game = dealt(rules, 3)
    assert [h.bit_count() for h in game.hands] == [8, 8, 8] and rules.widow_size == 8


# --- Obligations and the auction: no partner -------------------------------------------------


def test_partner_master_frees_only_a_player_with_a_partner() -> None:
    # The player two seats back wins the trick with the ace of hearts; we hold no heart but a
    # spade (trump).  With four players he is our partner: any card.  With three he is not.
    trick = [HEARTS * 8 + 7, HEARTS * 8 + 0]  # A hearts, 7 hearts
    hand = (1 << (SPADES * 8 + 0)) | (1 << (1 * 8 + 3))  # 7 spades, 10 diamonds
    assert legal_plays(hand, trick, SPADES, V4) == hand
    assert legal_plays(hand, trick, SPADES, V3) == hand & SUIT_MASKS[SPADES]


@pytest.mark.parametrize("rules", [V3, V2], ids=["three", "two"])
def test_a_contract_closes_when_every_other_player_has_passed(rules: object) -> None:
    game = dealt(rules, 4)
    players = game.players
    game.apply(A.contract_bid(0, HEARTS))
    for _ in range(players - 2):
        game.apply(A.PASS)
        assert game.phase == Phase.BIDDING
    game.apply(A.PASS)
    assert game.phase == Phase.PLAYING and game.contract is not None
    assert game.contract.taker == 1


def test_every_player_passing_is_a_redeal_and_no_support_call_is_offered() -> None:
    game = dealt(V3, 5)
    game.apply(A.contract_bid(0, HEARTS))  # seat 1
    legal = game.legal_actions()  # seat 2: an opponent, never a partner
    assert A.ANCORA not in legal and A.ALZO not in legal and A.CONTRO in legal
    game = dealt(V3, 5)
    for _ in range(3):
        game.apply(A.PASS)
    assert game.phase == Phase.DEAL and game.dealer == 1


def test_only_the_doubled_taker_may_surcontro() -> None:
    game = dealt(V3, 6)
    game.apply(A.contract_bid(0, HEARTS))  # seat 1
    game.apply(A.CONTRO)  # seat 2
    assert A.SURCONTRO not in game.legal_actions(0)  # seat 0 did not bid
    game.apply(A.PASS)  # seat 0
    assert A.SURCONTRO in game.legal_actions(1)


# --- Whole hands and matches -----------------------------------------------------------------


def _hands_of_match(rules: object, bots: str, seed: int) -> tuple[Game, list[HandScored]]:
    scored: list[HandScored] = []
    players = [make_bot(bots, seed * 10 + s) for s in range(rules.players)]  # type: ignore[attr-defined]

    def listen(_game: Game, events: list[object]) -> None:
        scored.extend(e for e in events if isinstance(e, HandScored))

    game = play_match(rules.with_flags(target_score=400), players,  # type: ignore[attr-defined]
                      seeded_deck_source(seed), first_dealer=seed % rules.players,  # type: ignore[attr-defined]
                      listener=listen)  # type: ignore[arg-type]
    return game, scored


@pytest.mark.parametrize("bots", ["random", "normal"])
@pytest.mark.parametrize("rules", [V3, V2], ids=["three", "two"])
def test_matches_end_and_every_hand_holds_162_points(rules: object, bots: str) -> None:
    for seed in range(3):
        game, hands = _hands_of_match(rules, bots, seed)
        assert game.is_terminal() and game.winner in range(rules.sides)  # type: ignore[attr-defined]
        assert len(game.totals) == rules.sides  # type: ignore[attr-defined]
        for hand in hands:
            capot = 90 if hand.capot_team is not None else 0
            # Seed 000: "Punti Mano (max 162)": the monte goes with the last trick.
            assert sum(hand.card_points) == 162 + capot, hand
        assert [sum(h.scores[s] for h in hands) for s in range(rules.sides)] == \
            game.totals  # type: ignore[attr-defined]


def test_a_dead_monte_takes_its_points_out_of_the_hand() -> None:
    rules = V3.with_flags(deal_packets=[3, 2, 3], widow="dead", target_score=300)
    checked = []

    def listen(game: Game, events: list[object]) -> None:
        for event in events:
            if isinstance(event, HandScored):
                # The hand is scored and its monte still lies there (reset at the next deal).
                dead = sum(CARD_POINTS[game.trump][c] for c in card_list(game.widow))
                capot = 90 if event.capot_team is not None else 0
                assert sum(event.card_points) + dead == 162 + capot
                assert game.widow.bit_count() == 8
                checked.append(dead)

    play_match(rules, [make_bot("random", s) for s in range(3)], seeded_deck_source(8),
               listener=listen)  # type: ignore[arg-type]
    assert checked


def test_a_failed_contract_of_three_shares_the_takers_points_between_the_defenders() -> None:
    facts = HandFacts(taker_team=0, trump=HEARTS, card_points=(50, 70, 42), tricks_won=(3, 4, 3),
                      belote=(0, 0, 0), declarations=(0, 0, 0), level=82, tricks=10)
    result = score_hand(V3, facts)
    assert result.outcome == "failed"
    # 162 to the defence: each keeps his own (70, 42) and the taker's 50 is split 25 + 25.
    assert result.scores == (0, 95, 67)
    made = score_hand(V3, dataclasses.replace(facts, card_points=(100, 40, 22)))
    assert made.outcome == "made" and made.scores == (100, 40, 22)


def test_a_record_of_a_three_player_match_replays_exactly() -> None:
    game, hands = _hands_of_match(V3, "normal", 11)
    record = to_record(game, ["a", "b", "c"], seed=11)
    summary = replay(record)
    assert summary.finished and summary.winner == game.winner
    assert summary.totals == tuple(game.totals)
    assert [h.scores for h in summary.hands] == [h.scores for h in hands]


def test_resampling_keeps_the_seat_view_with_a_hidden_monte() -> None:
    rng = random.Random(3)
    game = dealt(V3, 9)
    game.apply(A.contract_bid(0, SPADES))
    game.apply(A.PASS)
    game.apply(A.PASS)
    for _ in range(7):
        game.apply(rng.choice([a for a in game.legal_actions() if A.is_play(a)]))
    for seat in range(3):
        for _ in range(5):
            sample = game.resample(seat, rng)
            assert sample.observation(seat) == game.observation(seat)
            assert sample.widow.bit_count() == 2


# --- Kernels and the expert ------------------------------------------------------------------


@pytest.mark.parametrize("rules", [V3, V2], ids=["three", "two"])
def test_the_kernels_and_batched_games_refuse_fewer_than_four_seats(rules: object) -> None:
    with pytest.raises(BeloteError, match="four seats"):
        rule_flags(rules)  # type: ignore[arg-type]
    with pytest.raises(BeloteError, match="players"):
        check_batch_rules(rules)  # type: ignore[arg-type]


def test_the_pure_python_search_matches_a_brute_force_on_the_engine() -> None:
    rng = random.Random(4)
    game = dealt(V3, 12)
    game.apply(A.contract_bid(0, HEARTS))
    game.apply(A.PASS)
    game.apply(A.PASS)
    while game.trick_no < 8:  # two tricks of three cards left
        game.apply(rng.choice([a for a in game.legal_actions() if A.is_play(a)]))
    seat = game.current_player()
    side = V3.side_of(seat)
    widow = sum(CARD_POINTS[game.trump][c] for c in card_list(game.widow))  # "last_trick"
    pos = SeatPosition(V3, tuple(game.hands), tuple(game.trick), game.leader, game.trump, widow)

    def brute(g: Game) -> int:
        if g.trick_no == 10 or g.phase != Phase.PLAYING:
            return g.card_points[side]
        mover = g.current_player()
        values = []
        for action in g.legal_actions():
            if not A.is_play(action) or A.announces(action):
                continue
            child = g.clone()
            child.apply(action)
            values.append(brute(child))
        return max(values) if V3.side_of(mover) == side else min(values)

    values = solve(pos, side)
    base = game.card_points[side]
    for card, value in values.items():
        child = game.clone()
        child.apply(card)
        assert base + value == brute(child), card


def test_the_expert_bids_by_the_heuristic_with_three_players_and_counts_it() -> None:
    bot = ExpertBot(1, budget_ms=5, hard_ms=200, max_worlds=2, min_worlds=1)
    players = [bot, make_bot("normal", 2), make_bot("normal", 3)]
    game = Game(V3.with_flags(target_score=100), 0)
    source = seeded_deck_source(5)
    while not game.is_terminal() and game.hands_scored < 1:
        play_step(game, players, source)
    assert bot.seat_fallbacks > 0  # its bids (cards: tests/test_kernel_seats.py)


def test_the_expert_plays_free_play_with_three_players_by_the_python_search_and_counts_it(
        ) -> None:
    # Without the follow-suit obligation the exact search starts 4 tricks from the end
    # (EXACT_TRICKS_FREE_PLAY); earlier cards are the pure-Python playouts' (counted).
    bot = ExpertBot(1, budget_ms=5, hard_ms=200, max_worlds=1, min_worlds=1)
    players = [bot, make_bot("normal", 2), make_bot("normal", 3)]
    game = Game(V3.with_flags(target_score=100, must_follow_suit=False), 0)
    source = seeded_deck_source(5)
    methods = set()
    while not game.is_terminal() and game.hands_scored < 1:
        play_step(game, players, source)
        methods.add(bot.last_method)
    assert "python-playouts" in methods or "python-exact" in methods


# --- Texts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_rule_sheet_says_how_many_play_and_where_the_monte_goes(lang: str) -> None:
    three, four = rule_sheet(V3, lang), rule_sheet(V4, lang)
    assert three != four and "{" not in three
    assert rule_sheet(V2, lang) not in (three, four)


@pytest.mark.parametrize("lang", LANGS)
def test_three_sides_are_named_by_player_in_every_language(lang: str) -> None:
    names = ["Ada", "Bea", "Cy"]
    hand = HandScored(1, 1, "made", None, (100, 40, 22), (0, 0, 0), (100, 40, 22), 0, None, 0,
                      (100, 40, 22), (0, 0, 0))
    over = MatchOver(0, (2010, 900, 1500))
    for viewer in (None, 0, 1):
        for event in (hand, over):
            text = describe_event(event, lang, viewer, names, rules=V3)
            assert text and "{" not in text
            if viewer != 0 or event is hand:  # the winner is told "you win"
                assert "Ada" in text, text


@pytest.mark.parametrize("rules", [V3, V2], ids=["three", "two"])
def test_the_rl_tensors_and_environment_refuse_fewer_than_four_seats(rules: object) -> None:
    from belote.rl.pettingzoo_env import raw_env
    from belote.rl.tensors import information_state_tensor
    from belote.rl.tracker import TensorTracker

    game = dealt(rules, 1)
    with pytest.raises(BeloteError, match="four seats"):
        information_state_tensor(game, 0)
    with pytest.raises(BeloteError, match="four seats"):
        TensorTracker(game)
    with pytest.raises(BeloteError, match="four seats"):
        raw_env(rules.name)  # type: ignore[attr-defined]
