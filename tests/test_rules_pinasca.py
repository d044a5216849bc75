"""The `pinasca` preset, rule by rule (RULES.md; seed 001, the Pinasca tournament regulation).

Seats are numbered in playing order; team 0 is seats 0 and 2, team 1 seats 1 and 3.  Positions
are dealt by seat 3, so that seat 0 speaks and leads first; seat 0 takes the turned 7H (trump
hearts) unless a test says otherwise.  Each test quotes the sentence of seed 001 (Italian) or
the RULES.md line that it checks.
"""

from __future__ import annotations

import random

from helpers import CLASSIC, game_in_play, legal_cards, of_kind, play_cards
from variant_helpers import PINASCA, finish_hand, outcome, scored

from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import (
    DeclarationAnnounced,
    DeclarationsResolved,
    Event,
    HandScored,
    MatchOver,
)
from belote.engine.scoring import Pot
from belote.engine.state import CHANCE, Game, Phase

# Seat 0 leads 8S; seat 1, void in spades, must ruff with 10H; seat 2 follows in spades;
# seat 3, void in spades, holds JH 9H AH (above 10H) and KH QH (below).
PARTNER_RUFFED = {
    0: "7H 8S KS QS AD KD AC 7C",
    1: "10H 9D 8D KC QC JC 10C 7D",
    2: "9S 10S AS 7S JS 9C 8C 8H",
    3: "9H JH QH KH AH QD 10D JD",
}

# Seat 0 leads KS and seat 1 follows with 8S: seat 0 (seat 2's partner) is master; seat 2 is
# void in spades and holds the trumps 8H 10H AH.
PARTNER_MASTER = {
    0: "7H 10S KS QS AD KD AC 7C",
    1: "AS 8S 9D 8D KC QC JC 10C",
    2: "8H 10H AH 10D JD 7D 9C 8C",
}

# Seat 0 holds every heart (trump): he wins every trick.
ALL_HEARTS = {0: "7H 8H 9H 10H JH QH KH AH"}


# ---------------------------------------------------------------------------- card play


def test_pinasca_no_partner_exception_must_trump_over_a_master_partner() -> None:
    # Seed 001: "devono giocare una carta dello stesso seme, in quanto vige l'obbligo di
    # risposta al seme altrimenti devono 'tagliare' (giocare una carta del seme di atout,
    # sempre che ne abbiano)" -- no exception for a partner who is master.
    # RULES.md: partner_master_frees, pinasca "no".
    assert PINASCA.partner_master_frees is False
    game, _ = game_in_play(PARTNER_MASTER, "7H", taker=0, dealer=3, rules=PINASCA)
    play_cards(game, "KS 8S")
    assert legal_cards(game) == {"8H", "10H", "AH"}
    # The same position under classic (seed 002's "excepto si su compañero ..."): any card.
    classic, _ = game_in_play(PARTNER_MASTER, "7H", taker=0, dealer=3, rules=CLASSIC)
    play_cards(classic, "KS 8S")
    assert len(legal_cards(classic)) == 8


def test_pinasca_no_partner_exception_must_overtrump_the_partner() -> None:
    # Seed 001: "All'interno del seme di briscola, poi, vige anche l'obbligo di presa."
    # RULES.md must_overtrump: "when a trump is on the table (led or ruffed), play a higher
    # trump if able" -- with no partner exception, even over the partner's ruff.
    game, _ = game_in_play(PARTNER_RUFFED, "7H", taker=0, dealer=3, rules=PINASCA)
    play_cards(game, "8S")
    assert legal_cards(game) == {"10H"}  # seat 1: void in spades, must ruff
    play_cards(game, "10H 7S")
    assert game.to_play == 3
    assert legal_cards(game) == {"JH", "9H", "AH"}  # over the partner's 10H
    classic, _ = game_in_play(PARTNER_RUFFED, "7H", taker=0, dealer=3, rules=CLASSIC)
    play_cards(classic, "8S 10H 7S")
    assert len(legal_cards(classic)) == 8  # classic: the partner is master, any card


def test_pinasca_counterclockwise_is_presentation_only() -> None:
    # Seed 001: "Si gioca in senso antiorario."  RULES.md: "Seating direction (clockwise or
    # counter-clockwise) is presentation only: the engine numbers seats in playing order."
    assert PINASCA.direction == "counterclockwise"
    logs = []
    for rules in (PINASCA, PINASCA.with_flags(direction="clockwise")):
        game = Game(rules, first_dealer=2)
        deck = seeded_deck_source(11)
        rng = random.Random(5)
        events: list[Event] = []
        while len(of_kind(events, HandScored)) < 3 and not game.is_terminal():
            if game.current_player() == CHANCE:
                events += game.deal(deck())
            else:
                events += game.apply(rng.choice(game.legal_actions()))
        logs.append((events, game.log, tuple(game.totals)))
    assert logs[0] == logs[1]


# ---------------------------------------------------------------------------- declarations


