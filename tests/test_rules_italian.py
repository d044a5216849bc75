"""The `italian` preset, rule by rule (RULES.md; seed 000 part 1, the Italian Wikipedia page).

Seats are numbered in playing order; team 0 is seats 0 and 2, team 1 seats 1 and 3.  Positions
are dealt by seat 3, so that seat 0 speaks ("mando"/"via") and leads first.  Each test quotes
the sentence of seed 000 (Italian) or the RULES.md line that it checks.
"""

from __future__ import annotations

import pytest
from helpers import deck_for, game_in_play, legal_cards, of_kind, play, play_cards
from variant_helpers import ITALIAN, finish_hand, italian_in_play, outcome, scored

from belote.cards import Suit
from belote.engine import actions as A
from belote.engine.events import (
    ALL_TRUMP,
    NO_TRUMP,
    BeloteAnnounced,
    ContractSet,
    Event,
    MatchOver,
    OttavaShown,
    TrickWon,
    TurnedCardTaken,
)
from belote.engine.scoring import Pot
from belote.engine.state import Game, Phase
from belote.engine.tricks import CARD_POINTS
from belote.errors import IllegalActionError
from belote.rules import Rules

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
ANNOUNCING = range(A.PLAY_ANNOUNCE_BASE, A.PLAY_ANNOUNCE_BASE + 32)

# A senza position (seat 0 calls senza, holding the turned 7D): seat 0 leads 10S; seat 1
# follows with JS or 9S; seat 2 is void in spades; seat 3 follows.  Seat 0 holds KH QH.
SENZA_HANDS = {
    0: "7D 10S KH QH 9C 8C 7C AD",
    1: "JS 9S AH 10H 8D 9D 10D JD",
    2: "JH 9H 8H 7H AC 10C KC QC",
    3: "7S 8S QS KS AS QD KD JC",
}
# A tutte position (seat 0 calls tutte, holding the turned 7D): seat 0 leads AS; seat 1 holds
# JS 9S 7S; seat 2 is void in spades; seat 3 holds only spades below the 9.
TUTTE_HANDS = {
    0: "AS 7D KH QH 9C 8C 7C AD",
    1: "JS 9S 7S 10H 8D 9D 10D JD",
    2: "JH 9H 8H 7H AC 10C KC QC",
    3: "8S 10S QS KS AH QD KD JC",
}
ALL_HEARTS = {0: "7H 8H 9H 10H JH QH KH AH"}


def new_game(hands: dict[int, str], turned: str, taker: int, rules: Rules = ITALIAN) -> Game:
    """Dealt by seat 3, in the bidding: seat 0 speaks first."""
    game = Game(rules, first_dealer=3)
    game.deal(deck_for(hands, turned, 3, taker, (3, 2)))
    return game


# ---------------------------------------------------------------------------- the call


def test_italian_round_two_may_call_senza_or_tutte() -> None:
    # Seed 000: "In tal caso si fa un altro giro dove ogni giocatore può scegliere tra gli
    # altri tre semi (dicendo 'mando a nome del seme') o se preferisce può chiamare le varianti
    # 'senza briscole' (dicendo 'senza') o 'tutte briscole' (dicendo 'tutte')."
    game = new_game(SENZA_HANDS, "7D", taker=0)
    assert game.legal_actions() == [A.PASS, A.TAKE]  # round 1: "mando" or "via"
    for _ in range(4):
        game.apply(A.PASS)
    assert game.legal_actions() == [A.PASS, A.name_suit(H), A.name_suit(C), A.name_suit(S),
                                    A.SENZA, A.TUTTE]
    events = game.apply(A.SENZA)
    assert of_kind(events, ContractSet) == [ContractSet(0, NO_TRUMP)]
    assert of_kind(events, TurnedCardTaken) == [TurnedCardTaken(0, game.deck[20])]
    game = new_game(TUTTE_HANDS, "7D", taker=0)
    for _ in range(4):
        game.apply(A.PASS)
    events = game.apply(A.TUTTE)
    assert of_kind(events, ContractSet) == [ContractSet(0, ALL_TRUMP)]
    assert game.phase == Phase.PLAYING and game.trump == ALL_TRUMP


