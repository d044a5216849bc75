"""The `classic` preset, rule by rule (RULES.md; seed 002, the Spanish rules page of "la Sala").

Seats are numbered in playing order; team 0 is seats 0 and 2, team 1 seats 1 and 3.  Most
positions are dealt by seat 3, so that seat 0 speaks and leads first.  Each test quotes the
sentence of seed 002 (Spanish) or the RULES.md line that it checks.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import (
    CLASSIC,
    bid_to,
    c,
    cards,
    deck_for,
    game_in_play,
    legal_cards,
    of_kind,
    play,
    play_belote,
    play_cards,
    play_random_hand,
    snapshot,
)

from belote.cards import Rank, Suit, make_card
from belote.engine import actions as A
from belote.engine import scoring
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import (
    AllPassed,
    BeloteAnnounced,
    BidMade,
    CardsDealt,
    ContractSet,
    Event,
    HandScored,
    HandStarted,
    MatchOver,
    TrickWon,
    TurnedCardTaken,
)
from belote.engine.obligations import Refusal, RefusalReason
from belote.engine.state import CHANCE, TERMINAL, Game, Phase
from belote.engine.tricks import CARD_POINTS, trick_winner
from belote.errors import BeloteError, IllegalActionError
from belote.notation import parse_card
from belote.rules import Rules

H, D, CL, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES

# Seat 0 leads the ace of spades in most play-obligation positions (trump hearts, seat 0 took 7H).
LEADER_0 = "7H AS KS QS AD KD AC 7C"


def assert_illegal(game: Game, action: int, message: str, seat: int | None = None) -> None:
    """The action is refused with ``message`` and the game is left exactly as it was."""
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(action, seat)
    assert snapshot(game) == before


def finish_hand(game: Game) -> list[Event]:
    """Play the rest of the hand with the first legal card (never announcing)."""
    events: list[Event] = []
    while game.phase == Phase.PLAYING:
        events += game.apply(min(game.legal_actions()))
    return events


# ---------------------------------------------------------------------------- card play


def test_must_follow_suit() -> None:
    # Seed 002: "Si posee una carta del mismo palo que el palo inicial (la primera carta), debe
    # obligatoriamente seguir, es decir, jugar de ese palo."
    game, _ = game_in_play({0: LEADER_0, 1: "JH 9H 10S 8S 9D 8D KC QC"}, "7H", taker=0, dealer=3)
    play_cards(game, "AS")
    assert legal_cards(game) == {"10S", "8S"}
    assert_illegal(game, play("JH"), "must follow suit")
    assert_illegal(game, play("KC"), "must follow suit")


def test_must_trump_when_void_in_led_suit() -> None:
    # Seed 002: "Si no posee una carta del palo solicitado, entonces está obligado a cortar si
    # puede, es decir, jugar una carta del palo del triunfo si la tiene".
    game, _ = game_in_play({0: LEADER_0, 1: "JH 9H 9D 8D 7D KC QC JC"}, "7H", taker=0, dealer=3)
    play_cards(game, "AS")
    assert legal_cards(game) == {"JH", "9H"}
    assert_illegal(game, play("KC"), "must trump")


PARTNER_MASTER = {
    0: "7H 10S KS QS AD KD AC 7C",
    1: "AS 8S 9D 8D KC QC JC 10C",
    2: "8H 10H AH 10D JD 7D 9C 8C",
}


def test_partner_master_frees() -> None:
    # Seed 002: "...está obligado a cortar si puede ...; excepto si su compañero es el dueño de
    # la baza, en cuyo caso no es obligatorio."  RULES.md: partner_master_frees, classic yes.
    game, _ = game_in_play(PARTNER_MASTER, "7H", taker=0, dealer=3)
    play_cards(game, "KS 8S")  # seat 0 (partner of seat 2) is master of the trick
    assert legal_cards(game) == {"8H", "10H", "AH", "10D", "JD", "7D", "9C", "8C"}


def test_partner_master_frees_flag_off_must_trump() -> None:
    # RULES.md: partner_master_frees is a flag ("pinasca: no"): without it, trump anyway.
    rules = CLASSIC.with_flags(partner_master_frees=False)
    game, _ = game_in_play(PARTNER_MASTER, "7H", taker=0, dealer=3, rules=rules)
    play_cards(game, "KS 8S")
    assert legal_cards(game) == {"8H", "10H", "AH"}


def test_must_trump_when_opponent_is_master() -> None:
    # Seed 002: the partner exception applies only "si su compañero es el dueño de la baza".
    game, _ = game_in_play(PARTNER_MASTER, "7H", taker=0, dealer=3)
    play_cards(game, "KS AS")  # seat 1, an opponent of seat 2, is master
    assert legal_cards(game) == {"8H", "10H", "AH"}
    assert_illegal(game, play("10D"), "must trump")


def test_must_overtrump_when_opponent_has_trumped() -> None:
    # Seed 002: "Si no tiene del palo solicitado y alguien ya ha cortado antes que él, está
    # obligado a jugar triunfo y a subir el triunfo, es decir, jugar un triunfo más fuerte que
    # el anterior si puede."
    hands = {
        0: LEADER_0,
        1: "9H 10H 9D 8D KC QC JC 10C",
        2: "JH 8H 10D JD 7D QD 9C 8C",
    }
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3)
    play_cards(game, "AS")
    assert legal_cards(game) == {"9H", "10H"}  # seat 1 must trump
    play_cards(game, "9H")
    assert legal_cards(game) == {"JH"}  # seat 2 must go over the 9 with the jack
    assert_illegal(game, play("8H"), "must overtrump")
    assert_illegal(game, play("10D"), "must overtrump")


UNDERTRUMP = {
    0: LEADER_0,
    1: "JH 9H 9D 8D KC QC JC 10C",
    2: "8H 10H 10D JD 7D QD 9C 8C",
}


def test_must_undertrump() -> None:
    # RULES.md: must_undertrump "unable to overtrump but void in led suit: still play a (lower)
    # trump" (classic yes); seed 002: "está obligado a jugar triunfo ... si puede".
    game, _ = game_in_play(UNDERTRUMP, "7H", taker=0, dealer=3)
    play_cards(game, "AS JH")  # seat 1 ruffs with the jack: seat 2 cannot go over it
    assert legal_cards(game) == {"8H", "10H"}
    assert_illegal(game, play("10D"), "must undertrump")


def test_undertrump_flag_off_may_discard() -> None:
    # RULES.md: must_undertrump is a flag; with it off, a player unable to overtrump may discard.
    rules = CLASSIC.with_flags(must_undertrump=False)
    game, _ = game_in_play(UNDERTRUMP, "7H", taker=0, dealer=3, rules=rules)
    play_cards(game, "AS JH")
    assert legal_cards(game) == {"8H", "10H", "10D", "JD", "7D", "QD", "9C", "8C"}
    play_cards(game, "10D")
    assert game.trick == [c("AS"), c("JH"), c("10D")]


def test_must_overtrump_when_trump_is_led() -> None:
    # RULES.md: must_overtrump "when a trump is on the table (led or ruffed), play a higher
    # trump if able" -- even over a partner who is master.
    hands = {
        0: "KH AS KS QS AD KD AC 7C",
        1: "7H 10S 8S 9D 8D KC QC JC",
        2: "AH 8H 10D JD 7D QD 9C 8C",
    }
    game, _ = game_in_play(hands, "KH", taker=0, dealer=3)
    play_cards(game, "KH")
    assert legal_cards(game) == {"7H"}  # follow with a lower trump when unable to go over
    play_cards(game, "7H")
    assert legal_cards(game) == {"AH"}  # partner (seat 0) is master, yet the ace is forced
    assert_illegal(game, play("8H"), "must overtrump")


def test_discard_only_with_neither_led_suit_nor_trump() -> None:
    # Seed 002: "Si y solo si no tiene ni palo solicitado ni triunfos, entonces puede descartar
    # cualquier carta".
    game, _ = game_in_play({0: LEADER_0, 1: "10D 9D 8D 7D KC QC JC 10C"}, "7H", taker=0, dealer=3)
    play_cards(game, "AS")
    assert legal_cards(game) == {"10D", "9D", "8D", "7D", "KC", "QC", "JC", "10C"}
    play_cards(game, "7D")
    assert game.trick == [c("AS"), c("7D")]


# ---------------------------------------------------------------------------- tricks

TRICKS = {
    0: "9S AD KD 7C 8C 9C 10C JC",
    1: "10S 7S 8S 8H 9H AC KC QC",
    2: "AS QS QD JD 10D 9D 8D 7D",
    3: "KS JS 7H 10H AH KH QH JH",
}


def test_trick_won_by_highest_trump_else_highest_of_led_suit() -> None:
    # Seed 002: "Si hay triunfos, es la carta de triunfo más fuerte la que prima; Si no, si no
    # hay triunfo, entonces es la carta más fuerte en el palo inicial la que gana."
    game, _ = game_in_play(TRICKS, "7H", taker=3, dealer=3)
    events = play_cards(game, "9S 10S AS KS")
    (won,) = of_kind(events, TrickWon)
    assert (won.seat, won.points) == (2, 0 + 10 + 11 + 4)  # the ace of the led suit
    events = play_cards(game, "QD 7H AD 8H")  # seat 3 ruffs, seat 1 overtrumps
    (won,) = of_kind(events, TrickWon)
    assert (won.seat, won.leader, won.points) == (1, 2, 3 + 0 + 11 + 0)
    # An off-suit card never wins, however high.
    assert trick_winner(cards("7S AD AC"), H) == 0


def test_winner_of_a_trick_leads_the_next() -> None:
    # Seed 002: "el jugador que ha puesto la más fuerte gana la baza e inicia la siguiente."
    game, _ = game_in_play(TRICKS, "7H", taker=3, dealer=3)
    play_cards(game, "9S 10S AS KS")
    assert game.current_player() == 2
    play_cards(game, "QD 7H AD 8H")
    assert game.current_player() == 1


def test_trump_order_and_points() -> None:
    # Seed 002: "En el palo de triunfo ... Sota, 20 puntos. El 9, 14 ... El as, 11 ... EL 10,
    # 10 ... El rey, 4 ... La dama, 3 ... El 8 y el 7 no valen ningún punto."
    order = cards("JH 9H AH 10H KH QH 8H 7H")
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            assert trick_winner([low, high], H) == 1
            assert trick_winner([high, low], H) == 0
            assert trick_winner([make_card(S, Rank.ACE), low], H) == 1  # any trump ruffs
    points = [CARD_POINTS[H][card] for card in order]
    assert points == [20, 14, 11, 10, 4, 3, 0, 0]
    assert sum(points) == 62


def test_plain_order_and_points() -> None:
    # Seed 002: "En los palos que no son triunfo ... El as, 11 ... El 10, 10 ... El rey, 4 ...
    # La dama, 3 ... LA sota, 2 ... EL 9, el 8 y el 7 no valen ningún punto."
    order = cards("AS 10S KS QS JS 9S 8S 7S")
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            assert trick_winner([low, high], H) == 1
            assert trick_winner([high, low], H) == 0
    points = [CARD_POINTS[H][card] for card in order]
    assert points == [11, 10, 4, 3, 2, 0, 0, 0]
    # 62 in trumps + 3 x 30 in plain suits = 152 card points.
    assert sum(CARD_POINTS[H]) == 152


def test_ten_ranks_after_the_ace() -> None:
    # Seed 002: "Atención a la particularidad del 10, que se coloca justo después del as y que,
    # por lo tanto, gana a las otras figuras."
    assert trick_winner(cards("KD 10D"), H) == 1
    assert trick_winner(cards("10D AD"), H) == 1
    assert trick_winner(cards("10D KD QD JD"), H) == 0
    assert trick_winner(cards("10H KH"), H) == 0  # in trumps too, above the king
    assert trick_winner(cards("10H AH"), H) == 1


def test_last_trick_ten_and_hand_totals_162() -> None:
    # Seed 002: "La última baza vale 10 puntos adicionales (10 de der). Una mano cuenta siempre
    # exactamente 162 puntos."
    for seed in range(20):
        game = Game(CLASSIC)
        events = play_random_hand(game, seeded_deck_source(seed), random.Random(seed))
        tricks = of_kind(events, TrickWon)
        assert len(tricks) == 8
        (scored,) = of_kind(events, HandScored)
        trump = of_kind(events, ContractSet)[-1].trump
        last = tricks[-1]
        assert last.points == sum(CARD_POINTS[trump][card] for card in last.cards) + 10
        assert sum(t.points for t in tricks) == 162
        if scored.capot_team is None:
            assert sum(scored.card_points) == 162
        else:
            assert scored.card_points[scored.capot_team] == 252


# ---------------------------------------------------------------------------- bidding and deal

HANDS_FOR_BIDDING = {
    0: "7H 8H 9H 10H 7D 8D 9D 10D",
    1: "JH QH KH AH JD QD KD AD",
    2: "7S 8S 9S 10S 7C 8C 9C 10C",
    3: "JS QS KS AS JC QC KC AC",
}


def test_take_in_round_one_sets_the_turned_suit() -> None:
    # Seed 002: "En la primera ronda de la mesa, el triunfo es obligatoriamente del palo de la
    # carta volteada."
    game = Game(CLASSIC, first_dealer=0)
    game.deal(deck_for(HANDS_FOR_BIDDING, "QS", dealer=0))
    assert game.current_player() == 1
    assert game.legal_actions() == [A.PASS, A.TAKE]
    game.apply(A.PASS)
    game.apply(A.PASS)
    events = game.apply(A.TAKE)
    assert of_kind(events, ContractSet) == [ContractSet(taker=3, trump=S)]
    assert game.trump == S


def test_round_two_cannot_name_the_turned_suit() -> None:
    # Seed 002: "Si nadie toma en la primera ronda, se puede elegir otro palo como triunfo, pero
    # ya no se permite elegir el palo de la carta volteada."
    game = Game(CLASSIC, first_dealer=0)
    game.deal(deck_for(HANDS_FOR_BIDDING, "QS", dealer=0))
    for _ in range(4):
        game.apply(A.PASS)
    assert game.current_player() == 1
    assert game.legal_actions() == [A.PASS, A.name_suit(H), A.name_suit(D), A.name_suit(CL)]
    assert_illegal(game, A.name_suit(S), "cannot name spades, the turned card's suit")
    assert_illegal(game, A.TAKE, "taken only in the first round")
    game.apply(A.PASS)
    events = game.apply(A.name_suit(D))
    assert of_kind(events, ContractSet) == [ContractSet(taker=2, trump=D)]
    assert of_kind(events, BidMade) == [BidMade(seat=2, action=A.name_suit(D), round=2)]


def test_all_pass_twice_redeal_by_next_dealer() -> None:
    # Seed 002: "Si nadie ha tomado después de una segunda ronda de la mesa, las cartas se
    # recogen, se barajan de nuevo y se distribuyen por el siguiente repartidor."
    game = Game(CLASSIC, first_dealer=2)
    source = seeded_deck_source(7)
    started = of_kind(game.deal(source()), HandStarted)[0]
    events = []
    for _ in range(8):
        assert game.phase == Phase.BIDDING
        events += game.apply(A.PASS)
    assert of_kind(events, AllPassed) == [AllPassed(hand_no=started.hand_no, next_dealer=3)]
    assert game.current_player() == CHANCE
    assert game.dealer == 3
    events = game.deal(source())
    assert of_kind(events, HandStarted)[0].dealer == 3
    assert game.current_player() == 0  # the player after the new dealer speaks first


def test_taker_receives_turned_card_and_two_more_others_three() -> None:
    # Seed 002: "la distribución de las cartas restantes (3 por jugador) se reanuda a partir del
    # tomador. Por lo tanto, será él quien tenga en su juego la carta previamente volteada."
    # RULES.md: "The taker receives the turned card and 2 more, everyone else 3 more (8 each)."
    for trump in (S, H):  # taken in round 1, or another suit named in round 2
        game = Game(CLASSIC, first_dealer=0)
        game.deal(deck_for(HANDS_FOR_BIDDING, "QS", dealer=0))
        events = bid_to(game, 3, trump)
        assert of_kind(events, TurnedCardTaken) == [TurnedCardTaken(seat=3, card=c("QS"))]
        dealt = {e.seat: e.cards.bit_count() for e in of_kind(events, CardsDealt)}
        assert dealt == {0: 3, 1: 3, 2: 3, 3: 2}
        assert [hand.bit_count() for hand in game.hands] == [8, 8, 8, 8]
        assert game.hands[3] >> c("QS") & 1
        assert game.trump == trump


def test_first_lead_by_player_after_dealer() -> None:
    # RULES.md / seed 002: "Por turnos, comenzando por el que sigue al repartidor"; the player
    # after the dealer leads the first trick, whoever took.
    for dealer in range(4):
        for taker in range(4):
            game = Game(CLASSIC, first_dealer=dealer)
            game.deal(seeded_deck_source(dealer * 4 + taker)())
            bid_to(game, taker)
            assert game.current_player() == (dealer + 1) % 4
            assert game.leader == (dealer + 1) % 4


# ---------------------------------------------------------------------------- belote

# Seat 0 holds six trumps with K and Q of hearts and wins the first two tricks.
BELOTE = {
    0: "JH 9H AH 10H KH QH AS AC",
    1: "8H KS QS JS AD KD QC JC",
    2: "7H 10S 9S 8S 10D QD 9C 8C",
    3: "7S JD 9D 8D 7D 10C KC 7C",
}


def belote_game(rules: Rules = CLASSIC) -> Game:
    game, _ = game_in_play(BELOTE, "AH", taker=0, dealer=3, rules=rules)
    return game


def test_belote_rebelote_king_then_queen_scores_20() -> None:
    # Seed 002: "debe anunciar «belote» cuando juega el rey y «rebelote» cuando juega la dama,
    # justo después de haber puesto la carta correspondiente" -- "su equipo puede ganar 20
    # puntos de bonificación".
    game = belote_game()
    assert play_belote("KH") in game.legal_actions()
    assert play_belote("QH") not in game.legal_actions()
    events = play_cards(game, "KH+ 8H 7H 7C QH+")
    said = of_kind(events, BeloteAnnounced)
    assert said == [BeloteAnnounced(0, "belote", H), BeloteAnnounced(0, "rebelote", H)]
    assert game.belote_points == [20, 0]
    (scored,) = of_kind(finish_hand(game), HandScored)
    assert scored.belote == (20, 0)
    assert scored.scores[0] == scored.card_points[0] + 20


def test_belote_king_first_queen_then_king_gives_nothing() -> None:
    # Seed 002: "El rey y la dama deben jugarse en este orden para que se conceda la
    # bonificación; jugar la dama y luego el rey no es válido."  (belote_king_first, classic)
    game = belote_game()
    assert_illegal(game, play_belote("QH"), "does not open a belote")
    play_cards(game, "QH 8H 7H 7C")
    assert_illegal(game, play_belote("KH"), "does not open a belote")
    play_cards(game, "KH")
    assert_illegal(game, A.ANNOUNCE_BELOTE, "no belote", seat=0)
    (scored,) = of_kind(finish_hand(game), HandScored)
    assert scored.belote == (0, 0)
    assert game.belote_said == []


def test_belote_king_first_off_queen_then_king_works() -> None:
    # RULES.md: belote_king_first is a flag (classic yes, the others no).
    game = belote_game(CLASSIC.with_flags(belote_king_first=False))
    events = play_cards(game, "QH+ 8H 7H 7C KH+")
    said = of_kind(events, BeloteAnnounced)
    assert [(e.seat, e.word) for e in said] == [(0, "belote"), (0, "rebelote")]
    assert game.belote_points == [20, 0]


def test_belote_forgotten_announcement_voids_bonus() -> None:
    # Seed 002: "antes de que el siguiente jugador juegue" -- "Por supuesto, el olvido de uno de
    # estos dos anuncios hace que la bonificación sea nula."
    game = belote_game()
    play_cards(game, "KH")  # no announcement...
    assert A.ANNOUNCE_BELOTE in game.legal_actions(0)
    play_cards(game, "8H")  # ...and the next player has played: the window is closed
    assert A.ANNOUNCE_BELOTE not in game.legal_actions(0)
    assert_illegal(game, A.ANNOUNCE_BELOTE, "no belote", seat=0)
    play_cards(game, "7H 7C")
    assert_illegal(game, play_belote("QH"), "does not open a belote")
    (scored,) = of_kind(finish_hand(game), HandScored)
    assert scored.belote == (0, 0)


def test_belote_forgotten_rebelote_voids_bonus() -> None:
    # Seed 002: "el olvido de uno de estos dos anuncios hace que la bonificación sea nula."
    game = belote_game()
    play_cards(game, "KH+ 8H 7H 7C QH KS")
    assert_illegal(game, A.ANNOUNCE_BELOTE, "no belote", seat=0)
    assert game.belote_points == [0, 0]


def test_a_refused_belote_names_the_rule_that_applies() -> None:
    # Seed 002: belote is announced "justo después de haber puesto la carta correspondiente y
    # antes de que el siguiente jugador juegue"; "El rey y la dama deben jugarse en este
    # orden" (belote_king_first).  The reason is the engine's (issue 22: i18n only words it).
    game = belote_game()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(A.ANNOUNCE_BELOTE, seat=0)  # before any card: it goes with the king
    error = refused.value
    assert (error.action, error.seat) == (A.ANNOUNCE_BELOTE, 0)
    assert error.reason is RefusalReason.NO_BELOTE_WITHOUT_CARD
    assert "the king of hearts" in str(error)
    assert game.refusal_of(A.ANNOUNCE_BELOTE, 0) == Refusal(RefusalReason.NO_BELOTE_WITHOUT_CARD,
                                                            c("KH"))
    play_cards(game, "KH 8H")  # the king unannounced, then the next card
    assert game.explain_illegal(A.ANNOUNCE_BELOTE, 0) is RefusalReason.NO_BELOTE_WINDOW_CLOSED
    broken = belote_game()
    play_cards(broken, "QH 8H 7H 7C")  # the queen before the king
    assert broken.explain_illegal(A.ANNOUNCE_BELOTE, 0) is RefusalReason.NO_BELOTE_ORDER_BROKEN
    assert broken.refusal_of(A.ANNOUNCE_BELOTE, 0) == Refusal(
        RefusalReason.NO_BELOTE_ORDER_BROKEN, c("QH"))
    assert broken.explain_illegal(A.ANNOUNCE_BELOTE, 1) is RefusalReason.NO_BELOTE_TO_ANNOUNCE


def test_belote_announce_out_of_turn_after_playing_king() -> None:
    # Seed 002: anunciar "justo después de haber puesto la carta correspondiente y antes de que
    # el siguiente jugador juegue": action 72 (ANNOUNCE_BELOTE) by the holder, out of turn.
    game = belote_game()
    play_cards(game, "KH")
    assert game.current_player() == 1
    assert game.legal_actions(0) == [A.ANNOUNCE_BELOTE]
    assert game.is_legal(A.ANNOUNCE_BELOTE, 0)
    assert not game.is_legal(A.ANNOUNCE_BELOTE, 1)
    events = game.apply(A.ANNOUNCE_BELOTE, seat=0)
    assert events == [BeloteAnnounced(0, "belote", H)]
    assert game.current_player() == 1  # still seat 1's turn
    play_cards(game, "8H 7H 7C QH")
    events = game.apply(A.ANNOUNCE_BELOTE, seat=0)
    assert events == [BeloteAnnounced(0, "rebelote", H)]
    assert game.belote_points == [20, 0]


# Seat 3 holds every trump and ruffs the first trick with the king, as its last card.
KING_LAST = {
    0: "AS AC KC QC JC 10C 9C 8C",
    1: "8S 7S AD KD QD JD 10D 9D",
    2: "10S KS QS JS 9S 8D 7D 7C",
    3: "KH QH JH 9H AH 10H 8H 7H",
}


def test_belote_announce_out_of_turn_after_king_closing_a_trick() -> None:
    # Seed 002: "justo después de haber puesto la carta correspondiente y antes de que el
    # siguiente jugador juegue."  Nobody has played after seat 3's king yet.
    game, _ = game_in_play(KING_LAST, "KH", taker=3, dealer=3)
    play_cards(game, "AS 8S 10S KH")
    assert game.current_player() == 3  # the king won: seat 3 leads next, nobody played since
    assert game.apply(A.ANNOUNCE_BELOTE, seat=3) == [BeloteAnnounced(3, "belote", H)]


def test_belote_announce_without_king_and_queen_is_illegal() -> None:
    # RULES.md: "Belote / rebelote (K and Q of trump) ... 20 points to the holder's team";
    # seed 002: "Si un jugador posee el rey y la dama de triunfo en su juego".
    hands = dict(BELOTE)
    hands[0] = "JH 9H AH 10H KH 8H AS AC"  # seat 0 holds the king, seat 1 the queen
    hands[1] = "QH KS QS JS AD KD QC JC"
    game, _ = game_in_play(hands, "AH", taker=0, dealer=3)
    assert play_belote("KH") not in game.legal_actions()
    assert_illegal(game, play_belote("KH"), "does not open a belote")
    assert_illegal(game, A.ANNOUNCE_BELOTE, "no belote", seat=0)
    play_cards(game, "KH")
    assert_illegal(game, A.ANNOUNCE_BELOTE, "no belote", seat=0)
    assert_illegal(game, play_belote("QH"), "does not open a belote")


# ---------------------------------------------------------------------------- scoring


def score_hand(rules, taker_team, card_points, tricks_won, belote, pot):  # type: ignore[no-untyped-def]
    """The scoring call in the take-or-pass shape; ``pot`` in and out as plain points."""
    facts = scoring.HandFacts(taker_team=taker_team, trump=0, card_points=card_points,
                              tricks_won=tricks_won, belote=belote)
    result = scoring.score_hand(rules, facts, scoring.Pot(pot, 1 - taker_team if pot else None))
    return dataclasses.replace(result, pot=result.pot.points)  # type: ignore[arg-type]



def test_contract_made_each_team_scores_its_own() -> None:
    # Seed 002: "ha obtenido al menos el número de puntos requeridos por el contrato y ha hecho
    # más puntos que el equipo contrario ... cada bando gana el número de puntos efectivamente
    # realizados.  ... el número de puntos mínimo necesario es siempre de 82"
    made = score_hand(CLASSIC, 0, (100, 62), (5, 3), (0, 0), 0)
    assert (made.outcome, made.scores, made.pot) == ("made", (100, 62), 0)
    made = score_hand(CLASSIC, 1, (80, 82), (4, 4), (0, 0), 0)
    assert (made.outcome, made.scores) == ("made", (80, 82))


def test_contract_failed_defenders_162_plus_belote() -> None:
    # Seed 002: "El equipo que no ha tomado marca en este caso la totalidad de los puntos, es
    # decir, 162, y 0 para los tomadores." RULES.md: "defenders 162 (+ their belote), takers 0
    # (+ their belote)".
    failed = score_hand(CLASSIC, 0, (70, 92), (3, 5), (0, 0), 0)
    assert (failed.outcome, failed.scores) == ("failed", (0, 162))
    failed = score_hand(CLASSIC, 0, (70, 92), (3, 5), (0, 20), 0)
    assert (failed.outcome, failed.scores) == ("failed", (0, 182))
    failed = score_hand(CLASSIC, 1, (112, 50), (6, 2), (0, 20), 0)
    assert (failed.outcome, failed.scores) == ("failed", (162, 20))


def test_contract_needs_more_than_defenders() -> None:
    # Seed 002: "El equipo atacante no ha cumplido su contrato o los defensores han obtenido más
    # puntos que los atacantes, por lo que el contrato se ha caído."
    failed = score_hand(CLASSIC, 0, (82, 80), (4, 4), (0, 20), 0)  # 82 vs 100
    assert (failed.outcome, failed.scores) == ("failed", (0, 182))


def test_belote_saves_contract_and_counts_for_check() -> None:
    # Seed 002: "Los 20 puntos de belote y rebelote se contabilizan en cualquier caso para el
    # equipo que los ha realizado ... Permiten salvarse de una caída o de un empate".
    saved = score_hand(CLASSIC, 0, (72, 90), (4, 4), (20, 0), 0)  # 92 vs 90
    assert (saved.outcome, saved.scores) == ("made", (92, 90))
    saved = score_hand(CLASSIC, 1, (81, 81), (4, 4), (0, 20), 0)  # saved from a tie
    assert (saved.outcome, saved.scores) == ("made", (81, 101))
    short = score_hand(CLASSIC, 0, (62, 100), (3, 5), (20, 0), 0)  # 82 vs 100: still down
    assert (short.outcome, short.scores) == ("failed", (20, 162))


def test_litige_defenders_score_now_takers_points_to_pot() -> None:
    # Seed 002: "Los dos equipos han obtenido exactamente el mismo número de puntos, hay empate
    # (caso común: 81). En este caso, el equipo que no ha tomado marca inmediatamente sus puntos,
    # mientras que los puntos del equipo atacante se vuelven a poner en juego; serán recuperados
    # por el equipo que gane la siguiente mano."
    tie = score_hand(CLASSIC, 0, (81, 81), (4, 4), (0, 0), 0)
    assert (tie.outcome, tie.scores, tie.pot) == ("litige", (0, 81), 81)
    won_by_takers = score_hand(CLASSIC, 1, (60, 102), (3, 5), (0, 0), 81)
    assert (won_by_takers.pot_winner, won_by_takers.pot_won) == (1, 81)
    assert won_by_takers.scores == (60, 102 + 81)
    won_by_defenders = score_hand(CLASSIC, 1, (100, 62), (5, 3), (0, 0), 81)
    assert (won_by_defenders.pot_winner, won_by_defenders.scores) == (0, (162 + 81, 0))
    again = score_hand(CLASSIC, 1, (81, 81), (4, 4), (0, 0), 81)  # a second tie: pot grows
    assert (again.outcome, again.scores, again.pot) == ("litige", (81, 0), 162)


def test_belote_never_goes_into_the_pot() -> None:
    # Seed 002: "[los 20 puntos de belote] nunca se vuelven a poner en juego."
    tie = score_hand(CLASSIC, 0, (71, 91), (4, 4), (20, 0), 0)  # 91 vs 91
    assert (tie.outcome, tie.scores, tie.pot) == ("litige", (20, 91), 71)


def test_litige_pot_won_by_next_hand_winner_in_play() -> None:
    # Seed 002: "...serán recuperados por el equipo que gane la siguiente mano."  Played out:
    # the first seeded random hand that ends in a tie, then the next hand.
    for seed in range(2000):
        game = Game(CLASSIC)
        source, rng = seeded_deck_source(seed), random.Random(seed)
        (first,) = of_kind(play_random_hand(game, source, rng), HandScored)
        if first.outcome == "litige":
            break
    else:
        pytest.fail("no tie in 2000 seeded random hands")
    defenders = 1 - (first.taker & 1)
    assert first.scores[defenders] == first.card_points[defenders] + first.belote[defenders]
    assert first.pot == first.card_points[1 - defenders] == game.pot
    pot = first.pot
    while True:
        before = tuple(game.totals)
        (second,) = of_kind(play_random_hand(game, source, rng), HandScored)
        if second.outcome != "litige":
            break
        pot = second.pot  # another tie: the pot grows
    winner = second.taker & 1 if second.outcome == "made" else 1 - (second.taker & 1)
    assert (second.pot_winner, second.pot_won) == (winner, pot)
    assert second.pot == 0 and game.pot == 0
    assert second.totals[winner] - before[winner] == second.scores[winner]
    own = second.card_points[winner] if second.outcome == "made" else 162
    if second.capot_team == winner:
        own = 252
    assert second.scores[winner] == own + second.belote[winner] + pot


def test_capot_252() -> None:
    # Seed 002: "El match también llamado capote, es decir, realizar 162 puntos recogiendo todas
    # las bazas, da una bonificación de 90 puntos, es decir, 252 en total."
    capot = score_hand(CLASSIC, 0, (162, 0), (8, 0), (0, 0), 0)
    assert (capot.outcome, capot.capot_team, capot.scores) == ("made", 0, (252, 0))
    # Played out: seat 0 holds every trump, leads them all and announces belote.
    hands = {
        0: "KH QH JH 9H AH 10H 8H 7H",
        1: "AS KS QS JS AD KD QD JD",
        2: "10S 9S 8S 7S 10D 9D 8D 7D",
    }
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3)
    events = play_cards(game, "KH+ AS 7S 7C QH+ KS 8S 8C") + finish_hand(game)
    (scored,) = of_kind(events, HandScored)
    assert (scored.outcome, scored.capot_team, scored.card_points) == ("made", 0, (252, 0))
    assert scored.scores == (252 + 20, 0)


def test_defenders_capot_also_252() -> None:
    # RULES.md: capot "252" (no exception for the defenders); seed 002 counts the capot for
    # whoever takes every trick.
    capot = score_hand(CLASSIC, 0, (0, 162), (0, 8), (20, 0), 0)
    assert (capot.outcome, capot.capot_team, capot.scores) == ("failed", 1, (20, 252))
    # Played out: seat 1 names hearts in round 2 while seat 0, a defender, holds every trump.
    hands = {
        0: "KH QH JH 9H AH 10H 8H 7H",
        1: "7S AS KS QS JS AD KD QD",
        2: "JD 10S 9S 8S 10D 9D 8D 7D",
    }
    game, _ = game_in_play(hands, "7S", taker=1, dealer=3, trump=H)
    (scored,) = of_kind(finish_hand(game), HandScored)
    assert (scored.outcome, scored.capot_team) == ("failed", 0)
    assert scored.scores == (252, 0)


# ---------------------------------------------------------------------------- match


def test_match_target_1000_and_dealer_rotation() -> None:
    # Seed 002: "Una partida de belote se juega a menudo a 1000 puntos" and "el jugador a la
    # izquierda del repartidor actual se convierte en el nuevo repartidor para la siguiente mano"
    # (RULES.md: "Dealer rotates one seat each hand; ... redealt by the next dealer").
    game = Game(CLASSIC, first_dealer=1)
    source, rng = seeded_deck_source(2024), random.Random(2024)
    events: list[Event] = []
    while not game.is_terminal():
        events += play_random_hand(game, source, rng)
    dealers = [e.dealer for e in events if isinstance(e, HandStarted)]
    assert dealers == [(1 + i) % 4 for i in range(len(dealers))]
    scored = [e for e in events if isinstance(e, HandScored)]
    for hand in scored[:-1]:
        assert max(hand.totals) < 1000 or hand.totals[0] == hand.totals[1]
    final = scored[-1].totals
    assert max(final) >= 1000 and final[0] != final[1]
    (over,) = [e for e in events if isinstance(e, MatchOver)]
    assert over.winner == (0 if final[0] > final[1] else 1)
    assert over.totals == final == tuple(game.totals)
    assert game.current_player() == TERMINAL
    assert game.returns()[over.winner] == 1.0 and game.returns()[1 - over.winner] == -1.0
    with pytest.raises(IllegalActionError):
        game.deal(source())


# ---------------------------------------------------------------------------- bad input


def test_illegal_card_is_rejected_and_state_unchanged() -> None:
    # RULES.md: apply validates; STYLE.md: IllegalActionError with the reason, state unchanged.
    game, _ = game_in_play({0: LEADER_0, 1: "JH 9H 10S 8S 9D 8D KC QC"}, "7H", taker=0, dealer=3)
    assert_illegal(game, play("JS"), "not in hand")  # a card seat 0 does not hold
    play_cards(game, "AS")
    assert_illegal(game, play("9D"), "must follow suit")
    assert_illegal(game, A.play(c("8S")) + 100, "unknown action")


def test_out_of_turn_action_is_rejected_and_state_unchanged() -> None:
    # Seed 002: "Por turnos, el jugador debe..."
    game, _ = game_in_play({0: LEADER_0, 1: "JH 9H 10S 8S 9D 8D KC QC"}, "7H", taker=0, dealer=3)
    assert_illegal(game, play("10S"), "not seat 1's turn", seat=1)
    game2 = Game(CLASSIC, first_dealer=0)
    game2.deal(seeded_deck_source(3)())
    assert_illegal(game2, A.PASS, "not seat 2's turn", seat=2)
    assert_illegal(game2, A.PASS, "no seat 7", seat=7)


def test_bid_during_play_is_rejected_and_state_unchanged() -> None:
    # RULES.md take_or_pass: bidding ends with a take; "Round 1 ... take or pass".
    game, _ = game_in_play({0: LEADER_0}, "7H", taker=0, dealer=3)
    assert_illegal(game, A.PASS, "bidding is over")
    assert_illegal(game, A.TAKE, "bidding is over")
    assert_illegal(game, A.name_suit(S), "bidding is over")
    game2 = Game(CLASSIC)
    game2.deal(seeded_deck_source(3)())
    assert_illegal(game2, play("JH"), "not being played")  # a card during the bidding


def test_bad_deck_is_rejected_and_state_unchanged() -> None:
    # RULES.md: "32 cards: 7 8 9 10 J Q K A in four suits"; a deck holds each card once.
    game = Game(CLASSIC)
    deck = seeded_deck_source(5)()
    before = snapshot(game)
    duplicated = [*deck[:-1], deck[0]]
    for bad in (duplicated, deck[:-1], [*deck, deck[0]], [card + 1 for card in deck]):
        with pytest.raises(IllegalActionError, match="each of the 32 cards exactly once"):
            game.deal(bad)
        assert snapshot(game) == before
    with pytest.raises(IllegalActionError, match="nobody is to act"):
        game.apply(A.PASS)
    assert snapshot(game) == before
    game.deal(deck)
    during = snapshot(game)
    with pytest.raises(IllegalActionError, match="no deal is due"):
        game.deal(deck)
    assert snapshot(game) == during


def test_non_int_action_is_rejected_with_a_belote_error() -> None:
    # STYLE.md 5: InvalidActionError (syntax) apart from IllegalActionError (rules); either way
    # a BeloteError with a message, never a crash inside the engine.
    game, _ = game_in_play({0: LEADER_0}, "7H", taker=0, dealer=3)
    before = snapshot(game)
    for bad in ("AS", None, 31.0):
        with pytest.raises(BeloteError):
            game.apply(bad)  # type: ignore[arg-type]
        assert snapshot(game) == before


class _IntLike(int):
    """An int subclass, as numpy.int64 action ids from RL frameworks behave."""


def test_int_like_legal_action_is_accepted_or_clearly_refused() -> None:
    # STYLE.md 3/9: bids and plays share a fixed int action-id space for RL adapters; a legal
    # card id must not be refused as "illegal".
    game, _ = game_in_play({0: LEADER_0}, "7H", taker=0, dealer=3)
    action = _IntLike(play("AS"))
    assert action in game.legal_actions()
    before = snapshot(game)
    try:
        game.apply(action)
    except IllegalActionError as error:
        assert snapshot(game) == before
        assert "int" in str(error), f"unclear message: {error}"
    else:
        assert game.trick == [c("AS")]


def test_card_notation_matches_engine_card_ids() -> None:
    # cards.py: card = suit * 8 + rank, suits H D C S, ranks 7..A.
    assert parse_card("JH") == make_card(H, Rank.JACK) == 4
    assert parse_card("AS") == 31
    assert A.played_card(play_belote("KH")) == parse_card("KH")