def _declare_all_in_first_trick(game: Game) -> list[Event]:
    """Every seat declares what it holds, in turn, before its card of the first trick."""
    events: list[Event] = []
    while game.trick_no == 0:
        if A.DECLARE in game.legal_actions():
            events += game.apply(A.DECLARE)
        events += game.apply(min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE))
    return events


def test_pinasca_declarations_best_team_only_carre_beats_sequence_played_hand() -> None:
    # Seed 001: "ottiene i punti solo la squadra che fa la dichiarazione più alta";
    # "Un gruppo di quattro carte vale sempre più di una scala."  Seat 0's carré of kings
    # (100) beats seat 1's sequence of five (100 too); team 0 also scores seat 2's tierce
    # (20), team 1 scores neither seat 1's cent nor seat 3's cinquante.
    hands = {
        0: "7H KH KD KC KS 8H 8D 8C",
        1: "7S 8S 9S 10S JS AH 7D 7C",
        2: "9D 10D JD AS QS 9C 10C AC",
        3: "9H 10H JH QH QD AD JC QC",
    }
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=PINASCA)
    events = _declare_all_in_first_trick(game)
    assert [e.seat for e in of_kind(events, DeclarationAnnounced)] == [0, 1, 2, 3]
    resolved = of_kind(events, DeclarationsResolved)
    assert resolved == [DeclarationsResolved(0, (120, 0))]
    assert game.declaration_points == (120, 0)
    result = scored(finish_hand(game))
    assert result.declarations == (120, 0)
    if result.outcome == "made":
        assert result.scores == (result.card_points[0] + 120, result.card_points[1])
    else:  # failed: the defenders take every declaration too
        assert result.scores == (0, 162 + 120)


def test_pinasca_sequence_of_equal_length_and_top_outside_trump_nobody_scores() -> None:
    # Seed 001: "Se anche il valore è lo stesso, vale di più la scala del seme di briscola. In
    # ogni altro caso, le scale non vengono conteggiate."  Seat 0: tierce 9-J of diamonds;
    # seat 1: tierce 9-J of clubs; trump hearts: nobody scores.
    hands = {
        0: "7H 9D 10D JD 7S 8S AS 8H",
        1: "9C 10C JC 7D 8D KS QS 9H",
        2: "10H QH AH QD AD 7C QC 9S",
        3: "JH KH KD 8C KC AC 10S JS",
    }
    game, _ = game_in_play(hands, "7H", taker=0, dealer=3, rules=PINASCA)
    events = _declare_all_in_first_trick(game)
    assert len(of_kind(events, DeclarationAnnounced)) == 2
    assert game.declaration_points == (0, 0)


# ---------------------------------------------------------------------------- scoring


def test_pinasca_takers_need_more_than_defenders_declarations_counted() -> None:
    # RULES.md pinasca: "more than defenders, declarations counted"; seed 001: "I punti delle
    # prese e delle dichiarazioni (o annunci) vengono sommati. ... Se vince la squadra che ha
    # stabilito il seme di briscola, i punti di entrambe le squadre vengono aggiunti".
    made = outcome(PINASCA, (75, 87), declarations=(20, 0))  # 95 > 87, below 82 in cards
    assert (made.outcome, made.scores) == ("made", (95, 87))
    failed = outcome(PINASCA, (75, 87))  # without the declaration: 75 < 87
    assert failed.outcome == "failed"
    # No 82-point floor, only the defenders to beat: 80 < 82 fails, 80 + 20 belote > 82 makes.
    assert outcome(PINASCA, (80, 82)).outcome == "failed"
    assert outcome(PINASCA, (80, 82), belote=(20, 0)).outcome == "made"


def test_pinasca_failed_defenders_take_all_trick_points_and_all_declarations() -> None:
    # Seed 001: "Se vince l'altra squadra, quest'ultima si vede assegnare tutti i punti delle
    # prese e i punti di tutte le dichiarazioni (o annunci). In questo caso, la squadra che
    # perde non riceve alcun punto."
    result = outcome(PINASCA, (60, 102), declarations=(20, 0), belote=(20, 0))
    assert result.outcome == "failed"  # 60 + 20 + 20 = 100 < 102
    assert result.scores == (0, 162 + 20 + 20)
    result = outcome(PINASCA, (60, 102), declarations=(0, 50), belote=(20, 0))
    assert result.scores == (0, 162 + 50 + 20)


def test_pinasca_prigione_tie_freezes_the_takers_points() -> None:
    # Seed 001: "Se ambedue le squadre totalizzano lo stesso numero di punti, la coppia che non
    # aveva dichiarato la briscola, segna i suoi punti, l'aggiudicazione dei punti restanti è
    # demandata alla mano che segue nella quale chi totalizzerà più punti, avrà come premio la
    # rimanenza dei punti che era stata congelata."
    tie = outcome(PINASCA, (81, 81))
    assert (tie.outcome, tie.scores, tie.pot) == ("litige", (0, 81), Pot(81, 0))
    won = outcome(PINASCA, (62, 100), taker_team=1, pot=tie.pot)  # team 1 makes it
    assert (won.outcome, won.pot_winner, won.pot_won) == ("made", 1, 81)
    assert won.scores == (62, 100 + 81)
    lost = outcome(PINASCA, (62, 100), taker_team=0, pot=tie.pot)  # team 0 fails
    assert (lost.pot_winner, lost.scores) == (1, (0, 162 + 81))


