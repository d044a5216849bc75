"""The `coinche` preset, rule by rule.

No seed defines coinche: the Spanish room of seed 002 says "Existen varias variantes que
permiten e incluso fomentan la subida de la apuesta: belote contrada, coinchée, etc. ... Estas
variantes no están disponibles por el momento en la Sala."  The rules are RULES.md's: "auction
(valdostana; coinche uses the same machine with its own table)"; "coinche table: levels 80..160
by 10, then capot; coinche x2, surcoinche x4"; scoring row "coinche".  Seats are numbered in
playing order; team 0 is seats 0 and 2.  Positions are dealt 3-2-3 by seat 3.
"""

from __future__ import annotations

import pytest
from helpers import of_kind
from variant_helpers import COINCHE, auction_game, bid, calls, finish_hand, outcome, scored

from belote.cards import Suit
from belote.engine import actions as A
from belote.engine.events import ContractSet, MatchOver
from belote.engine.scoring import Pot
from belote.engine.state import Phase
from belote.errors import IllegalActionError

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
ALL_HEARTS = {0: "7H 8H 9H 10H JH QH KH AH"}


def test_coinche_levels_80_to_160_by_10_then_capot() -> None:
    # RULES.md: "coinche table: levels 80..160 by 10, then capot"; scoring: "capot: contract
    # 250".
    assert COINCHE.auction is not None
    assert COINCHE.auction.levels == (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)
    assert COINCHE.auction.capot_level == 250
    game, _ = auction_game({}, rules=COINCHE)
    contracts = [a for a in game.legal_actions() if a >= A.CONTRACT_BASE]
    assert contracts == [A.contract_bid(i, s) for i in range(10) for s in range(4)]
    calls(game, bid(COINCHE, 160, S))
    assert [a for a in game.legal_actions() if a >= A.CONTRACT_BASE] == [
        bid(COINCHE, 250, s) for s in range(4)
    ]
    with pytest.raises(IllegalActionError):
        game.apply(A.contract_bid(10, H))  # no level beyond capot


def test_coinche_auction_plain_passes_no_aspetto_no_support_calls() -> None:
    # RULES.md: passo/aspetto and ancora/alzo are the valdostana's words; the coinche table has
    # plain passes (pass_words and support_calls off).
    game, _ = auction_game({}, rules=COINCHE)
    assert A.ASPETTO not in game.legal_actions()
    calls(game, bid(COINCHE, 80, H), A.PASS)
    legal = game.legal_actions()
    assert A.ANCORA not in legal and A.ALZO not in legal and A.ASPETTO not in legal
    events = calls(game, A.PASS, A.PASS)
    assert of_kind(events, ContractSet) == [ContractSet(0, H, 80, 1)]


def test_coinche_coinche_x2_and_surcoinche_x4_close_like_contro_surcontro() -> None:
    # RULES.md: "coinche x2, surcoinche x4" (contro/surcontro of the same machine: coinche only
    # on the opponents' contract, surcoinche only by the coinched side and at once).
    game, _ = auction_game({}, rules=COINCHE)
    calls(game, bid(COINCHE, 100, D))
    assert A.CONTRO in game.legal_actions()
    events = calls(game, A.CONTRO, A.PASS, A.PASS, A.PASS)
    assert of_kind(events, ContractSet) == [ContractSet(0, D, 100, 2)]
    game, _ = auction_game({}, rules=COINCHE)
    events = calls(game, bid(COINCHE, 100, D), A.CONTRO, A.SURCONTRO)
    assert of_kind(events, ContractSet) == [ContractSet(0, D, 100, 4)]


def test_coinche_made_scores_contract_plus_own_points() -> None:
    # RULES.md coinche: "made: contract + own points"; "what the takers must make: contract
    # level".
    result = outcome(COINCHE, (110, 52), level=100)
    assert (result.outcome, result.scores) == ("made", (110 + 100, 52))
    result = outcome(COINCHE, (90, 72), belote=(20, 0), level=110)  # 90 + 20 = 110
    assert (result.outcome, result.scores) == ("made", (90 + 20 + 110, 72))


