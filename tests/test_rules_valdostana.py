"""The `valdostana` preset, rule by rule (RULES.md; seed 000 part 2, "La belote valdostana").

Seats are numbered in playing order; team 0 is seats 0 and 2, team 1 seats 1 and 3.  Positions
are dealt 3-2-3 by seat 3, so that seat 0 speaks first in the auction and leads first.  Each
test quotes the sentence of seed 000 (Italian) or the RULES.md line that it checks.
"""

from __future__ import annotations

import pytest
from helpers import of_kind
from variant_helpers import (
    VALDOSTANA,
    auction_game,
    bid,
    calls,
    finish_hand,
    outcome,
    scored,
)

from belote.cards import Suit
from belote.engine import actions as A
from belote.engine.events import (
    AllPassed,
    BidMade,
    CardsDealt,
    ContractSet,
    DeclarationAnnounced,
    Event,
    HandStarted,
    MatchOver,
)
from belote.engine.state import CHANCE, Game, Phase
from belote.errors import IllegalActionError

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
V = VALDOSTANA
LEVELS = tuple(range(82, 803, 10))
TIERCE, CINQUANTE, CENT, CARRE = (A.DECLARE_NAME_BASE + i for i in range(4))
DECLARATION_IDS = {A.DECLARE, TIERCE, CINQUANTE, CENT, CARRE}

# Seat 0: a cinquante (7-10 of spades) and a tierce (7-9 of diamonds); seat 1: the carré of
# jacks; seats 2 and 3: nothing.
ACCUSI = {
    0: "7S 8S 9S 10S 7D 8D 9D AH",
    1: "JS JH JD JC 7C 9C AC QD",
    2: "7H 9H QH 10D AD 8C QC KS",
    3: "8H 10H KH KD 10C KC QS AS",
}


def contracts(legal: list[int]) -> list[int]:
    return [a for a in legal if a >= A.CONTRACT_BASE]


def in_play(hands: dict[int, str], level: int = 82, suit: int = H) -> Game:
    """Seat 0 bids ``level`` in ``suit`` and the three others pass."""
    game, _ = auction_game(hands)
    calls(game, bid(V, level, suit), A.PASS, A.PASS, A.PASS)
    assert game.phase == Phase.PLAYING
    return game


def play_first_trick(game: Game, declare: dict[int, int]) -> list[Event]:
    """Each seat says ``declare[seat]`` (if any) before its card of the first trick."""
    events: list[Event] = []
    while game.trick_no == 0:
        seat = game.current_player()
        if seat in declare:
            events += game.apply(declare[seat])
        events += game.apply(min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE))
    return events


def ask_to_see(game: Game) -> None:
    """In the second trick, the first defender of seat 0's line to play asks to see the
    declarations (seed 000: "Nel secondo giro, su richiesta degli avversari, si mostrano")."""
    while A.REQUEST_SHOW not in game.legal_actions():
        game.apply(min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE))
    game.apply(A.REQUEST_SHOW)


# ---------------------------------------------------------------------------- the auction


def test_valdostana_deal_3_2_3_all_eight_cards_no_turned_card() -> None:
    # Seed 000: "il mazziere distribuisce così: 8 carte a testa in tre giri (prima 3 poi 2 poi
    # 3 ...)".  RULES.md: "8 cards dealt directly (3-2-3)."
    assert V.deal_packets == (3, 2, 3) and not V.turned_card
    game, events = auction_game(ACCUSI)
    assert of_kind(events, HandStarted)[0].turned is None
    assert all(hand.bit_count() == 8 for hand in game.hands)
    assert [e.seat for e in of_kind(events, CardsDealt)] == [0, 1, 2, 3]


def test_valdostana_auction_starts_after_the_dealer_contract_and_three_passes_close() -> None:
    # Seed 000: "Una qualsiasi Licita a Colore (ad es. 122 Picche), seguita da tre
    # dichiarazioni del tipo Passo e/o Aspetto, diventa il Contratto Aggiudicato".
    game, _ = auction_game({}, dealer=1)
    assert game.current_player() == 2  # the player after the dealer speaks first
    calls(game, bid(V, 122, S), A.PASS, A.ASPETTO)
    assert game.phase == Phase.BIDDING
    events = calls(game, A.PASS)
    assert of_kind(events, ContractSet) == [ContractSet(2, S, 122, 1)]
    assert game.phase == Phase.PLAYING and game.current_player() == 2