def test_italian_partner_may_replace_a_round_two_suit_with_senza() -> None:
    # Seed 000: "Se uno dei giocatori ha mandato ad uno qualsiasi degli altri tre semi, durante
    # il secondo giro, ma il suo compagno preferisce giocare 'a senza', quest'ultimo può imporre
    # la propria scelta dichiarandolo subito ('senza')."  RULES.md: "(and becomes the taker)
    # ... The taker receives the turned card."
    hands = {2: "7D 10S KH QH 9C 8C 7C AD"}
    game = new_game(hands, "7D", taker=2)
    for _ in range(4):
        game.apply(A.PASS)
    game.apply(A.name_suit(S))  # seat 0 calls spades
    assert game.current_player() == 2  # at once, the partner (not seat 1)
    assert game.legal_actions() == [A.PASS, A.SENZA]
    events = game.apply(A.SENZA)
    assert of_kind(events, ContractSet) == [ContractSet(2, NO_TRUMP)]
    assert of_kind(events, TurnedCardTaken)[0].seat == 2
    assert game.hands[2].bit_count() == 8


def test_italian_partner_may_let_the_suit_call_stand() -> None:
    # Seed 000: "quest'ultimo può imporre la propria scelta" -- may, not must.
    game = new_game({0: "7D 10S KH QH 9C 8C 7C AD"}, "7D", taker=0)
    for _ in range(4):
        game.apply(A.PASS)
    game.apply(A.name_suit(S))
    events = game.apply(A.PASS)
    assert of_kind(events, ContractSet) == [ContractSet(0, S)]


@pytest.mark.parametrize("call", [A.SENZA, A.TUTTE])
def test_italian_senza_override_never_the_reverse(call: int) -> None:
    # Seed 000: "Non può succedere il contrario."  A senza (or tutte) call stands at once: the
    # partner cannot replace it with a suit.
    game = new_game({0: "7D 10S KH QH 9C 8C 7C AD"}, "7D", taker=0)
    for _ in range(4):
        game.apply(A.PASS)
    game.apply(call)
    assert game.phase == Phase.PLAYING and game.contract is not None
    assert game.contract.taker == 0
    with pytest.raises(IllegalActionError):
        game.apply(A.name_suit(S), seat=2)


def test_italian_override_flag_off_a_suit_call_stands_at_once() -> None:
    # RULES.md: every rule is a flag (senza_override).
    game = new_game({0: "7D 10S KH QH 9C 8C 7C AD"}, "7D", taker=0,
                    rules=ITALIAN.with_flags(senza_override=False))
    for _ in range(4):
        game.apply(A.PASS)
    events = game.apply(A.name_suit(S))
    assert of_kind(events, ContractSet) == [ContractSet(0, S)]


def test_italian_jack_oblige_flag() -> None:
    # Seed 000: "Se la carta inizialmente girata sul tavolo è un J, è di solito conveniente per
    # il primo giocatore prenderlo ... In altre varianti del Belot prendere il Jack quando è
    # 'obligè' non è solo consigliato ma è obbligatorio."  RULES.md: jack_oblige, off by default.
    hands = {0: "JH 10S KH QH 9C 8C 7C AD"}
    assert ITALIAN.jack_oblige is False
    game = new_game(hands, "JH", taker=0)
    assert game.legal_actions() == [A.PASS, A.TAKE]
    game = new_game(hands, "JH", taker=0, rules=ITALIAN.with_flags(jack_oblige=True))
    assert game.legal_actions() == [A.TAKE]
    with pytest.raises(IllegalActionError):
        game.apply(A.PASS)
    # Not a jack: the flag changes nothing.
    game = new_game({0: "7D 10S KH QH 9C 8C 7C AD"}, "7D", taker=0,
                    rules=ITALIAN.with_flags(jack_oblige=True))
    assert game.legal_actions() == [A.PASS, A.TAKE]


# ---------------------------------------------------------------------------- senza, tutte


def test_italian_senza_no_trump_plain_order_no_belote() -> None:
    # Seed 000: "Nel primo caso il gioco si riconduce al tressette, con l'unica scala di valore
    # delle carte non di briscola"; RULES.md: "senza (italian): plain ranking for every suit,
    # no trump, no belote".
    game, _ = italian_in_play(SENZA_HANDS, "7D", taker=0, call=A.SENZA)
    assert not any(a in ANNOUNCING for a in game.legal_actions(0))  # KH QH: no belote
    play_cards(game, "10S")
    assert legal_cards(game) == {"JS", "9S"}  # follow suit
    play_cards(game, "JS")
    assert len(legal_cards(game)) == 8  # void: any card, no trump to play
    events = play_cards(game, "JH 7S")
    won = of_kind(events, TrickWon)[0]
    assert won.seat == 0  # 10S beats JS (plain order), JH of another suit never wins
    assert won.points == 10 + 2 + 2 + 0
    while game.phase == Phase.PLAYING:
        assert not any(a in ANNOUNCING for a in game.legal_actions())
        game.apply(min(game.legal_actions()))
    assert game.belote_said == []


