"""Valdostana conventional bids (issue 13 item 4), flag ``auction.conventional_bids``.

Seed 000, "ACCORDI LICITATIVI PARTICOLARI": "anziché fare un licita completa del tipo 82 Fiori
si omette il numero (si dice solo il seme) col significato di mano che può reggere il
contratto" (the suit-only opening) and "Risposte di Appoggio nel colore del compagno: DO 10 ...
DO 20 ... ANCORA 10 ... ANCORA 20 ... ALZO 10 ... ALZO 20" (RULES.md reading: each raises the
partner's contract by 10 or 20 in the same suit).  Positions are dealt by seat 3, so seat 0
speaks first.
"""

from __future__ import annotations

import pytest
from variant_helpers import VALDOSTANA, auction_game, bid, calls

from belote.ai.bidding import choose_bid
from belote.cards import Suit
from belote.engine import actions as A
from belote.engine import events as ev
from belote.engine.bidding.conventions import PROMISED_TRUMPS, RAISES
from belote.errors import BeloteError, IllegalActionError
from belote.i18n import LANGUAGES, action_name, describe_event, suit_name
from belote.i18n.bids import BidNotAllowed, parse_bid
from belote.i18n.sheet import flag_sentence
from belote.rl.actions import action_name as rl_action_name
from belote.rl.batch import batch_rule_problems, check_batch_rules
from belote.rl.tensors import information_state_tensor
from belote.rules import find_preset

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
V = VALDOSTANA
OFF = V.with_flags(**{"auction.conventional_bids": False})
RAISE_IDS = list(range(A.CONVENTION_BASE, A.CONVENTION_END))
SUIT_ONLY = [A.name_suit(s) for s in range(4)]

HANDS = {
    0: "JH 9H AH 10H 7S 8S 7D AC",
    1: "KH QH 8H 7H JS 9S AS 10S",
    2: "JD 9D AD 10D JC 9C 8C QS",
    3: "KD QD 8D 7C KC QC 10C KS",
}
# Seat 0 can hold a low contract in hearts: with J and 9 (A), with the J but not the 9 (B).
OPEN_A = {0: "JH 9H 8H 7H 7S 8S 7D 8D", 1: "AH 10H KH QH JS 9S AS 10S",
          2: "JD 9D AD 10D JC 9C 8C QS", 3: "KD QD 7C AC KC QC 10C KS"}
OPEN_B = {0: "JH QH 8H 7H 7S 8S 7D AC", 1: "AH 10H KH 9H JS 9S AS 10S",
          2: "JD 9D AD 10D JC 9C 8C QS", 3: "KD QD 7C 8D KC QC 10C KS"}


def test_valdostana_plays_the_conventions_and_coinche_does_not() -> None:
    assert V.auction is not None and V.auction.conventional_bids
    coinche = find_preset("coinche")
    assert coinche.auction is not None and not coinche.auction.conventional_bids


def test_suit_only_opening_is_a_contract_at_the_lowest_level() -> None:
    # "si omette il numero (si dice solo il seme)": the opener names the suit alone; the
    # contract is the one "82 Fiori" would be, said with the meaning of a sound hand.
    game, _ = auction_game(HANDS)
    assert set(SUIT_ONLY) <= set(game.legal_actions())
    events = calls(game, A.name_suit(H), A.PASS, A.PASS, A.PASS)
    contract = next(e for e in events if isinstance(e, ev.ContractSet))
    assert (contract.taker, contract.trump, contract.level) == (0, H, 82)


def test_suit_only_is_an_opening_only() -> None:
    # "Aperture": once a contract stands a suit alone is no longer a bid.
    game, _ = auction_game(HANDS)
    calls(game, bid(V, 92, S))
    assert not set(SUIT_ONLY) & set(game.legal_actions())
    with pytest.raises(IllegalActionError):
        game.apply(A.name_suit(D))