def test_valdostana_contro_followed_by_passes_closes() -> None:
    # Seed 000: "anche il Contro, seguito da soli Passo/Aspetto, è conclusivo di Contratto
    # nell'ultima licitazione (punti e seme)".
    game, _ = auction_game({})
    calls(game, bid(V, 102, D), A.CONTRO, A.PASS, A.ASPETTO)
    assert game.phase == Phase.BIDDING
    events = calls(game, A.PASS)
    assert of_kind(events, ContractSet) == [ContractSet(0, D, 102, 2)]


def test_valdostana_after_contro_only_surcontro_or_passes() -> None:
    # Seed 000: "CONTRO/CONTRE (è punitivo e può essere seguito soltanto dal surcontro)".
    game, _ = auction_game({})
    calls(game, bid(V, 102, D), A.CONTRO)
    assert game.legal_actions() == [A.PASS, A.ASPETTO, A.SURCONTRO]  # seat 2, doubled side
    calls(game, A.PASS)
    assert game.legal_actions() == [A.PASS, A.ASPETTO]  # seat 3: no new contract
    with pytest.raises(IllegalActionError):
        game.apply(bid(V, 112, S))


def test_valdostana_surcontro_ends_the_auction_at_once() -> None:
    # Seed 000: "SURCONTRO/SURCONTRE (è punitivo e conclude la licitazione)"; "il Surcontro è
    # tombale e l'ultima licitazione (punti e seme) diventa il contratto finale."
    game, _ = auction_game({})
    events = calls(game, bid(V, 92, C), A.CONTRO, A.SURCONTRO)
    assert of_kind(events, ContractSet) == [ContractSet(0, C, 92, 4)]
    assert game.phase == Phase.PLAYING


def test_valdostana_four_passes_redeal_by_the_next_dealer() -> None:
    # Seed 000: "se tutti i giocatori dicono Passo/Aspetto, il mazzo passa al giocatore
    # successivo in senso antiorario che diventa, a sua volta, mazziere."
    game, _ = auction_game({})
    events = calls(game, A.PASS, A.ASPETTO, A.PASS, A.ASPETTO)
    assert of_kind(events, AllPassed) == [AllPassed(1, 0)]
    assert game.phase == Phase.DEAL and game.current_player() == CHANCE and game.dealer == 0


def test_valdostana_levels_82_to_802_by_10() -> None:
    # Seed 000: "Il valore minimo è di 82, il massimo è di 802. Il giocatore può presentare
    # qualsiasi valore superiore al minimo, purché sia ottenuto sommando 82 a 10 oppure un suo
    # multiplo. Esemplificando, sono validi 112, 132, 252, ecc."
    assert V.auction is not None and V.auction.levels == LEVELS
    assert LEVELS[0] == 82 and LEVELS[-1] == 802 and len(LEVELS) == 73
    game, _ = auction_game({})
    assert contracts(game.legal_actions()) == [
        A.contract_bid(i, s) for i in range(len(LEVELS)) for s in range(4)
    ]  # "soltanto il primo giocatore che propone un contratto, è completamente libero"
    events = calls(game, bid(V, 802, S), A.PASS, A.PASS, A.PASS)
    assert of_kind(events, ContractSet)[0].level == 802
    game, _ = auction_game({})
    with pytest.raises(IllegalActionError):
        game.apply(A.contract_bid(len(LEVELS), H))  # 812: beyond the table


