"""The seeds' worked figures and ``score_hand`` tables for every preset (RULES.md "Scoring a
hand").

Seed 000 is the Italian Wikipedia page (its first part: italian; "La belote valdostana"), seed
001 the Pinasca regulation, seed 002 the Spanish rules page (classic).  Pairs are per team:
team 0 is seats 0 and 2, team 1 seats 1 and 3; unless a row says otherwise team 0 took.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import CLASSIC, deck_for, of_kind
from hypothesis import given
from hypothesis import strategies as st
from variant_helpers import (
    COINCHE,
    ITALIAN,
    PINASCA,
    VALDOSTANA,
    finish_hand,
    italian_in_play,
    outcome,
    scored,
)

from belote.cards import Suit
from belote.engine import actions as A
from belote.engine.events import ALL_TRUMP, NO_TRUMP, TrickWon
from belote.engine.scoring import HandFacts, Pot, score_hand
from belote.engine.state import Game, Phase
from belote.engine.tricks import CARD_POINTS
from belote.rules import PRESETS, Rules

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES
SUIT_LETTERS = "HDCS"


# ---------------------------------------------------------------------------- worked figures


def test_senza_30x4_plus_10_doubled_is_260() -> None:
    # Seed 000: "La dichiarazione più alta è senza briscole e il punteggio in questo caso è
    # 30x4 (i quattro semi) + 10 per l'ultima mano, il tutto moltiplicato per due. In totale
    # 260 punti".
    for suit in range(4):
        assert sum(CARD_POINTS[NO_TRUMP][8 * suit:8 * suit + 8]) == 30
    assert sum(CARD_POINTS[NO_TRUMP]) + ITALIAN.last_trick_bonus == 130
    assert ITALIAN.senza_multiplier == 2
    result = outcome(ITALIAN, (70, 60), trump=NO_TRUMP)
    assert result.card_points == (140, 120) and sum(result.card_points) == 260
    assert (result.outcome, result.scores) == ("made", (140, 120))


def test_senza_played_hand_card_points_130_doubled_260() -> None:
    # Seed 000 (the same sentence), through a played senza hand.
    hands = {0: "7D 10S KH QH 9C 8C 7C AD", 1: "JS 9S AH 10H 8D 9D 10D JD"}
    game, _ = italian_in_play(hands, "7D", taker=0, call=A.SENZA)
    events = finish_hand(game)
    assert sum(e.points for e in of_kind(events, TrickWon)) == 130
    result = scored(events)
    assert result.capot_team is None and sum(result.card_points) == 260


@pytest.mark.parametrize("trump", [H, D, C, S])
def test_one_trump_152_plus_10_is_162(trump: int) -> None:
    # Seed 000 (valdostana): "i Punti disponibili sono 152: [(30 punti x 3 semi) + (62 punti
    # del seme di atout) = ... 152]"; seed 002: "Una mano cuenta siempre exactamente 162
    # puntos."
    assert sum(CARD_POINTS[trump][8 * trump:8 * trump + 8]) == 62
    assert sum(CARD_POINTS[trump]) == 152


def test_tutte_4x62_plus_10_is_258() -> None:
    # RULES.md: "tutte (italian): trump ranking and points for every suit ...; 4 x 62 + 10 =
    # 258".
    assert sum(CARD_POINTS[ALL_TRUMP]) + ITALIAN.last_trick_bonus == 4 * 62 + 10 == 258


@pytest.mark.parametrize("rules", [CLASSIC, PINASCA, ITALIAN], ids=lambda r: r.name)
@pytest.mark.parametrize("trump", [H, D, C, S])
def test_played_hand_totals_162_in_every_trump_suit(rules: Rules, trump: int) -> None:
    # Seed 002: "La última baza vale 10 puntos adicionales (10 de der). Una mano cuenta siempre
    # exactamente 162 puntos."  Seed 000: "La somma totale dei punti è 152 più 10 punti per la
    # squadra che si aggiudica l'ultima mano".
    letter = SUIT_LETTERS[trump]
    others = [x for x in SUIT_LETTERS if x != letter]
    hand = [f"7{letter}", f"Q{others[0]}"] + [f"{r}{x}" for r in "AK" for x in others]
    game = Game(rules, first_dealer=3)
    game.deal(deck_for({0: " ".join(hand)}, f"7{letter}", 3, 0))
    game.apply(A.TAKE)
    events = finish_hand(game)
    assert sum(e.points for e in of_kind(events, TrickWon)) == 162
    result = scored(events)
    assert sum(result.card_points) == (252 if result.capot_team is not None else 162)


def test_played_tutte_hand_totals_258() -> None:
    # RULES.md: "tutte: ... 4 x 62 + 10 = 258".
    game, _ = italian_in_play({0: "AS 7D KH QH 9C 8C 7C AD"}, "7D", taker=0, call=A.TUTTE)
    events = finish_hand(game)
    assert sum(e.points for e in of_kind(events, TrickWon)) == 258


def test_belote_raises_162_to_182_italian_takers_need_more_than_91() -> None:
    # Seed 000: "il 'Belot e Rebelot' alza il punteggio totale a 182 punti, ma in questo caso
    # chi 'manda' è tenuto a farne più di 91 (anziché 81)."
    for takers in range(60, 110):
        result = outcome(ITALIAN, (takers, 162 - takers), belote=(0, 20))
        expected = "made" if takers > 91 else "litige" if takers == 91 else "failed"
        assert result.outcome == expected, takers
    for takers in range(50, 100):  # the takers' own belote: more than 91 of 182 with it
        result = outcome(ITALIAN, (takers, 162 - takers), belote=(20, 0))
        total = takers + 20
        expected = "made" if total > 91 else "litige" if total == 91 else "failed"
        assert result.outcome == expected, takers


def test_classic_belote_saves_a_contract() -> None:
    # Seed 002: "Los 20 puntos de belote y rebelote se contabilizan en cualquier caso para el
    # equipo que los ha realizado ... Permiten salvarse de una caída o de un empate y nunca se
    # vuelven a poner en juego."
    assert outcome(CLASSIC, (81, 81)).outcome == "litige"
    assert outcome(CLASSIC, (81, 81), belote=(20, 0)).scores == (101, 81)
    failed = outcome(CLASSIC, (70, 92), belote=(20, 0))
    assert (failed.outcome, failed.scores) == ("failed", (20, 162))


# ---------------------------------------------------------------------------- tables

# (preset, card points, keyword facts, outcome, scores, pot points): each row quotes its rule.
TABLE: list[tuple[Rules, tuple[int, int], dict[str, Any], str, tuple[int, int], int]] = [
    # classic, seed 002: "al menos 82 puntos ... y ha hecho más puntos que el equipo contrario"
    (CLASSIC, (100, 62), {}, "made", (100, 62), 0),
    (CLASSIC, (82, 80), {}, "made", (82, 80), 0),
    # "el equipo que no ha tomado marca en este caso la totalidad de los puntos, es decir, 162"
    (CLASSIC, (80, 82), {}, "failed", (0, 162), 0),
    # "Los dos equipos han obtenido exactamente el mismo número de puntos ... (caso común: 81)"
    (CLASSIC, (81, 81), {}, "litige", (0, 81), 81),
    # "El match también llamado capote ... da una bonificación de 90 puntos, es decir, 252"
    (CLASSIC, (162, 0), {}, "made", (252, 0), 0),
    (CLASSIC, (0, 162), {}, "failed", (0, 252), 0),
    (CLASSIC, (70, 92), {"belote": (0, 20)}, "failed", (0, 182), 0),
    # pinasca, seed 001: "I punti delle prese e delle dichiarazioni (o annunci) vengono sommati"
    (PINASCA, (75, 87), {"declarations": (20, 0)}, "made", (95, 87), 0),
    (PINASCA, (90, 72), {"declarations": (0, 50)}, "failed", (0, 212), 0),
    # "si vede assegnare tutti i punti delle prese e i punti di tutte le dichiarazioni"
    (PINASCA, (60, 102), {"declarations": (20, 0), "belote": (20, 0)}, "failed", (0, 202), 0),
    (PINASCA, (81, 81), {}, "litige", (0, 81), 81),
    (PINASCA, (162, 0), {}, "made", (252, 0), 0),
    # italian, seed 000: "deve farne più della metà"
    (ITALIAN, (82, 80), {}, "made", (82, 80), 0),
    (ITALIAN, (81, 81), {}, "litige", (0, 81), 81),
    (ITALIAN, (92, 70), {"belote": (0, 20)}, "made", (92, 90), 0),
    # "pena il punteggio pieno per la squadra avversaria, comprese le scale e i poker"
    (ITALIAN, (80, 82), {"declarations": (100, 0)}, "failed", (0, 262), 0),
    (ITALIAN, (70, 60), {"trump": NO_TRUMP}, "made", (140, 120), 0),
    (ITALIAN, (60, 70), {"trump": NO_TRUMP}, "failed", (0, 260), 0),
    (ITALIAN, (130, 128), {"trump": ALL_TRUMP}, "made", (130, 128), 0),
    # "gli avversari potrebbero quindi aver preso una o più mani senza punti"
    (ITALIAN, (162, 0), {"tricks_won": (6, 2)}, "made", (252, 0), 0),
    # valdostana, seed 000: "Punti Linea ... Punti Mano, i Punti Accusi validi, Punti Belote"
    (VALDOSTANA, (95, 67), {"declarations": (20, 0), "level": 102}, "made", (115, 67), 0),
    (VALDOSTANA, (95, 67), {"declarations": (20, 0), "level": 122}, "failed", (0, 162), 0),
    (VALDOSTANA, (100, 62), {"declarations": (20, 0), "level": 102, "multiplier": 2,
                             "last_caller_team": 1}, "made", (364, 0), 0),
    (VALDOSTANA, (80, 82), {"level": 82, "multiplier": 4, "last_caller_team": 0},
     "failed", (0, 648), 0),
    (VALDOSTANA, (162, 0), {"level": 252}, "made", (252, 0), 0),
    # coinche, RULES.md: "contract + own points"; "defenders 160 + contract"
    (COINCHE, (110, 52), {"level": 100}, "made", (210, 52), 0),
    (COINCHE, (90, 72), {"level": 100}, "failed", (0, 260), 0),
    (COINCHE, (110, 52), {"level": 100, "multiplier": 2, "last_caller_team": 1},
     "made", (310, 52), 0),
    (COINCHE, (162, 0), {"level": 250, "capot_contract": True}, "made", (502, 0), 0),
]


@pytest.mark.parametrize(
    ("rules", "card_points", "facts", "expected", "scores", "pot"),
    TABLE,
    ids=[f"{row[0].name}-{i}" for i, row in enumerate(TABLE)],
)
def test_score_hand_table(
    rules: Rules,
    card_points: tuple[int, int],
    facts: dict[str, Any],
    expected: str,
    scores: tuple[int, int],
    pot: int,
) -> None:
    result = outcome(rules, card_points, **facts)
    assert (result.outcome, result.scores, result.pot.points) == (expected, scores, pot)


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=list(PRESETS))
@given(
    takers=st.integers(0, 162),
    taker_team=st.integers(0, 1),
    belote=st.sampled_from([(0, 0), (20, 0), (0, 20)]),
    declarations=st.sampled_from([(0, 0), (20, 0), (0, 50), (100, 0)]),
    level_index=st.integers(0, 8),
)
def test_property_scores_never_negative_and_a_failed_taker_keeps_at_most_its_belote(
    rules: Rules,
    takers: int,
    taker_team: int,
    belote: tuple[int, int],
    declarations: tuple[int, int],
    level_index: int,
) -> None:
    # RULES.md "failed": the takers score 0 (classic and coinche: "+ their belote").
    points = (takers, 162 - takers) if taker_team == 0 else (162 - takers, takers)
    if rules.declarations is None:
        declarations = (0, 0)
    level = rules.auction.levels[level_index] if rules.auction else 0
    result = outcome(rules, points, taker_team, belote=belote, declarations=declarations,
                     level=level)
    assert result.outcome in ("made", "failed", "litige")
    assert min(result.scores) >= 0
    if result.outcome == "failed":
        assert result.scores[taker_team] <= belote[taker_team]
    if result.outcome == "litige":
        assert result.pot.team == taker_team and result.pot.points > 0
    # Nothing is created or lost when the hand is not multiplied and no pot is involved
    # (the coinche contract and a litige's frozen points aside).
    if result.outcome == "made" and not rules.made_adds_contract:
        assert sum(result.scores) == sum(result.card_points) + sum(belote) + sum(declarations)


def test_pot_of_an_earlier_tie_goes_to_the_winner_of_the_next_hand() -> None:
    # Seed 002: "los puntos del equipo atacante se vuelven a poner en juego; serán recuperados
    # por el equipo que gane la siguiente mano."
    for rules in PRESETS.values():
        facts = HandFacts(taker_team=1, trump=H, card_points=(62, 100), tricks_won=(4, 4),
                          belote=(0, 0), level=100 if rules.auction else 0)
        result = score_hand(rules, facts, Pot(81, 0))
        assert (result.outcome, result.pot_winner, result.pot_won) == ("made", 1, 81), rules.name
        assert result.scores[1] - 81 == (100 + (100 if rules.made_adds_contract else 0))


def test_match_phase_after_a_scored_hand() -> None:
    # RULES.md: "Dealer rotates one seat each hand".
    game, _ = italian_in_play({0: "AS 7D KH QH 9C 8C 7C AD"}, "7D", taker=0, call=A.TUTTE)
    finish_hand(game)
    assert game.phase == Phase.DEAL and game.dealer == 0