@pytest.mark.parametrize(("action", "level"), [
    (A.DO_10, 102), (A.DO_20, 112), (A.ANCORA_10, 102), (A.ANCORA_20, 112),
    (A.ALZO_10, 102), (A.ALZO_20, 112)])
def test_each_answer_raises_the_partners_contract_by_its_number(action: int, level: int) -> None:
    # "DO 10 ... DO 20 ... ANCORA 10 ... ALZO 20": answers in the partner's suit; the number
    # raises the partner's contract (RULES.md), which stays the partner's.
    game, _ = auction_game(HANDS)
    calls(game, bid(V, 92, H), A.PASS)
    assert set(RAISE_IDS) <= set(game.legal_actions())  # seat 2, the bidder's partner
    events = calls(game, action, A.PASS, A.PASS, A.PASS)
    contract = next(e for e in events if isinstance(e, ev.ContractSet))
    assert (contract.taker, contract.trump, contract.level) == (0, H, level)
    assert game.contract is not None and game.contract.last_caller == 2


def test_answers_are_for_the_partner_only_and_not_after_a_contro() -> None:
    game, _ = auction_game(HANDS)
    assert not set(RAISE_IDS) & set(game.legal_actions())  # no contract yet
    calls(game, bid(V, 92, H))
    assert not set(RAISE_IDS) & set(game.legal_actions())  # seat 1, an opponent
    with pytest.raises(IllegalActionError):
        game.apply(A.DO_10)
    calls(game, A.CONTRO)  # "è punitivo e può essere seguito soltanto dal surcontro"
    assert not set(RAISE_IDS) & set(game.legal_actions())  # seat 2 after the contro


def test_an_answer_past_the_top_level_is_not_offered() -> None:
    # "il massimo è di 802": 792 + 20 is no contract.
    game, _ = auction_game(HANDS)
    calls(game, bid(V, 792, H), A.PASS)
    legal = set(game.legal_actions())
    assert {A.DO_10, A.ANCORA_10, A.ALZO_10} <= legal
    assert not {A.DO_20, A.ANCORA_20, A.ALZO_20} & legal


def test_flag_off_offers_and_accepts_none_of_them() -> None:
    game, _ = auction_game(HANDS, rules=OFF)
    assert not set(SUIT_ONLY) & set(game.legal_actions())
    with pytest.raises(IllegalActionError):
        game.apply(A.name_suit(H))
    calls(game, bid(OFF, 92, H), A.PASS)
    assert not set(RAISE_IDS) & set(game.legal_actions())
    with pytest.raises(IllegalActionError):
        game.apply(A.ALZO_20)


def test_answers_promise_trumps_and_an_honour() -> None:
    # "DO 10, per comunicare il possesso del 14 secco ... ALZO 20 ... tre carte di atout di
    # cui una è il Vallet".
    assert {RAISES[a] for a in RAISE_IDS} == {(w, n) for w in ("do", "ancora", "alzo")
                                              for n in (10, 20)}
    assert PROMISED_TRUMPS == {"do": 1, "ancora": 2, "alzo": -1}


def test_labels_in_every_language_and_the_typed_bid_parser() -> None:
    game, _ = auction_game(HANDS)
    calls(game, bid(V, 92, H), A.PASS)
    legal = game.legal_actions()
    for lang in LANGUAGES:
        for action in RAISE_IDS:
            assert action_name(action, lang, V)
    assert parse_bid("alzo 10", legal, V) == A.ALZO_10
    assert parse_bid("ALZO 20", legal, V) == A.ALZO_20
    assert parse_bid("ancora 10", legal, V) == A.ANCORA_10
    assert parse_bid("do 20", legal, V) == A.DO_20
    assert parse_bid("ancora", legal, V) == A.ANCORA  # the plain support call stays
    opening, _ = auction_game(HANDS)
    first = opening.legal_actions()
    for lang in LANGUAGES:
        assert parse_bid(suit_name(S, lang), first, V) == A.name_suit(S)
        assert suit_name(S, lang) in action_name(A.name_suit(S), lang, V)
    with pytest.raises(BidNotAllowed):
        parse_bid("alzo 10", first, V)  # no partner's contract yet