def test_valdostana_each_later_contract_higher_than_the_last_in_any_suit() -> None:
    # Seed 000: "Una sequenza regolare di primo giro è la seguente: 1º giocatore 102♠ - 2°
    # gioc. Passo - 3° gioc. Aspetto - 4° gioc. 122♦. Nella sequenza illustrata non sono
    # accettabili, per qualsiasi giocatore dopo il primo, dei valori inferiori a 102 (in
    # qualsiasi seme)! Se la licitazione continua nel secondo giro sono permessi soltanto
    # livelli superiori a 122 (in qualsiasi seme)".
    game, _ = auction_game({})
    calls(game, bid(V, 102, S), A.PASS)
    assert contracts(game.legal_actions())[0] == bid(V, 112, H)
    with pytest.raises(IllegalActionError):
        game.apply(bid(V, 102, H))  # the same level in another suit is not higher
    calls(game, A.ASPETTO, bid(V, 122, D))
    assert contracts(game.legal_actions())[0] == bid(V, 132, H)  # seat 0, second round
    assert len(contracts(game.legal_actions())) == 4 * (len(LEVELS) - LEVELS.index(132))


def test_valdostana_passo_and_aspetto_are_both_passes_and_recorded() -> None:
    # Seed 000: "PASSO/PASSE (non ho Assi) - ASPETTO (ho almeno un Asso)"; RULES.md: "both are
    # passes; the engine records which was said."
    game, _ = auction_game({})
    events = calls(game, bid(V, 82, H), A.ASPETTO, A.PASS, A.ASPETTO)
    assert [(e.seat, e.action) for e in of_kind(events, BidMade)] == [
        (0, bid(V, 82, H)), (1, A.ASPETTO), (2, A.PASS), (3, A.ASPETTO)
    ]
    assert game.bid_history[1:] == [(1, A.ASPETTO), (2, A.PASS), (3, A.ASPETTO)]
    assert game.observation(2).bids == tuple(game.bid_history)
    assert of_kind(events, ContractSet) == [ContractSet(0, H, 82, 1)]


def test_valdostana_ancora_alzo_only_on_the_partners_standing_contract() -> None:
    # Seed 000: "ANCORA (due carte nel colore proposto dal compagno) - ALZO (almeno tre carte
    # nel colore proposto dal compagno)"; RULES.md: "count as passes that carry information".
    game, _ = auction_game({})
    assert A.ANCORA not in game.legal_actions()  # no contract yet
    calls(game, bid(V, 82, H))
    assert A.ANCORA not in game.legal_actions() and A.ALZO not in game.legal_actions()  # seat 1
    calls(game, A.PASS)
    assert {A.ANCORA, A.ALZO} <= set(game.legal_actions())  # seat 2, the bidder's partner
    calls(game, A.ALZO)
    assert A.ANCORA not in game.legal_actions() and A.ALZO not in game.legal_actions()  # seat 3
    events = calls(game, A.PASS)  # pass, alzo, pass: the contract is closed
    assert of_kind(events, ContractSet) == [ContractSet(0, H, 82, 1)]
    assert (2, A.ALZO) in game.bid_history
    # The partner's contract overcalled by an opponent is no longer standing.
    game, _ = auction_game({})
    calls(game, bid(V, 82, H), bid(V, 92, S))
    assert A.ANCORA not in game.legal_actions() and A.ALZO not in game.legal_actions()


def test_valdostana_ancora_counts_as_a_pass() -> None:
    # RULES.md: "ancora (two cards in partner's suit), alzo (three or more) count as passes".
    game, _ = auction_game({})
    events = calls(game, bid(V, 82, H), A.PASS, A.ANCORA, A.PASS)
    assert of_kind(events, ContractSet) == [ContractSet(0, H, 82, 1)]
    assert (2, A.ANCORA) in game.bid_history


def test_valdostana_contro_only_on_an_opponents_contract() -> None:
    # Seed 000: "Contro dopo un 102 Cuori, un 112 Quadri oppure un 92 Fiori"; RULES.md:
    # "contro (double): only on an opponents' contract".
    game, _ = auction_game({})
    assert A.CONTRO not in game.legal_actions()  # nothing to double
    calls(game, bid(V, 102, H))
    assert A.CONTRO in game.legal_actions()  # seat 1, an opponent
    calls(game, A.PASS)
    assert A.CONTRO not in game.legal_actions()  # seat 2, the partner
    with pytest.raises(IllegalActionError):
        game.apply(A.CONTRO)