def test_italian_tutte_trump_order_everywhere_must_beat_the_led_suit() -> None:
    # Seed 000: "nel secondo caso, al contrario, si utilizza solo la scala delle carte di
    # briscola, e tutti i semi hanno lo stesso valore."  RULES.md: "In tutte a player must beat
    # the best card of the led suit when able"; "no suit beats another".
    game, _ = italian_in_play(TUTTE_HANDS, "7D", taker=0, call=A.TUTTE)
    play_cards(game, "AS")
    assert legal_cards(game) == {"JS", "9S"}  # beat the AS in trump order, not the 7S
    play_cards(game, "9S")
    assert len(legal_cards(game)) == 8  # void in spades: any card, no suit beats another
    play_cards(game, "JH")
    assert legal_cards(game) == {"8S", "10S", "QS", "KS"}  # cannot beat the 9S: any spade
    events = play_cards(game, "8S")
    won = of_kind(events, TrickWon)[0]
    assert won.seat == 1  # 9S over AS; the jack of hearts does not win
    assert won.points == 11 + 14 + 20 + 0  # trump points for every suit


def _tutte_belote_hands(first: str, second: str) -> dict[int, str]:
    """Seat 0 holds K+Q of suit ``first``, seat 1 of ``second`` (letters); seats 2 and 3 hold
    the other kings and queens crosswise (no pair); 7 8 9 10 J A fill the hands."""
    fillers = [f"{rank}{suit}" for suit in "HDCS" for rank in ("7", "8", "9", "10", "J", "A")]
    a, b = (suit for suit in "HDCS" if suit not in (first, second))
    hands = [
        [f"K{first}", f"Q{first}"], [f"K{second}", f"Q{second}"], [f"K{a}", f"Q{b}"],
        [f"K{b}", f"Q{a}"],
    ]
    return {seat: " ".join(hand + fillers[6 * seat:6 * seat + 6])
            for seat, hand in enumerate(hands)}


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [("D", "H", (0, 20)), ("H", "S", (20, 0)), ("C", "D", (0, 20)), ("C", "S", (20, 0))],
)
def test_italian_tutte_only_the_highest_suits_belote_scores(
    first: str, second: str, expected: tuple[int, int]
) -> None:
    # Seed 000: "Nel 'tutte briscole', valgono ovviamente tutti i 'Belot e Rebelot', giocati in
    # qualunque momento della mano; vince però alla fine della mano ... solo il 'Belot e
    # Rebelot' del seme più alto secondo la scala del poker (Come Quando Fuori Piove)."
    hands = _tutte_belote_hands(first, second)
    game, _ = italian_in_play(hands, hands[0].split()[2], taker=0, call=A.TUTTE)
    result = scored(finish_hand(game, announce=True))
    said = {(seat, word) for seat, word in game.belote_said}
    assert said == {(0, "belote"), (0, "rebelote"), (1, "belote"), (1, "rebelote")}
    assert result.belote == expected


def test_italian_belote_window_until_the_last_card_of_the_trick() -> None:
    # Seed 000: "può dire, entro la fine del giro (cioè prima che l'ultimo giocatore appoggi la
    # carta sul tavolo), Belot quando gioca la prima delle due carte".
    hands = {
        0: "7H KH QH AS AD AC 7C 8C",
        1: "7S 8S 9S 10S 7D 8D 9D 10D",
        2: "8H 9H 10H AH JS QS KS JD",
        3: "JH QD KD 9C 10C JC QC KC",
    }
    assert ITALIAN.belote_window == "trick"
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=ITALIAN)
    play_cards(game, "KH 7S")
    assert A.ANNOUNCE_BELOTE in game.legal_actions(0)
    play_cards(game, "10H")
    assert A.ANNOUNCE_BELOTE in game.legal_actions(0)  # still before the last card
    events = game.apply(A.ANNOUNCE_BELOTE, seat=0)
    assert of_kind(events, BeloteAnnounced) == [BeloteAnnounced(0, "belote", H)]
    # Not announced before the last card: the window is shut with the trick.
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=ITALIAN)
    play_cards(game, "KH 7S 10H JH")
    assert A.ANNOUNCE_BELOTE not in game.legal_actions(0)
    # The classic window ("antes de que el siguiente jugador juegue") is shut by the next card.
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3,
                           rules=ITALIAN.with_flags(belote_window="next_card"))
    play_cards(game, "KH")
    assert A.ANNOUNCE_BELOTE in game.legal_actions(0)
    play_cards(game, "7S")
    assert A.ANNOUNCE_BELOTE not in game.legal_actions(0)


