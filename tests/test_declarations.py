"""Declarations (sequences and carrés), rule by rule (RULES.md "Declarations").

Seed 001 is the Pinasca regulation ("Annunci durante la partita"); seed 000 is the Italian
Wikipedia page: its first part (italian) and "La belote valdostana" ("Gli Accusi (onori)",
"Figure Base", "Figure Beloté").  Each test quotes the sentence it checks.  Seats 0 and 2 are
team 0, seats 1 and 3 team 1.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote.cards import Rank, Suit, cards_in
from belote.notation import parse_cards
from belote.rules.declarations import (
    ALL_TRUMP,
    ITALIAN_DECLARATIONS,
    NO_TRUMP,
    PINASCA_DECLARATIONS,
    VALDOSTANA_DECLARATIONS,
    Declaration,
    DeclarationRules,
    best_declaration,
    comparison_key,
    find_declarations,
    pinasca_key,
    score_declarations,
    sequence_value,
    spoken_name,
    valdostana_valid,
)

PINASCA = PINASCA_DECLARATIONS
ITALIAN = ITALIAN_DECLARATIONS
VALDOSTANA = VALDOSTANA_DECLARATIONS
PRESETS = (PINASCA, ITALIAN, VALDOSTANA)
H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES


def found(text: str, rules: DeclarationRules = PINASCA, trump: int = S) -> list[Declaration]:
    return find_declarations(parse_cards(text), rules, trump)


def names(decls: list[Declaration]) -> list[str]:
    return [d.name for d in decls]


def one(text: str, rules: DeclarationRules = PINASCA, trump: int = S) -> Declaration:
    decls = found(text, rules, trump)
    assert len(decls) == 1, decls
    return decls[0]


def table(*hands: str, rules: DeclarationRules, trump: int) -> list[list[Declaration]]:
    """What each seat 0..3 holds (declares everything it holds)."""
    return [find_declarations(parse_cards(text), rules, trump) for text in hands]


# --- Finding: sequences -----------------------------------------------------------------------


def test_sequence_uses_natural_order_7_8_9_10_j_q_k_a() -> None:
    # 000: "scale di carte dello stesso seme (nell'ordine "normale" delle carte, cioè quello di
    # scala quaranta)"; valdostana: "carte dello stesso colore e contigue in ordine crescente".
    decl = one("9H 10H JH")
    assert (decl.kind, decl.length, decl.top, decl.suit) == ("sequence", 3, Rank.JACK, H)
    assert one("10D JD QD KD").top == Rank.KING
    # The trump order J 9 A is no sequence, and the ace does not wrap round to the 7.
    assert found("JS 9S AS") == []
    assert found("AH 7H 8H") == []
    assert found("7H 9H JH KH") == []


def test_sequence_needs_three_cards_of_one_suit() -> None:
    # 001: "Una scala è una sequenza di almeno tre carte dello stesso seme."
    assert found("QH KH") == []
    assert found("QH KH AD") == []
    assert one("QH KH AH").cards == parse_cards("QH KH AH")


def test_eight_cards_of_one_suit_are_one_sequence_of_eight() -> None:
    # 000: "Nel caso particolare in cui un giocatore dichiari un'"ottava"": one maximal run;
    # reading: it scores the 5+ row, the ottava itself is the engine's business.
    decl = one("7C 8C 9C 10C JC QC KC AC", ITALIAN, trump=H)
    assert (decl.length, decl.top, decl.name, decl.points) == (8, Rank.ACE, "sequence_8", 100)


def test_two_separate_runs_in_one_suit_are_two_sequences() -> None:
    # 001: "Una scala è una sequenza di almeno tre carte": a gap ends the sequence.
    decls = found("7H 8H 9H JH QH KH AH", trump=S)
    assert [(d.length, d.top) for d in decls] == [(4, Rank.ACE), (3, Rank.NINE)]
    assert decls[0].cards | decls[1].cards == parse_cards("7H 8H 9H JH QH KH AH")


def test_sequences_are_maximal_runs() -> None:
    # A run of five is one "Scala di 5", never a tierce and a quarte inside it.
    assert names(found("8D 9D 10D JD QD")) == ["sequence_5"]


# --- Finding: carrés ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
def test_carres_of_sevens_and_eights_do_not_count(rules: DeclarationRules) -> None:
    # 000: "I poker ... ma non valgono quelli di 7 o di 8"; valdostana: "Altre combinazioni sono
    # formate da quattro carte dello stesso valore, con l'esclusione dei sette e otto."
    assert found("7H 7D 7C 7S 8H 8D 8C 8S", rules) == []
    assert rules.carre_points[Rank.SEVEN] == rules.carre_points[Rank.EIGHT] == 0


@pytest.mark.parametrize("rules", PRESETS)
def test_carre_values_jacks_200_nines_150_aces_kings_queens_100(rules: DeclarationRules) -> None:
    # 001: "4 fanti 200 punti / 4 nove 150 punti / 4 assi, 4 re, 4 donne 100 punti";
    # 000: "Poker J 200 punti / Poker 9 150 punti / Poker A, K, Q, 10 100 punti".
    expected = {"J": 200, "9": 150, "A": 100, "K": 100, "Q": 100}
    for code, points in expected.items():
        decl = one(" ".join(code + s for s in "HDCS"), rules)
        assert (decl.kind, decl.name, decl.points, decl.suit) == (
            "carre", f"carre_{code}", points, None)


def test_carre_of_tens_counts_in_italian_and_valdostana_not_in_pinasca() -> None:
    # 000: "Poker A, K, Q, 10 100 punti"; valdostana: "Carré di A - R - Q - 10 100 punti";
    # 001 lists "4 assi, 4 re, 4 donne" and no 10s (RULES.md: flag carre_of_tens).
    tens = "10H 10D 10C 10S"
    assert found(tens, PINASCA) == []
    assert one(tens, ITALIAN).points == one(tens, VALDOSTANA).points == 100
    with_tens = dataclasses.replace(PINASCA, carre_of_tens=True)
    assert one(tens, with_tens).name == "carre_10"


def test_sequence_points_per_length_20_50_100() -> None:
    # 001: "Scala di 3 20 punti / Scala di 4 50 punti / Scala di 5 100 punti";
    # 000: "Terza 20 punti / Quarta 50 punti / Quinta, Sesta, Settima 100 punti";
    # valdostana: "Cento/Cent (5/+ carte) 100 punti".
    for rules in PRESETS:
        assert [sequence_value(n, rules) for n in range(1, 9)] == [0, 0, 20, 50, 100, 100, 100,
                                                                   100]
    assert [one(t, ITALIAN, trump=S).points for t in (
        "7H 8H 9H", "7H 8H 9H 10H", "7H 8H 9H 10H JH", "7H 8H 9H 10H JH QH",
        "7H 8H 9H 10H JH QH KH")] == [20, 50, 100, 100, 100]


def test_default_rules_declare_nothing() -> None:
    # RULES.md: classic has no declarations (seed 002 lists only belote).
    assert found("7H 8H 9H JH JD JC JS", DeclarationRules()) == []


def test_rules_tables_are_checked() -> None:
    with pytest.raises(ValueError):
        DeclarationRules(carre_points=(0, 0, 150))
    with pytest.raises(ValueError):
        DeclarationRules(sequence_points=((4, 50), (3, 20)))


def test_find_declarations_lists_best_first() -> None:
    # 001: "Un gruppo di quattro carte vale sempre più di una scala."
    decls = found("QH QD QC QS 7S 8S 9S 10S", PINASCA, trump=H)
    assert names(decls) == ["carre_Q", "sequence_4"]


def test_card_in_two_reading_lets_a_card_count_twice() -> None:
    # Reading (seeds silent; 000: "I poker sono invece indipendenti"): a card may count in a
    # carré and a sequence.  Flag off: the disjoint choice with the most points.
    hand = "JH JD JC JS 9H 10H QH KH"
    assert names(found(hand, PINASCA)) == ["carre_J", "sequence_5"]
    strict = dataclasses.replace(PINASCA, card_in_two=False)
    decls = found(hand, strict)
    assert names(decls) == ["carre_J"]  # 9 10 and Q K are no sequences without the jack
    hand = "QH QD QC QS 9H 10H JH KH"  # the queen splits 9 10 J Q K: carré 100 + tierce 20
    assert [d.points for d in found(hand, strict, trump=S)] == [100, 20]


# --- Pinasca (seed 001) -------------------------------------------------------------------------


def test_pinasca_carre_beats_any_sequence() -> None:
    # 001: "Un gruppo di quattro carte vale sempre più di una scala."
    seats = table("QH QD QC QS", "10S JS QS KS AS", "", "", rules=PINASCA, trump=S)
    result = score_declarations(seats, PINASCA, trump=S)
    assert result.team_points == (100, 0)
    assert result.winner_team == 0
    assert result.counted[1] == ()


def test_pinasca_carres_by_rank_j_9_a_10_k_q() -> None:
    # 001: "Tra due gruppi, vale di più quello con le carte di valore superiore."
    # (RULES.md: J 9 A 10 K Q; the 10 with the carre_of_tens flag.)
    rules = dataclasses.replace(PINASCA, carre_of_tens=True)
    order = [one(" ".join(code + s for s in "HDCS"), rules) for code in
             ("J", "9", "A", "10", "K", "Q")]
    keys = [pinasca_key(d, S) for d in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 6
    seats = table("AH AD AC AS", "9H 9D 9C 9S", "", "", rules=PINASCA, trump=H)
    assert score_declarations(seats, PINASCA, trump=H).team_points == (0, 150)


def test_pinasca_sequences_by_length_first() -> None:
    # 001: "Nelle scale è decisivo il numero delle carte in esse contenute."
    seats = table("QS KS AS", "7D 8D 9D 10D", "", "", rules=PINASCA, trump=S)
    assert score_declarations(seats, PINASCA, trump=S).team_points == (0, 50)


def test_pinasca_same_length_higher_top_card_wins() -> None:
    # 001: "Se due scale sono formate dallo stesso numero di carte, vale di più la scala di
    # valore superiore."
    seats = table("9S 10S JS", "QD KD AD", "", "", rules=PINASCA, trump=S)
    assert score_declarations(seats, PINASCA, trump=S).team_points == (0, 20)


def test_pinasca_same_length_and_top_trump_suit_wins() -> None:
    # 001: "Se anche il valore è lo stesso, vale di più la scala del seme di briscola."
    seats = table("QH KH AH", "QD KD AD", "", "", rules=PINASCA, trump=D)
    result = score_declarations(seats, PINASCA, trump=D)
    assert result.team_points == (0, 20)
    assert result.winner_team == 1


def test_pinasca_equal_sequences_not_in_trump_nobody_scores() -> None:
    # 001: "In ogni altro caso, le scale non vengono conteggiate."
    seats = table("QH KH AH 7C 8C 9C", "QD KD AD", "", "", rules=PINASCA, trump=S)
    result = score_declarations(seats, PINASCA, trump=S)
    assert result.team_points == (0, 0)
    assert result.winner_team is None
    assert result.counted == ((), (), (), ())


def test_pinasca_best_team_scores_all_its_own_the_other_none() -> None:
    # 001: "ottiene i punti solo la squadra che fa la dichiarazione più alta".
    seats = table("JH JD JC JS", "7S 8S 9S 10S JS", "7H 8H 9H", "QD KD AD", rules=PINASCA,
                  trump=S)
    result = score_declarations(seats, PINASCA, trump=S)
    assert result.team_points == (220, 0)
    assert names(list(result.counted[0])) == ["carre_J"]
    assert names(list(result.counted[2])) == ["sequence_3"]
    assert result.counted[1] == result.counted[3] == ()


def test_pinasca_no_belote_bonus_in_a_sequence() -> None:
    # RULES.md: belote inside a sequence, pinasca: no bonus (the seed names none).
    decl = one("JS QS KS", PINASCA, trump=S)
    assert (decl.points, decl.belote_bonus) == (20, 0)


def test_tie_break_first_flag_gives_a_tie_to_the_first_in_declaring_order() -> None:
    # Reading: seed 001's tie is "nobody" (tie_break="nobody"); the flag gives it to the team of
    # the first player in declaring order that holds an equal best declaration.
    rules = dataclasses.replace(PINASCA, tie_break="first")
    seats = table("QH KH AH", "QD KD AD", "", "", rules=rules, trump=S)
    assert score_declarations(seats, rules, S, first_to_declare=0).team_points == (20, 0)
    assert score_declarations(seats, rules, S, first_to_declare=1).team_points == (0, 20)
    assert score_declarations(seats, rules, S, first_to_declare=3).team_points == (20, 0)


# --- Italian (seed 000, first part) ---------------------------------------------------------------


def test_italian_same_length_sequences_exclude_each_other() -> None:
    # 000: "Dichiarazioni di scale uguali (ad esempio due terze) sono autoescludentisi, e
    # bisogna stabilire chi ha la più alta: si ordinano in base alla carta più alta della scala".
    seats = table("7H 8H 9H", "10D JD QD", "QC KC AC 7S 8S 9S 10S", "", rules=ITALIAN, trump=S)
    result = score_declarations(seats, ITALIAN, trump=S)
    # The tierce to the ace (seat 2) is the only tierce that counts; the quarte has no rival.
    assert result.counted[0] == result.counted[1] == ()
    assert sorted(names(list(result.counted[2]))) == ["sequence_3", "sequence_4"]
    assert result.team_points == (70, 0)


def test_italian_different_lengths_do_not_exclude() -> None:
    # 000: only "scale uguali" exclude each other: a quarta and a terza both count.
    seats = table("7H 8H 9H 10H", "QD KD AD", "", "", rules=ITALIAN, trump=S)
    assert score_declarations(seats, ITALIAN, trump=S).team_points == (50, 20)


def test_italian_carres_never_exclude() -> None:
    # 000: "I poker sono invece indipendenti e non si escludono a vicenda".
    seats = table("JH JD JC JS", "AH AD AC AS", "9H 9D 9C 9S", "7S 8S 9S", rules=ITALIAN,
                  trump=H)
    result = score_declarations(seats, ITALIAN, trump=H)
    assert result.team_points == (350, 120)
    assert result.winner_team == 0


def test_italian_same_length_and_top_trump_suit_wins() -> None:
    # 000: "a parità di scala, in base al seme, tenendo conto che vince sempre il seme della
    # briscola scelta in quella mano ("la terza", quella più alta, è quindi AKQ del seme di
    # briscola)".
    seats = table("QH KH AH", "QS KS AS", "", "", rules=ITALIAN, trump=S)
    assert score_declarations(seats, ITALIAN, trump=S).team_points == (0, 20)


def test_italian_suit_order_breaks_ties_outside_trump() -> None:
    # Reading of "a parità di scala, in base al seme": hearts > diamonds > clubs > spades
    # ("Come Quando Fuori Piove", the order 000 gives for the belote in tutte).
    seats = table("QC KC AC", "QD KD AD", "", "", rules=ITALIAN, trump=S)
    assert score_declarations(seats, ITALIAN, trump=S).team_points == (0, 20)
    for trump in (NO_TRUMP, ALL_TRUMP):
        seats = table("QH KH AH", "QD KD AD", "", "", rules=ITALIAN, trump=trump)
        assert score_declarations(seats, ITALIAN, trump=trump).team_points == (20, 0)


def test_italian_same_length_scope_team_flag() -> None:
    # Reading: "chi ha la più alta" keeps one sequence of each length (scope "table"); with
    # scope "team" the team holding the best keeps all of its sequences of that length.
    seats = table("QH KH AH", "QD KD AD", "7C 8C 9C", "", rules=ITALIAN, trump=S)
    assert score_declarations(seats, ITALIAN, trump=S).team_points == (20, 0)
    team = dataclasses.replace(ITALIAN, same_length_scope="team")
    assert score_declarations(seats, team, trump=S).team_points == (40, 0)


# --- Valdostana (seed 000, "La belote valdostana") ---------------------------------------------


def test_valdostana_belote_in_sequence_tiers_40_cinquante_70_cent_120() -> None:
    # "tiers beloté ARD - RDF 20 + 20 40 / cinquante beloté ARDF - RDF10 50 + 20 70 /
    # cent beloté ARDF10 - RDF10 9 100 + 20 120".
    for text, points in (("AH KH QH", 40), ("KH QH JH", 40), ("AH KH QH JH", 70),
                         ("KH QH JH 10H", 70), ("AH KH QH JH 10H", 120),
                         ("KH QH JH 10H 9H", 120)):
        decl = one(text, VALDOSTANA, trump=H)
        assert (decl.points, decl.belote_bonus, decl.base_points) == (
            points, 20, points - 20), text


def test_valdostana_belote_only_with_king_and_queen_of_trump() -> None:
    # "Belote - ... si compone di due carte del colore di atout: Donna (D) e Re (R)".
    assert one("AH KH QH", VALDOSTANA, trump=S).points == 20  # not trump
    assert one("9H 10H JH QH", VALDOSTANA, trump=H).points == 50  # no king
    assert one("AH KH QH", VALDOSTANA, trump=ALL_TRUMP).points == 40  # every suit is trump
    assert one("AH KH QH", VALDOSTANA, trump=NO_TRUMP).points == 20


def test_valdostana_higher_cards_win() -> None:
    # "esiste una gerarchia fra le varie figure, quella con le carte più alte è vincente sulle
    # altre": reading, first by the figure's value, then by the highest card.
    seats = table("JD QD KD", "QC KC AC", "", "", rules=VALDOSTANA, trump=S)
    assert score_declarations(seats, VALDOSTANA, trump=S).team_points == (0, 20)
    seats = table("7D 8D 9D 10D", "QC KC AC", "", "", rules=VALDOSTANA, trump=S)
    assert score_declarations(seats, VALDOSTANA, trump=S).team_points == (50, 0)
    # A carré of aces (100) against a cent to the king (100): the ace is the higher card.
    seats = table("AH AD AC AS", "9S 10S JS QS KS", "", "", rules=VALDOSTANA, trump=H)
    assert score_declarations(seats, VALDOSTANA, trump=H).team_points == (100, 0)


def test_valdostana_equal_cards_trump_wins() -> None:
    # "però, a parità di carte, il colore di atout è sempre vincente".
    seats = table("9C 10C JC", "9S 10S JS", "", "", rules=VALDOSTANA, trump=S)
    result = score_declarations(seats, VALDOSTANA, trump=S)
    assert (result.team_points, result.winner_team) == ((0, 20), 1)
    # Neither in trump: nobody (reading, as seed 001).
    seats = table("9C 10C JC", "9D 10D JD", "", "", rules=VALDOSTANA, trump=H)
    assert score_declarations(seats, VALDOSTANA, trump=H).team_points == (0, 0)


def test_valdostana_best_line_takes_all_including_undeclared_lower_ones() -> None:
    # "Al termine del primo giro, si decide quale accuso è di maggior valore.  Ora, tutti gli
    # accusi della Linea ..., anche quelli di minor valore e non dichiarati, sono validi e danno
    # diritto ai bonus (punti extra) di competenza: quelli avversari diventano nulli!"
    hands = ("7H 8H 9H 10H JD QD KD", "9S 10S JS", "7C 8C 9C", "QH KH AH")
    holdings = table(*hands, rules=VALDOSTANA, trump=S)
    # "dichiarerà soltanto quella di maggior peso": each seat announces its best by name.
    declared: list[list[Declaration]] = []
    held: list[list[Declaration]] = []
    for decls in holdings:
        best = best_declaration(decls, VALDOSTANA, S)
        assert best is not None
        declared.append([best])
        held.append(valdostana_valid(best.name, decls))
    assert names(declared[0]) == ["sequence_4"]
    result = score_declarations(declared, VALDOSTANA, trump=S, held=held)
    # Team 0: the cinquante, seat 0's undeclared tierce and seat 2's tierce; team 1 nothing,
    # though its tierce is in trump.
    assert result.team_points == (50 + 20 + 20, 0)
    assert result.winner_team == 0
    assert names(list(result.counted[0])) == ["sequence_4", "sequence_3"]
    assert result.counted[1] == result.counted[3] == ()
    # Without ``held`` only what was declared counts.
    assert score_declarations(declared, VALDOSTANA, trump=S).team_points == (70, 0)


def test_valdostana_undeclared_lower_ones_count_for_the_winning_line() -> None:
    # "anche quelli di minor valore e non dichiarati, sono validi": seat 0 announced its carré
    # of jacks only; its lower tierce counts too.
    mine = find_declarations(parse_cards("JH JD JC JS 7S 8S 9S"), VALDOSTANA, H)
    declared = [[mine[0]], [], [], []]
    held = [valdostana_valid("carre_J", mine), [], [], []]
    result = score_declarations(declared, VALDOSTANA, trump=H, held=held)
    assert result.team_points == (220, 0)


def test_valdostana_announcing_a_lower_one_voids_the_higher() -> None:
    # "l'accuso di una combinazione di valore +basso rende nulla quella di valore +alto
    # eventualmente posseduta".
    held = find_declarations(parse_cards("JH JD JC JS 7S 8S 9S"), VALDOSTANA, H)
    assert names(held) == ["carre_J", "sequence_3"]
    assert names(valdostana_valid("sequence_3", held)) == ["sequence_3"]
    assert names(valdostana_valid("carre_J", held)) == ["carre_J", "sequence_3"]
    # "valore" is the table value (reading): a cent does not void a carré of aces (both 100).
    held = find_declarations(parse_cards("AH AD AC AS 10S JS QS KS"), VALDOSTANA, H)
    assert names(valdostana_valid("sequence_5", held)) == ["carre_A", "sequence_5"]


def test_valdostana_spoken_names_tierce_cinquante_cent_carre() -> None:
    # "Gli accusi devono essere annunciati, col loro nome ma senza specificare il colore";
    # "Terzo/Tiers/Tierce (3 carte) / Cinquanta/Cinquante (4 carte) / Cento/Cent (5/+ carte)".
    held = find_declarations(parse_cards("JH JD JC JS 7S 8S 9S 10S"), VALDOSTANA, H)
    assert [spoken_name(d) for d in held] == ["carre", "cent"]
    assert spoken_name(one("7C 8C 9C", VALDOSTANA)) == "tierce"
    assert spoken_name(one("7C 8C 9C 10C JC QC", VALDOSTANA)) == "cent"
    assert names(valdostana_valid("cent", held)) == ["sequence_5"]
    assert names(valdostana_valid("carre", held)) == ["carre_J", "sequence_5"]
    assert valdostana_valid("tierce", held) == []


def test_valdostana_late_or_false_announcement_is_void() -> None:
    # "un accuso non dichiarato nel proprio turno, ovvero prima che la carta avversaria abbia
    # coperto la carta giocata, è NULLO".
    held = find_declarations(parse_cards("7S 8S 9S"), VALDOSTANA, H)
    assert valdostana_valid(None, held) == []
    assert valdostana_valid("carre_J", held) == []  # not held: nothing valid (reading)


def test_valdostana_announces_only_its_best_by_name() -> None:
    # "Il giocatore che possiede più combinazioni (es. una tiers e un cinquante) dichiarerà
    # soltanto quella di maggior peso (nell'es. sarà il cinquante)."
    assert VALDOSTANA.name_only
    held = find_declarations(parse_cards("7S 8S 9S 10S QH KH AH"), VALDOSTANA, H)
    best = best_declaration(held, VALDOSTANA, H)
    assert best is not None and best.name == "sequence_4"


def test_valdostana_declarations_to_contract_flag() -> None:
    # Reading of "tutti gli accusi della Linea del giocatore che si è aggiudicato il contratto":
    # "best" (the line of the best accuso); the flag "contract" takes the words literally.
    seats = table("7H 8H 9H", "JS JD JC JH", "", "", rules=VALDOSTANA, trump=S)
    assert score_declarations(seats, VALDOSTANA, trump=S).team_points == (0, 200)
    literal = dataclasses.replace(VALDOSTANA, declarations_to="contract")
    assert score_declarations(seats, literal, S, taker_team=0).team_points == (20, 0)
    with pytest.raises(ValueError):
        score_declarations(seats, literal, S)


def test_score_needs_one_entry_per_seat_of_two_three_or_four() -> None:
    # Seed 000: "a tre o addirittura a due": 2 and 3 seats are tables too, 1 or 5 are not.
    for seats in (1, 5):
        with pytest.raises(ValueError):
            score_declarations([[]] * seats, PINASCA, S)
    assert score_declarations([[], [], []], PINASCA, S).team_points == (0, 0, 0)


def test_comparison_key_dispatches_on_policy() -> None:
    decl = one("QH KH AH", VALDOSTANA, trump=H)
    assert comparison_key(decl, VALDOSTANA, H) == (20, Rank.ACE, 1)
    assert comparison_key(decl, PINASCA, H) == pinasca_key(decl, H)


# --- Properties ---------------------------------------------------------------------------------

hands = st.integers(min_value=0, max_value=(1 << 32) - 1)
eight_card_hands = st.lists(
    st.integers(min_value=0, max_value=31), min_size=8, max_size=8, unique=True
).map(lambda cards: sum(1 << c for c in cards))
rule_sets = st.sampled_from(PRESETS).flatmap(
    lambda r: st.builds(dataclasses.replace, st.just(r), card_in_two=st.booleans())
)
trumps = st.integers(min_value=0, max_value=5)


@given(hand=st.one_of(hands, eight_card_hands), rules=rule_sets, trump=trumps)
def test_property_declarations_use_cards_of_the_hand(
    hand: int, rules: DeclarationRules, trump: int
) -> None:
    for decl in find_declarations(hand, rules, trump):
        assert decl.cards & ~hand == 0
        assert decl.cards.bit_count() == decl.length


@given(hand=st.one_of(hands, eight_card_hands), rules=rule_sets, trump=trumps)
def test_property_declarations_are_disjoint_without_card_in_two(
    hand: int, rules: DeclarationRules, trump: int
) -> None:
    decls = find_declarations(hand, dataclasses.replace(rules, card_in_two=False), trump)
    used = 0
    for decl in decls:
        assert decl.cards & used == 0
        used |= decl.cards


@given(hand=st.one_of(hands, eight_card_hands), rules=rule_sets, trump=trumps)
def test_property_points_match_the_tables(hand: int, rules: DeclarationRules, trump: int) -> None:
    for decl in find_declarations(hand, rules, trump):
        if decl.kind == "carre":
            assert decl.points == rules.carre_points[decl.top] > 0
            assert decl.top not in (Rank.SEVEN, Rank.EIGHT)
            assert rules.carre_of_tens or decl.top != Rank.TEN
            continue
        assert decl.suit is not None
        ranks = {c & 7 for c in cards_in(decl.cards)}
        assert ranks == set(range(decl.top - decl.length + 1, decl.top + 1))
        assert {c >> 3 for c in cards_in(decl.cards)} == {decl.suit}
        belote = {Rank.QUEEN, Rank.KING} <= ranks and trump in (decl.suit, ALL_TRUMP)
        expected = sequence_value(decl.length, rules)
        assert decl.base_points == expected > 0
        assert decl.belote_bonus == (rules.belote_in_sequence_bonus if belote else 0)
        if rules.card_in_two:  # maximal: the cards on either side are not in the hand
            below, above = decl.top - decl.length, decl.top + 1
            for rank in (below, above):
                if 0 <= rank < 8:
                    assert not hand >> (8 * decl.suit + rank) & 1


@given(
    seats=st.lists(eight_card_hands, min_size=4, max_size=4),
    rules=rule_sets,
    trump=trumps,
    first=st.integers(min_value=0, max_value=3),
)
def test_property_scores_add_up_and_only_declared_ones_count(
    seats: list[int], rules: DeclarationRules, trump: int, first: int
) -> None:
    declared = [find_declarations(hand, rules, trump) for hand in seats]
    result = score_declarations(declared, rules, trump, first)
    for team in (0, 1):
        assert result.team_points[team] == sum(
            d.points for seat in (team, team + 2) for d in result.counted[seat])
    for seat in range(4):
        assert set(result.counted[seat]) <= set(declared[seat])
    if rules.policy != "same_length":  # best team policies: at most one team scores
        assert 0 in result.team_points


def test_italian_suit_order_tie_break_is_a_switchable_reading() -> None:
    # RULES.md (italian): "same length: higher top card, then trump suit, then hearts >
    # diamonds > clubs > spades (reading)".
    import dataclasses

    from belote.rules.declarations import ITALIAN_DECLARATIONS, score_declarations

    hearts = find_declarations(parse_cards("7H 8H 9H"), ITALIAN_DECLARATIONS, 3)
    diamonds = find_declarations(parse_cards("7D 8D 9D"), ITALIAN_DECLARATIONS, 3)
    declared = [hearts, diamonds, [], []]
    by_suit = score_declarations(declared, ITALIAN_DECLARATIONS, 3)
    assert by_suit.team_points == (20, 0)
    no_order = dataclasses.replace(ITALIAN_DECLARATIONS, suit_order_breaks_ties=False)
    tied = score_declarations(declared, no_order, 3)
    assert tied.team_points == (0, 0)