def test_valdostana_surcontro_only_by_the_doubled_side() -> None:
    # Seed 000: "Surcontro dopo un Contro"; RULES.md: "surcontro (redouble): only by the
    # doubled side".
    game, _ = auction_game({})
    assert A.SURCONTRO not in game.legal_actions()
    calls(game, bid(V, 102, H), A.CONTRO, A.PASS)
    assert A.SURCONTRO not in game.legal_actions()  # seat 3 doubled: not the doubled side
    calls(game, A.PASS)
    assert A.SURCONTRO in game.legal_actions()  # seat 0, the bidder


# ---------------------------------------------------------------------------- scoring


def test_valdostana_contract_made_on_line_points_at_least_level_and_above_defenders() -> None:
    # Seed 000: "i giocatori provvedono al conteggio dei Punti Linea ... sommando i Punti Mano,
    # i Punti Accusi validi, Punti Belote e il Bien Joué. Sulla base dei punti conseguiti dalle
    # due Linee di Gioco si stabilisce se il Contratto è stato mantenuto"; "A) se il contratto è
    # mantenuto e il punteggio degli avversari è inferiore, ad ogni Linea di Gioco si assegnano
    # i Punti Mano di competenza (max 252) sommati ai propri Punti Accusi validi (anche la
    # Belote)".
    made = outcome(V, (95, 67), declarations=(20, 0), level=102)  # 115 >= 102, > 67
    assert (made.outcome, made.scores) == ("made", (115, 67))
    exact = outcome(V, (82, 80), belote=(20, 0), level=102)  # 102 = 102: "PUNTI ... realizzare"
    assert exact.outcome == "made"
    below = outcome(V, (95, 67), declarations=(20, 0), level=122)
    assert below.outcome == "failed"
    not_above = outcome(V, (82, 80), declarations=(0, 20), level=82)  # 82 < 100
    assert not_above.outcome == "failed"


def test_valdostana_failed_defenders_162_plus_their_declarations_attackers_0() -> None:
    # Seed 000: "B) se il contratto è stato disatteso (down della linea attaccante), alla Linea
    # Difendente vanno attribuiti i Punti Mano (max 162) sommati ai Punti Accusi validi (anche
    # la Belote), e, per contrappunto, zero punti alla Linea Attaccante."
    result = outcome(V, (95, 67), declarations=(20, 0), belote=(20, 0), level=142)
    assert (result.outcome, result.scores) == ("failed", (0, 162))
    result = outcome(V, (60, 102), declarations=(0, 50), belote=(0, 20), level=82)
    assert (result.outcome, result.scores) == ("failed", (0, 162 + 50 + 20))


def test_valdostana_capot_made_is_252() -> None:
    # Seed 000: "il massimo dei Punti Mano disponibili per la coppia attaccante è di 252 in
    # caso di cappotto".
    result = outcome(V, (162, 0), level=252)
    assert (result.outcome, result.capot_team, result.scores) == ("made", 0, (252, 0))


@pytest.mark.parametrize(("multiplier", "last_caller"), [(2, 1), (4, 0)])
def test_valdostana_multipliers_winning_line_takes_both_lines_points(
    multiplier: int, last_caller: int
) -> None:
    # Seed 000: "Se il contratto è stato Contrato o Surcontrato si applicano ai Punti i relativi
    # Coefficienti moltiplicativi (2 e 4) e la Linea Vincente si aggiudica il bottino";
    # "CONTRATTO CONTRATO (coefficiente di moltiplicazione = 2) ... i Punti Tipo A sono
    # raddoppiati (x2) e vanno alla coppia attaccante"; surcontrato: "quadruplicati (x4)".
    made = outcome(V, (100, 62), declarations=(20, 0), level=102, multiplier=multiplier,
                   last_caller_team=last_caller)
    assert (made.outcome, made.scores) == ("made", ((100 + 20 + 62) * multiplier, 0))
    failed = outcome(V, (80, 82), declarations=(0, 50), level=102, multiplier=multiplier,
                     last_caller_team=last_caller)
    assert (failed.outcome, failed.scores) == ("failed", (0, (162 + 50) * multiplier))