def test_events_say_the_answer_and_the_suit_only_opening() -> None:
    for lang in LANGUAGES:
        raised = describe_event(ev.BidMade(2, A.ALZO_20, 1), lang, None, rules=V)
        assert raised and "20" in raised
        opened = describe_event(ev.BidMade(0, A.name_suit(C), 1), lang, 0, rules=V)
        assert opened and suit_name(C, lang) in opened


def test_rule_sheet_says_both_values_in_every_language() -> None:
    for lang in LANGUAGES:
        on_key, on = flag_sentence(V, "auction.conventional_bids", True, lang)
        off_key, off = flag_sentence(OFF, "auction.conventional_bids", False, lang)
        assert on_key == "sheet.auction.conventional_bids.true" and "alzo" in on
        assert off_key == "sheet.auction.conventional_bids.false" and off != on


def test_rl_names_them_and_the_batched_kernels_refuse_the_flag() -> None:
    assert [rl_action_name(a) for a in RAISE_IDS] == [
        "do_10", "do_20", "ancora_10", "ancora_20", "alzo_10", "alzo_20"]
    coinche = find_preset("coinche").with_flags(**{"auction.conventional_bids": True})
    assert "auction.conventional_bids" in batch_rule_problems(coinche)
    with pytest.raises(BeloteError, match="conventional_bids"):
        check_batch_rules(coinche)


def test_information_state_sees_an_answer() -> None:
    game, _ = auction_game(HANDS)
    calls(game, A.name_suit(H), A.PASS)
    before = information_state_tensor(game, 1).copy()
    calls(game, A.ALZO_20)
    assert (information_state_tensor(game, 1) != before).any()


def test_heuristic_bidder_opens_with_the_suit_alone_or_92_with_the_34() -> None:
    # "la licita 92 F/Q/C/P, promette tassativamente il possesso della 34 ... del 14 e del
    # Vallet": seat 0 holds J and 9 of hearts; without the 9 it names the suit alone.
    game, _ = auction_game(OPEN_A)
    assert choose_bid(game.observation(0), 1.0) == bid(V, 92, H)
    game, _ = auction_game(OPEN_B)
    assert choose_bid(game.observation(0), 1.0) == A.name_suit(H)
    game, _ = auction_game(OPEN_B, rules=OFF)
    assert choose_bid(game.observation(0), 1.0) == bid(OFF, 82, H)


def test_heuristic_bidder_answers_its_partners_suit() -> None:
    # Seat 2 holds the J and 9 of diamonds and three more: on partner's diamonds, "ALZO 20".
    game, _ = auction_game(HANDS)
    calls(game, A.name_suit(D), A.PASS)
    assert choose_bid(game.observation(2), 1.0) == A.ALZO_20
    hands = dict(HANDS)
    hands[2], hands[3] = "9D 8D AS 10D JC 9C 8C QS", "KD QD JD 7C KC QC 10C KS"
    hands[1] = "KH QH 8H 7H JS 9S AD 10S"
    game, _ = auction_game(hands)
    calls(game, A.name_suit(D), A.PASS)
    assert choose_bid(game.observation(2), 1.0) == A.ALZO_10  # three trumps, the 14


def test_the_room_offers_them_as_bid_choices() -> None:
    from belote.server.view import _choices

    game, _ = auction_game(HANDS)
    opening = {c["action"]: c for c in _choices(game.observation(0), "it")}
    assert opening[A.name_suit(H)]["label"] == "cuori (solo il seme)"
    assert "level" not in opening[A.name_suit(H)]  # a button, not the level picker's 82
    calls(game, bid(V, 92, H), A.PASS)
    answers = {c["action"]: c["label"] for c in _choices(game.observation(2), "en")}
    assert answers[A.ALZO_20] == "alzo 20 (three trumps, one the jack)"