def test_pinasca_prigione_two_ties_in_a_row_same_team_in_prison() -> None:
    # Seed 001: "Nella circostanza straordinaria che ci siano due mani consecutive in pareggio
    # (due prigioni consecutive) ... in prigione possano essere congelati solamente ed
    # esclusivamente i punti di una mano di gioco ... Se in prigione finisce la coppia che ci
    # era già finita la mano prima, la prigione della mano precedente viene assegnata agli
    # avversari."
    first = outcome(PINASCA, (81, 81), taker_team=0)
    second = outcome(PINASCA, (71, 91), taker_team=0, belote=(20, 0), pot=first.pot)
    assert second.outcome == "litige"  # 71 + 20 = 91
    assert (second.pot_winner, second.pot_won) == (1, 81)  # to the opponents
    assert second.scores == (20, 91 + 81)  # the belote is never frozen
    assert second.pot == Pot(71, 0)  # only this hand's points stay frozen


def test_pinasca_prigione_two_ties_in_a_row_parts_inverted() -> None:
    # Seed 001: "Nel caso delle parti invertite (in prigione quelli che la mano precedente non
    # avevano messo briscola e quindi avevano già segnato i suoi punti) i punti verranno
    # assegnati alla squadra attualmente non in prigione."
    first = outcome(PINASCA, (81, 81), taker_team=0)
    second = outcome(PINASCA, (81, 81), taker_team=1, pot=first.pot)
    assert (second.pot_winner, second.pot_won) == (0, 81)  # team 0: not now in prison
    assert second.scores == (81 + 81, 0)
    assert second.pot == Pot(81, 1)


def test_pinasca_prigione_differs_from_the_classic_litige_pot() -> None:
    # RULES.md tie: classic "litige" (a second tie adds to the pot) against pinasca "prigione"
    # (only one hand's points stay frozen).
    first = outcome(CLASSIC, (81, 81))
    second = outcome(CLASSIC, (81, 81), pot=first.pot)
    assert second.pot == Pot(162, 0) and second.pot_winner is None
    assert PINASCA.tie_rule == "prigione" and CLASSIC.tie_rule == "litige"


def test_pinasca_capot_is_252_played_hand() -> None:
    # Seed 001: "Inoltre, ci sono 10 punti per l'ultima presa. Se una squadra ha preso tutto,
    # ci sono invece 100 punti premio."  RULES.md pinasca capot: "last trick worth 100: 252".
    game, _ = game_in_play(ALL_HEARTS, "7H", taker=0, dealer=3, rules=PINASCA)
    result = scored(finish_hand(game))
    assert result.capot_team == 0
    assert result.card_points == (252, 0)
    assert (result.outcome, result.scores) == ("made", (252, 0))


def _capot_hand(totals: list[int]) -> tuple[Game, list[Event]]:
    game, _ = game_in_play(ALL_HEARTS, "7H", taker=0, dealer=3, rules=PINASCA)
    game.totals = totals
    return game, finish_hand(game)


def test_pinasca_match_target_1500_reached_not_exceeded() -> None:
    # Seed 001: "Le partite si vinceranno all'arrivo ai 1500 punti."; "Scopo del gioco è quello
    # di raggiungere per primi ... il punteggio limite (1500 punti per la versione lunga)."
    assert PINASCA.target_score == 1500 and not PINASCA.target_strict
    game, events = _capot_hand([1248, 700])  # 1248 + 252 = 1500
    assert of_kind(events, MatchOver) == [MatchOver(0, (1500, 700))]
    assert game.is_terminal() and game.winner == 0
    game, events = _capot_hand([1247, 700])  # 1499: not yet
    assert not of_kind(events, MatchOver)
    assert game.phase == Phase.DEAL


def test_the_pinasca_game_score_is_a_rule_read_by_scorekeeper_and_tournament() -> None:
    # Seed 001: "La Squadra B segnerà 1200 punti, la Squadra A segnerà 1500+2000+300 per un
    # totale di 3800 punti".  One home (belote.rules.game_score), so that the scorekeeper
    # does not import the tournament (issue 22, item 5).
    import doctest

    import belote.rules.game_score as rule
    from belote.scorekeeper import sheet
    from belote.tournament import pinasca
    from belote.tournament.formats import pinasca as pinasca_format

    assert rule.game_scores(1500, 1200) == (3800, 1200)
    assert pinasca.game_scores is pinasca_format.game_scores is sheet.game_scores \
        is rule.game_scores
    assert (pinasca.WIN_BONUS, pinasca.TARGET) == (rule.WIN_BONUS, rule.TARGET) == (2000, 1500)
    tested = doctest.testmod(rule)
    assert tested.failed == 0 and tested.attempted > 0