def test_valdostana_tie_with_contro_the_attackers_win() -> None:
    # Seed 000: "benché il contratto (per es. 112 Quadri) sia stato mantenuto dalla Linea
    # Attaccante (per es. realizzando 121 punti), il punteggio finale cumulato dalle due coppie
    # risulti esattamente uguale ...: in questo caso la vittoria è appannaggio della Linea
    # Attaccante!"
    tie = {"declarations": (20, 0), "belote": (0, 20), "level": 92}  # 81 + 20 = 81 + 20
    assert outcome(V, (81, 81), **tie).outcome == "litige"  # plain: a litige
    result = outcome(V, (81, 81), **tie, multiplier=2, last_caller_team=1)
    assert (result.outcome, result.scores) == ("made", ((101 + 101) * 2, 0))
    assert result.pot.points == 0


def test_valdostana_tie_with_surcontro_the_defenders_win() -> None:
    # Seed 000 (surcontrato): "il punteggio finale cumulato dalle due coppie risulti
    # esattamente uguale ...: in questo caso la vittoria è appannaggio della Linea Difendente!"
    result = outcome(V, (81, 81), declarations=(20, 0), belote=(0, 20), level=92, multiplier=4,
                     last_caller_team=0)
    assert result.outcome == "failed"
    assert result.scores == (0, (162 + 20) * 4)  # Punti Mano (max 162) + their belote


def test_valdostana_tie_on_a_plain_contract_is_a_litige() -> None:
    # RULES.md valdostana tie: "plain contract: litige (reading)".
    result = outcome(V, (71, 91), declarations=(20, 0), level=82)
    assert result.outcome == "litige"
    assert result.scores == (0, 91)
    assert result.pot.points == 91 and result.pot.team == 0
    below = outcome(V, (71, 91), declarations=(20, 0), level=92)  # 91 < 92: down, no tie
    assert below.outcome == "failed"


def test_valdostana_game_records_contro_and_surcontro_multipliers() -> None:
    # RULES.md "contro x2, surcontro x4", as the contract of a played hand.
    game, _ = auction_game({})
    events = calls(game, bid(V, 92, C), A.CONTRO, A.SURCONTRO)
    assert game.contract is not None
    assert (game.contract.multiplier, game.contract.last_caller) == (4, 2)
    result = scored(finish_hand(game))
    assert of_kind(events, ContractSet)[0].multiplier == 4
    assert result.scores[0] % 4 == 0 and result.scores[1] % 4 == 0
    assert 0 in result.scores  # the winning line takes both lines' points


# ---------------------------------------------------------------------------- accusi


def test_valdostana_declarations_are_announced_by_name_only() -> None:
    # Seed 000: "Gli accusi devono essere annunciati, col loro nome ma senza specificare il
    # colore, da ogni giocatore nel primo giro di gioco, nel proprio turno e prima di posare la
    # carta. Il giocatore che possiede più combinazioni (es. una tiers e un cinquante)
    # dichiarerà soltanto quella di maggior peso".
    game = in_play(ACCUSI)
    legal = set(game.legal_actions())
    assert {TIERCE, CINQUANTE} <= legal
    assert A.DECLARE not in legal and CENT not in legal and CARRE not in legal
    events = game.apply(CINQUANTE)
    assert of_kind(events, DeclarationAnnounced) == [DeclarationAnnounced(0, ("cinquante",))]
    assert not DECLARATION_IDS & set(game.legal_actions())  # one announcement only
    events = play_first_trick(game, {})
    assert game.declaration_points == (50, 0)  # as announced: nobody asked to see them
    ask_to_see(game)
    assert game.declaration_points == (50 + 20, 0)  # shown: the lower, unannounced tierce