@pytest.mark.parametrize("multiplier", [2, 4])
def test_coinche_multiplier_applies_to_the_contract(multiplier: int) -> None:
    # RULES.md multipliers, coinche: "x2 / x4 on the contract".
    made = outcome(COINCHE, (110, 52), level=100, multiplier=multiplier, last_caller_team=1)
    assert made.scores == (110 + 100 * multiplier, 52)
    failed = outcome(COINCHE, (90, 72), level=100, multiplier=multiplier, last_caller_team=1)
    assert failed.scores == (0, 160 + 100 * multiplier)


def test_coinche_failed_defenders_160_plus_contract() -> None:
    # RULES.md coinche: "failed: defenders 160 + contract"; the belote is the holder's in any
    # case (RULES.md: "belote counts toward the contract check").
    result = outcome(COINCHE, (90, 72), level=100)
    assert (result.outcome, result.scores) == ("failed", (0, 160 + 100))
    result = outcome(COINCHE, (70, 92), belote=(20, 20), level=100)
    assert (result.outcome, result.scores) == ("failed", (20, 160 + 100 + 20))


def test_coinche_capot_contract_250_needs_every_trick() -> None:
    # RULES.md coinche capot: "contract 250"; the capot level "is won only by taking every
    # trick".
    made = outcome(COINCHE, (162, 0), tricks_won=(8, 0), level=250, capot_contract=True)
    assert (made.outcome, made.scores) == ("made", (252 + 250, 0))
    failed = outcome(COINCHE, (160, 2), tricks_won=(7, 1), level=250, capot_contract=True)
    assert (failed.outcome, failed.scores) == ("failed", (0, 160 + 250))


def test_coinche_capot_contract_played_hand() -> None:
    # RULES.md coinche: "levels 80..160 by 10, then capot"; "capot: contract 250".
    game, _ = auction_game(ALL_HEARTS, rules=COINCHE)
    calls(game, bid(COINCHE, 250, H), A.PASS, A.PASS, A.PASS)
    assert game.contract is not None and game.contract.capot
    result = scored(finish_hand(game))
    assert (result.outcome, result.capot_team, result.scores) == ("made", 0, (502, 0))
    # The same contract on a hand that loses a trick is down.
    game, _ = auction_game({0: "7H 8H 9H 10H JH QH KH AS"}, rules=COINCHE)
    calls(game, bid(COINCHE, 250, H), A.PASS, A.PASS, A.PASS)
    result = scored(finish_hand(game))
    assert result.outcome == "failed" and result.scores[0] == 0


def test_coinche_tie_is_a_litige() -> None:
    # RULES.md coinche tie: "litige".
    result = outcome(COINCHE, (81, 81), level=80)
    assert (result.outcome, result.scores, result.pot) == ("litige", (0, 81), Pot(81, 0))


def test_coinche_match_target_2000() -> None:
    # RULES.md coinche match target: "2000".
    assert COINCHE.target_score == 2000 and not COINCHE.target_strict
    game, _ = auction_game(ALL_HEARTS, rules=COINCHE)
    calls(game, bid(COINCHE, 250, H), A.PASS, A.PASS, A.PASS)
    game.totals = [2000 - 502, 1000]
    events = finish_hand(game)
    assert of_kind(events, MatchOver) == [MatchOver(0, (2000, 1000))]
    game, _ = auction_game(ALL_HEARTS, rules=COINCHE)
    calls(game, bid(COINCHE, 250, H), A.PASS, A.PASS, A.PASS)
    game.totals = [2000 - 503, 1000]
    finish_hand(game)
    assert game.phase == Phase.DEAL


def test_coinche_failed_defenders_160_plus_contract_even_with_every_trick() -> None:
    # RULES.md coinche: "failed: defenders 160 + contract"; "capot: contract 250" (a capot
    # counts only as a contract).
    result = outcome(COINCHE, (0, 162), tricks_won=(0, 8), level=80)
    assert (result.outcome, result.scores) == ("failed", (0, 160 + 80))