# ---------------------------------------------------------------------------- scoring


def test_italian_takers_need_more_than_half_81_of_162() -> None:
    # Seed 000: "la squadra del giocatore che ha 'chiamato' o 'mandato' ... deve farne più
    # della metà".
    assert outcome(ITALIAN, (82, 80)).outcome == "made"
    assert outcome(ITALIAN, (81, 81)).outcome == "litige"
    assert outcome(ITALIAN, (80, 82)).outcome == "failed"


def test_italian_with_a_belote_takers_need_more_than_91_of_182() -> None:
    # Seed 000: "il 'Belot e Rebelot' alza il punteggio totale a 182 punti, ma in questo caso
    # chi 'manda' è tenuto a farne più di 91 (anziché 81)."
    assert outcome(ITALIAN, (92, 70), belote=(0, 20)).outcome == "made"  # 92 > 90
    assert outcome(ITALIAN, (91, 71), belote=(0, 20)).outcome == "litige"  # 91 = 91
    assert outcome(ITALIAN, (90, 72), belote=(0, 20)).outcome == "failed"
    assert outcome(ITALIAN, (72, 90), belote=(20, 0)).outcome == "made"  # 92 of 182
    assert outcome(ITALIAN, (71, 91), belote=(20, 0)).outcome == "litige"


def test_italian_declarations_added_afterwards_not_counted_for_the_contract() -> None:
    # Seed 000: "Al punteggio delle squadre vanno poi aggiunti gli eventuali punti delle
    # dichiarazioni"; RULES.md: "declarations are added afterwards and do not count".
    failed = outcome(ITALIAN, (80, 82), declarations=(100, 0))
    assert failed.outcome == "failed"
    made = outcome(ITALIAN, (82, 80), declarations=(0, 200))
    assert (made.outcome, made.scores) == ("made", (82, 80 + 200))


def test_italian_bevuta_defenders_take_the_full_score_with_every_declaration() -> None:
    # Seed 000: "deve farne più della metà, pena il punteggio pieno per la squadra avversaria,
    # comprese le scale e i poker (la partita si dice 'bevuta', 'tazzata', 'casarata' ...)".
    result = outcome(ITALIAN, (70, 92), declarations=(100, 20), belote=(20, 0))
    assert result.outcome == "failed"  # 70 + 20 = 90, not more than 91 of 182
    assert result.scores == (0, 162 + 100 + 20 + 20)


def test_italian_cappotto_every_point_others_may_win_pointless_tricks() -> None:
    # Seed 000: "Nel caso in cui ... la squadra che ha mandato riesca ad effettuare tutti i
    # punti possibili (gli avversari potrebbero quindi aver preso una o più mani senza punti)
    # si dice che chi ha mandato ha fatto 'Cappotto' e l'ultima mano invece di valere 10 punti
    # ne varrà bensì 100. Andranno quindi alla squadra che ha fatto 'Cappotto' ben 252 punti
    # più eventuali dichiarazioni. Le dichiarazioni degli avversari restano a loro."
    result = outcome(ITALIAN, (162, 0), tricks_won=(6, 2), declarations=(50, 20))
    assert result.capot_team == 0
    assert result.card_points == (252, 0)
    assert result.scores == (252 + 50, 20)


def test_italian_cappotto_impossible_when_the_other_team_scored_a_belote() -> None:
    # Seed 000: "nel caso la squadra non chiamante abbia 'Belot e Rebelot', non è possibile
    # effettuare il 'Cappotto', in quanto non è possibile effettuare tutti i punti sui 182".
    result = outcome(ITALIAN, (162, 0), tricks_won=(8, 0), belote=(0, 20))
    assert result.capot_team is None
    assert (result.outcome, result.scores) == ("made", (162, 20))


def test_italian_cappotto_played_hand_is_252() -> None:
    # Seed 000: "la squadra vincente totalizza così 252 punti (anziché 162)".
    game, _ = game_in_play(ALL_HEARTS, "7H", taker=0, dealer=3, rules=ITALIAN)
    result = scored(finish_hand(game))
    assert (result.capot_team, result.card_points, result.scores) == (0, (252, 0), (252, 0))