def test_valdostana_late_announcement_impossible() -> None:
    # Seed 000: "Warning 1: un accuso non dichiarato nel proprio turno, ovvero prima che la
    # carta avversaria abbia coperto la carta giocata, è NULLO".  Seat 1 holds the carré of
    # jacks but plays his card without announcing it: it never scores.
    game = in_play(ACCUSI)
    game.apply(CINQUANTE)
    game.apply(min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE))
    assert CARRE in game.legal_actions(1)
    game.apply(min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE))  # seat 1
    assert CARRE in game.legal_actions(1)  # until the next card covers seat 1's
    game.apply(min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE))  # covered
    for seat in range(4):
        assert not DECLARATION_IDS & set(game.legal_actions(seat)), seat
    with pytest.raises(IllegalActionError):
        game.apply(CARRE, seat=1)
    play_first_trick(game, {})
    ask_to_see(game)
    assert game.declaration_points == (70, 0)


def test_valdostana_announcing_a_lower_one_voids_the_higher() -> None:
    # Seed 000: "Warning 2: l'accuso di una combinazione di valore +basso rende nulla quella di
    # valore +alto eventualmente posseduta."
    game = in_play(ACCUSI)
    play_first_trick(game, {0: TIERCE})
    assert game.declaration_points == (20, 0)  # the cinquante is void


def test_valdostana_best_line_takes_its_accusi_the_other_none() -> None:
    # Seed 000: "Al termine del primo giro, si decide quale accuso è di maggior valore. Ora,
    # tutti gli accusi della Linea ... anche quelli di minor valore e non dichiarati, sono
    # validi ...: quelli avversari diventano nulli!"
    game = in_play(ACCUSI)
    play_first_trick(game, {0: CINQUANTE, 1: CARRE})
    assert game.declaration_points == (0, 200)


def test_valdostana_belote_in_a_sequence_tiers_belote_40() -> None:
    # Seed 000: "Le combinazioni di carte in scala che contengono la Belote prendono il nome di
    # Accusi Beloté e, se dichiarate correttamente, danno un bonus calcolato sommando i punti
    # della tabella precedente ai punti Belote (20)"; "tiers beloté ARD - RDF 20 + 20 40".
    hands = {0: "JH QH KH 7S 9S JC 7D 9D", 1: "8H 10H AH AS 8C 10C QC AD"}
    game = in_play(hands)
    play_first_trick(game, {0: TIERCE})
    result = scored(finish_hand(game, announce=True))
    assert result.declarations == (20, 0)
    assert result.belote == (20, 0)
    assert result.declarations[0] + result.belote[0] == 40  # tiers beloté
    # The belote not announced with the cards: only the tierce's 20.
    game = in_play(hands)
    play_first_trick(game, {0: TIERCE})
    result = scored(finish_hand(game))
    assert (result.declarations, result.belote) == ((20, 0), (0, 0))


def test_valdostana_match_to_2000_both_past_the_higher_wins() -> None:
    # Seed 000: "Vince la coppia che raggiunge per prima i 2000 punti; in certi casi entrambe
    # le coppie superano insieme i 2000 punti, vince dunque quella che è più alta."
    assert V.target_score == 2000 and not V.target_strict
    hands = {0: "JH 9H AH 10H 7S 7D 7C 8S"}
    probe = in_play(hands)
    result = scored(finish_hand(probe))
    assert result.outcome == "made" and min(result.scores) > 0
    game = in_play(hands)
    game.totals = [2000 - result.scores[0] + 10, 2000 - result.scores[1] + 30]
    events = finish_hand(game)
    assert game.totals[0] > 2000 and game.totals[1] > 2000
    assert of_kind(events, MatchOver) == [MatchOver(1, (game.totals[0], game.totals[1]))]


def test_valdostana_failed_defenders_hand_points_max_162_even_with_every_trick() -> None:
    # Seed 000: "b) il massimo dei Punti Mano disponibili per la coppia difendente, in caso di
    # down della coppia attaccante, è la somma di 162 e degli accusi validi"; "alla Linea
    # Difendente vanno attribuiti i Punti Mano (max 162)".  RULES.md valdostana failed:
    # "defenders 162 + their valid declarations, attackers 0".
    result = outcome(V, (0, 162), tricks_won=(0, 8), declarations=(0, 50), level=82)
    assert result.outcome == "failed"
    assert result.scores == (0, 162 + 50)