def test_italian_tie_the_callers_points_stay_at_stake() -> None:
    # Seed 000: "In caso di pareggio, gli 81 punti dei chiamanti rimangono in palio per la mano
    # successiva."
    tie = outcome(ITALIAN, (81, 81), declarations=(20, 0))
    assert (tie.outcome, tie.pot) == ("litige", Pot(81, 0))
    assert tie.scores == (20, 81)  # declarations are added apart: only the 81 stay at stake
    nxt = outcome(ITALIAN, (62, 100), taker_team=1, pot=tie.pot)  # team 1 calls and makes it
    assert (nxt.outcome, nxt.pot_winner, nxt.pot_won) == ("made", 1, 81)
    assert nxt.scores == (62, 100 + 81)
    nxt = outcome(ITALIAN, (62, 100), taker_team=0, pot=tie.pot)  # team 0 calls and fails
    assert (nxt.outcome, nxt.pot_winner, nxt.scores) == ("failed", 1, (0, 162 + 81))


# ---------------------------------------------------------------------------- ottava, match


def test_italian_ottava_wins_the_match_at_once() -> None:
    # Seed 000: "Nel caso particolare in cui un giocatore dichiari un''ottava', il giocatore può
    # mostrare le carte e vincere in questo modo la partita."
    hands = {
        0: "7H 8H 9H 10H 7D 8D 9D 10D",
        1: "7S 8S 9S 10S JS QS KS AS",
        2: "JH QH KH AH 7C 8C 9C 10C",
        3: "JD QD KD AD JC QC KC AC",
    }
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=ITALIAN)
    assert A.OTTAVA not in game.legal_actions(0)
    game.apply(min(a for a in game.legal_actions() if a < 32))
    assert A.OTTAVA in game.legal_actions(1)
    events = game.apply(A.OTTAVA)
    assert of_kind(events, OttavaShown) == [OttavaShown(1, S)]
    assert of_kind(events, MatchOver) == [MatchOver(1, (0, 0))]
    assert game.is_terminal() and game.winner == 1


def test_italian_ottava_may_be_declined() -> None:
    # Seed 000: "'Chevalier'. Questo significa che quel giocatore durante una partita ha
    # rinunciato a dichiarare un'ottava per proseguire la partita".
    hands = {
        0: "7H 8H 9H 10H 7D 8D 9D 10D",
        1: "7S 8S 9S 10S JS QS KS AS",
        2: "JH QH KH AH 7C 8C 9C 10C",
        3: "JD QD KD AD JC QC KC AC",
    }
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=ITALIAN)
    game.apply(min(a for a in game.legal_actions() if a < 32))
    assert A.OTTAVA in game.legal_actions(1)
    game.apply(play("AS"))  # declined: seat 1 plays a card instead
    offered = []
    while game.phase == Phase.PLAYING:
        offered.append(A.OTTAVA in game.legal_actions())
        game.apply(min(a for a in game.legal_actions() if a < 32))
    assert not any(offered)  # only in the first trick, before one's card
    assert not game.is_terminal()
    flag_off = ITALIAN.with_flags(ottava=False)
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=flag_off)
    game.apply(min(a for a in game.legal_actions() if a < 32))
    assert A.OTTAVA not in game.legal_actions(1)


def _capot_with_totals(totals: list[int]) -> tuple[Game, list[Event]]:
    game, _ = game_in_play(ALL_HEARTS, "7H", taker=0, dealer=3, rules=ITALIAN)
    game.totals = totals
    return game, finish_hand(game)


def test_italian_match_first_to_exceed_751() -> None:
    # Seed 000: "Vince la coppia che per prima supera i 751 punti."
    assert ITALIAN.target_score == 751 and ITALIAN.target_strict
    game, events = _capot_with_totals([499, 300])  # 751: reached, not exceeded
    assert not of_kind(events, MatchOver) and game.phase == Phase.DEAL
    game, events = _capot_with_totals([500, 300])  # 752
    assert of_kind(events, MatchOver) == [MatchOver(0, (752, 300))]


def test_italian_senza_card_points_total_130_doubled_260() -> None:
    # Seed 000: "il punteggio in questo caso è 30x4 (i quattro semi) + 10 per l'ultima mano, il
    # tutto moltiplicato per due. In totale 260 punti".
    assert sum(CARD_POINTS[NO_TRUMP]) == 4 * 30
    game, _ = italian_in_play(SENZA_HANDS, "7D", taker=0, call=A.SENZA)
    result = scored(finish_hand(game))
    assert game.card_points[0] + game.card_points[1] == 130
    assert result.capot_team is None
    assert sum(result.card_points) == 260
